// The render settings by name: one typed table (a row each: name, type, range or choices, help,
// the render_options member it sets) that the CLI's flags, the server's query and the page's
// controls, Python's perlin.render keywords, `perlin options` and the recipes' render part all
// go through. A value is parsed once, when set, with the option table's parsers
// (runtime/text.hpp), so every front reads "+8", "1e3" or "0x10" the same way; resolve() then
// checks only combinations.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <type_traits>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "perlin/tiff_writer.hpp"
#include "render_plan.hpp"
#include "runtime/text.hpp"

namespace perlin_render {

namespace {

/// Runs `body`, turning the table parsers' perlin::invalid_argument "NAME: ..." into a
/// setting_error naming the setting (which the CLI words as its flag).
template <class F>
void as_setting(std::string_view name, F&& body) {
  try {
    body();
  } catch (const perlin::unknown_option&) {
    throw;
  } catch (const perlin::invalid_argument& e) {
    std::string_view what = e.what();
    const std::string prefix = std::string(name) + ": ";
    if (what.substr(0, prefix.size()) == prefix) what.remove_prefix(prefix.size());
    bad_setting(name, "{}", {what}, e.kind());
  }
}

}  // namespace

namespace {

bool whole_offsets(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) {
    return x == std::floor(x) && std::abs(x) < 4503599627370496.0;
  });
}
bool positive_pair(const std::vector<double>& v) { return v[0] > 0 && v[1] > 0; }

}  // namespace

