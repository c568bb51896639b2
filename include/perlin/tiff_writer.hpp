// TIFF files written band by band (libtiff): maps far larger than memory, BigTIFF past 4 GiB,
// strips or tiles, optionally deflate-compressed, and georeferenced as GeoTIFF (libgeotiff) for
// GIS tools. Part of perlin::image.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/pending_file.hpp"

namespace perlin {

/// A coordinate reference system by its EPSG code, as PROJ's database knows it.
struct crs {
  int epsg = 0;
  bool geographic = false;  ///< latitude and longitude (EPSG:4326), else projected (EPSG:32633)
  std::string name;         ///< "WGS 84", "WGS 84 / UTM zone 33N"
};

/// N of "EPSG:N" (the prefix in any case, N from 1 to 65535, GeoTIFF's key range), or 0 for
/// other text: the syntax alone, without PROJ (parse_crs looks N up).
[[nodiscard]] inline int epsg_code(std::string_view text) noexcept {
  if (text.size() < 6 || text.size() > 10) return 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const char c = text[i] >= 'a' && text[i] <= 'z' ? static_cast<char>(text[i] - 32) : text[i];
    if (c != "EPSG:"[i]) return 0;
  }
  int code = 0;
  for (const char c : text.substr(5)) {
    if (c < '0' || c > '9') return 0;
    code = code * 10 + (c - '0');
  }
  return code >= 1 && code <= 65535 ? code : 0;
}

/// Parses "EPSG:N" (any case) and looks N up in PROJ's database. Throws
/// perlin::invalid_argument naming `option` for text that is not EPSG:N, a code PROJ does not
/// know, or a system that is neither geographic 2-D nor projected.
[[nodiscard]] crs parse_crs(const std::string& text, const char* option = "crs");

/// Where a raster lies on the earth: a north-up grid whose pixel (0, 0) has its top-left corner
/// at (origin_x, origin_y) in the CRS's units, pixels pixel_x wide and pixel_y tall (both > 0;
/// rows run south, so GDAL's geotransform is (origin_x, pixel_x, 0, origin_y, 0, -pixel_y)).
struct geo_reference {
  crs system;
  double origin_x = 0, origin_y = 0;
  double pixel_x = 1, pixel_y = 1;
};

/// The largest side of a TIFF tile: 4096 samples (64 MiB of float samples a tile, the buffer a tile
/// is written from; GIS tools use 256 or 512).
inline constexpr std::size_t k_max_tiff_tile = 4096;

/// The largest tile side a width x height image takes: its longer side rounded up to a multiple
/// of 16 (a larger tile only adds padding, to the file and to the tile's buffer), at most
/// k_max_tiff_tile.
[[nodiscard]] constexpr std::size_t max_tiff_tile(std::size_t width, std::size_t height) noexcept {
  const std::size_t longer = width > height ? width : height;
  return longer >= k_max_tiff_tile ? k_max_tiff_tile : (longer + 15) / 16 * 16;
}

/// The layout of a TIFF: `pages` pages of width x height samples, one sample per pixel.
struct tiff_layout {
  std::size_t width = 0, height = 0, pages = 1;
  bool float32 = true;  ///< 32-bit float samples, else 16-bit unsigned
  /// 0: strips of rows; else square tiles of this side (a multiple of 16, as TIFF requires, up to
  /// max_tiff_tile(width, height)).
  std::size_t tile = 0;
  /// 0: uncompressed; 1 to 9: deflate at that zlib level, with the floating-point (float) or
  /// horizontal (16-bit) predictor.
  int deflate = 0;
  /// GeoTIFF tags (model type, CRS, pixel scale and tie point) when set.
  std::optional<geo_reference> geo;
  /// The ImageDescription tag of every page when not empty: the recipe of the field the file
  /// holds (docs/recipes.md; GDAL shows it as TIFFTAG_IMAGEDESCRIPTION).
  std::string description;
  /// Bytes of the samples, uncompressed (the file is about this size, a little more).
  [[nodiscard]] std::uint64_t data_bytes() const noexcept;
  /// Rows a band must hold (a multiple of, for tiles: the tile side; else 1).
  [[nodiscard]] std::size_t rows_multiple() const noexcept { return tile > 0 ? tile : 1; }
};

/// Writes a TIFF into a pending file (or into memory) row band by row band, so that only a band
/// is held: write_rows() takes the next rows of the current page, in order, as many as the
/// caller likes but a multiple of rows_multiple() except at the end of a page. BigTIFF is used
/// when the data could pass 4 GiB. The file is complete after finish(); a writer destroyed
/// before leaves the pending file unpublished (so nothing appears). Throws perlin::io_error
/// when libtiff fails and perlin::invalid_argument for a bad layout or rows out of order.
class tiff_writer {
 public:
  /// Into `file` (which it keeps a reference to until finish()). A file that cannot seek (a
  /// FIFO or device written through) is written from memory at finish().
  tiff_writer(pending_file& file, const tiff_layout& layout);
  /// Into memory: bytes() after finish().
  explicit tiff_writer(const tiff_layout& layout);
  ~tiff_writer();
  tiff_writer(const tiff_writer&) = delete;
  tiff_writer& operator=(const tiff_writer&) = delete;

  void write_rows(std::span<const float> samples);
  void write_rows(std::span<const std::uint16_t> samples);
  /// Writes the last directory; the file is then complete.
  void finish();
  /// The file's bytes (the in-memory writer, after finish()).
  [[nodiscard]] std::vector<std::uint8_t> bytes();

  struct state;

 private:
  void open(pending_file* target, const tiff_layout& layout);
  void write_any(const void* samples, std::size_t count, bool float32);
  std::unique_ptr<state> s_;
};

}  // namespace perlin
