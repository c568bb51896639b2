// The render settings by name: one table that the CLI's flags, the server's query, Python's
// perlin.render keywords and the recipes' render part all go through, with the option table's
// parsers (runtime/text.hpp), so every front reads "+8", "1e3" or "0x10" the same way.
#include <algorithm>
#include <array>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "render_plan.hpp"
#include "runtime/text.hpp"

namespace perlin_render {

namespace {

std::string flag_name(std::string_view name) { return "--" + std::string(name); }

/// Runs `body`, turning the table parsers' perlin::invalid_argument into a usage_error naming
/// --NAME (the render's settings are the CLI's options).
template <class F>
void as_usage(std::string_view name, F&& body) {
  try {
    body();
  } catch (const perlin::unknown_option&) {
    throw;
  } catch (const perlin::invalid_argument& e) {
    std::string what = e.what();
    const std::string prefix = std::string(name) + ": ";
    if (what.rfind(prefix, 0) == 0) what = what.substr(prefix.size());
    throw usage_error(flag_name(name) + ": " + what);
  }
}

}  // namespace

const std::vector<render_setting>& render_settings() {
  static const std::vector<render_setting> table = {
      {"preset", false,
       "Preset: plain, clouds, marble, wood, terrain, ridges or warped (docs/render.md). A "
       "preset sets field options too (plain samples the rotated plane): `perlin recipe --preset "
       "P [options]` prints the field it renders, which `perlin eval --recipe` evaluates"},
      {"size", false, "Image size WxH in pixels (default 512x512)"},
      {"step", false,
       "Distance between neighbouring pixels in noise units (default: the preset's, 1/64 for "
       "plain)"},
      {"scale", false, "Pixels per noise unit (1 / step)"},
      {"origin", false, "Noise coordinates X,Y[,Z[,W]] of pixel (0, 0)"},
      {"offset", false,
       "Pixel index of the top-left pixel, I,J[,K]: pixel (i, j) samples origin + (I + i, J + j) * "
       "step, so "
       "tiles match a whole render exactly"},
      {"depth", false, "Render a volume of this many slices, 1 to 2147483647 (.npy or .tif)"},
      {"colormap", false,
       "grey, clouds, marble, wood, terrain, heat or flow (RGB), or stops T:#RRGGBB,... "
       "(0:#1a3d6b,0.45:#e8d9a0,1:#ffffff); default: the preset's"},
      {"bits", false, "Bit depth of grey PNG and TIFF images: 8 or 16"},
      {"range", false,
       "MIN,MAX of the values mapped to black and white, or 'bound' (the true bound); default: "
       "the true bound for 16-bit grey heightmaps (they never clip), else the field's typical "
       "range (full contrast)"},
      {"invert", true, "Map high values to the start of the colormap (black for grey)"},
      {"stretch", true, "Map each image's own min and max instead (tiles will not match)"},
      {"tileable", true, "Make the image wrap seamlessly (adjusts the step)"},
      {"frames", false,
       "Write N frames (1 to 1000000): {frame} in -o numbers them (-o 'f_{frame}.png': "
       "f_0000.png ...); without it FILE_0000.png ..."},
      {"loop", true, "Frames loop seamlessly (a circle through 4-D noise)"},
      {"loop-radius", false,
       "Radius of the loop's circle in noise units (default: frames x step / pi, 2 pixel steps a "
       "frame)"},
      {"time-step", false, "Without --loop: z step between frames (default: the step)"},
      {"animated", true, "With --frames: one animated PNG (APNG) instead of numbered files"},
      {"fps", false, "Frames a second of --animated (default 24)"},
      {"tiles", false,
       "CxR: write C x R tiles of --size WxH each, neighbours sharing their edge row and column "
       "(tile (i, j) starts at pixel (i(W-1), j(H-1)), Unity's 2^n+1 convention); the output "
       "names them with {x} and {y}: -o 'tile_{x}_{y}.png'"},
      {"projection", false,
       "equirect: the 3-D field on a sphere around --origin, as a planet's equirectangular "
       "texture (pixel (i, j) of WxH at longitude -pi + 2 pi (i + 0.5) / W, latitude "
       "pi/2 - pi (j + 0.5) / H); cubemap: its six square faces, OpenGL's cube-map orientation, "
       "named by {face} (px nx py ny pz nz) in -o (docs/render.md)"},
      {"radius", false,
       "With --projection: the sphere's radius in noise units (default: a pixel is one step wide "
       "on the equator, W step / 2 pi, or on average across a cube face, 2 W step / pi)"},
      {"normals", false,
       "Write the tangent-space normal map of the height instead: opengl (green up) or directx "
       "(green down), RGB PNG of --bits 8 or 16, from the analytic gradient (docs/render.md)"},
      {"height-scale", false,
       "With --normals: world height per unit of noise, in noise units (default 1)"},
      {"tiff-tiles", false,
       "A tiled TIFF of N x N tiles (N a multiple of 16, such as 256 or 512, at most 4096 and "
       "the image's longer side rounded up to 16) instead of strips"},
      {"crs", false,
       "EPSG:N: a GeoTIFF in that coordinate reference system (such as EPSG:4326 or "
       "EPSG:32633), checked in PROJ's database; .tif only"},
      {"geo-origin", false,
       "With --crs: X,Y of the top-left corner of the whole map's pixel (0, 0), in the CRS's "
       "units (default 0,0)"},
      {"geo-pixel-size", false,
       "With --crs: DX,DY, a pixel's width and height in the CRS's units, both > 0; rows run "
       "south (default 1,1)"},
  };
  return table;
}

const render_setting* find_render_setting(std::string_view name) {
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
  const render_setting* s = find_render_setting(name);
  if (s == nullptr) {
    std::vector<std::string_view> names;
    for (const auto& r : render_settings()) names.push_back(r.name);
    for (const auto& r : perlin::field_options()) names.push_back(r.name);
    const std::string near = perlin::closest_name(name, names);
    perlin::detail::throw_unknown_option("unknown option " + d::quoted(name) +
                                         (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  const std::string n(name);
  as_usage(name, [&] {
    if (value.size() > 4096) perlin::detail::throw_invalid(n, "value too long");
    const std::string v(value);
    const auto integer = [&] { return d::parse_integer<std::int64_t>(n, value); };
    if (s->flag) {
      const bool on = d::parse_flag(n, value);
      if (n == "invert")
        o.invert = on;
      else if (n == "stretch")
        o.stretch = on;
      else if (n == "tileable")
        o.tileable = on;
      else if (n == "loop")
        o.loop = on;
      else if (n == "animated")
        o.animated = on;
    } else if (n == "preset") {
      o.preset = v;
    } else if (n == "size") {
      o.size = v;
    } else if (n == "step") {
      o.step = d::parse_number(n, value);
    } else if (n == "scale") {
      o.scale = d::parse_number(n, value);
    } else if (n == "origin") {
      o.origin = v;
    } else if (n == "offset") {
      o.offset = v;
    } else if (n == "depth") {
      o.depth = integer();
    } else if (n == "colormap") {
      o.colormap = v;
    } else if (n == "bits") {
      const auto b = integer();
      if (b != 8 && b != 16) perlin::detail::throw_invalid(n, "must be 8 or 16");
      o.bits = static_cast<int>(b);
    } else if (n == "range") {
      o.range = v;
    } else if (n == "frames") {
      o.frames = integer();
    } else if (n == "loop-radius") {
      o.loop_radius = d::parse_number(n, value);
    } else if (n == "time-step") {
      o.time_step = d::parse_number(n, value);
    } else if (n == "projection") {
      if (v != "equirect" && v != "cubemap" && v != "plane")
        perlin::detail::throw_invalid(
            n, perlin::unknown_choice(
                   v, std::array<std::string_view, 3>{"equirect", "cubemap", "plane"}));
      o.projection = v == "plane" ? "" : v;
    } else if (n == "radius") {
      o.radius = d::parse_number(n, value);
      if (!(*o.radius > 0)) perlin::detail::throw_invalid(n, "must be > 0");
    } else if (n == "tiles") {
      o.tiles = v;
    } else if (n == "normals") {
      if (v != "opengl" && v != "directx" && v != "none")
        perlin::detail::throw_invalid(
            n, perlin::unknown_choice(
                   v, std::array<std::string_view, 3>{"opengl", "directx", "none"}));
      o.normals = v;
    } else if (n == "height-scale") {
      o.height_scale = d::parse_number(n, value);
      if (!(*o.height_scale > 0)) perlin::detail::throw_invalid(n, "must be > 0");
    } else if (n == "tiff-tiles") {
      o.tiff_tiles = integer();
    } else if (n == "crs") {
      o.crs = v;
    } else if (n == "geo-origin") {
      o.geo_origin = v;
    } else if (n == "geo-pixel-size") {
      o.geo_pixel_size = v;
    } else if (n == "fps") {
      const auto f = integer();
      if (f < 1 || f > 1000)
        perlin::detail::throw_invalid(n, "must be 1 to 1000, got " + std::to_string(f));
      o.fps = static_cast<unsigned>(f);
    }
  });
  const auto same = [&](const auto& p) { return p.first == name; };
  o.settings.erase(std::remove_if(o.settings.begin(), o.settings.end(), same), o.settings.end());
  o.settings.emplace_back(n, std::string(value));
}

option_pairs render_setting_pairs(const render_options& o) {
  option_pairs out;
  for (const auto& s : render_settings()) {
    for (const auto& [name, value] : o.settings) {
      if (name != s.name) continue;
      // Flags in canonical form; a flag set to false is the default: left out.
      if (s.flag) {
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
