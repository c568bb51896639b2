// `perlin render` end to end: decoded PNGs, determinism, seamless tiles, exact regions, 16-bit
// depth, animation frames, volumes and every bad input (with no file left behind).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/image_io.hpp"
#include "perlin/perlin.hpp"

namespace {

namespace fs = std::filesystem;
using perlin_test::count_files;
using perlin_test::q;
using perlin_test::run_perlin;
using perlin_test::slurp;
using perlin_test::temp_dir;

/// The float values of a .npy written by perlin (header checked against the expected shape).
std::vector<float> read_npy(const fs::path& p, const std::string& shape) {
  const std::string bytes = slurp(p);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) |
                                 static_cast<std::size_t>(static_cast<unsigned char>(bytes[9]))
                                     << 8;
  const std::string header = bytes.substr(10, header_len);
  EXPECT_NE(header.find("'shape': (" + shape + ")"), std::string::npos) << header;
  EXPECT_EQ((10 + header_len) % 64, 0u);
  return perlin_test::npy_values(p);
}

TEST(CliRender, PngsDecodeWithTheRightFormat) {
  const temp_dir d;
  struct {
    const char* args;
    int bits, channels;
  } cases[] = {
      {"--size 40x30", 8, 1},
      {"--size 40x30 --bits 16 --preset terrain", 16, 1},
      {"--size 40x30 --preset clouds", 8, 3},
      {"--size 40x30 --preset terrain", 8, 3},
      {"--size 40x30 --preset marble --colormap grey", 8, 1},
      {"--size 40x30 --preset wood", 8, 3},
      {"--size 40x30 --noise value --interp cosine --colormap heat", 8, 3},
  };
  for (const auto& c : cases) {
    const fs::path out = d.path / "a.png";
    const auto r = run_perlin(std::string("render -o ") + q(out) + " " + c.args);
    ASSERT_EQ(r.status, 0) << c.args << ": " << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    const auto img = perlin::read_png(out);
    EXPECT_EQ(img.width, 40u) << c.args;
    EXPECT_EQ(img.height, 30u) << c.args;
    EXPECT_EQ(img.bit_depth, c.bits) << c.args;
    EXPECT_EQ(img.channels, c.channels) << c.args;
    EXPECT_EQ(count_files(d.path), 1u) << "no temporary file left";
  }
}

TEST(CliRender, SameCommandSameBytes) {
  const temp_dir d;
  const std::string args = " --preset terrain --size 96x64 --seed 3 --threads ";
  ASSERT_EQ(run_perlin("render -o " + q(d.path / "a.png") + args + "2").status, 0);
  ASSERT_EQ(run_perlin("render -o " + q(d.path / "b.png") + args + "1").status, 0);
  EXPECT_EQ(slurp(d.path / "a.png"), slurp(d.path / "b.png"));
}

TEST(CliRender, TileableImagesWrap) {
  const temp_dir d;
  for (const char* preset : {"clouds", "marble", "terrain", "warped"}) {
    const std::string args =
        std::string(" --preset ") + preset + " --size 70x50 --step 0.043 --tileable";
    ASSERT_EQ(run_perlin("render -o " + q(d.path / "t.npy") + args).status, 0);
    ASSERT_EQ(run_perlin("render -o " + q(d.path / "next.npy") + args + " --offset 70,50").status,
              0);
    const auto t = read_npy(d.path / "t.npy", "50, 70");
    const auto next = read_npy(d.path / "next.npy", "50, 70");
    // The tile one period further on is the same tile (up to the rounding of the coordinates).
    for (std::size_t i = 0; i < t.size(); ++i)
      ASSERT_NEAR(t[i], next[i], 1e-4) << preset << " " << i;
    // Across the seam the image changes no more than between neighbours inside it.
    double inner = 0, seam = 0;
    for (std::size_t j = 0; j < 50; ++j) {
      for (std::size_t i = 0; i + 1 < 70; ++i) {
        inner = std::max(inner, double(std::abs(t[j * 70 + i + 1] - t[j * 70 + i])));
      }
      seam = std::max(seam, double(std::abs(t[j * 70] - t[j * 70 + 69])));
    }
    for (std::size_t i = 0; i < 70; ++i) {
      for (std::size_t j = 0; j + 1 < 50; ++j) {
        inner = std::max(inner, double(std::abs(t[(j + 1) * 70 + i] - t[j * 70 + i])));
      }
      seam = std::max(seam, double(std::abs(t[i] - t[49 * 70 + i])));
    }
    EXPECT_LE(seam, 1.5 * inner) << preset;
  }
  // A warp frequency that no whole number of cells makes whole cannot tile.
  const auto wf = run_perlin("render -o " + q(d.path / "w.png") +
                             " --preset warped --tileable --warp-frequency 0.0001220703125");
  EXPECT_EQ(wf.status, 2);
  EXPECT_NE(wf.err.find("--warp-frequency"), std::string::npos) << wf.err;
  const auto r = run_perlin("render -o " + q(d.path / "w.png") + " --preset wood --tileable");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("wood"), std::string::npos);
  const auto l = run_perlin("render -o " + q(d.path / "w.png") +
                            " --tileable --lacunarity 2.5 --fractal fbm --octaves 3");
  EXPECT_EQ(l.status, 2);
  EXPECT_NE(l.err.find("lacunarity"), std::string::npos);
}