namespace {

/// What is sampled: the preset, the grid and the volume.
std::vector<render_setting_info> sampling_settings() {
  using o = render_options;
  using t = setting_type;
  return {
      {.name = "preset",
       .type = t::text,
       .help = "Preset: plain, clouds, marble, wood, terrain, ridges or warped (docs/render.md). A "
               "preset sets field options too (plain samples the rotated plane): `perlin recipe "
               "--preset P [options]` prints the field it renders, which `perlin eval --recipe` "
               "evaluates",
       .member = &o::preset},
      {.name = "size",
       .type = t::size2,
       .help = "Image size WxH in pixels",
       .has_range = true,
       .max = 2147483647,
       .shape = "WxH",
       .member = &o::size},
      {.name = "step",
       .type = t::number,
       .help = "Distance between neighbouring pixels in noise units",
       .unset = "the preset's, 1/64 for plain",
       .has_range = true,
       .min_exclusive = true,
       .member = &o::step},
      {.name = "scale",
       .type = t::number,
       .help = "Pixels per noise unit (1 / step)",
       .has_range = true,
       .min_exclusive = true,
       .member = &o::scale},
      {.name = "origin",
       .type = t::list,
       .help = "Noise coordinates X,Y[,Z[,W]] of pixel (0, 0)",
       .min_count = 2,
       .max_count = 4,
       .member = &o::origin},
      {.name = "offset",
       .type = t::list,
       .help = "Pixel index of the top-left pixel, I,J[,K]: pixel (i, j) samples origin + (I + i, "
               "J + j) * step, so tiles match a whole render exactly",
       .min_count = 2,
       .max_count = 3,
       .rule = whole_offsets,
       .rule_error = "pixel offsets are integers below 2^52",
       .member = &o::offset},
      {.name = "depth",
       .type = t::integer,
       .help = "Render a volume of this many slices, 1 to 2147483647 (.npy or .tif)",
       .has_range = true,
       .min = 1,
       .max = static_cast<double>(k_max_depth),
       .member = &o::depth},
  };
}

/// How values become pixels.
std::vector<render_setting_info> mapping_settings() {
  using o = render_options;
  using t = setting_type;
  return {
      {.name = "colormap",
       .type = t::text,
       .help = "grey, clouds, marble, wood, terrain, heat or flow (RGB), or stops T:#RRGGBB,... "
               "(0:#1a3d6b,0.45:#e8d9a0,1:#ffffff)",
       .unset = "the preset's",
       .member = &o::colormap},
      {.name = "bits",
       .type = t::integer,
       .help = "Bit depth of grey PNG and TIFF images: 8 or 16",
       .values = {8, 16},
       .member = &o::bits},
      {.name = "range",
       .type = t::range,
       .help = "MIN,MAX of the values mapped to black and white, or 'bound' (the true bound)",
       .unset = "the true bound for 16-bit grey heightmaps (they never clip), else the field's "
                "typical range (full contrast)",
       .min_count = 2,
       .max_count = 2,
       .member = &o::range},
      {.name = "invert",
       .type = t::flag,
       .help = "Map high values to the start of the colormap (black for grey)",
       .member = &o::invert},
      {.name = "stretch",
       .type = t::flag,
       .help = "Map each image's own min and max instead (tiles will not match)",
       .member = &o::stretch},
      {.name = "tileable",
       .type = t::flag,
       .help = "Make the image wrap seamlessly (adjusts the step)",
       .member = &o::tileable},
  };
}

/// Frames and tiles.
std::vector<render_setting_info> sequence_settings() {
  using o = render_options;
  using t = setting_type;
  return {
      {.name = "frames",
       .type = t::integer,
       .help = "Write N frames (1 to 1000000): {frame} in -o numbers them (-o 'f_{frame}.png': "
               "f_0000.png ...); without it FILE_0000.png ...",
       .has_range = true,
       .min = 1,
       .max = static_cast<double>(k_max_frames),
       .member = &o::frames},
      {.name = "loop",
       .type = t::flag,
       .help = "Frames loop seamlessly (a circle through 4-D noise)",
       .member = &o::loop},
      {.name = "loop-radius",
       .type = t::number,
       .help = "Radius of the loop's circle in noise units",
       .unset = "frames x step / pi, 2 pixel steps a frame",
       .has_range = true,
       .min_exclusive = true,
       .member = &o::loop_radius},
      {.name = "time-step",
       .type = t::number,
       .help = "Without --loop: z step between frames",
       .unset = "the step",
       .member = &o::time_step},
      {.name = "animated",
       .type = t::flag,
       .help = "With --frames: one animated PNG (APNG) instead of numbered files",
       .member = &o::animated},
      {.name = "fps",
       .type = t::integer,
       .help = "Frames a second of --animated",
       .has_range = true,
       .min = 1,
       .max = 1000,
       .member = &o::fps},
      {.name = "tiles",
       .type = t::size2,
       .help = "CxR: write C x R tiles of --size WxH each, neighbours sharing their edge row and "
               "column (tile (i, j) starts at pixel (i(W-1), j(H-1)), Unity's 2^n+1 convention); "
               "the output names them with {x} and {y}: -o 'tile_{x}_{y}.png'",
       .has_range = true,
       .max = 1024,
       .unit = "tiles",
       .shape = "CxR",
       .member = &o::tiles},
  };
}

/// Planets, normal maps and georeferencing.
std::vector<render_setting_info> projection_settings() {
  using o = render_options;
  using t = setting_type;
  return {
      {.name = "projection",
       .type = t::choice,
       .help = "equirect: the 3-D field on a sphere around --origin, as a planet's "
               "equirectangular texture (pixel (i, j) of WxH at longitude -pi + 2 pi (i + 0.5) / "
               "W, latitude pi/2 - pi (j + 0.5) / H); cubemap: its six square faces, OpenGL's "
               "cube-map orientation, named by {face} (px nx py ny pz nz) in -o (docs/render.md)",
       .choices = {"equirect", "cubemap", "plane"},
       .member = &o::projection},
      {.name = "radius",
       .type = t::number,
       .help = "With --projection: the sphere's radius in noise units",
       .unset = "a pixel is one step wide on the equator, W step / 2 pi, or on average across a "
                "cube face, 2 W step / pi",
       .has_range = true,
       .min_exclusive = true,
       .member = &o::radius},
      {.name = "normals",
       .type = t::choice,
       .help = "Write the tangent-space normal map of the height instead: opengl (green up) or "
               "directx (green down), RGB PNG of --bits 8 or 16, from the analytic gradient "
               "(docs/render.md)",
       .choices = {"opengl", "directx", "none"},
       .member = &o::normals},
      {.name = "height-scale",
       .type = t::number,
       .help = "With --normals: world height per unit of noise, in noise units",
       .unset = "1",
       .has_range = true,
       .min_exclusive = true,
       .member = &o::height_scale},
      {.name = "tiff-tiles",
       .type = t::integer,
       .help = "A tiled TIFF of N x N tiles (N a multiple of 16, such as 256 or 512, at most 4096 "
               "and the image's longer side rounded up to 16) instead of strips",
       .member = &o::tiff_tiles},
      {.name = "crs",
       .type = t::epsg,
       .help = "EPSG:N: a GeoTIFF in that coordinate reference system (such as EPSG:4326 or "
               "EPSG:32633), checked in PROJ's database; .tif only",
       .member = &o::crs},
      {.name = "geo-origin",
       .type = t::list,
       .help = "With --crs: X,Y of the top-left corner of the whole map's pixel (0, 0), in the "
               "CRS's units",
       .unset = "0,0",
       .min_count = 2,
       .max_count = 2,
       .member = &o::geo_origin},
      {.name = "geo-pixel-size",
       .type = t::list,
       .help = "With --crs: DX,DY, a pixel's width and height in the CRS's units, both > 0; rows "
               "run south",
       .unset = "1,1",
       .min_count = 2,
       .max_count = 2,
       .rule = positive_pair,
       .rule_error = "DX and DY are both > 0 (rows run south)",
       .member = &o::geo_pixel_size},
  };
}

}  // namespace

