// tiff_writer (tiff_writer.hpp): libtiff through client I/O on a pending file (pwrite and pread:
// libtiff goes back to link directories and fill in offsets) or on memory, band by band; GeoTIFF
// keys through libgeotiff.
#include "perlin/tiff_writer.hpp"

#include <geotiff.h>
#include <geovalues.h>
#include <tiffio.h>
#include <xtiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"

namespace perlin {

namespace {

/// libtiff reports through process-wide handlers that print; ours keep the last message.
thread_local std::string g_tiff_error;
void tiff_error(const char*, const char* fmt, va_list ap) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  g_tiff_error = buf;
}
void tiff_quiet(const char*, const char*, va_list) {}

/// Uncompressed files past this use BigTIFF: classic TIFF's offsets are 32-bit, and the
/// directories and deflate's few bytes of overhead need room below 4 GiB.
constexpr std::uint64_t k_classic_limit = std::uint64_t{0xF0000000};

}  // namespace

std::uint64_t tiff_layout::data_bytes() const noexcept {
  const std::uint64_t side_x = tile > 0 ? (width + tile - 1) / tile * tile : width;
  const std::uint64_t side_y = tile > 0 ? (height + tile - 1) / tile * tile : height;
  const std::uint64_t n = side_x * side_y * pages;
  return n * (float32 ? 4u : 2u);
}

struct tiff_writer::state {
  pending_file* file = nullptr;            // null: memory
  pending_file* pending_target = nullptr;  // written from memory at finish() (a FIFO, a device)
  std::vector<std::uint8_t> memory;
  std::uint64_t at = 0, size = 0;
  tiff_layout layout;
  TIFF* tiff = nullptr;
  std::size_t page = 0, row = 0;  // the next row to write, in page `page`
  bool finished = false;
  std::vector<std::uint8_t> tile_buffer;

  [[nodiscard]] bool in_memory() const noexcept { return file == nullptr; }
  [[nodiscard]] std::size_t sample_bytes() const noexcept { return layout.float32 ? 4 : 2; }

  void write_at(std::uint64_t offset, const void* data, std::size_t n) {
    if (in_memory()) {
      if (offset + n > memory.size()) memory.resize(offset + n);
      std::memcpy(memory.data() + offset, data, n);
    } else {
      file->write_at(offset, data, n);
    }
    size = std::max(size, offset + n);
  }
  std::size_t read_at(std::uint64_t offset, void* data, std::size_t n) {
    if (in_memory()) {
      const std::size_t have =
          offset >= memory.size() ? 0 : std::min<std::size_t>(n, memory.size() - offset);
      if (have > 0) std::memcpy(data, memory.data() + offset, have);
      return have;
    }
    return file->read_at(offset, data, n);
  }
};