TEST(CliRender, ARegionIsTheCropOfTheWholeMap) {
  const temp_dir d;
  // Every preset, with the default origin too (wood's used to depend on --size).
  for (const std::string preset :
       {"terrain", "clouds", "marble", "plain", "wood", "ridges", "warped"}) {
    for (const std::string origin : {" --origin 3.5,-7.25", ""}) {
      const std::string args = " --preset " + preset + origin + " --step 0.031";
      ASSERT_EQ(run_perlin("render -o " + q(d.path / "whole.png") + args + " --size 64x48").status,
                0);
      ASSERT_EQ(
          run_perlin("render -o " + q(d.path / "part.png") + args + " --size 20x15 --offset 17,9")
              .status,
          0);
      const auto whole = perlin::read_png(d.path / "whole.png");
      const auto part = perlin::read_png(d.path / "part.png");
      const std::size_t ch = static_cast<std::size_t>(whole.channels);
      ASSERT_EQ(part.channels, whole.channels);
      for (std::size_t j = 0; j < 15; ++j) {
        for (std::size_t i = 0; i < 20 * ch; ++i) {
          ASSERT_EQ(part.data[j * 20 * ch + i], whole.data[(j + 9) * 64 * ch + 17 * ch + i])
              << preset << origin << " " << i << "," << j;
        }
      }
    }
  }
}

TEST(CliRender, DefaultContrastIsFullAndStillTiles) {
  // The default bounds are the field's typical range: a 512x512 plain grey render spans at least
  // 90% of the levels (66% with the true bound); --range bound is the true bound.
  const temp_dir d;
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "a.png") + " --size 512x512").status, 0);
  const auto img = perlin::read_png(d.path / "a.png");
  const auto [lo, hi] = std::minmax_element(img.data.begin(), img.data.end());
  EXPECT_GE(*hi - *lo, 230) << int(*lo) << ".." << int(*hi);
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "b.png") +
                       " --size 512x512 --range bound --plane aligned")
                .status,
            0);
  const auto bound = perlin::read_png(d.path / "b.png");
  const perlin::improved_noise n;
  for (std::size_t i = 0; i < 512; i += 37) {
    const double v = n.noise2d(double(i) / 64, 3.0 / 64);
    EXPECT_NEAR(bound.data[3 * 512 + i], std::round((v + 1) / 2 * 255), 1.0);
  }
  const auto [blo, bhi] = std::minmax_element(bound.data.begin(), bound.data.end());
  EXPECT_LT(*bhi - *blo, 200);
}

TEST(CliRender, DefaultLoopsFlowInsteadOfBoiling) {
  // The default radius moves the circle 2 pixel steps a frame: the mean change between frames
  // stays within 3x the mean change between neighbouring pixels (22x with radius 1 before).
  const temp_dir d;
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "l.npy") +
                       " --preset clouds --size 64x64 --frames 12 --loop")
                .status,
            0);
  std::vector<std::vector<float>> f;
  for (int k = 0; k < 12; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "l_%04d.npy", k);
    f.push_back(read_npy(d.path / name, "64, 64"));
  }
  double frame = 0, pixel = 0;
  for (int k = 0; k < 12; ++k) {
    for (std::size_t i = 0; i < f[0].size(); ++i) frame += std::abs(f[(k + 1) % 12][i] - f[k][i]);
  }
  for (std::size_t i = 0; i + 1 < f[0].size(); ++i) {
    if ((i + 1) % 64 != 0) pixel += std::abs(f[0][i + 1] - f[0][i]);
  }
  frame /= 12.0 * static_cast<double>(f[0].size());
  pixel /= 63.0 * 64;
  EXPECT_LT(frame, 3 * pixel) << frame << " per frame, " << pixel << " between pixels";
}

