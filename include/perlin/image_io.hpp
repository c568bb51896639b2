// Image and array files for rendered noise: PNG (through libspng) and NumPy .npy. Part of the
// perlin::image library, so that the core library has no dependency.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace perlin {

/// Pixel layouts of write_png: 8-bit grey, 16-bit grey (host-endian std::uint16_t samples),
/// 8-bit RGB (3 bytes per pixel).
enum class pixel_format { gray8, gray16, rgb8 };

/// Writes a PNG of `width` x `height` pixels, rows top to bottom. `data` holds
/// width * height * (1, 2 or 3 bytes), as `format` says. The file appears complete or not at all:
/// it is written to a temporary file in the same folder, flushed, then renamed over `path`.
/// Throws perlin::invalid_argument for a size mismatch and perlin::io_error when the folder does
/// not exist or cannot be written.
void write_png(const std::filesystem::path& path, std::size_t width, std::size_t height,
               pixel_format format, std::span<const std::uint8_t> data);

/// Writes a little-endian float32 NumPy array (.npy format 1.0, C order) of the given shape,
/// atomically like write_png.
void write_npy(const std::filesystem::path& path, std::span<const std::size_t> shape,
               std::span<const float> data);

/// A decoded PNG: samples in file order, 16-bit samples as host-endian std::uint16_t bytes.
struct png_image {
  std::size_t width = 0, height = 0;
  int bit_depth = 0;  // 8 or 16
  int channels = 0;   // 1 grey, 3 RGB, ...
  std::vector<std::uint8_t> data;
};

/// Reads a PNG back (used by the tests and by anyone checking an output). Throws
/// perlin::io_error when it cannot be read or decoded.
[[nodiscard]] png_image read_png(const std::filesystem::path& path);

/// Checks, before any work is done, that a file can be created in the folder of `path`: the
/// folder exists, is a folder, and accepts a new file. Throws perlin::io_error naming the
/// problem.
void check_writable(const std::filesystem::path& path);

}  // namespace perlin