const std::vector<render_setting_info>& render_settings() {
  static const std::vector<render_setting_info> table = [] {
    std::vector<render_setting_info> all = sampling_settings();
    for (auto&& part : {mapping_settings(), sequence_settings(), projection_settings()})
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return table;
}

std::string_view to_string(setting_type t) noexcept {
  switch (t) {
    case setting_type::flag:
      return "flag";
    case setting_type::integer:
      return "integer";
    case setting_type::number:
      return "number";
    case setting_type::text:
      return "text";
    case setting_type::choice:
      return "choice";
    case setting_type::size2:
      return "size";
    case setting_type::list:
      return "list";
    case setting_type::range:
      return "range";
    case setting_type::epsg:
      return "crs";
  }
  return "";
}

namespace {

namespace d = perlin::detail;

std::string whole_text(double v) { return std::to_string(static_cast<std::int64_t>(v)); }

std::string list_text(const std::vector<double>& v) {
  std::string out;
  for (const double x : v) out += (out.empty() ? "" : ",") + d::number_text(x);
  return out;
}

/// "A" of "AxB": an integer from 1 to 2147483647.
std::size_t size_part(const std::string& n, std::string_view text, std::string_view part) {
  std::size_t v = 0;
  const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v == 0 ||
      v > 0x7FFFFFFF) {
    d::throw_invalid(n, d::quoted(text) + " is not AxB with A and B from 1 to 2147483647");
  }
  return v;
}

std::vector<double> parse_numbers(const render_setting_info& s, const std::string& n,
                                  std::string_view text) {
  const auto bad = [&] {
    d::throw_invalid(n, d::quoted(text) + " is not a comma-separated list of " +
                            std::to_string(s.min_count) + " to " + std::to_string(s.max_count) +
                            " finite numbers");
  };
  std::vector<double> out;
  try {
    for (const auto item : d::split_list(n, text)) out.push_back(d::parse_number(n, item));
  } catch (const perlin::invalid_argument&) {
    bad();
  }
  if (out.size() < s.min_count || out.size() > s.max_count) bad();
  if (s.rule != nullptr && !s.rule(out)) d::throw_invalid(n, std::string(s.rule_error));
  return out;
}

}  // namespace