TEST(CliRender, CompressionLevelsGiveTheSamePixels) {
  const temp_dir d;
  std::size_t previous = 0;
  std::vector<std::uint8_t> pixels;
  for (const int level : {9, 6, 1, 0}) {  // larger files as the level drops
    const fs::path out = d.path / ("c" + std::to_string(level) + ".png");
    ASSERT_EQ(run_perlin("render -q -o " + q(out) +
                         " --preset clouds --size 300x200 --compression " + std::to_string(level))
                  .status,
              0);
    const auto img = perlin::read_png(out);
    if (pixels.empty()) pixels = img.data;
    EXPECT_EQ(img.data, pixels) << level;
    EXPECT_GE(fs::file_size(out), previous) << level;
    previous = fs::file_size(out);
  }
  EXPECT_EQ(run_perlin("render -o " + q(d.path / "x.png") + " --compression 10").status, 2);
}

TEST(CliRender, NothingIsSilentlyIgnored) {
  const temp_dir d;
  const std::string out = q(d.path / "a.png");
  // Options that change nothing here: a warning on stderr (and the render is made).
  for (const char* args : {"--octaves 8", "--lacunarity 3", "--normalize",
                           "--decorrelate --preset plain", "--interp cubic"}) {
    const auto r = run_perlin("render -o " + out + " --size 8x8 " + args);
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_NE(r.err.find("perlin: warning: "), std::string::npos) << args << ": " << r.err;
    EXPECT_NE(r.err.find("has no effect"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(run_perlin("render -o " + out + " --size 8x8 --octaves 8 --fractal fbm").err.empty());
  EXPECT_TRUE(
      run_perlin("render -o " + out + " --size 8x8 --preset clouds --octaves 3").err.empty());
  // Options that can only be mistakes here: a usage error.
  for (const char* args : {"--loop-radius 2", "--loop-radius 2 --frames 3", "--time-step 0.1",
                           "--time-step 0.1 --frames 3 --loop", "--frames 0"}) {
    const auto r = run_perlin("render -o " + out + " --size 8x8 " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
  }
  // eval says so too.
  const auto e = run_perlin("eval --octaves 4", "0.5 0.5\n");
  EXPECT_EQ(e.status, 0);
  EXPECT_NE(e.err.find("--octaves has no effect without --fractal"), std::string::npos) << e.err;
}

TEST(CliRender, OutputNamesStandardOutputAndVersion) {
  const temp_dir d;
  // Extensions in any case; --simd in any case.
  EXPECT_EQ(run_perlin("render -q -o " + q(d.path / "A.PNG") + " --size 8x8").status, 0);
  EXPECT_EQ(perlin::read_png(d.path / "A.PNG").width, 8u);
  std::string fallback = run_perlin("targets").out;  // the last line: SCALAR or EMU128
  fallback = fallback.substr(fallback.rfind('\n', fallback.size() - 2) + 1);
  fallback = fallback.substr(0, fallback.find_first_of(" :\n"));
  for (auto& ch : fallback) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_EQ(
      run_perlin("render -q -o " + q(d.path / "b.png") + " --size 8x8 --simd " + fallback).status,
      0)
      << fallback;
  // -o -: the bytes of the file on standard output.
  ASSERT_EQ(
      run_perlin("render -q -o " + q(d.path / "c.png") + " --size 16x8 --preset clouds").status, 0);
  const auto png = run_perlin("render -q -o - --size 16x8 --preset clouds");
  EXPECT_EQ(png.status, 0) << png.err;
  EXPECT_EQ(png.out, slurp(d.path / "c.png"));
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "c.npy") + " --size 16x8").status, 0);
  EXPECT_EQ(run_perlin("render -q -o - --format npy --size 16x8").out, slurp(d.path / "c.npy"));
  EXPECT_EQ(run_perlin("render -q -o - --size 16x8", "", "/dev/full").status, 1);
  // Names that are not files say what is wrong.
  const auto none = run_perlin("render -o " + q(d.path / "noext") + " --size 8x8");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("has no extension"), std::string::npos) << none.err;
  EXPECT_EQ(run_perlin("render -o " + q(d.path / ".png") + " --size 8x8").status, 2);
  EXPECT_EQ(run_perlin("render -o - --frames 2 --size 8x8").status, 2);
  const auto v = run_perlin("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, "perlin " + std::string(perlin::version()) + "\n");
}

TEST(CliRender, SixteenBitHeightmapsHaveMoreThan256Levels) {
  const temp_dir d;
  ASSERT_EQ(
      run_perlin("render -o " + q(d.path / "h.png") + " --preset terrain --bits 16 --size 128x128")
          .status,
      0);
  const auto img = perlin::read_png(d.path / "h.png");
  ASSERT_EQ(img.bit_depth, 16);
  std::set<std::uint16_t> levels;
  for (std::size_t i = 0; i + 1 < img.data.size(); i += 2) {
    std::uint16_t v;
    std::memcpy(&v, img.data.data() + i, 2);
    levels.insert(v);
  }
  EXPECT_GT(levels.size(), 256u);
}

TEST(CliRender, FramesVolumesAndStretch) {
  const temp_dir d;
  auto r = run_perlin("render -o " + q(d.path / "f.png") +
                      " --size 24x16 --frames 8 --loop --loop-radius 1 --preset clouds");
  ASSERT_EQ(r.status, 0) << r.err;
  for (int k = 0; k < 8; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "f_%04d.png", k);
    EXPECT_EQ(perlin::read_png(d.path / name).width, 24u);
  }
  EXPECT_FALSE(fs::exists(d.path / "f_0008.png"));
  // The loop is a circle: frame 2 of 8 and frame 1 of 4 sit at the same angle.
  r = run_perlin("render -o " + q(d.path / "g.png") +
                 " --size 24x16 --frames 4 --loop --loop-radius 1 --preset clouds");
  ASSERT_EQ(r.status, 0);
  // (The same pixels; the files differ in the recipe each carries: frames=8 and frames=4.)
  EXPECT_EQ(perlin::read_png(d.path / "f_0002.png").data,
            perlin::read_png(d.path / "g_0001.png").data);
  EXPECT_NE(perlin::read_png(d.path / "f_0001.png").data,
            perlin::read_png(d.path / "f_0002.png").data);
  r = run_perlin("render -o " + q(d.path / "v.npy") + " --size 12x10 --depth 5 --preset terrain");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto v = read_npy(d.path / "v.npy", "5, 10, 12");
  EXPECT_EQ(v.size(), 600u);
  r = run_perlin("render -o " + q(d.path / "s.png") + " --size 32x32 --stretch");
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("--stretch"), std::string::npos);
  const auto img = perlin::read_png(d.path / "s.png");
  EXPECT_EQ(*std::min_element(img.data.begin(), img.data.end()), 0);
  EXPECT_EQ(*std::max_element(img.data.begin(), img.data.end()), 255);
}

