// The heightmap formats of `perlin render`: RAW 16-bit (the PNG-16's samples, little-endian),
// float TIFF (read back with libtiff: the .npy's values bit for bit; volumes as pages), 16-bit
// TIFF, and OpenEXR (read back with OpenEXR: Y equals the .npy, RGB equals the PNG / 255);
// every combination a format cannot hold is refused, leaving no file.
#include <ImfArray.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <gtest/gtest.h>
#include <tiffio.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"
#include "perlin/tiff_writer.hpp"

namespace {

namespace fs = std::filesystem;
using perlin_test::npy_values;
using perlin_test::q;
using perlin_test::run_perlin;
using perlin_test::slurp;
using perlin_test::temp_dir;

/// Every page of a TIFF, read with libtiff, as raw sample bytes; checks the sample layout.
std::vector<std::vector<std::uint8_t>> tiff_pages(const fs::path& p, int bits, int format,
                                                  std::uint32_t w, std::uint32_t h) {
  TIFF* t = TIFFOpen(p.c_str(), "r");
  EXPECT_NE(t, nullptr);
  std::vector<std::vector<std::uint8_t>> pages;
  if (t == nullptr) return pages;
  do {
    std::uint32_t width = 0, height = 0;
    std::uint16_t bps = 0, spp = 0, sf = 0;
    TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(t, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetField(t, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetField(t, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetField(t, TIFFTAG_SAMPLEFORMAT, &sf);
    EXPECT_EQ(width, w);
    EXPECT_EQ(height, h);
    EXPECT_EQ(bps, bits);
    EXPECT_EQ(spp, 1);
    EXPECT_EQ(sf, format);
    std::vector<std::uint8_t> page(static_cast<std::size_t>(TIFFScanlineSize(t)) * height);
    for (std::uint32_t r = 0; r < height; ++r) {
      TIFFReadScanline(t, page.data() + r * static_cast<std::size_t>(TIFFScanlineSize(t)), r, 0);
    }
    pages.push_back(std::move(page));
  } while (TIFFReadDirectory(t));
  TIFFClose(t);
  return pages;
}

TEST(CliFormats, RawIsThePng16SamplesLittleEndian) {
  const temp_dir d;
  const std::string args = " --preset terrain --size 65x33";
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "h.png") + args + " --bits 16").status, 0);
  for (const char* name : {"h.r16", "h.RAW"}) {
    ASSERT_EQ(run_perlin("render -q -o " + q(d.path / name) + args).status, 0) << name;
    const std::string raw = slurp(d.path / name);
    const auto png = perlin::read_png(d.path / "h.png");
    ASSERT_EQ(raw.size(), 65u * 33 * 2);
    for (std::size_t i = 0; i < 65 * 33; ++i) {
      std::uint16_t s;
      std::memcpy(&s, png.data.data() + 2 * i, 2);
      ASSERT_EQ(static_cast<unsigned char>(raw[2 * i]) | static_cast<unsigned char>(raw[2 * i + 1])
                                                             << 8,
                s)
          << i;
    }
  }
}

TEST(CliFormats, FloatTiffIsTheNpyAndVolumesArePages) {
  const temp_dir d;
  for (const std::string depth : {"", " --depth 3"}) {
    const std::string args = " --preset clouds --size 40x30 --seed 5" + depth;
    ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "v.npy") + args).status, 0);
    ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "v.tif") + args).status, 0);
    const auto want = npy_values(d.path / "v.npy");
    const auto pages = tiff_pages(d.path / "v.tif", 32, SAMPLEFORMAT_IEEEFP, 40, 30);
    ASSERT_EQ(pages.size(), depth.empty() ? 1u : 3u);
    std::vector<float> got;
    for (const auto& p : pages) {
      const std::size_t at = got.size();
      got.resize(at + p.size() / 4);
      std::memcpy(got.data() + at, p.data(), p.size());
    }
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * 4), 0) << depth;
  }
  // 16-bit: the PNG-16's samples.
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "g.tiff") + " --size 40x30 --bits 16").status,
            0);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "g.png") + " --size 40x30 --bits 16").status,
            0);
  const auto page = tiff_pages(d.path / "g.tiff", 16, SAMPLEFORMAT_UINT, 40, 30).at(0);
  EXPECT_EQ(std::memcmp(page.data(), perlin::read_png(d.path / "g.png").data.data(), page.size()),
            0);
}

