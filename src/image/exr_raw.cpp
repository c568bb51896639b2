// TIFF (libtiff) and OpenEXR files in memory, and 16-bit RAW heightmaps: the formats that GIS
// tools, compositors and game engines read. Written into a buffer, so that the caller writes it
// atomically like every other file.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfStdIO.h>
#include <tiffio.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"

namespace perlin {

namespace {

void check_size(std::size_t width, std::size_t height, std::size_t pages, std::size_t have,
                std::size_t per_pixel, const char* what) {
  if (width == 0 || height == 0 || pages == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    detail::throw_size("size", std::string("a ") + what + " is 1 to 2^31-1 pixels on each side");
  }
  if (have != width * height * pages * per_pixel) {
    detail::throw_size("data", "does not match the size");
  }
}

/// A growing memory buffer behind libtiff's client I/O.
struct memory_file {
  std::vector<std::uint8_t> bytes;
  std::size_t at = 0;
};

tsize_t mem_read(thandle_t h, tdata_t data, tsize_t size) {
  // libtiff reads back what it wrote to link the pages' directories.
  auto* m = static_cast<memory_file*>(h);
  const std::size_t n =
      std::min(static_cast<std::size_t>(size), m->bytes.size() - std::min(m->at, m->bytes.size()));
  if (n > 0) std::memcpy(data, m->bytes.data() + m->at, n);
  m->at += n;
  return static_cast<tsize_t>(n);
}
tsize_t mem_write(thandle_t h, tdata_t data, tsize_t size) {
  auto* m = static_cast<memory_file*>(h);
  const auto n = static_cast<std::size_t>(size);
  if (m->at + n > m->bytes.size()) m->bytes.resize(m->at + n);
  std::memcpy(m->bytes.data() + m->at, data, n);
  m->at += n;
  return size;
}
toff_t mem_seek(thandle_t h, toff_t off, int whence) {
  auto* m = static_cast<memory_file*>(h);
  const auto base = whence == SEEK_SET ? 0 : (whence == SEEK_CUR ? m->at : m->bytes.size());
  m->at =
      static_cast<std::size_t>(static_cast<std::int64_t>(base) + static_cast<std::int64_t>(off));
  return static_cast<toff_t>(m->at);
}
int mem_close(thandle_t) { return 0; }
toff_t mem_size(thandle_t h) {
  return static_cast<toff_t>(static_cast<memory_file*>(h)->bytes.size());
}
int mem_map(thandle_t, tdata_t*, toff_t*) { return 0; }
void mem_unmap(thandle_t, tdata_t, toff_t) {}

/// libtiff reports through handlers that print; ours keep the last message instead.
thread_local std::string g_tiff_error;
void tiff_error(const char*, const char* fmt, va_list ap) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  g_tiff_error = buf;
}
void tiff_quiet(const char*, const char*, va_list) {}

template <class T>
std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height, std::size_t pages,
                                      std::span<const T> data, int bits, int sample_format) {
  check_size(width, height, pages, data.size(), 1, "TIFF");
  TIFFSetErrorHandler(tiff_error);
  TIFFSetWarningHandler(tiff_quiet);
  memory_file m;
  // "w8": BigTIFF when a page set could pass 4 GiB.
  const bool big = data.size() * sizeof(T) > (std::size_t{3} << 30);
  TIFF* t = TIFFClientOpen("perlin", big ? "w8" : "w", &m, mem_read, mem_write, mem_seek, mem_close,
                           mem_size, mem_map, mem_unmap);
  if (t == nullptr) detail::throw_io("TIFF: cannot start libtiff: " + g_tiff_error);
  bool ok = true;
  for (std::size_t p = 0; p < pages && ok; ++p) {
    ok &= TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(width)) == 1;
    ok &= TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(height)) == 1;
    ok &= TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1) == 1;
    ok &= TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits) == 1;
    ok &= TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, sample_format) == 1;
    ok &= TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK) == 1;
    ok &= TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) == 1;
    ok &= TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE) == 1;
    ok &=
        TIFFSetField(
            t, TIFFTAG_ROWSPERSTRIP,
            static_cast<std::uint32_t>(std::max<std::size_t>(1, 65536 / (width * sizeof(T))))) == 1;
    if (pages > 1) {
      ok &= TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE) == 1;
      ok &= TIFFSetField(t, TIFFTAG_PAGENUMBER, static_cast<std::uint16_t>(p),
                         static_cast<std::uint16_t>(pages)) == 1;
    }
    for (std::size_t r = 0; r < height && ok; ++r) {
      auto* row = const_cast<T*>(data.data() + (p * height + r) * width);
      ok &= TIFFWriteScanline(t, row, static_cast<std::uint32_t>(r), 0) == 1;
    }
    if (ok) ok &= TIFFWriteDirectory(t) == 1;
  }
  TIFFClose(t);
  if (!ok) detail::throw_io("TIFF: libtiff failed: " + g_tiff_error);
  return std::move(m.bytes);
}

}  // namespace

std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height, std::size_t pages,
                                      std::span<const float> data) {
  return encode_tiff<float>(width, height, pages, data, 32, SAMPLEFORMAT_IEEEFP);
}

std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height, std::size_t pages,
                                      std::span<const std::uint16_t> data) {
  return encode_tiff<std::uint16_t>(width, height, pages, data, 16, SAMPLEFORMAT_UINT);
}

std::vector<std::uint8_t> encode_raw16(std::size_t width, std::size_t height,
                                       std::span<const std::uint16_t> data) {
  check_size(width, height, 1, data.size(), 1, "RAW");
  std::vector<std::uint8_t> out(data.size() * 2);
  for (std::size_t i = 0; i < data.size(); ++i) {
    out[2 * i] = static_cast<std::uint8_t>(data[i] & 0xFF);  // little-endian, whatever the host
    out[2 * i + 1] = static_cast<std::uint8_t>(data[i] >> 8);
  }
  return out;
}

std::vector<std::uint8_t> encode_exr(std::size_t width, std::size_t height,
                                     std::span<const float> data, int channels) {
  if (channels != 1 && channels != 3)
    detail::throw_invalid("channels", "an EXR here holds Y or RGB");
  check_size(width, height, 1, data.size(), static_cast<std::size_t>(channels), "EXR");
  try {
    Imf::Header header(static_cast<int>(width), static_cast<int>(height));
    const char* names[3] = {"R", "G", "B"};
    if (channels == 1) names[0] = "Y";
    for (int c = 0; c < channels; ++c) header.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
    Imf::StdOSStream stream;
    {
      Imf::OutputFile file(stream, header);
      Imf::FrameBuffer fb;
      const std::size_t xs = sizeof(float) * static_cast<std::size_t>(channels);
      for (int c = 0; c < channels; ++c) {
        fb.insert(names[c], Imf::Slice(Imf::FLOAT,
                                       reinterpret_cast<char*>(const_cast<float*>(data.data()) + c),
                                       xs, xs * width));
      }
      file.setFrameBuffer(fb);
      file.writePixels(static_cast<int>(height));
    }  // the file is complete once OutputFile is gone (it writes its line offsets then)
    const std::string bytes = stream.str();
    return {bytes.begin(), bytes.end()};
  } catch (const std::exception& e) {
    detail::throw_io(std::string("EXR: OpenEXR failed: ") + e.what());
  }
}

}  // namespace perlin