TEST(CliRender, BadInputFailsCleanlyAndLeavesNoFile) {
  const temp_dir d;
  const std::string out = q(d.path / "x.png");
  const struct {
    std::string args;
    int status;
    const char* message;
  } cases[] = {
      {"render -o " + out + " --size 0x10", 2, "--size"},
      {"render -o " + out + " --size -5x10", 2, "--size"},
      {"render -o " + out + " --size 10x", 2, "--size"},
      {"render -o " + out + " --size 10*10", 2, "--size"},
      {"render -o " + out + " --size 100000x100000", 2, "bytes"},
      {"render -o " + out + " --preset velvet", 2, "--preset"},
      {"render -o " + out + " --colormap rainbow", 2, "valid: grey, clouds"},
      {"render -o " + out + " --bits 12", 2, "--bits"},
      {"render -o " + out + " --bits 16 --colormap heat", 2, "--bits 16"},
      {"render -o " + q(d.path / "x.jpg"), 2, ".jpg"},
      {"render -o " + out + " --depth 4", 2, "--depth"},
      {"render -o " + out + " --step 0", 2, "--step"},
      {"render -o " + out + " --step 0.1 --scale 10", 2, "alternatives"},
      {"render -o " + out + " --range 1,0", 2, "--range"},
      {"render -o " + out + " --origin 1", 2, "--origin"},
      {"render -o " + out + " --offset 1.5,2", 2, "--offset"},
      {"render -o " + out + " --octaves 0", 2, "octaves"},
      {"render -o " + out + " --preset warped --warp-octaves 0", 2,
       "warp-octaves: must be 1 to 32, got 0"},
      {"render -o " + out + " --warp basic --warp-amplitude -1", 2, "warp-amplitude: must be >= 0"},
      {"render -o " + out + " --warp basic --warp-amplitude nan", 2, "warp-amplitude"},
      {"render -o " + out + " --warp basic --warp-frequency 0", 2, "warp-frequency"},
      {"render -o " + out + " --warp twirl", 2, "warp: unknown value 'twirl'"},
      {"render -o " + out + " --warp basic --warp-seed -4", 2, "warp-seed"},
      {"render -o " + out + " --simd AVX9000", 2, "AVX9000"},
      {"render -o " + out + " --loop", 2, "--loop"},
      {"render -o " + out + " --frames -1", 2, "--frames: must be 1 to 1000000, got -1"},
      {"render -o " + out + " --frames 0", 2, "--frames"},
      {"render -o " + out + " --frames 1000001", 2, "--frames"},
      {"render -o " + q(d.path / "x.npy") + " --depth -1", 2, "--depth: must be 1 to"},
      {"render -o " + q(d.path / "x.npy") + " --depth 0", 2, "--depth"},
      {"render -o " + q(d.path / "x.npy") + " --size 65536x65536 --depth 4294967296", 2, "--depth"},
      {"render -o " + q(d.path / "x.npy") + " --size 65536x65536 --depth 4096", 2,
       "bytes of memory"},
      {"render -o " + out + " --persistence 1e308 --fractal fbm --octaves 32", 2, "persistence"},
      {"render -o " + out + " --time-step nan --frames 2", 2, "--time-step"},
      {"render -o " + out + " --tileable --period 8", 2, "drop --period"},
      {"render -o " + out + " --tileable --fractal fbm --octaves 2 --lacunarity 5e9", 2,
       "--lacunarity"},
      {"render -o " + q(d.path / "x.npy") + " --colormap heat", 2, ".npy holds the raw values"},
      {"render -o " + q(d.path / "x.npy") + " --bits 16", 2, ".npy holds the raw values"},
      {"render -o " + out + " --scale 0", 2, "--scale"},
      {"render -o " + out + " --loop-radius 0 --frames 2 --loop", 2, "--loop-radius"},
      {"render --size 10x10", 2, "--output"},
      {"render -o " + q(d.path / "missing" / "x.png"), 1, "does not exist"},
      {"render -o " + q(d.path / "x.png" / "y.png"), 1, "x.png"},
      {"render -o /proc/perlin-test.png", 1, "cannot create"},
  };
  for (const auto& c : cases) {
    const auto r = run_perlin(c.args);
    EXPECT_EQ(r.status, c.status) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(count_files(d.path), 0u) << c.args;
  }
  // An existing file is replaced only by a complete new one.
  std::ofstream(d.path / "x.png") << "old";
  EXPECT_EQ(run_perlin("render -o " + out + " --bits 12").status, 2);
  EXPECT_EQ(slurp(d.path / "x.png"), "old");
  EXPECT_EQ(run_perlin("render -o " + out + " --size 8x8").status, 0);
  EXPECT_EQ(perlin::read_png(d.path / "x.png").width, 8u);
  EXPECT_EQ(count_files(d.path), 1u);
}