TEST(CliFormats, ExrHoldsTheValuesOrTheColours) {
  const temp_dir d;
  const std::string args = " --preset ridges --size 37x23";
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "v.npy") + args).status, 0);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "v.exr") + args).status, 0);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "c.exr") + args + " --colormap heat").status,
            0);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "c.png") + args + " --colormap heat").status,
            0);
  const auto want = npy_values(d.path / "v.npy");
  {
    Imf::InputFile in((d.path / "v.exr").c_str());
    const auto dw = in.header().dataWindow();
    ASSERT_EQ(dw.max.x - dw.min.x + 1, 37);
    ASSERT_EQ(dw.max.y - dw.min.y + 1, 23);
    ASSERT_NE(in.header().channels().findChannel("Y"), nullptr);
    std::vector<float> y(37 * 23);
    Imf::FrameBuffer fb;
    fb.insert("Y", Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(y.data()), sizeof(float),
                              sizeof(float) * 37));
    in.setFrameBuffer(fb);
    in.readPixels(dw.min.y, dw.max.y);
    EXPECT_EQ(std::memcmp(y.data(), want.data(), want.size() * 4), 0);
  }
  {
    Imf::InputFile in((d.path / "c.exr").c_str());
    std::vector<float> rgb(37 * 23 * 3);
    Imf::FrameBuffer fb;
    const char* names[3] = {"R", "G", "B"};
    for (int c = 0; c < 3; ++c) {
      fb.insert(names[c], Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(rgb.data() + c),
                                     3 * sizeof(float), 3 * sizeof(float) * 37));
    }
    in.setFrameBuffer(fb);
    in.readPixels(0, 22);
    const auto png = perlin::read_png(d.path / "c.png");
    for (std::size_t i = 0; i < rgb.size(); ++i)
      ASSERT_FLOAT_EQ(rgb[i] * 255.0f, float(png.data[i])) << i;
  }
}

TEST(CliFormats, ExrNormalMapsHoldTheUnitNormalsOfThePngs) {
  // A float EXR normal map: R, G, B the unit normal in [-1, 1] (G up for OpenGL), the 16-bit
  // PNG's normals before they are mapped to [0, 65535].
  const temp_dir d;
  const std::string args = " --preset terrain --size 41x19 --normals opengl --height-scale 0.6";
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "n.exr") + args).status, 0);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "n.png") + args + " --bits 16").status, 0);
  Imf::InputFile in((d.path / "n.exr").c_str());
  std::vector<float> rgb(41 * 19 * 3);
  Imf::FrameBuffer fb;
  const char* names[3] = {"R", "G", "B"};
  for (int c = 0; c < 3; ++c) {
    fb.insert(names[c], Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(rgb.data() + c),
                                   3 * sizeof(float), 3 * sizeof(float) * 41));
  }
  in.setFrameBuffer(fb);
  in.readPixels(0, 18);
  const auto png = perlin::read_png(d.path / "n.png");
  ASSERT_EQ(png.bit_depth, 16);
  double tilted = 0;
  for (std::size_t i = 0; i < 41 * 19; ++i) {
    const double len =
        std::sqrt(double(rgb[3 * i]) * rgb[3 * i] + double(rgb[3 * i + 1]) * rgb[3 * i + 1] +
                  double(rgb[3 * i + 2]) * rgb[3 * i + 2]);
    ASSERT_NEAR(len, 1.0, 1e-6) << i;
    ASSERT_GT(rgb[3 * i + 2], 0.0f) << i;
    tilted = std::max(tilted, 1.0 - double(rgb[3 * i + 2]));
    for (std::size_t k = 0; k < 3; ++k) {
      std::uint16_t v;
      std::memcpy(&v, png.data.data() + 2 * (3 * i + k), 2);
      ASSERT_NEAR((double(rgb[3 * i + k]) + 1) / 2 * 65535, double(v), 0.51) << i << " " << k;
    }
  }
  EXPECT_GT(tilted, 0.05);  // the terrain has slopes
}

