// `perlin render`'s options, and the plan they resolve to: every decision of a render, made and
// checked before anything is computed or written (pure: testable without files).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "formats.hpp"
#include "options.hpp"
#include "perlin/field.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
#include "presets.hpp"

namespace perlin_render {

/// --range: the field's typical range (not given), the true bound, or MIN,MAX.
struct render_range {
  enum kind { typical, bound, pair } is = typical;
  double lo = 0, hi = 0;
};
/// --projection and --normals, in the order of their rows' choices.
enum class projection_kind { equirect, cubemap, plane };
enum class normals_kind { opengl, directx, none };

/// The options as parsed, before the preset fills in what was not given. The render settings
/// (render_settings(): one row each) are typed members, parsed once when set; their defaults are
/// the initialisers here (a row's default_text() reads them). An unset optional: the preset's or
/// the render's own default.
struct render_options {
  /// Field options given (the option table's names, in the order given): applied on top of the
  /// preset's and then the recipe's field options.
  option_pairs field;
  /// --recipe: a recipe (option_table.hpp). It names the field completely: its field options
  /// replace the preset's (the preset still gives the formula, colormap and step), and its render
  /// settings (size, step, colormap ...) apply where the options do not set them.
  std::string recipe;
  /// The field options given are a whole field (a query that is a recipe, "perlin=1&..."): the
  /// preset's field options are not applied.
  bool field_complete = false;
  /// The render settings given by name (set_render_setting), as the text given, in the order
  /// given: what a render's recipe echoes.
  option_pairs settings;
  /// Other options given (by name without "--": "compression"), for the checks that depend on it.
  std::vector<std::string> given;
  std::string output;
  unsigned threads = 0;
  std::string simd;
  bool quiet = false;
  bool strict = false;
  std::string format;   // png or npy; needed with -o - (standard output), else from the extension
  int compression = 1;  // PNG zlib level 0..9

  // The render settings (one row each in settings.cpp).
  std::string preset = "plain";
  std::array<std::size_t, 2> size{512, 512};
  std::optional<double> step, scale;
  std::vector<double> origin;  // 2 to 4 numbers, or empty
  std::vector<double> offset;  // 2 or 3 integers below 2^52, or empty
  std::optional<std::int64_t> depth;
  std::optional<std::string> colormap;
  int bits = 8;
  render_range range;
  bool invert = false;
  bool stretch = false;
  bool tileable = false;
  std::optional<std::int64_t> frames;
  bool loop = false;
  std::optional<double> loop_radius;  // default: frames x pixel step / pi (2 pixel steps a frame)
  std::optional<double> time_step;
  bool animated = false;  // --frames into one animated PNG
  unsigned fps = 24;
  std::array<std::size_t, 2> tiles{0, 0};  // CxR: engine tiles that share their edges; 0x0 none
  projection_kind projection = projection_kind::plane;  // equirect: the field on a sphere
  std::optional<double> radius;               // with projection: the sphere's radius in noise units
  normals_kind normals = normals_kind::none;  // opengl | directx: a normal map, not the height
  std::optional<double> height_scale;         // with normals: world height per unit of noise
  std::optional<std::int64_t> tiff_tiles;     // a tiled TIFF of this side
  std::string crs;                            // EPSG:N (checked when set): a GeoTIFF
  std::vector<double> geo_origin, geo_pixel_size;  // X,Y and DX,DY in the CRS's units

  [[nodiscard]] bool was_given(std::string_view name) const;
};

/// How a render setting's value is written as text; one parser per type (runtime/text.hpp's,
/// the option table's): a flag is 1, 0, true or false; an integer and a number as in the option
/// table; text is kept as given (checked by resolve: a preset, a colormap); a choice is one of
/// its names; size2 is AxB of integers from 1 to 2147483647; a list is min_count to max_count
/// comma-separated numbers; range is 'bound' or a list of 2; epsg is EPSG:N.
enum class setting_type { flag, integer, number, text, choice, size2, list, range, epsg };
[[nodiscard]] std::string_view to_string(setting_type t) noexcept;

/// Where a row's value lives in render_options.
using setting_member =
    std::variant<bool render_options::*, int render_options::*, unsigned render_options::*,
                 std::optional<std::int64_t> render_options::*,
                 std::optional<double> render_options::*, std::string render_options::*,
                 std::optional<std::string> render_options::*,
                 std::array<std::size_t, 2> render_options::*,
                 std::vector<double> render_options::*, render_range render_options::*,
                 projection_kind render_options::*, normals_kind render_options::*>;

/// A render setting that a recipe, a query, a keyword or a flag sets by name (without "--"): one
/// row of the table. Adding a setting is one row in settings.cpp and its member in
/// render_options (and what resolve makes of it).
struct render_setting_info {
  std::string_view name;
  setting_type type = setting_type::text;
  std::string_view help;
  /// What an unset default means, in words ("the preset's"), or empty.
  std::string_view unset = {};
  /// Integers and numbers: the inclusive bounds (`min_exclusive`: greater than min); size2: the
  /// most of each part (`unit` names them in the error: "at most 1024x1024 tiles").
  bool has_range = false;
  double min = 0, max = 0;
  bool min_exclusive = false;
  std::string_view unit = {};
  /// size2: the shape's letters ("WxH"); list: the counts; integer: the only values allowed
  /// (bits: 8 or 16) when not empty.
  std::string_view shape = {};
  std::size_t min_count = 0, max_count = 0;
  std::vector<std::int64_t> values = {};
  /// A choice's names (in its enum's order), the texts a list's items must satisfy.
  std::vector<std::string_view> choices = {};
  /// A list: a rule the parsed items must meet, and the error when they do not.
  bool (*rule)(const std::vector<double>&) = nullptr;
  std::string_view rule_error = {};
  setting_member member = {};