/// The .npy values of a render with `args` (in a fresh folder).
std::vector<float> render_values(const std::string& args, const std::string& shape) {
  const temp_dir d;
  const auto r = run_perlin("render -q -o " + q(d.path / "v.npy") + " " + args);
  EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  return read_npy(d.path / "v.npy", shape);
}

TEST(CliRender, PlacementAndTimeOptionsMoveTheSamples) {
  // Each option against the documented coordinates, on the plain preset's field on the aligned
  // plane (Ken Perlin's noise itself).
  const perlin::improved_noise n;
  const auto check = [&](const std::string& args, auto&& expected) {
    const auto v = render_values("--plane aligned --size 6x4 " + args, "4, 6");
    for (std::size_t j = 0; j < 4; ++j) {
      for (std::size_t i = 0; i < 6; ++i) {
        ASSERT_NEAR(v[j * 6 + i], expected(double(i), double(j)), perlin::k_float_tolerance)
            << args << " " << i << "," << j;
      }
    }
  };
  check("--scale 8", [&](double i, double j) { return n.noise2d(i / 8, j / 8); });
  check("--step 0.2 --origin 1.5,-2",
        [&](double i, double j) { return n.noise2d(1.5 + i * 0.2, -2 + j * 0.2); });
  // Three or four origin values: the slice of the 3-D or 4-D field.
  check("--step 0.2 --origin 1.5,-2,0.75",
        [&](double i, double j) { return n.noise3d(1.5 + i * 0.2, -2 + j * 0.2, 0.75); });
  check("--step 0.2 --origin 1.5,-2,0.75,-0.5",
        [&](double i, double j) { return n.noise4d(1.5 + i * 0.2, -2 + j * 0.2, 0.75, -0.5); });
  // --origin X,Y,Z: the slice z = Z of the 3-D noise (a 2-D image samples noise2d, the z = 0
  // slice, unless frames or a volume make it 3-D); frames take z = Z + (K + k) * T.
  {
    const temp_dir d;
    ASSERT_EQ(
        run_perlin(
            "render -q -o " + q(d.path / "f.npy") +
            " --plane aligned --size 6x4 --step 0.2 --origin 0,0,0.5 --frames 2 --time-step 0.3")
            .status,
        0);
    const auto f1 = read_npy(d.path / "f_0001.npy", "4, 6");
    for (std::size_t i = 0; i < 6; ++i)
      EXPECT_NEAR(f1[i], n.noise3d(double(i) * 0.2, 0.0, 0.5 + 0.3), perlin::k_float_tolerance);
  }
  // --loop with --loop-radius R and --origin X,Y,Z,W: frame k at (Z + R cos, W + R sin).
  {
    const temp_dir d;
    ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "l.npy") +
                         " --plane aligned --size 6x4 --step 0.2 --origin 0,0,1,2 --frames 4 "
                         "--loop --loop-radius 3")
                  .status,
              0);
    const auto l1 = read_npy(d.path / "l_0001.npy", "4, 6");  // angle pi/2: (Z, W + R)
    for (std::size_t i = 0; i < 6; ++i) {
      EXPECT_NEAR(l1[i], n.noise4d(double(i) * 0.2, 0.0, 1 + 3 * std::cos(M_PI / 2), 2.0 + 3),
                  perlin::k_float_tolerance);
    }
  }
}

