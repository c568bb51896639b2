// resolve(): the options of `perlin render` checked and turned into a render_plan.
#include "render_plan.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numbers>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/graph.hpp"
#include "perlin/option_table.hpp"
#include "perlin/range.hpp"
#include "perlin/tiff_writer.hpp"
#include "runtime/text.hpp"

namespace perlin_render {

namespace {

/// Renders needing more than this are refused before anything is allocated.
constexpr std::uint64_t k_memory_limit = std::uint64_t{4} << 30;  // 4 GiB

/// a * b, or nothing when it overflows 64 bits.
std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
  if (b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b) return std::nullopt;
  return a * b;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The format from --format, or from the extension (in any case: .PNG is .png); "-" is standard
/// output and needs no extension. The formats and their extensions are formats()' rows.
void resolve_output(const render_options& o, render_plan& r) {
  r.output = o.output;
  r.to_stdout = o.output == "-";
  const std::string ext = lower(std::filesystem::path(o.output).extension().string());
  const format_info* row = nullptr;
  if (o.format.empty()) {
    row = find_format_by_extension(ext);
    if (row == nullptr && r.to_stdout) row = &format_row(file_format::png);
    if (row == nullptr) {
      const std::string valid = format_extensions_text();
      if (ext.empty())
        bad_setting("output", "'{}' has no extension ({}), or give `format`", {o.output, valid});
      bad_setting("output", "cannot write '{}' files (valid: {})", {ext, valid});
    }
  } else {
    row = find_format(lower(o.format));
    if (row == nullptr) {
      std::vector<std::string_view> names;
      for (const auto& f : formats()) names.push_back(f.name);
      bad_setting("format", "{}", {perlin::unknown_choice(o.format, names)});
    }
  }
  r.format = row->id;
  if (std::filesystem::path(o.output).filename() == "." ||
      std::filesystem::path(o.output).filename() == "..") {
    bad_setting("output", "'{}' is a folder; give a file name", {o.output});
  }
  switch (row->pixels) {
    case pixel_rule::always:
      r.png = true;
      break;
    case pixel_rule::never:
      r.png = false;
      break;
    case pixel_rule::with_bits16:
      r.png = o.bits == 16;
      break;
    case pixel_rule::with_colormap:
      r.png = o.colormap.has_value();
      break;
  }
}

/// Options that change nothing with the resolved settings: a warning, or an error where the
/// option can only have been a mistake.
void check_unused(const render_options& o, const render_plan& r,
                  std::vector<std::string>& warnings) {
  std::vector<std::string> given;
  for (const auto& [name, value] : o.field) given.push_back(name);
  for (std::string& w : perlin::unused_options(r.spec, given)) warnings.push_back(std::move(w));
  if (o.was_given("loop-radius") && !r.loop) bad_use("loop-radius", "needs `frames` N and `loop`");
  if (o.was_given("time-step") && (r.frames == 0 || r.loop)) {
    bad_use("time-step", "needs `frames` N without `loop` (a loop moves around a circle)");
  }
  if (r.to_stdout && (r.frames > 0 || o.tiles[0] > 0))
    bad_setting("`output` -", "frames and tiles are separate files; give a file name");
}

void resolve_size(const render_options& o, render_plan& r) {
  r.width = o.size[0];
  r.height = o.size[1];
  if (o.depth) r.depth = static_cast<std::size_t>(*o.depth);
  if (o.frames) r.frames = static_cast<std::size_t>(*o.frames);
  if (r.frames > 0 && r.depth > 0) bad_use("`frames` and `depth`", "cannot be combined");
  if (o.tiles[0] > 0) {
    r.tiles_x = o.tiles[0];
    r.tiles_y = o.tiles[1];
    if (r.frames > 0 || r.depth > 0)
      bad_setting("tiles", "tiles are 2-D images; `frames` and `depth` cannot be combined");
    if (r.width < 2 || r.height < 2)
      bad_setting("tiles", "tiles share an edge, so each is at least 2x2 pixels");
    if (o.output.find("{x}") == std::string::npos || o.output.find("{y}") == std::string::npos)
      bad_setting("tiles",
                  "the output names each tile with {x} and {y}, as in -o 'tile_{x}_{y}.png'");
  }
  if (o.loop && r.frames == 0) bad_use("loop", "needs `frames` N");
  if (r.depth > 0 && format_row(r.format).volumes.empty()) {
    std::vector<std::string> written;
    for (const auto& f : formats())
      if (!f.volumes.empty()) written.emplace_back(f.volumes);
    bad_setting("depth", "a volume is written as " + join_or(written) + "; this format is 2-D");
  }
  r.loop = o.loop;
  r.dims = r.frames > 0 ? (r.loop ? 4 : 3) : (r.depth > 0 ? 3 : 2);
}

void resolve_pixels(const render_options& o, const preset& pr, bool bits_given, render_plan& r) {
  r.bits = o.bits;
  const format_info& row = format_row(r.format);
  if (bits_given && std::find(row.bits.begin(), row.bits.end(), o.bits) == row.bits.end())
    row.bits_refusal.raise();
  if (o.colormap && (row.colormaps == colormap_rule::none ||
                     (row.colormaps == colormap_rule::grey && *o.colormap != "grey")))
    row.colormap_refusal.raise();
  if (row.fixed_bits != 0) r.bits = row.fixed_bits;
  const std::string name = o.colormap.value_or(r.bits == 16 ? "grey" : pr.colormap);
  if (name.find(':') != std::string::npos) {
    r.cmap = std::make_shared<const colormap>(parse_colormap(name));
  } else {
    const colormap* builtin = find_colormap(name);
    if (builtin == nullptr) {
      std::vector<std::string_view> valid;
      for (const auto& m : colormaps()) valid.push_back(m.name);
      bad_setting("colormap", "{}",
                  {perlin::unknown_choice(name, valid, "", "or stops T:#RRGGBB,...")});
    }
    // Built-in maps live for the whole program: a shared_ptr that owns nothing.
    if (builtin != &colormaps().front() && r.png)
      r.cmap = std::shared_ptr<const colormap>(std::shared_ptr<void>(), builtin);
  }
  if (!r.png) r.cmap = nullptr;  // grey (one channel), or .npy
  if (r.cmap != nullptr && r.bits == 16) {
    bad_use("`bits` 16", "is for grey images; a colormap gives 8-bit RGB");
  }
  r.shaded = r.cmap != nullptr && pr.shaded;
  if (o.normals != normals_kind::none) {
    if (row.normals.empty()) {
      std::vector<std::string> written;
      for (const auto& f : formats())
        if (!f.normals.empty()) written.emplace_back(f.normals);
      bad_setting("normals", "a normal map is written as " + join_or(written));
    }
    if (o.colormap) bad_use("`normals` and `colormap`", "are alternatives");
    if (r.f != formula::plain) {
      bad_setting("normals",
                  "marble and wood are formulas of the noise, not a height; "
                  "use another preset (terrain, clouds ...)");
    }
    if (r.depth > 0) bad_setting("normals", "a normal map is 2-D; `depth` makes a volume");
    if (o.invert || o.stretch || o.range.is != render_range::typical)
      bad_setting("normals", "`invert`, `stretch` and `range` map heights, not normals");
    r.normals = o.normals == normals_kind::opengl ? 1 : -1;
    r.cmap = nullptr;
    r.shaded = false;
    r.height_scale = o.height_scale.value_or(1.0);
  } else if (o.height_scale) {
    bad_use("height-scale", "needs `normals`");
  }
  r.invert = o.invert;
  if (r.invert && !r.png) bad_use("invert", "applies to .png output; .npy holds the raw values");
}

double resolve_step(const render_options& o, const preset& pr) {
  if (o.step && o.scale) bad_use("`step` and `scale`", "are alternatives; give one");
  double step = pr.step;
  if (o.step) step = *o.step;
  if (o.scale) step = 1.0 / *o.scale;
  if (!(step > 0) || !std::isfinite(step)) bad_setting("step", "must be > 0");
  return step;
}

/// --tileable: whole lattice periods across, periods on the noise, marble's stripes rounded.
void resolve_tiling(double step, render_plan& r) {
  perlin::field_spec& spec = r.spec;
  if (r.f == formula::wood) bad_setting("tileable", "the wood preset's rings cannot wrap");
  if (spec.lacunarity != std::floor(spec.lacunarity) || spec.lacunarity >= 4294967296.0) {
    bad_setting("tileable", "needs an integer `lacunarity` below 2^32, so that every octave wraps");
  }
  if (!spec.period.empty()) bad_use("tileable", "sets the periods itself; drop `period`");
  // A warp tiles when P x warp-frequency is whole (warp.hpp): P becomes a multiple of the
  // smallest m that makes m x warp-frequency whole.
  double multiple = 1;
  if (spec.warp != "none") {
    while (multiple <= 1024 &&
           spec.warp_frequency * multiple != std::floor(spec.warp_frequency * multiple)) {
      ++multiple;
    }
    if (multiple > 1024) {
      bad_setting("tileable",
                  "a warped field tiles only when `warp-frequency` is a fraction with a "
                  "denominator up to 1024 (such as 0.25 or 1.5)");
    }
  }
  // A whole number of lattice cells must fit: P = round(W * S * F) cells across (S the step, F
  // the field's frequency; at least 1, and a multiple of m), and the step becomes P / (W F), so
  // pixel W lands one period after pixel 0 (exactly when F is 1 or a power of two).
  std::vector<std::int64_t> periods;
  const std::size_t extent[3] = {r.width, r.height, r.depth};
  const double f = spec.frequency;
  for (std::size_t k = 0; k < (r.depth > 0 ? 3u : 2u); ++k) {
    const double cells =
        multiple * std::max(1.0, std::round(static_cast<double>(extent[k]) * step * f / multiple));
    if (!(cells <= static_cast<double>(perlin::k_max_period))) {
      bad_setting("tileable", "more than 2^31-1 lattice cells across");
    }
    r.step[k] = cells / f / static_cast<double>(extent[k]);
    periods.push_back(static_cast<std::int64_t>(cells));
  }
  spec.period = periods;
  if (r.f == formula::marble) {
    const double cells = r.step[0] * static_cast<double>(r.width);
    r.marble_stripes = std::max(1.0, std::round(k_marble_stripes * cells)) / cells;
  }
}

void resolve_placement(const render_options& o, render_plan& r) {
  if (!o.origin.empty()) {
    const auto& v = o.origin;
    for (std::size_t k = 0; k < v.size(); ++k) r.origin[k] = v[k];
    // An image with --origin X,Y,Z (or X,Y,Z,W) is the slice z = Z (and w = W) of the 3-D (4-D)
    // field; frames and volumes already sample those axes.
    if (r.frames == 0 && r.depth == 0) r.dims = v.size();
  } else if (r.f == formula::wood) {
    // The rings' centre at pixel (256, 256) whatever the size, so that a region rendered with
    // --offset is the crop of the whole picture (the default 512x512 render is centred).
    r.origin[0] = -256 * r.step[0];
    r.origin[1] = -256 * r.step[1];
  }
  for (std::size_t k = 0; k < o.offset.size(); ++k)
    r.first[k] = static_cast<std::int64_t>(o.offset[k]);
}

/// Every coordinate the render samples lies within |x| <= 2^52 (what `perlin eval` accepts, and
/// the domain make_field's overflow rule assumes): the grid's corners, the loop's circle and the
/// frames' slices.
void check_coordinates(const render_plan& r) {
  constexpr double k_max = perlin::k_max_coordinate;
  const auto check = [](double v, std::size_t axis) {
    if (!(std::abs(v) <= k_max)) {
      bad_setting("`origin`, `offset`, `step`",
                  "the pixels would sample the coordinate {} on axis {}, beyond 2^52 (the "
                  "coordinates every front accepts)",
                  {perlin::detail::number_text(v), std::to_string(axis)});
    }
  };
  // The first and last sample along x, y (and z of a volume).
  if (r.sphere_radius > 0) {  // the sphere around the origin
    for (std::size_t k = 0; k < 3; ++k) check(std::abs(r.origin[k]) + r.sphere_radius, k);
    return;
  }
  // Tiles: the last one ends at pixel (C - 1)(W - 1) + W - 1 of the whole map.
  const std::size_t tx = std::max<std::size_t>(1, r.tiles_x),
                    ty = std::max<std::size_t>(1, r.tiles_y);
  const std::size_t last[3] = {tx * (r.width - 1), ty * (r.height - 1),
                               r.depth > 0 ? r.depth - 1 : 0};
  for (std::size_t k = 0; k < (r.depth > 0 ? 3u : 2u); ++k) {
    check(r.origin[k] + static_cast<double>(r.first[k]) * r.step[k], k);
    check(r.origin[k] +
              static_cast<double>(r.first[k] + static_cast<std::int64_t>(last[k])) * r.step[k],
          k);
  }
  if (r.frames > 0 && r.loop) {  // a circle of radius R around (Z, W)
    for (std::size_t k = 2; k < 4; ++k) check(std::abs(r.origin[k]) + r.loop_radius, k);
  } else if (r.frames > 0) {  // the slices z = Z + k T
    check(r.origin[2] + static_cast<double>(r.first[2] + static_cast<std::int64_t>(r.frames - 1)) *
                            r.time_step,
          2);
  } else {
    for (std::size_t k = r.depth > 0 ? 3 : 2; k < 4; ++k) check(r.origin[k], k);
  }
}

/// A 16-bit grey heightmap (PNG, RAW or TIFF pixels): mapped with the true bound by default.
bool heightmap(const render_plan& r) { return r.png && r.bits == 16 && r.cmap == nullptr; }

void resolve_range(const render_options& o, render_plan& r) {
  if (r.f == formula::marble) {
    r.lo = -1;
    r.hi = 1;
  } else if (r.f == formula::wood) {
    r.lo = 0;
    r.hi = 1;
  } else if (o.range.is == render_range::bound ||
             (o.range.is == render_range::typical && heightmap(r))) {
    // The true bound: never clamps. The default of 16-bit grey heightmaps, where a clamped
    // plateau is an artefact (docs/render.md); it still uses half the levels or more.
    std::tie(r.lo, r.hi) = r.field.range(r.dims);
  } else {
    std::tie(r.lo, r.hi) = r.field.typical_range(r.dims);
  }
  if (o.range.is == render_range::pair) {
    r.lo = o.range.lo;
    r.hi = o.range.hi;
  }
  r.stretch = o.stretch;
  if (r.stretch && o.range.is != render_range::typical)
    bad_use("`stretch` and `range`", "are alternatives");
}

/// Bytes a sample needs at the peak of a frame, every copy counted: the float values, a relief's
/// gradient, the pixels, and the encoded file (noise barely compresses), plus the format's own
/// intermediate copies (its row's peak_bytes: 16-bit samples copied out of the pixels, colours
/// widened to float).
std::uint64_t bytes_per_sample(const render_plan& r) {
  const std::uint64_t pixel_bytes =
      r.png ? (r.normals != 0 ? 3 * static_cast<std::uint64_t>(r.bits / 8)
               : r.cmap       ? 3
                              : static_cast<std::uint64_t>(r.bits / 8))
            : 0;
  const std::uint64_t values = 4 + (r.with_gradient() ? 4 * r.dims : 0);
  return format_row(r.format).peak_bytes(r, values, pixel_bytes);
}

/// TIFF tiles and compression, GeoTIFF tags, and whether the file is written band by band.
void resolve_file_layout(const render_options& o, render_plan& r) {
  const format_info& row = format_row(r.format);
  if (o.tiff_tiles) {
    if (!row.tiled) bad_setting("tiff-tiles", "tiles are a TIFF layout; write a .tif");
    const auto most = static_cast<std::int64_t>(perlin::max_tiff_tile(r.width, r.height));
    if (*o.tiff_tiles < 16 || *o.tiff_tiles > most || *o.tiff_tiles % 16 != 0) {
      bad_setting("tiff-tiles",
                  "a TIFF tile's side is a multiple of 16 from 16 to {}, at most {} here (the "
                  "image's longer side rounded up to a multiple of 16), got {}",
                  {std::to_string(perlin::k_max_tiff_tile), std::to_string(most),
                   std::to_string(*o.tiff_tiles)});
    }
    r.tiff_tile = static_cast<std::size_t>(*o.tiff_tiles);
  }
  if (row.tiled && row.compression && o.was_given("compression")) r.tiff_deflate = o.compression;
  if (row.max_depth != 0 && r.depth > row.max_depth) {
    bad_setting("depth", "a " + std::string(row.label) + " holds at most " +
                             std::to_string(row.max_depth) + " pages");
  }
  if (o.crs.empty()) {
    if (!o.geo_origin.empty() || !o.geo_pixel_size.empty())
      bad_use("`geo-origin` and `geo-pixel-size`", "need `crs` EPSG:N");
  } else {
    if (!row.georeferenced)
      bad_setting("crs", "georeferencing is written as GeoTIFF tags; write a .tif");
    r.crs = o.crs;
    if (!o.geo_origin.empty()) r.geo_origin = {o.geo_origin[0], o.geo_origin[1]};
    if (!o.geo_pixel_size.empty()) r.geo_pixel = {o.geo_pixel_size[0], o.geo_pixel_size[1]};
  }
  r.streamed = !r.to_stdout && !r.stretch && !o.animated && row.streams;
  r.band_multiple = r.depth == 0 && r.tiff_tile > 0 ? r.tiff_tile : 1;
}

void check_memory(const render_plan& r) {
  const std::uint64_t per_sample = bytes_per_sample(r);
  // A streamed file holds one band: its lines (rows, or slices of a volume) of samples.
  std::optional<std::uint64_t> bytes;
  if (r.streamed) {
    const std::uint64_t line = r.depth > 0 ? std::uint64_t{r.width} * r.height : r.width;
    const std::uint64_t lines =
        std::max<std::uint64_t>(r.band_multiple, std::max<std::uint64_t>(1, r.band_samples / line));
    bytes = mul(line, std::min<std::uint64_t>(lines, r.depth > 0 ? r.depth : r.height));
  } else {
    bytes = mul(r.width, r.height);
    if (bytes) bytes = mul(*bytes, std::max<std::uint64_t>(1, r.depth));
  }
  if (bytes) bytes = mul(*bytes, per_sample);
  if (!bytes || *bytes > k_memory_limit) {
    const double need = r.streamed ? static_cast<double>(r.width) *
                                         static_cast<double>(std::max<std::size_t>(
                                             r.band_multiple, r.depth > 0 ? r.height : 1)) *
                                         static_cast<double>(per_sample)
                                   : static_cast<double>(r.width) * static_cast<double>(r.height) *
                                         std::max(1.0, static_cast<double>(r.depth)) *
                                         static_cast<double>(per_sample);
    char text[64];
    std::snprintf(text, sizeof text, "%.0f", need);
    // Of kind size: the server answers it 413 (too large), not 400.
    bad_setting("size",
                "the render would need {} bytes of memory{}, over the limit of {} bytes (4 GiB)",
                {text, r.streamed ? " for one band of rows" : "", std::to_string(k_memory_limit)},
                perlin::error_kind::size);
  }
}

/// --projection: the sphere (a planet's equirectangular texture or its cube faces) and its
/// radius, and what cannot be combined with it.
void resolve_projection(const render_options& o, render_plan& r) {
  if (o.projection != projection_kind::plane) {
    if (r.frames > 0 || r.depth > 0 || r.tiles_x > 0) {
      bad_setting("projection",
                  "a planet is a 2-D texture; `frames`, `depth` and `tiles` cannot be combined "
                  "with it");
    }
    if (!o.offset.empty()) bad_setting("projection", "`offset` crops the plane only");
    r.cubemap = o.projection == projection_kind::cubemap;
    if (r.cubemap) {
      if (r.width != r.height)
        bad_setting("`projection` cubemap", "the faces are square; give `size` NxN");
      if (o.output.find("{face}") == std::string::npos || r.to_stdout) {
        bad_setting("`projection` cubemap",
                    "the output names each face with {face}, as in -o 'planet_{face}.png'");
      }
    }
    const double w = static_cast<double>(r.width) * r.step[0];
    r.sphere_radius =
        o.radius.value_or(r.cubemap ? 2 * w / std::numbers::pi : w / (2 * std::numbers::pi));
    if (!std::isfinite(r.sphere_radius)) bad_setting("radius", "must be finite");
    r.dims = 3;
  } else if (o.radius) {
    bad_use("radius", "needs `projection` equirect or cubemap");
  }
}

/// PNG and TIFF compression, and --animated's APNG with its --fps.
void resolve_encoding(const render_options& o, render_plan& r) {
  if (o.compression < 0 || o.compression > 9) {
    bad_setting("compression", "must be 0 to 9, got {}", {std::to_string(o.compression)});
  }
  if (o.was_given("compression") && !format_row(r.format).compression) {
    std::vector<std::string> without;
    for (const auto& f : formats())
      if (!f.compression) without.emplace_back(f.label);
    r.warnings.push_back("--compression has no effect on " + join_or(without) + " files");
  }
  r.compression = o.compression;
  if (o.animated) {
    if (r.frames == 0) bad_use("animated", "needs `frames` N");
    if (!format_row(r.format).animated || r.to_stdout)
      bad_use("animated", "writes one .png file (an APNG)");
  }
  if (o.was_given("fps") && !o.animated) bad_use("fps", "needs `animated`");
  r.animated = o.animated;
  r.fps = o.fps;
}

}  // namespace

/// The placeholders of -o: {frame} with --frames (not --animated), {x} and {y} with --tiles,
/// {face} with a cube map; any other {...} is refused (a misspelt one would name every file the
/// same). Tiles whose names collide (-o 't{x}{y}.png': tile (1, 10) and (11, 0) are both
/// t110.png) are refused before any work.
void check_output_names(const render_plan& r) {
  std::vector<std::string_view> valid;
  if (r.frames > 0 && !r.animated) valid.push_back("{frame}");
  if (r.tiles_x > 0) valid.insert(valid.end(), {"{x}", "{y}"});
  if (r.cubemap) valid.push_back("{face}");
  const std::string& out = r.output;
  for (std::size_t at = out.find('{'); at != std::string::npos; at = out.find('{', at + 1)) {
    const std::size_t end = out.find('}', at);
    const std::string_view token = std::string_view(out).substr(
        at, end == std::string::npos ? std::string::npos : end - at + 1);
    if (std::find(valid.begin(), valid.end(), token) != valid.end()) continue;
    std::string list;
    for (const auto v : valid) list += (list.empty() ? "" : ", ") + std::string(v);
    bad_setting("output",
                "'{}' in '{}' is not a placeholder {}; the placeholders are {frame} with `frames`, "
                "{x} and {y} with `tiles`, {face} with `projection` cubemap",
                {token, out,
                 list.empty() ? "of this render, which writes one file"
                              : "this render fills (valid here: " + list + ")"});
  }
  if (r.tiles_x == 0) return;
  std::unordered_map<std::string, std::size_t> seen;
  seen.reserve(r.files());
  for (std::size_t k = 0; k < r.files(); ++k) {
    const auto [it, added] = seen.emplace(r.frame_path(k), k);
    if (added) continue;
    const auto tile = [&](std::size_t i) {
      return "(" + std::to_string(i % r.tiles_x) + ", " + std::to_string(i / r.tiles_x) + ")";
    };
    bad_setting("tiles",
                "tiles {} and {} would both be written to '{}'; separate {x} and {y}, as in -o "
                "'tile_{x}_{y}.png'",
                {tile(it->second), tile(k), it->first});
  }
}

const preset& preset_of(const render_options& o) {
  const preset* found = find_preset(o.preset);
  if (found == nullptr) {
    std::vector<std::string_view> valid;
    for (const auto& p : presets()) valid.push_back(p.name);
    bad_setting("preset", "{}", {perlin::unknown_choice(o.preset, valid, "")});
  }
  return *found;
}

perlin::field_spec render_field(render_options& o) {
  // The recipe's render settings fill in what the options did not give; its field options come
  // after the preset's and before the options'.
  option_pairs recipe_field;
  if (!o.recipe.empty()) {
    for (auto& [name, value] : perlin::recipe_pairs(o.recipe)) {
      if (perlin::find_option(name) != nullptr) {
        if (!names(o.field, name)) recipe_field.emplace_back(name, value);
      } else if (!o.was_given(name)) {
        set_render_setting(o, name, value);
      }
    }
  }
  const preset& pr = preset_of(o);
  perlin::field_spec spec;
  // A recipe names the whole field: the preset's field options give way to it.
  if (o.recipe.empty() && !o.field_complete) apply_options(spec, pr.field);
  apply_options(spec, recipe_field);
  apply_options(spec, o.field);
  // Periods (--tileable's or --period) need the lattice-aligned plane: a preset's rotated plane
  // gives way to them unless the plane was asked for.
  const bool periodic = o.tileable || !spec.period.empty();
  // So does a kind that turns its lattice itself (OpenSimplex2: --orientation).
  const auto kinds = perlin::noise_kind_names();
  const bool turns_itself =
      std::find(kinds.begin(), kinds.end(), spec.noise) != kinds.end() &&
      !perlin::detail::noise_kind_of(perlin::parse_noise_kind(spec.noise)).no_rotated.empty();
  if ((periodic || turns_itself) && !names(o.field, "plane") && !names(recipe_field, "plane"))
    spec.plane = "aligned";
  return spec;
}

namespace {

/// The field of a graph recipe (JSON, or a recipe of another version than 1: docs/graphs.md),
/// whose fields carry their own options, with the render settings it carries applied where not
/// given; nullopt for a version-1 recipe (which field options may override) or none.
std::optional<perlin::field> graph_of(render_options& o, perlin::field_spec& spec) {
  if (!recipe_is_graph(o.recipe)) return std::nullopt;
  if (!o.field.empty())
    bad_setting(o.field[0].first,
                "a graph's fields take their options in the graph (ID.NAME=VALUE), not as flags");
  option_pairs skipped;
  perlin::field f = perlin::field_from_text(o.recipe, &spec, &skipped);
  for (const auto& [name, value] : skipped)
    if (!o.was_given(name)) set_render_setting(o, name, value);
  if (o.tileable && f.graph() != nullptr)
    bad_use("tileable", "does not tile a graph yet; give its fields periods (ID.period=P)");
  return f;
}

}  // namespace

render_plan resolve(render_options o) {
  render_plan r;
  const std::optional<perlin::field> graph = graph_of(o, r.spec);
  if (!graph) r.spec = render_field(o);
  const preset& pr = preset_of(o);
  r.f = pr.f;
  r.recipe = recipe_of(r.spec, o);
  // A graph's recipe is the graph's, then the render settings (a one-field graph is its field).
  if (graph && graph->graph() != nullptr)
    r.recipe = graph->graph()->recipe() + r.recipe.substr(perlin::to_recipe(r.spec).size());

  resolve_output(o, r);
  resolve_size(o, r);
  resolve_pixels(o, pr, o.was_given("bits"), r);
  const double freq = resolve_step(o, pr);
  // By default the circle moves 2 pixel steps a frame: a loop that flows instead of boiling.
  r.loop_radius = o.loop_radius.value_or(static_cast<double>(std::max<std::size_t>(1, r.frames)) *
                                         freq / std::numbers::pi);
  r.time_step = o.time_step.value_or(freq);

  r.step = {freq, freq, freq, 1};
  if (o.tileable) resolve_tiling(freq, r);
  r.field = graph && graph->graph() != nullptr ? *graph : perlin::make_field(r.spec);
  resolve_placement(o, r);
  resolve_projection(o, r);
  check_coordinates(r);
  resolve_range(o, r);
  resolve_file_layout(o, r);
  check_memory(r);
  check_unused(o, r, r.warnings);
  resolve_encoding(o, r);
  check_output_names(r);
  r.bulk = {.threads = o.threads, .strict = o.strict};
  r.simd = o.simd;
  r.quiet = o.quiet;
  return r;
}

std::size_t render_plan::samples() const noexcept {
  return width * height * std::max<std::size_t>(1, depth);
}

perlin::grid render_plan::frame_grid(std::size_t frame) const {
  perlin::grid g;
  g.dims = dims;
  g.count = {width, height, std::max<std::size_t>(1, depth), 1};
  g.origin = origin;
  g.step = step;
  g.first = first;
  if (tiles_x > 0) {  // tile (i, j) starts at pixel (i (W - 1), j (H - 1)): shared edges
    g.first[0] += static_cast<std::int64_t>((frame % tiles_x) * (width - 1));
    g.first[1] += static_cast<std::int64_t>((frame / tiles_x) * (height - 1));
  } else if (frames > 0 && loop) {
    // A circle in the two extra dimensions: frame N is frame 0 again.
    const double angle =
        2 * std::numbers::pi * static_cast<double>(frame) / static_cast<double>(frames);
    g.origin[2] = origin[2] + loop_radius * std::cos(angle);
    g.origin[3] = origin[3] + loop_radius * std::sin(angle);
    g.count[2] = g.count[3] = 1;
    g.first[2] = g.first[3] = 0;
  } else if (frames > 0) {
    g.step[2] = time_step;
    g.first[2] = first[2] + static_cast<std::int64_t>(frame);
    g.count[2] = 1;
  }
  return g;
}

std::string render_plan::frame_path(std::size_t frame) const {
  if (cubemap) {
    static constexpr const char* names[6] = {"px", "nx", "py", "ny", "pz", "nz"};
    std::string out = output;
    for (std::size_t at = out.find("{face}"); at != std::string::npos; at = out.find("{face}", at))
      out.replace(at, 6, names[frame]);
    return out;
  }
  if (tiles_x > 0) {
    std::string out = output;
    const auto put = [&](const std::string& key, std::size_t v) {
      for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at))
        out.replace(at, key.size(), std::to_string(v));
    };
    put("{x}", frame % tiles_x);
    put("{y}", frame / tiles_x);
    return out;
  }
  if (frames == 0 || animated) return output;
  const int digits = std::max(4, static_cast<int>(std::to_string(frames - 1).size()));
  char num[32];
  std::snprintf(num, sizeof num, "%0*zu", digits, frame);
  if (output.find("{frame}") != std::string::npos) {
    std::string out = output;
    for (std::size_t at = out.find("{frame}"); at != std::string::npos;
         at = out.find("{frame}", at))
      out.replace(at, 7, num);
    return out;
  }
  const std::filesystem::path p(output);
  return (p.parent_path() / (p.stem().string() + "_" + num + p.extension().string())).string();
}

}  // namespace perlin_render