namespace {

using state = tiff_writer::state;

// libtiff's client I/O. An exception must not cross libtiff (C): a failed write returns -1 (and
// libtiff reports it); the message is kept.
tsize_t io_read(thandle_t h, tdata_t data, tsize_t n) {
  auto* s = static_cast<state*>(h);
  try {
    const std::size_t got = s->read_at(s->at, data, static_cast<std::size_t>(n));
    s->at += got;
    return static_cast<tsize_t>(got);
  } catch (const std::exception& e) {
    g_tiff_error = e.what();
    return -1;
  }
}
tsize_t io_write(thandle_t h, tdata_t data, tsize_t n) {
  auto* s = static_cast<state*>(h);
  try {
    s->write_at(s->at, data, static_cast<std::size_t>(n));
    s->at += static_cast<std::uint64_t>(n);
    return n;
  } catch (const std::exception& e) {
    g_tiff_error = e.what();
    return -1;
  }
}
toff_t io_seek(thandle_t h, toff_t off, int whence) {
  auto* s = static_cast<state*>(h);
  const std::uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? s->at : s->size;
  s->at = base + off;  // libtiff seeks forward or to absolute offsets only
  return s->at;
}
int io_close(thandle_t) { return 0; }
toff_t io_size(thandle_t h) { return static_cast<state*>(h)->size; }
int io_map(thandle_t, tdata_t*, toff_t*) { return 0; }
void io_unmap(thandle_t, tdata_t, toff_t) {}

[[noreturn]] void fail(const std::string& what) {
  detail::throw_io("TIFF: " + what + (g_tiff_error.empty() ? "" : ": " + g_tiff_error));
}

void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

/// The GeoTIFF tags of a north-up raster: pixel scale, one tie point (pixel (0, 0)'s corner),
/// and the keys naming the model, the raster type and the EPSG system.
void write_geo(TIFF* t, const geo_reference& g) {
  const double scale[3] = {g.pixel_x, g.pixel_y, 0};
  const double tie[6] = {0, 0, 0, g.origin_x, g.origin_y, 0};
  check(TIFFSetField(t, TIFFTAG_GEOPIXELSCALE, 3, scale) == 1, "cannot set the pixel scale");
  check(TIFFSetField(t, TIFFTAG_GEOTIEPOINTS, 6, tie) == 1, "cannot set the tie point");
  GTIF* keys = GTIFNew(t);
  if (keys == nullptr) fail("libgeotiff cannot start");
  const auto code = static_cast<unsigned short>(g.system.epsg);
  bool ok = GTIFKeySet(keys, GTModelTypeGeoKey, TYPE_SHORT, 1,
                       g.system.geographic ? ModelTypeGeographic : ModelTypeProjected) == 1;
  ok &= GTIFKeySet(keys, GTRasterTypeGeoKey, TYPE_SHORT, 1, RasterPixelIsArea) == 1;
  ok &= GTIFKeySet(keys, g.system.geographic ? GeographicTypeGeoKey : ProjectedCSTypeGeoKey,
                   TYPE_SHORT, 1, code) == 1;
  ok &= GTIFKeySet(keys, GTCitationGeoKey, TYPE_ASCII, 0, g.system.name.c_str()) == 1;
  ok &= GTIFWriteKeys(keys) == 1;
  GTIFFree(keys);
  check(ok, "libgeotiff cannot write the keys");
}

void start_page(state& s) {
  TIFF* t = s.tiff;
  const tiff_layout& l = s.layout;
  bool ok = TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(l.width)) == 1;
  ok &= TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(l.height)) == 1;
  ok &= TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1) == 1;
  ok &= TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, l.float32 ? 32 : 16) == 1;
  ok &= TIFFSetField(t, TIFFTAG_SAMPLEFORMAT,
                     l.float32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT) == 1;
  ok &= TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK) == 1;
  ok &= TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) == 1;
  if (l.deflate > 0) {
    ok &= TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE) == 1;
    ok &= TIFFSetField(t, TIFFTAG_ZIPQUALITY, l.deflate) == 1;
    ok &= TIFFSetField(t, TIFFTAG_PREDICTOR,
                       l.float32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL) == 1;
  } else {
    ok &= TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE) == 1;
  }
  if (l.tile > 0) {
    ok &= TIFFSetField(t, TIFFTAG_TILEWIDTH, static_cast<std::uint32_t>(l.tile)) == 1;
    ok &= TIFFSetField(t, TIFFTAG_TILELENGTH, static_cast<std::uint32_t>(l.tile)) == 1;
  } else {
    // Strips of about 64 KiB (256 KiB compressed, so that deflate has room to work).
    const std::size_t row_bytes = l.width * s.sample_bytes();
    const std::size_t target = l.deflate > 0 ? 262144 : 65536;
    ok &=
        TIFFSetField(t, TIFFTAG_ROWSPERSTRIP,
                     static_cast<std::uint32_t>(std::clamp<std::size_t>(
                         target / row_bytes, 1, std::min<std::size_t>(l.height, 0xFFFFFFFF)))) == 1;
  }
  if (l.pages > 1) {
    ok &= TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE) == 1;
    ok &= TIFFSetField(t, TIFFTAG_PAGENUMBER, static_cast<std::uint16_t>(s.page),
                       static_cast<std::uint16_t>(std::min<std::size_t>(l.pages, 65535))) == 1;
  }
  if (!l.description.empty())
    ok &= TIFFSetField(t, TIFFTAG_IMAGEDESCRIPTION, l.description.c_str()) == 1;
  check(ok, "libtiff refused the page's fields");
  if (l.geo) write_geo(t, *l.geo);
}