TEST(CliRender, StrictAndSimdGiveTheSameBitsOnEveryTarget) {
  const temp_dir d;
  const auto targets = run_perlin("targets");
  std::vector<std::string> names;
  std::istringstream lines(targets.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("not used") == std::string::npos)
      names.push_back(line.substr(0, line.find_first_of(" :")));
  }
  ASSERT_FALSE(names.empty());
  std::string first;
  for (const auto& t : names) {
    const auto r = run_perlin("render -q -o " + q(d.path / "s.npy") +
                              " --preset clouds --size 40x30 --strict --simd " + t);
    ASSERT_EQ(r.status, 0) << t << ": " << r.err;
    const std::string bytes = slurp(d.path / "s.npy");
    if (first.empty()) {
      first = bytes;
    } else {
      EXPECT_EQ(bytes, first) << t;
    }
  }
}

/// Starts `perlin ARGS...` in `dir`, lets it run for `ms` milliseconds, sends `sig`, and returns
/// the wait status.
int interrupt_after(const std::vector<std::string>& args, const fs::path& dir, int ms, int sig) {
  std::vector<char*> argv;
  std::string exe = PERLIN_EXE;
  argv.push_back(exe.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(99);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    ::execv(exe.c_str(), argv.data());
    ::_exit(98);
  }
  ::usleep(static_cast<useconds_t>(ms) * 1000);
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(CliRender, AnInterruptedRenderLeavesTheOldFileAndNothingElse) {
  // Killed at moments spread over the render (evaluation, encoding, writing): the old file stays
  // byte for byte, no temporary is left (SIGKILL included: the data is in an unnamed file), and
  // SIGINT/SIGTERM exit 130/143 with a message.
  const temp_dir d;
  std::ofstream(d.path / "map.png") << "old map";
  // Shaded reliefs (8 octaves with gradients): slow enough to be interrupted at every moment.
  const std::vector<std::string> one = {"render",   "-q",      "-o",     "map.png",
                                        "--preset", "terrain", "--size", "4000x4000"};
  const std::vector<std::string> frames = {"render",  "-q",     "-o",      "anim.png", "--preset",
                                           "terrain", "--size", "500x500", "--frames", "40"};
  std::size_t interrupted = 0;
  for (const int sig : {SIGINT, SIGTERM, SIGKILL}) {
    for (const int ms : {30, 150, 400, 900}) {
      for (const auto* args : {&one, &frames}) {
        const int status = interrupt_after(*args, d.path, ms, sig);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {  // finished first: fine, start again
          for (const auto& e : fs::directory_iterator(d.path)) fs::remove(e.path());
          std::ofstream(d.path / "map.png") << "old map";
          continue;
        }
        ++interrupted;
        if (sig == SIGKILL || (WIFSIGNALED(status) && WTERMSIG(status) == sig)) {
          // SIGKILL; or SIGINT/SIGTERM before main installed its handlers (a slow start, as
          // under TSan): the default action ended it, before anything was written.
          EXPECT_TRUE(WIFSIGNALED(status));
        } else {
          ASSERT_TRUE(WIFEXITED(status)) << status;
          EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
        }
        EXPECT_EQ(slurp(d.path / "map.png"), "old map") << sig << " after " << ms << " ms";
        std::vector<std::string> left;
        for (const auto& e : fs::directory_iterator(d.path))
          left.push_back(e.path().filename().string());
        // Nothing new, or (a signal that came while they were published, which it waits for)
        // every frame.
        if (sig == SIGKILL || left.size() != 41) {
          EXPECT_EQ(left, std::vector<std::string>{"map.png"}) << sig << " after " << ms << " ms";
        }
        for (const auto& name : left) {
          if (name != "map.png") fs::remove(d.path / name);
        }
      }
    }
  }
  EXPECT_GT(interrupted, 12u) << "the renders finished before the signals: make them bigger";
}

TEST(CliRender, FilesGetTheModeOfTheUmaskOrOfTheFileTheyReplace) {
  const temp_dir d;
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "a.png") + " --size 8x8").status, 0);
  const mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(fs::status(d.path / "a.png").permissions(), static_cast<fs::perms>(0666 & ~mask));
  fs::permissions(d.path / "a.png", static_cast<fs::perms>(0640));
  ASSERT_EQ(run_perlin("render -q -o " + q(d.path / "a.png") + " --size 8x8").status, 0);
  EXPECT_EQ(fs::status(d.path / "a.png").permissions(), static_cast<fs::perms>(0640));
}

}  // namespace