  [[nodiscard]] bool is_flag() const noexcept { return type == setting_type::flag; }
  /// Parses `text` with the type's parser, checks its range, choices or rule, and stores it;
  /// throws perlin::invalid_argument "NAME: ..." (o unchanged on error).
  void set(render_options& o, std::string_view text) const;
  /// The value as text ("" when unset).
  [[nodiscard]] std::string get(const render_options& o) const;
  /// The default as text: get(render_options{}), so defaults are written once.
  [[nodiscard]] std::string default_text() const { return get(render_options{}); }
  /// The help with the default: "Image size WxH in pixels (default 512x512)", or what an unset
  /// one means ("(default: the preset's)"); flags have none.
  [[nodiscard]] std::string help_with_default() const;
  /// "1 to 1000", "> 0", "one of: equirect, cubemap, plane", "2 to 4 numbers": in words.
  [[nodiscard]] std::string domain() const;
};
using render_setting = render_setting_info;

/// Every render setting, in the order `perlin render --help` and recipes list them: preset,
/// size, step, scale, origin, offset, depth, colormap, bits, range, invert, stretch, tileable,
/// frames, loop, loop-radius, time-step, animated, fps, tiles, projection, radius, normals,
/// height-scale, tiff-tiles, crs, geo-origin, geo-pixel-size.
[[nodiscard]] const std::vector<render_setting_info>& render_settings();
/// The setting of that name, or nullptr.
[[nodiscard]] const render_setting_info* find_render_setting(std::string_view name);
/// Sets one render setting from text through its row (render_setting_info::set), and records
/// the text in `settings` (replacing an earlier value); throws setting_error naming NAME, or
/// perlin::unknown_option for a name that is not a setting.
void set_render_setting(render_options& o, std::string_view name, std::string_view value);
/// The render settings of `o` that were given, as recipe pairs, in render_setting_names() order.
[[nodiscard]] option_pairs render_setting_pairs(const render_options& o);

/// Most frames one render writes, and most slices of a volume.
inline constexpr std::int64_t k_max_frames = 1000000;
inline constexpr std::int64_t k_max_depth = 2147483647;

struct render_plan {
  perlin::field field;
  perlin::field_spec
      spec;            // the field's options after the preset and the recipe filled in the rest
  std::string recipe;  // recipe_of the render (before --tileable set the periods)
  formula f = formula::plain;
  std::string output;
  file_format format = file_format::png;
  bool png = true;  // the values are mapped to pixels (PNG, RAW, 16-bit TIFF, EXR with a colormap)
  int bits = 8;
  std::shared_ptr<const colormap> cmap;  // null: grey; a preset's, or a custom gradient
  bool invert = false;                   // map t to 1 - t
  bool shaded = false;                   // terrain relief lit by the analytic gradient
  /// A normal map instead of the height: 0 none, +1 OpenGL (green up), -1 DirectX (green down),
  /// the sign of the green channel's y axis; with the world height per unit of noise.
  int normals = 0;
  double height_scale = 1;
  /// The render evaluates the gradient too (a relief or a normal map).
  [[nodiscard]] bool with_gradient() const noexcept { return shaded || normals != 0; }
  std::size_t width = 0, height = 0, depth = 0;  // depth 0: a 2-D image
  std::size_t dims = 2;    // of the grid: 2, 3 (volume or frames), 4 (looping frames)
  std::size_t frames = 0;  // 0: one file, no frame number
  bool loop = false;
  double loop_radius = 1;
  double time_step = 0;
  std::array<double, 4> step{};
  std::array<double, 4> origin{};
  std::array<std::int64_t, 4> first{};
  double lo = -1, hi = 1;  // the values mapped to black and white
  bool stretch = false;
  double marble_stripes = k_marble_stripes;
  perlin::bulk_options bulk;
  std::string simd;
  /// Where the values come from: empty, the library's bulk paths on the CPU; else a device's
  /// fill of a band's grid (perlin render --device gpu: perlin::gpu_grid), values only (the
  /// front refuses a gradient or a sphere with it).
  std::function<void(const perlin::grid&, std::span<float>)> device;
  bool quiet = false;
  bool to_stdout = false;  // -o -
  int compression = 1;     // PNG zlib level
  bool animated = false;   // the frames go into one animated PNG (APNG) at `output`
  /// The equirectangular projection of the 3-D field on a sphere of this radius around the origin
  /// (0: the plane).
  double sphere_radius = 0;
  /// With a sphere: its six cube faces (files 0 to 5: +x, -x, +y, -y, +z, -z) instead of the
  /// equirectangular texture.
  bool cubemap = false;
  /// Engine tiles: tiles_x x tiles_y files of width x height, tile (i, j) at pixel
  /// (i (width - 1), j (height - 1)) of the whole map; 0 when there are none.
  std::size_t tiles_x = 0, tiles_y = 0;
  unsigned fps = 24;
  /// TIFF layout: tiles of this side (0: strips) and the deflate level (0: none, from
  /// --compression when it is given).
  std::size_t tiff_tile = 0;
  int tiff_deflate = 0;
  /// GeoTIFF: the CRS as given (EPSG:N; looked up in PROJ's database by the CLI before it
  /// writes), the top-left corner of the whole map's pixel (0, 0) and the pixel size, in the
  /// CRS's units. Empty crs: not georeferenced.
  std::string crs;
  std::array<double, 2> geo_origin{0, 0}, geo_pixel{1, 1};
  /// The file is written as it is computed, band by band (render_bands): .npy, RAW and TIFF
  /// with fixed black and white, to a file. Its memory is then a band's, whatever the size.
  bool streamed = false;
  /// The rows of a streamed image's bands are a multiple of this (a tiled TIFF's tile side).
  std::size_t band_multiple = 1;
  /// Samples per band: a frame is evaluated (and the progress callback called) band by band.
  /// The server makes them small, so that its time budget is checked often.
  std::size_t band_samples = std::size_t{1} << 20;
  /// Options that were given but change nothing here (printed as warnings by the CLI).
  std::vector<std::string> warnings;