/// Rows [row, row + rows) of the current page, as tiles: the band's tiles, padded with zeros
/// past the image's right and bottom edges.
void write_tile_row(state& s, const std::uint8_t* band, std::size_t rows) {
  const tiff_layout& l = s.layout;
  const std::size_t b = s.sample_bytes(), side = l.tile;
  s.tile_buffer.assign(side * side * b, 0);
  for (std::size_t x = 0; x < l.width; x += side) {
    const std::size_t w = std::min(side, l.width - x);
    std::fill(s.tile_buffer.begin(), s.tile_buffer.end(), std::uint8_t{0});
    for (std::size_t r = 0; r < rows; ++r) {
      std::memcpy(s.tile_buffer.data() + r * side * b, band + (r * l.width + x) * b, w * b);
    }
    const ttile_t index = TIFFComputeTile(s.tiff, static_cast<std::uint32_t>(x),
                                          static_cast<std::uint32_t>(s.row), 0, 0);
    check(TIFFWriteEncodedTile(s.tiff, index, s.tile_buffer.data(),
                               static_cast<tmsize_t>(s.tile_buffer.size())) >= 0,
          "libtiff failed to write a tile");
  }
}

}  // namespace

tiff_writer::tiff_writer(const tiff_layout& layout) : s_(std::make_unique<state>()) {
  open(nullptr, layout);
}

tiff_writer::tiff_writer(pending_file& file, const tiff_layout& layout)
    : s_(std::make_unique<state>()) {
  open(&file, layout);
}

void tiff_writer::open(pending_file* target, const tiff_layout& layout) {
  const tiff_layout& l = layout;
  if (l.width == 0 || l.height == 0 || l.pages == 0 || l.width > 0x7FFFFFFF ||
      l.height > 0x7FFFFFFF || l.pages > 65535) {
    detail::throw_invalid("size", "a TIFF is 1 to 2^31-1 pixels on each side and 1 to 65535 pages");
  }
  if (l.tile != 0 && (l.tile % 16 != 0 || l.tile > max_tiff_tile(l.width, l.height))) {
    detail::throw_invalid("tiff-tiles", "a TIFF tile's side is a multiple of 16 from 16 to " +
                                            std::to_string(k_max_tiff_tile) + ", at most " +
                                            std::to_string(max_tiff_tile(l.width, l.height)) +
                                            " here (the image's longer side rounded up to a "
                                            "multiple of 16), got " +
                                            std::to_string(l.tile));
  }
  if (l.deflate < 0 || l.deflate > 9) detail::throw_invalid("compression", "must be 0 to 9");
  if (l.geo && (l.geo->system.epsg < 1 || l.geo->system.epsg > 65535)) {
    detail::throw_invalid("crs", "GeoTIFF keys hold EPSG codes 1 to 65535");
  }
  s_->layout = layout;
  if (target != nullptr && target->seekable()) s_->file = target;
  s_->pending_target = target;
  TIFFSetErrorHandler(tiff_error);
  TIFFSetWarningHandler(tiff_quiet);
  g_tiff_error.clear();
  const char* mode = l.data_bytes() > k_classic_limit ? "w8" : "w";
  s_->tiff = l.geo ? XTIFFClientOpen("perlin", mode, s_.get(), io_read, io_write, io_seek, io_close,
                                     io_size, io_map, io_unmap)
                   : TIFFClientOpen("perlin", mode, s_.get(), io_read, io_write, io_seek, io_close,
                                    io_size, io_map, io_unmap);
  if (s_->tiff == nullptr) fail("cannot start libtiff");
  start_page(*s_);
}

tiff_writer::~tiff_writer() {
  if (s_ && s_->tiff != nullptr) {
    if (s_->layout.geo) {
      XTIFFClose(s_->tiff);
    } else {
      TIFFClose(s_->tiff);
    }
  }
}