namespace {

TEST(CliRenderTiles, TilesShareTheirEdgesAndAreCropsOfTheWholeMap) {
  // 3 x 2 tiles of 65 x 33: tile (i, j) is the whole 193 x 65 map's crop at (64 i, 32 j), so
  // neighbours share their edge column and row (Unity's 2^n+1 convention), in RAW16 and PNG16.
  temp_dir d;
  for (const std::string ext : {".r16", ".png"}) {
    const std::string bits = ext == ".png" ? " --bits 16" : "";
    ASSERT_EQ(run_perlin("render -q --preset terrain --size 65x33 --tiles 3x2" + bits + " -o '" +
                         (d.path / ("t_{x}_{y}" + ext)).string() + "'")
                  .status,
              0);
    ASSERT_EQ(run_perlin("render -q --preset terrain --size 193x65" + bits + " -o '" +
                         (d.path / ("whole" + ext)).string() + "'")
                  .status,
              0);
    const auto samples = [&](const std::string& name, std::size_t w, std::size_t h) {
      std::vector<std::uint16_t> v(w * h);
      if (ext == ".r16") {
        const std::string raw = slurp(d.path / name);
        EXPECT_EQ(raw.size(), 2 * v.size());
        std::memcpy(v.data(), raw.data(), std::min(raw.size(), 2 * v.size()));
      } else {
        const auto img = perlin::read_png(d.path / name);
        EXPECT_EQ(img.width, w);
        std::memcpy(v.data(), img.data.data(), std::min(img.data.size(), 2 * v.size()));
      }
      return v;
    };
    const auto whole = samples("whole" + ext, 193, 65);
    for (std::size_t j = 0; j < 2; ++j) {
      for (std::size_t i = 0; i < 3; ++i) {
        const auto t = samples("t_" + std::to_string(i) + "_" + std::to_string(j) + ext, 65, 33);
        std::size_t wrong = 0;
        for (std::size_t y = 0; y < 33; ++y)
          for (std::size_t x = 0; x < 65; ++x)
            wrong += t[y * 65 + x] != whole[(32 * j + y) * 193 + 64 * i + x];
        EXPECT_EQ(wrong, 0u) << ext << " tile " << i << "," << j;
      }
    }
  }
  // Refused with a message, nothing written: no {x}/{y}, a zero count, with frames, to stdout.
  temp_dir e;
  const std::string size = " --size 9x9 ";
  EXPECT_EQ(run_perlin("render -q" + size + "--tiles 2x2 -o '" + (e.path / "t.png").string() + "'")
                .status,
            2);
  EXPECT_EQ(
      run_perlin("render -q" + size + "--tiles 0x2 -o '" + (e.path / "{x}{y}.png").string() + "'")
          .status,
      2);
  EXPECT_EQ(run_perlin("render -q" + size + "--tiles 2x2 --frames 2 -o '" +
                       (e.path / "{x}{y}.png").string() + "'")
                .status,
            2);
  EXPECT_EQ(run_perlin("render -q" + size + "--tiles 2x2 -o -").status, 2);
  EXPECT_EQ(perlin_test::count_files(e.path), 0u);
}

}  // namespace