void render_setting_info::set(render_options& o, std::string_view text) const {
  const std::string n(name);
  if (text.size() > 4096) d::throw_invalid(n, "value too long");
  switch (type) {
    case setting_type::flag:
      o.*std::get<bool render_options::*>(member) = d::parse_flag(n, text);
      return;
    case setting_type::integer: {
      const auto v = d::parse_integer<std::int64_t>(n, text);
      if (!values.empty() && std::find(values.begin(), values.end(), v) == values.end()) {
        std::string list;
        for (std::size_t k = 0; k < values.size(); ++k)
          list += (k == 0                   ? ""
                   : k + 1 == values.size() ? " or "
                                            : ", ") +
                  std::to_string(values[k]);
        d::throw_invalid(n, "must be " + list);
      }
      if (has_range && (static_cast<double>(v) < min || static_cast<double>(v) > max)) {
        d::throw_invalid(n, "must be " + whole_text(min) + " to " + whole_text(max) + ", got " +
                                std::to_string(v));
      }
      std::visit(
          [&](auto m) {
            using T = std::remove_reference_t<decltype(o.*m)>;
            if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                          std::is_same_v<T, std::optional<std::int64_t>>) {
              using V = std::conditional_t<std::is_same_v<T, std::optional<std::int64_t>>,
                                           std::int64_t, T>;
              o.*m = static_cast<V>(v);
            }
          },
          member);
      return;
    }
    case setting_type::number: {
      const double v = d::parse_number(n, text);
      if (has_range && min_exclusive && !(v > min)) {
        d::throw_invalid(n, "must be > " + d::number_text(min));
      }
      o.*std::get<std::optional<double> render_options::*>(member) = v;
      return;
    }
    case setting_type::text:
      std::visit(
          [&](auto m) {
            using T = std::remove_reference_t<decltype(o.*m)>;
            if constexpr (std::is_same_v<T, std::string> ||
                          std::is_same_v<T, std::optional<std::string>>)
              o.*m = std::string(text);
          },
          member);
      return;
    case setting_type::choice: {
      const auto at = std::find(choices.begin(), choices.end(), text);
      if (at == choices.end()) d::throw_invalid(n, perlin::unknown_choice(text, choices));
      const auto index = at - choices.begin();
      std::visit(
          [&](auto m) {
            using T = std::remove_reference_t<decltype(o.*m)>;
            if constexpr (std::is_enum_v<T>) o.*m = static_cast<T>(index);
          },
          member);
      return;
    }
    case setting_type::size2: {
      const std::size_t x = text.find('x');
      if (x == std::string_view::npos)
        d::throw_invalid(n, d::quoted(text) + " is not " + std::string(shape));
      const std::array<std::size_t, 2> v{size_part(n, text, text.substr(0, x)),
                                         size_part(n, text, text.substr(x + 1))};
      if (has_range && (static_cast<double>(v[0]) > max || static_cast<double>(v[1]) > max)) {
        d::throw_invalid(n, "at most " + whole_text(max) + "x" + whole_text(max) + " " +
                                std::string(unit) + ", got " + std::string(text));
      }
      o.*std::get<std::array<std::size_t, 2> render_options::*>(member) = v;
      return;
    }
    case setting_type::list:
      o.*std::get<std::vector<double> render_options::*>(member) = parse_numbers(*this, n, text);
      return;
    case setting_type::range: {
      render_range r{.is = render_range::bound};
      if (text != "bound") {
        const auto v = parse_numbers(*this, n, text);
        if (!(v[0] < v[1])) d::throw_invalid(n, "MIN must be below MAX");
        r = {.is = render_range::pair, .lo = v[0], .hi = v[1]};
      }
      o.*std::get<render_range render_options::*>(member) = r;
      return;
    }
    case setting_type::epsg:
      if (perlin::epsg_code(text) == 0) {
        d::throw_invalid(n, d::quoted(text) +
                                " is not EPSG:N with N from 1 to 65535 (such as EPSG:4326 or "
                                "EPSG:32633)");
      }
      o.*std::get<std::string render_options::*>(member) = std::string(text);
      return;
  }
}

std::string render_setting_info::get(const render_options& o) const {
  return std::visit(
      [&](auto m) -> std::string {
        const auto& v = o.*m;
        using T = std::remove_cvref_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>) {
          return v ? std::to_string(*v) : "";
        } else if constexpr (std::is_same_v<T, std::optional<double>>) {
          return v ? d::number_text(*v) : "";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          return v.value_or("");
        } else if constexpr (std::is_same_v<T, std::array<std::size_t, 2>>) {
          return v[0] == 0 ? "" : std::to_string(v[0]) + "x" + std::to_string(v[1]);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          return list_text(v);
        } else if constexpr (std::is_same_v<T, render_range>) {
          return v.is == render_range::typical ? ""
                 : v.is == render_range::bound ? "bound"
                                               : list_text({v.lo, v.hi});
        } else {
          return std::string(choices.at(static_cast<std::size_t>(v)));
        }
      },
      member);
}