void tiff_writer::write_rows(std::span<const float> samples) {
  write_any(samples.data(), samples.size(), true);
}
void tiff_writer::write_rows(std::span<const std::uint16_t> samples) {
  write_any(samples.data(), samples.size(), false);
}

void tiff_writer::write_any(const void* samples, std::size_t count, bool float32) {
  state& s = *s_;
  const tiff_layout& l = s.layout;
  if (s.finished || float32 != l.float32 || count % l.width != 0) {
    detail::throw_invalid("rows", s.finished             ? "written after finish()"
                                  : float32 != l.float32 ? "of the wrong sample type"
                                                         : "not whole rows");
  }
  const auto* p = static_cast<const std::uint8_t*>(samples);
  std::size_t rows = count / l.width;
  const std::size_t row_bytes = l.width * s.sample_bytes();
  while (rows > 0) {
    if (s.page >= l.pages) detail::throw_invalid("rows", "more rows than the layout's pages hold");
    const std::size_t take = std::min(rows, l.height - s.row);
    if (l.tile > 0) {
      if (take % l.tile != 0 && s.row + take != l.height) {
        detail::throw_invalid("rows", "a band of a tiled TIFF is a multiple of the tile side");
      }
      for (std::size_t r = 0; r < take; r += l.tile) {
        const std::size_t n = std::min(l.tile, take - r);
        write_tile_row(s, p + r * row_bytes, n);
        s.row += n;
      }
    } else {
      for (std::size_t r = 0; r < take; ++r) {
        check(TIFFWriteScanline(s.tiff, const_cast<std::uint8_t*>(p + r * row_bytes),
                                static_cast<std::uint32_t>(s.row + r), 0) == 1,
              "libtiff failed to write a row");
      }
      s.row += take;
    }
    p += take * row_bytes;
    rows -= take;
    if (s.row == l.height) {
      check(TIFFWriteDirectory(s.tiff) == 1, "libtiff failed to write a directory");
      s.row = 0;
      if (++s.page < l.pages) start_page(s);
    }
  }
}

void tiff_writer::finish() {
  state& s = *s_;
  if (s.finished) return;
  if (s.page != s.layout.pages) detail::throw_invalid("rows", "fewer rows than the layout holds");
  if (s.layout.geo) {
    XTIFFClose(s.tiff);
  } else {
    TIFFClose(s.tiff);
  }
  s.tiff = nullptr;
  s.finished = true;
  if (!g_tiff_error.empty()) fail("libtiff failed");
  // A FIFO or device: the file was made in memory.
  if (s.in_memory() && s.pending_target != nullptr)
    s.pending_target->write(s.memory.data(), s.memory.size());
}

std::vector<std::uint8_t> tiff_writer::bytes() { return std::move(s_->memory); }

}  // namespace perlin

namespace perlin {

namespace {

template <class T>
std::vector<std::uint8_t> encode_tiff_in_memory(std::size_t width, std::size_t height,
                                                std::size_t pages, std::span<const T> data,
                                                const std::string& recipe) {
  if (width == 0 || height == 0 || pages == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    detail::throw_size("size", "a TIFF is 1 to 2^31-1 pixels on each side");
  }
  if (data.size() != width * height * pages) detail::throw_size("data", "does not match the size");
  tiff_layout layout;
  layout.width = width;
  layout.height = height;
  layout.pages = pages;
  layout.float32 = std::is_same_v<T, float>;
  layout.description = recipe;
  tiff_writer w(layout);
  w.write_rows(data);
  w.finish();
  return w.bytes();
}

}  // namespace

std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height, std::size_t pages,
                                      std::span<const float> data, const std::string& recipe) {
  return encode_tiff_in_memory(width, height, pages, data, recipe);
}

std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height, std::size_t pages,
                                      std::span<const std::uint16_t> data,
                                      const std::string& recipe) {
  return encode_tiff_in_memory(width, height, pages, data, recipe);
}

}  // namespace perlin
