// The output formats of `perlin render`: one row each, what the format holds and how the render's
// settings apply to it. The rows are the capabilities only (no encoder: perlin_render is built
// without perlin::image for Python and WebAssembly); each format's writer is its own file of the
// CLI (tools/perlin/formats/), joined to its row by file_format.
//
// Adding a format: its file_format value, its row in formats.cpp, and its writer file in
// tools/perlin/formats/ (listed in writers.cpp). resolve()'s checks, `perlin render --help`, the
// messages that list formats and docs/render.md's table (perlin options --formats --markdown)
// read the rows.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace perlin_render {

/// The file formats `perlin render` writes (by extension, or --format), in the rows' order.
enum class file_format { png, npy, raw16, tiff, exr };

struct render_plan;

/// A refusal of a setting with a format: bad_setting(setting, text), or bad_use when `use`
/// (the setting is the subject of the text).
struct format_refusal {
  std::string_view setting;
  std::string_view text;
  bool use = false;
  [[noreturn]] void raise() const;
};

/// When a render's values are mapped to pixels (the plan's `png`: colormap, bit depth, invert)
/// rather than written as the float values.
enum class pixel_rule { always, never, with_bits16, with_colormap };

/// What colormaps a format takes.
enum class colormap_rule { any, grey, none };

struct format_info {
  file_format id = file_format::png;
  /// --format's name, and the extensions that choose it (lower case; any case is accepted).
  std::string_view name = {};
  std::vector<std::string_view> extensions = {};
  /// How messages and help name it: short (".npy", "RAW", "EXR") and in full ("16-bit RAW",
  /// "OpenEXR"); what --output's help adds after its extensions ("float32"), or empty.
  std::string_view label = {}, title = {}, holds = {};
  /// What it holds, in words (the docs' table).
  std::string_view description = {};
  pixel_rule pixels = pixel_rule::always;
  /// The `bits` it accepts when given (empty: none), the refusal of others, and the bit depth it
  /// always has (0: `bits`).
  std::vector<int> bits = {};
  format_refusal bits_refusal = {};
  int fixed_bits = 0;
  colormap_rule colormaps = colormap_rule::any;
  format_refusal colormap_refusal = {};
  /// How a volume (`depth`) and a normal map (`normals`) are written, in the words of the
  /// messages that list the formats (".tif (pages)", "EXR (float RGB)"); empty: not at all.
  std::string_view volumes = {}, normals = {};
  /// The most slices a volume may have here (0: `depth`'s own limit).
  std::size_t max_depth = 0;
  /// A whole frame made in memory, or written band by band as it is computed (fixed black and
  /// white, to a file).
  bool streams = false;
  /// `compression` applies (zlib/deflate level); TIFF tiles and GeoTIFF tags (`tiff-tiles`,
  /// `crs`); one animated file of the frames (`animated`).
  bool compression = false, tiled = false, georeferenced = false, animated = false;
  /// Bytes a sample needs at the peak of a frame, beyond the values' and the gradient's
  /// (`values`): the pixels (`pixel_bytes` each), the encoded file and the format's own copies.
  std::uint64_t (*peak_bytes)(const render_plan& r, std::uint64_t values,
                              std::uint64_t pixel_bytes) = nullptr;
};

/// Every format, in file_format's order: png, npy, raw, tiff, exr.
[[nodiscard]] std::span<const format_info> formats();
[[nodiscard]] const format_info& format_row(file_format f);
/// The format named by --format or by an extension (".png"), in lower case; nullptr if none.
[[nodiscard]] const format_info* find_format(std::string_view name);
[[nodiscard]] const format_info* find_format_by_extension(std::string_view extension);

/// "a, b or c": the texts of the rows that have one, joined as a sentence lists them.
[[nodiscard]] std::string join_or(const std::vector<std::string>& items,
                                  std::string_view sep = ", ");
/// Every row's extensions (".png, .npy, .r16 or .raw, ..."), the names for --format ("png, npy,
/// raw, tiff or exr"), and --output's help (".png, .npy, .r16/.raw (16-bit RAW), ...").
[[nodiscard]] std::string format_extensions_text();
[[nodiscard]] std::string format_names_text();
[[nodiscard]] std::string format_output_help();
/// The table in Markdown: docs/render.md's (perlin options --formats --markdown).
[[nodiscard]] std::string formats_markdown();

}  // namespace perlin_render