TEST(CliRender, FramePlaceholderNamesTheFramesAndUnknownPlaceholdersAreRefused) {
  const temp_dir d;
  const auto r = run_perlin("render -q -o " + q(d.path / "f_{frame}.png") +
                            " --size 8x8 --frames 3 --preset clouds");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"f_0000.png", "f_0001.png", "f_0002.png"})
    EXPECT_TRUE(fs::exists(d.path / name)) << name;
  EXPECT_EQ(count_files(d.path), 3u);
  // The frames are those of the numbered names without the placeholder (FILE_0000.png ...).
  const auto old =
      run_perlin("render -q -o " + q(d.path / "g.png") + " --size 8x8 --frames 3 --preset clouds");
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_EQ(slurp(d.path / "f_0002.png"), slurp(d.path / "g_0002.png"));
  // A misspelt placeholder, or one this render does not fill, is refused before any file.
  const temp_dir e;
  const struct {
    std::string args, message;
  } refused[] = {
      {"-o " + q(e.path / "f_{frme}.png") + " --frames 3",
       "'{frme}' in '" + (e.path / "f_{frme}.png").string() +
           "' is not a placeholder this render fills (valid here: {frame})"},
      {"-o " + q(e.path / "f_{frame}.png"), "is not a placeholder of this render"},
      {"-o " + q(e.path / "a_{frame}.png") + " --frames 3 --animated",
       "is not a placeholder of this render"},
      {"-o " + q(e.path / "t_{x}_{y}_{z}.png") + " --tiles 2x2", "'{z}'"},
  };
  for (const auto& c : refused) {
    const auto x = run_perlin("render -q --size 8x8 " + c.args);
    EXPECT_EQ(x.status, 2) << c.args;
    EXPECT_NE(x.err.find(c.message), std::string::npos) << c.args << ": " << x.err;
  }
  EXPECT_EQ(count_files(e.path), 0u);
}

TEST(CliRender, TileNamesThatCollideAndMissingTileFoldersAreRefusedBeforeAnyWork) {
  const temp_dir d;
  // t{x}{y}: tile (1, 10) and tile (11, 0) are both t110.png.
  const auto r = run_perlin("render -q --tiles 12x11 --size 4x4 -o " + q(d.path / "t{x}{y}.png"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--tiles: tiles (11, 0) and (1, 10) would both be written to"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(count_files(d.path), 0u);
  // Each tile in a folder of its own column: the second column's folder is missing.
  fs::create_directory(d.path / "c0");
  const auto f = run_perlin("render -q --tiles 2x2 --size 4x4 -o " + q(d.path / "c{x}/t{y}.png"));
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.err.find("folder '" + (d.path / "c1").string() + "' does not exist"),
            std::string::npos)
      << f.err;
  EXPECT_EQ(count_files(d.path / "c0"), 0u);  // checked before the first tile was written
  fs::create_directory(d.path / "c1");
  const auto ok = run_perlin("render -q --tiles 2x2 --size 4x4 -o " + q(d.path / "c{x}/t{y}.png"));
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(fs::exists(d.path / "c1" / "t1.png"));
}

TEST(CliRender, AnInterruptSaysWhatWasKept) {
  const temp_dir d;
  std::ofstream(d.path / "anim_0000.png") << "old frame";
  // A long animation interrupted after a second: the old frame stays, and the message says so.
  const std::string cmd = "timeout --preserve-status -s INT 1 '" + std::string(PERLIN_EXE) +
                          "' render -q -o " + q(d.path / "anim.png") +
                          " --preset terrain --size 400x400 --frames 2000 2> " + q(d.path / "err");
  const int raw = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  ASSERT_EQ(WEXITSTATUS(raw), 130) << slurp(d.path / "err");
  EXPECT_EQ(slurp(d.path / "err"),
            "perlin: interrupted: the files being written were removed; the files that were "
            "there before (an earlier render's frames or tiles included) are unchanged\n");
  EXPECT_EQ(slurp(d.path / "anim_0000.png"), "old frame");
}

TEST(CliRender, AMissingProjDatabaseIsAFailureNotAUsageError) {
  // --crs is right; the installation is not: exit 1, naming PROJ's database and the fix.
  const temp_dir d;
  const std::string cmd = "PROJ_DATA=" + (d.path / "none").string() +
                          " PROJ_LIB=" + (d.path / "none").string() + " '" +
                          std::string(PERLIN_EXE) + "' render -q -o " + q(d.path / "g.tif") +
                          " --size 8x8 --crs EPSG:32633 --geo-origin 500000,4600000 "
                          "--geo-pixel-size 10,10 2> " +
                          q(d.path / "err");
  const int raw = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 1) << slurp(d.path / "err");
  EXPECT_NE(slurp(d.path / "err").find("PROJ cannot open its database proj.db"), std::string::npos)
      << slurp(d.path / "err");
  EXPECT_FALSE(fs::exists(d.path / "g.tif"));
}