TEST(CliFormats, WhatAFormatCannotHoldIsRefused) {
  const temp_dir d;
  const struct {
    std::string args;
    const char* message;
  } cases[] = {
      {"-o " + q(d.path / "a.r16") + " --colormap heat", "RAW heightmap is one grey channel"},
      {"-o " + q(d.path / "a.raw") + " --bits 8", "RAW heightmap is 16-bit"},
      {"-o " + q(d.path / "a.r16") + " --depth 2", "--depth"},
      {"-o " + q(d.path / "a.tif") + " --colormap terrain", "one sample per pixel"},
      {"-o " + q(d.path / "a.tif") + " --bits 8", "--bits"},
      {"-o " + q(d.path / "a.exr") + " --bits 16", "--bits"},
      {"-o " + q(d.path / "a.exr") + " --depth 2", "--depth"},
      {"-o " + q(d.path / "a.jpg"), ".r16"},
      {"-o " + q(d.path / "a.tif") + " --frames 2 --animated", "--animated"},
  };
  for (const auto& c : cases) {
    const auto r = run_perlin("render " + c.args + " --size 8x8");
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
  }
  EXPECT_TRUE(fs::is_empty(d.path));
}

TEST(CliFormats, TiffTilesAreAtMost4096AndTheImagesLongerSide) {
  // A tile is one buffer and one block of the file: a 16x16 image with --tiff-tiles 16384 wrote a
  // 1 GiB file (1 GiB of memory), 65536 asked for 16 GiB at once. The side is refused past 4096
  // and past the image's longer side rounded up to a multiple of 16, before anything is written.
  const temp_dir d;
  const struct {
    const char* size;
    int tile;
    const char* limit;
  } refused[] = {
      {"16x16", 32, "at most 16 here"},    {"16x16", 16384, "at most 16 here"},
      {"16x16", 65536, "at most 16 here"}, {"100x30", 128, "at most 112 here"},
      {"30x100", 128, "at most 112 here"}, {"5000x20", 4112, "from 16 to 4096"},
  };
  for (const auto& c : refused) {
    const auto r = run_perlin("render -o " + q(d.path / "a.tif") + " --size " + c.size +
                              " --tiff-tiles " + std::to_string(c.tile));
    EXPECT_EQ(r.status, 2) << c.size << " " << c.tile;
    EXPECT_NE(r.err.find("--tiff-tiles"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.limit), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(d.path));
  // At the limits: one tile of 112 holds 100x30; 16 holds 16x16.
  const struct {
    const char* size;
    int tile;
  } taken[] = {{"100x30", 112}, {"16x16", 16}, {"30x100", 16}};
  for (const auto& c : taken) {
    const fs::path out = d.path / "b.tif";
    const auto r = run_perlin("render -q -o " + q(out) + " --size " + c.size + " --tiff-tiles " +
                              std::to_string(c.tile));
    ASSERT_EQ(r.status, 0) << r.err;
    TIFF* t = TIFFOpen(out.c_str(), "r");
    ASSERT_NE(t, nullptr);
    std::uint32_t tw = 0, th = 0;
    TIFFGetField(t, TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(t, TIFFTAG_TILELENGTH, &th);
    TIFFClose(t);
    EXPECT_EQ(tw, static_cast<std::uint32_t>(c.tile));
    EXPECT_EQ(th, static_cast<std::uint32_t>(c.tile));
  }
  // The library refuses the same layouts (perlin::tiff_writer, for callers other than the CLI).
  perlin::tiff_layout layout;
  layout.width = 16;
  layout.height = 16;
  layout.tile = 16384;
  EXPECT_THROW(perlin::tiff_writer{layout}, perlin::invalid_argument);
  layout.tile = 16;
  EXPECT_NO_THROW(perlin::tiff_writer{layout});
}

}  // namespace
