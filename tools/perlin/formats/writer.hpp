// The writers of `perlin render`'s formats, one file each (png.cpp, npy.cpp, raw16.cpp, tiff.cpp,
// exr.cpp), joined to their rows (src/render/formats.hpp: what each format holds and which
// settings apply) by file_format in writers.cpp. Adding a format: its row, its writer file here,
// its line in writers.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "perlin/pending_file.hpp"
#include "perlin/tiff_writer.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

/// Told the fraction of the render evaluated (frame by frame: a frame k of N covers k/N to
/// (k+1)/N).
using progress_fn = std::function<void(double)>;

struct format_writer {
  perlin_render::file_format format;
  /// The bytes of frame `frame`'s file, made in memory: evaluates the frame (band by band where
  /// it can), calls `encoding` when the encoding starts, and encodes.
  std::vector<std::uint8_t> (*file)(const perlin_render::render_plan& r, std::size_t frame,
                                    perlin_render::frame_values& v, const progress_fn& progress,
                                    const std::function<void()>& encoding) = nullptr;
  /// Evaluates frame `frame` band by band into `file`, holding one band only (formats whose row
  /// streams; else null). `system`: a GeoTIFF's CRS (looked up before the render), or null.
  void (*stream)(const perlin_render::render_plan& r, std::size_t frame, perlin::pending_file& file,
                 const perlin::crs* system, const progress_fn& progress) = nullptr;
  /// Every frame into one animated file's bytes (formats whose row is animated; else null):
  /// `progress(k, f)` while frame k evaluates, `encoding(k)` when it is encoded.
  std::vector<std::uint8_t> (*animation)(
      const perlin_render::render_plan& r, perlin_render::frame_values& v,
      const std::function<void(std::size_t, double)>& progress,
      const std::function<void(std::size_t)>& encoding) = nullptr;
};

/// The writer of a format (its row's file_format).
[[nodiscard]] const format_writer& writer_of(perlin_render::file_format f);

namespace writers {

extern const format_writer png, npy, raw16, tiff, exr;

/// A frame's file made from its values: render_frame and the preset's formula, then `encode`.
std::vector<std::uint8_t> from_values(
    const perlin_render::render_plan& r, std::size_t frame, perlin_render::frame_values& v,
    const progress_fn& progress, const std::function<void()>& encoding,
    std::vector<std::uint8_t> (*encode)(const perlin_render::render_plan&,
                                        const perlin_render::frame_values&));
/// 16-bit pixels' bytes as samples.
void as_samples(std::span<const std::uint8_t> bytes, std::vector<std::uint16_t>& samples);
/// The .npy (and volume) shape: [depth,] height, width.
std::vector<std::size_t> values_shape(const perlin_render::render_plan& r);

}  // namespace writers

}  // namespace perlin_cli