std::string render_setting_info::help_with_default() const {
  if (is_flag()) return std::string(help);
  const std::string value = default_text();
  if (!value.empty()) return std::string(help) + " (default " + value + ")";
  if (!unset.empty()) return std::string(help) + " (default: " + std::string(unset) + ")";
  return std::string(help);
}

std::string render_setting_info::domain() const {
  const auto counts = [&] {
    return min_count == max_count ? std::to_string(min_count)
                                  : std::to_string(min_count) + " to " + std::to_string(max_count);
  };
  switch (type) {
    case setting_type::flag:
      return "1, 0, true or false";
    case setting_type::integer:
      if (!values.empty()) {
        std::string list;
        for (std::size_t k = 0; k < values.size(); ++k)
          list += (k == 0                   ? ""
                   : k + 1 == values.size() ? " or "
                                            : ", ") +
                  std::to_string(values[k]);
        return list;
      }
      return has_range ? whole_text(min) + " to " + whole_text(max) : "";
    case setting_type::number:
      return has_range && min_exclusive ? "> " + d::number_text(min) : "";
    case setting_type::text:
      return "";
    case setting_type::choice: {
      std::string list = "one of: ";
      for (std::size_t k = 0; k < choices.size(); ++k)
        list += (k == 0 ? "" : ", ") + std::string(choices[k]);
      return list;
    }
    case setting_type::size2:
      return std::string(shape) + ", 1 to " + whole_text(max) + " each";
    case setting_type::list:
      return counts() + " numbers" + (rule_error.empty() ? "" : ": " + std::string(rule_error));
    case setting_type::range:
      return "MIN,MAX (MIN below MAX) or bound";
    case setting_type::epsg:
      return "EPSG:N, N from 1 to 65535";
  }
  return "";
}

const render_setting_info* find_render_setting(std::string_view name) {
  for (const auto& s : render_settings()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool render_options::was_given(std::string_view name) const {
  return std::any_of(settings.begin(), settings.end(),
                     [&](const auto& p) { return p.first == name; }) ||
         std::find(given.begin(), given.end(), name) != given.end();
}

void set_render_setting(render_options& o, std::string_view name, std::string_view value) {
  namespace d = perlin::detail;
  const render_setting_info* s = find_render_setting(name);
  if (s == nullptr) {
    std::vector<std::string_view> names;
    for (const auto& r : render_settings()) names.push_back(r.name);
    for (const auto& r : perlin::field_options()) names.push_back(r.name);
    const std::string near = perlin::closest_name(name, names);
    perlin::detail::throw_unknown_option("unknown option " + d::quoted(name) +
                                         (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  as_setting(name, [&] { s->set(o, value); });
  const auto same = [&](const auto& p) { return p.first == name; };
  o.settings.erase(std::remove_if(o.settings.begin(), o.settings.end(), same), o.settings.end());
  o.settings.emplace_back(std::string(name), std::string(value));
}

option_pairs render_setting_pairs(const render_options& o) {
  option_pairs out;
  for (const auto& s : render_settings()) {
    for (const auto& [name, value] : o.settings) {
      if (name != s.name) continue;
      // Flags in canonical form; a flag set to false is the default: left out.
      if (s.is_flag()) {
        if (perlin::detail::parse_flag(name, value)) out.emplace_back(name, "true");
      } else {
        out.emplace_back(name, value);
      }
    }
  }
  return out;
}

std::string recipe_of(const perlin::field_spec& spec, const render_options& o) {
  // The field's recipe (the whole field: a recipe replaces a preset's field options when read
  // back), then the render settings that were given.
  std::string out = perlin::to_recipe(spec);
  for (const auto& [name, value] : render_setting_pairs(o)) {
    if (name == "preset" && value == "plain") continue;
    out += '&';
    out += name;
    out += '=';
    out += perlin::recipe_escape(value);
  }
  return out;
}

}  // namespace perlin_render
