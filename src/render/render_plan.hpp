// `perlin render`'s options, and the plan they resolve to: every decision of a render, made and
// checked before anything is computed or written (pure: testable without files).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "perlin/field.hpp"
#include "perlin/grid.hpp"
#include "presets.hpp"

namespace perlin_render {

/// The options as parsed, before the preset fills in what was not given.
struct render_options {
  noise_options noise;
  std::string output;
  std::string size = "512x512";
  std::optional<std::int64_t> depth;
  std::optional<double> frequency, scale;
  std::string origin, offset;
  std::string preset = "plain";
  int bits = 8;
  std::optional<std::string> colormap;
  std::string range;
  bool stretch = false;
  bool tileable = false;
  std::optional<std::int64_t> frames;
  bool loop = false;
  std::optional<double> loop_radius;  // default: frames x pixel step / pi (2 pixel steps a frame)
  std::optional<double> time_step;
  unsigned threads = 0;
  std::string simd;
  bool quiet = false;
  bool strict = false;
  std::string format;  // png or npy; needed with -o - (standard output), else from the extension
  int compression = 1;  // PNG zlib level 0..9
  bool invert = false;
  bool animated = false;  // --frames into one animated PNG
  unsigned fps = 24;
};

/// Most frames one render writes, and most slices of a volume.
inline constexpr std::int64_t k_max_frames = 1000000;
inline constexpr std::int64_t k_max_depth = 2147483647;

/// The file formats `perlin render` writes (by extension, or --format).
enum class file_format { png, npy, raw16, tiff, exr };

struct render_plan {
  perlin::field field;
  noise_options noise;  // the field's options after the preset filled in what was not given
  formula f = formula::plain;
  std::string output;
  file_format format = file_format::png;
  bool png = true;  // the values are mapped to pixels (PNG, RAW, 16-bit TIFF, EXR with a colormap)
  int bits = 8;
  std::shared_ptr<const colormap> cmap;  // null: grey; a preset's, or a custom gradient
  bool invert = false;             // map t to 1 - t
  bool shaded = false;             // terrain relief lit by the analytic gradient
  std::size_t width = 0, height = 0, depth = 0;  // depth 0: a 2-D image
  std::size_t dims = 2;            // of the grid: 2, 3 (volume or frames), 4 (looping frames)
  std::size_t frames = 0;          // 0: one file, no frame number
  bool loop = false;
  double loop_radius = 1;
  double time_step = 0;
  std::array<double, 4> step{};
  std::array<double, 4> origin{};
  std::array<std::int64_t, 4> first{};
  double lo = -1, hi = 1;          // the values mapped to black and white
  bool stretch = false;
  double marble_stripes = k_marble_stripes;
  perlin::bulk_options bulk;
  std::string simd;
  bool quiet = false;
  bool to_stdout = false;          // -o -
  int compression = 1;             // PNG zlib level
  bool animated = false;           // the frames go into one animated PNG (APNG) at `output`
  unsigned fps = 24;
  /// Options that were given but change nothing here (printed as warnings by the CLI).
  std::vector<std::string> warnings;

  /// Samples per frame (width x height x max(1, depth)).
  [[nodiscard]] std::size_t samples() const noexcept;
  /// The pixel grid of frame k (0 when there are no frames).
  [[nodiscard]] perlin::grid frame_grid(std::size_t frame) const;
  /// FILE, or FILE_0000.ext ... with at least 4 digits, as many as the last frame needs.
  [[nodiscard]] std::string frame_path(std::size_t frame) const;
};

/// Resolves the options against the preset; `given(name)` says whether an option was on the
/// command line. Throws usage_error (exit 2) or perlin::invalid_argument for bad options.
render_plan resolve(render_options o, const std::function<bool(const char*)>& given);

}  // namespace perlin_render