  /// Samples per frame (width x height x max(1, depth)).
  [[nodiscard]] std::size_t samples() const noexcept;
  /// The files the render writes (frames, or tiles; 1 for a single image), each from
  /// frame_grid(k) to frame_path(k).
  [[nodiscard]] std::size_t files() const noexcept {
    return frames > 0 ? frames : tiles_x > 0 ? tiles_x * tiles_y : cubemap ? 6 : 1;
  }
  /// The pixel grid of frame (or tile) k (0 when there are no frames); tile k is (k % tiles_x,
  /// k / tiles_x).
  [[nodiscard]] perlin::grid frame_grid(std::size_t frame) const;
  /// FILE; for frames FILE with {frame} replaced by the frame's number, or FILE_0000.ext ...
  /// without {frame} (at least 4 digits, as many as the last frame needs); for
  /// tiles, FILE with {x} and {y} replaced by the tile's column and row; for a cubemap's faces,
  /// {face} by px, nx, py, ny, pz, nz.
  [[nodiscard]] std::string frame_path(std::size_t frame) const;
};

/// Resolves the options against the preset and the recipe. Throws setting_error for bad render
/// settings and combinations, perlin::invalid_argument for bad field options.
render_plan resolve(render_options o);

/// The field a render of `o` samples: the preset's field options, then the recipe's (a recipe
/// names the whole field: it replaces the preset's), then the options given; the aligned plane
/// where periods need it. The recipe's render settings that `o` did not give are set in `o`.
/// What `perlin recipe --preset` prints and resolve() renders. Throws setting_error (an unknown
/// preset) or perlin::invalid_argument.
[[nodiscard]] perlin::field_spec render_field(render_options& o);

/// The recipe of a render: the field's recipe (to_recipe: the whole field), then the render
/// settings that were given, so `perlin render --recipe` renders the same picture and
/// perlin.Field.from_recipe evaluates the same field.
[[nodiscard]] std::string recipe_of(const perlin::field_spec& spec, const render_options& o);

/// The pixel format of the plan's pixels (render_pixels): RGB with a colormap, else grey of its
/// bit depth. One chooser for the CLI's PNGs and the server's.
inline perlin::pixel_format pixel_format_of(const render_plan& r) {
  if (r.normals != 0)
    return r.bits == 16 ? perlin::pixel_format::rgb16 : perlin::pixel_format::rgb8;
  return r.cmap != nullptr ? perlin::pixel_format::rgb8
         : r.bits == 16    ? perlin::pixel_format::gray16
                           : perlin::pixel_format::gray8;
}

}  // namespace perlin_render
