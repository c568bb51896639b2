// Image and array files for rendered noise: PNG (through libspng) and NumPy .npy. Part of the
// perlin::image library (optional: PERLIN_IMAGE), so that the core library needs Highway alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "perlin/pending_file.hpp"

namespace perlin {

/// Pixel layouts of write_png: 8-bit grey, 16-bit grey (host-endian std::uint16_t samples),
/// 8-bit RGB (3 bytes per pixel).
enum class pixel_format { gray8, gray16, rgb8, rgb16 };
/// Bytes a pixel of `f` takes (16-bit samples in host order; written big-endian).
[[nodiscard]] constexpr std::size_t bytes_per_pixel(pixel_format f) noexcept {
  return f == pixel_format::gray8    ? 1
         : f == pixel_format::gray16 ? 2
         : f == pixel_format::rgb8   ? 3
                                     : 6;
}

/// How PNGs are compressed: the zlib level (0 = stored, 1 = fastest, the default, 9 = smallest)
/// and the threads that deflate bands of rows at once (0 = every core). The bytes depend on the
/// level, never on the thread count.
struct png_options {
  int compression = 1;
  unsigned threads = 0;
  /// The recipe of the field the image shows (docs/recipes.md), written as a tEXt chunk with the
  /// keyword k_recipe_key (embedded_recipe.hpp) when not empty.
  std::string recipe = {};
};

/// Writes a PNG of `width` x `height` pixels, rows top to bottom. `data` holds
/// width * height * (1, 2 or 3 bytes), as `format` says. The file appears complete or not at all
/// (a perlin::pending_file, published when complete). Throws perlin::invalid_argument for a size
/// mismatch and perlin::io_error when the folder does not exist or cannot be written.
void write_png(const std::filesystem::path& path, std::size_t width, std::size_t height,
               pixel_format format, std::span<const std::uint8_t> data,
               const png_options& options = {});
/// The PNG file's bytes, in memory (what write_png writes).
[[nodiscard]] std::vector<std::uint8_t> encode_png(std::size_t width, std::size_t height,
                                                   pixel_format format,
                                                   std::span<const std::uint8_t> data,
                                                   const png_options& options = {});
/// The same into a pending file, left for the caller to publish (several files at once).
void write_png(pending_file& file, std::size_t width, std::size_t height, pixel_format format,
               std::span<const std::uint8_t> data, const png_options& options = {});

/// An animated PNG (APNG: every browser shows it, other viewers show frame 0): frames added one
/// by one (compressed as they come, so only the compressed frames are kept), looping forever at
/// `fps` frames a second.
class apng_writer {
 public:
  apng_writer(std::size_t width, std::size_t height, pixel_format format, unsigned fps,
              const png_options& options = {});
  /// One frame's pixels, as encode_png takes them.
  void add_frame(std::span<const std::uint8_t> data);
  /// The file's bytes.
  [[nodiscard]] std::vector<std::uint8_t> finish();

 private:
  std::size_t width_, height_;
  pixel_format format_;
  unsigned fps_;
  png_options options_;
  std::uint32_t frames_ = 0, sequence_ = 0;
  std::vector<std::uint8_t> body_;
};

/// Writes a float32 NumPy array (.npy format 1.0, C order, the host's byte order as its header
/// says: '<f4' on little-endian hosts) of the given shape, atomically like write_png.
void write_npy(const std::filesystem::path& path, std::span<const std::size_t> shape,
               std::span<const float> data);
void write_npy(pending_file& file, std::span<const std::size_t> shape, std::span<const float> data);
/// The header of a float32 .npy of that shape (the data follows it: the file is written as it is
/// computed). Throws perlin::invalid_argument when the shape's size overflows.
[[nodiscard]] std::vector<std::uint8_t> npy_header(std::span<const std::size_t> shape);
/// The .npy file's bytes, in memory (what write_npy writes).
[[nodiscard]] std::vector<std::uint8_t> encode_npy(std::span<const std::size_t> shape,
                                                   std::span<const float> data);

/// A TIFF (libtiff) of `pages` pages of width x height samples, one sample per pixel: 32-bit
/// float (the raw values, what GIS tools and Blender read) or 16-bit unsigned. In memory.
/// `recipe`, when not empty, is the ImageDescription tag (the field the file holds).
[[nodiscard]] std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height,
                                                    std::size_t pages, std::span<const float> data,
                                                    const std::string& recipe = {});
[[nodiscard]] std::vector<std::uint8_t> encode_tiff(std::size_t width, std::size_t height,
                                                    std::size_t pages,
                                                    std::span<const std::uint16_t> data,
                                                    const std::string& recipe = {});
/// A 16-bit RAW heightmap: unsigned little-endian samples, rows top to bottom, no header (what
/// Unity and Unreal import; Unity wants squares of 2^n + 1).
[[nodiscard]] std::vector<std::uint8_t> encode_raw16(std::size_t width, std::size_t height,
                                                     std::span<const std::uint16_t> data);
/// An OpenEXR image of 32-bit float channels: Y (channels = 1) or R, G, B interleaved (3).
/// `recipe`, when not empty, is a string attribute named k_recipe_key.
[[nodiscard]] std::vector<std::uint8_t> encode_exr(std::size_t width, std::size_t height,
                                                   std::span<const float> data, int channels,
                                                   const std::string& recipe = {});

/// A decoded PNG: samples in file order, 16-bit samples as host-endian std::uint16_t bytes.
struct png_image {
  std::size_t width = 0, height = 0;
  int bit_depth = 0;  // 8 or 16
  int channels = 0;   // 1 grey, 3 RGB, ...
  std::vector<std::uint8_t> data;
};

/// Reads a PNG back (used by the tests and by anyone checking an output). The file is untrusted:
/// sides above 2^24 pixels, chunks above 16 MiB and decoded images above `max_bytes` are refused.
/// Throws perlin::io_error when it cannot be read or decoded, or is over those limits.
[[nodiscard]] png_image read_png(const std::filesystem::path& path,
                                 std::size_t max_bytes = std::size_t{1} << 30);

/// Checks, before any work is done, that a file can be created in the folder of `path`: the
/// folder exists, is a folder, and accepts a new file (an unnamed pending file is opened and
/// discarded: nothing appears in the folder). Throws perlin::io_error naming the problem.
void check_writable(const std::filesystem::path& path);

}  // namespace perlin
