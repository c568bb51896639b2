#include "page/query.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"
#include "perlin/range.hpp"
#include "perlin/shader.hpp"
#include "presets.hpp"
#include "runtime/text.hpp"

namespace perlin_page {

using namespace perlin_render;

namespace {

/// The length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = c >= 0xF0 && c <= 0xF4  ? 4
                  : c >= 0xE0 && c < 0xF0 ? 3
                  : c >= 0xC2 && c < 0xE0 ? 2
                                          : 0;  // 0xF5-0xFF lead nothing
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  }
  // No overlong forms, surrogates or code points past U+10FFFF.
  if (n == 3 && ((c == 0xE0 && b(i + 1) < 0xA0) || (c == 0xED && b(i + 1) >= 0xA0))) return 0;
  if (n == 4 && ((c == 0xF0 && b(i + 1) < 0x90) || (c == 0xF4 && b(i + 1) >= 0x90))) return 0;
  return n;
}

}  // namespace

void check_servable(const query& q, const render_plan& plan) {
  constexpr std::size_t preview_max = 2048;
  if (plan.tiles_x > 0) bad_setting("tiles", "tiles are files; perlin render writes them");
  if (!q.download && (plan.width > preview_max || plan.height > preview_max)) {
    bad_setting("size", "previews are at most 2048x2048 (add download=1 to export larger)");
  }
}

void drop_pixel_settings(query& q) {
  q.options.bits = 8;
  q.options.colormap.reset();
  const auto pixel = [](std::string_view n) { return n == "bits" || n == "colormap"; };
  auto& given = q.options.given;
  given.erase(std::remove_if(given.begin(), given.end(), pixel), given.end());
  auto& settings = q.options.settings;
  settings.erase(std::remove_if(settings.begin(), settings.end(),
                                [&](const auto& p) { return pixel(p.first); }),
                 settings.end());
}

/// A JSON string, always valid JSON: control characters escaped, bytes that are not UTF-8 (a
/// client's query echoed in a message) replaced by U+FFFD.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else if (u < 0x80) {
      out += c;
    } else if (const std::size_t n = utf8_length(s, i); n > 0) {
      out.append(s, i, n);
      i += n - 1;
    } else {
      out += "\\ufffd";
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

namespace {

bool parse_flag(const std::string& name, const std::string& v) {
  if (v == "1" || v == "true" || v.empty()) return true;
  if (v == "0" || v == "false") return false;
  throw perlin::invalid_argument(perlin::error_kind::value, name, "'" + v + "' is not 1 or 0");
}

}  // namespace

query parse_query(const std::multimap<std::string, std::string>& params, const std::string& ext) {
  query q;
  render_options& o = q.options;
  o.output = "noise" + ext;
  o.quiet = true;
  for (const auto& [key, value] : params) {
    // A NUL (%00) would end the text where the option parsers quote it: refused here, shown.
    if (key.find('\0') != std::string::npos) {
      throw perlin::invalid_argument(
          perlin::error_kind::value, "query",
          "the parameter name " + perlin::detail::quoted(key) + " holds a NUL byte (%00)");
    }
    if (value.find('\0') != std::string::npos) {
      throw perlin::invalid_argument(
          perlin::error_kind::value, key,
          perlin::detail::quoted(value) + " holds a NUL byte (%00), which no option takes");
    }
    if (params.count(key) > 1)
      throw perlin::invalid_argument(perlin::error_kind::value, key, "given more than once");
    if (value.size() > 4096)
      throw perlin::invalid_argument(perlin::error_kind::value, key, "value too long");
  }
  for (const auto& [key, value] : params) {
    if (key == "download") {
      q.download = parse_flag(key, value);
    } else if (key == "recipe") {
      o.recipe = value;
    } else if (key == "perlin") {
      // The query is a recipe (the page's Recipe line as a link): it names the whole field.
      (void)perlin::recipe_pairs("perlin=" + value);  // checks the version
      o.field_complete = true;
    } else if (perlin::find_option(key) != nullptr) {
      // A flag with no value ("?normalize") is on.
      const bool flag = perlin::find_option(key)->type == perlin::option_type::flag;
      const std::string v = flag && value.empty() ? "true" : value;
      o.field.emplace_back(key, v);
      q.given.emplace_back(key, v);
    } else {
      const render_setting* s = find_render_setting(key);
      const std::string v = s != nullptr && s->is_flag() && value.empty() ? "true" : value;
      set_render_setting(o, key, v);
      q.given.emplace_back(key, v);
    }
  }
  // The command and the code list the options in one order whatever the query's: the picture's
  // frame (preset, size, step, scale, origin, offset, depth), the field options in the table's
  // order, then the rest of the render settings.
  const auto rank = [](const std::string& name) -> std::size_t {
    const auto& settings = render_settings();
    for (std::size_t i = 0; i < settings.size(); ++i) {
      if (settings[i].name == name) return i < 7 ? i : 200 + i;
    }
    const auto rows = perlin::field_options();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (perlin::find_option(name) == &rows[i]) return 100 + i;
    }
    return 300;
  };
  std::stable_sort(q.given.begin(), q.given.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  return q;
}

namespace {

/// A value as a shell word: kept as is when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& v) {
  const bool safe = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("+-.,_/:x").find(c) != std::string_view::npos;
  });
  if (safe) return v;
  std::string out = "'";
  for (const char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

/// The `perlin render` command line that writes the picture this query shows.
std::string command_of(const query& q, const std::string& ext) {
  std::string cmd = "perlin render -o noise" + ext;
  if (!q.options.recipe.empty()) cmd += " --recipe " + shell_word(q.options.recipe);
  for (const auto& [name, value] : q.given) {
    const perlin::option_info* row = perlin::find_option(name);
    const render_setting* s = find_render_setting(name);
    const bool flag = (row != nullptr && row->type == perlin::option_type::flag) ||
                      (s != nullptr && s->is_flag());
    if (flag) {
      cmd += (value == "true" || value == "1") ? " --" + name : " --no-" + name;
    } else {
      cmd += " --" + name + " " + shell_word(value);
    }
  }
  return cmd;
}

namespace {

/// A string as a C++ string literal.
std::string cpp_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

}  // namespace

/// C++ that computes the same values (the field and the pixel grid), from the resolved plan:
/// the field from its recipe, the grid from the plan's geometry (every axis it samples).
std::string cpp_of(const render_plan& r) {
  std::string s = "#include <perlin/perlin.hpp>\n\n";
  s += "const perlin::field f = perlin::make_field(perlin::spec_from_recipe(\n    " +
       cpp_string(perlin::to_recipe(r.spec)) + "));\n";
  const auto list = [](const auto& a) {
    std::string out;
    for (std::size_t k = 0; k < 4; ++k)
      out += (k ? ", " : "") + json_number(static_cast<double>(a[k]));
    return out;
  };
  const perlin::grid g = r.frame_grid(0);
  s += "perlin::grid g;\ng.dims = " + std::to_string(g.dims) + ";\ng.count = {" +
       std::to_string(g.count[0]) + ", " + std::to_string(g.count[1]) + ", " +
       std::to_string(g.count[2]) + ", " + std::to_string(g.count[3]) + "};\ng.origin = {" +
       list(g.origin) + "};\ng.step = {" + list(g.step) + "};\n";
  if (g.first != std::array<std::int64_t, 4>{}) s += "g.first = {" + list(g.first) + "};\n";
  s += "std::vector<float> values(g.size());\nconst auto [lo, hi] = perlin::fill_grid(f, g, "
       "values, {.threads = 0});\n";
  if (r.f != formula::plain) s += "// then the preset's formula (docs/render.md)\n";
  return s;
}

/// JavaScript (the npm package perlin-exact) that computes the same values: the field from its
/// recipe, the grid from the plan's geometry.
std::string js_of(const render_plan& r) {
  const perlin::grid g = r.frame_grid(0);
  const auto list = [&](const auto& a) {
    std::string out;
    for (std::size_t k = 0; k < g.dims; ++k)
      out += (k ? ", " : "") + json_number(static_cast<double>(a[k]));
    return out;
  };
  // The JavaScript grid has no first index: an --offset moves the origin instead, which rounds
  // differently in the last bits (docs/render.md).
  std::array<double, 4> origin{};
  for (std::size_t k = 0; k < g.dims; ++k)
    origin[k] = g.origin[k] + static_cast<double>(g.first[k]) * g.step[k];
  std::string s = "import { init, Field } from \"perlin-exact\";\n\nawait init();\n";
  s += "const f = Field.fromRecipe(" + json_string(perlin::to_recipe(r.spec)) + ");\n";
  s += "const values = f.grid(" + std::to_string(g.count[0]) + ", " + std::to_string(g.count[1]) +
       ", {\n  origin: [" + list(origin) + "],\n  step: [" + list(g.step) + "],\n";
  if (g.count[2] > 1) s += "  depth: " + std::to_string(g.count[2]) + ",\n";
  s += "});  // Float32Array, x fastest\n";
  if (g.first != std::array<std::int64_t, 4>{})
    s += "// --offset: the origin moved instead (equal within the float tolerance)\n";
  if (r.f != formula::plain) s += "// then the preset's formula (docs/render.md)\n";
  return s;
}

/// Python that gives the same pixels.
std::string python_of(const query& q) {
  std::string preset = "plain";
  std::string args;
  for (const auto& [name, value] : q.given) {
    if (name == "preset") {
      preset = value;
      continue;
    }
    std::string keyword = name;
    std::replace(keyword.begin(), keyword.end(), '-', '_');
    args += ", " + keyword + "=";
    const perlin::option_info* row = perlin::find_option(name);
    const render_setting* rs = find_render_setting(name);
    if ((row != nullptr && row->type == perlin::option_type::flag) ||
        (rs != nullptr && rs->is_flag())) {
      args += value == "true" || value == "1" ? "True" : "False";
    } else if (rs != nullptr && rs->type == setting_type::size2) {  // WxH: (W, H)
      const auto x = value.find('x');
      // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "(" + string.
      args += '(';
      args += value.substr(0, x);
      args += ", ";
      args += value.substr(x == std::string::npos ? value.size() : x + 1);
      args += ')';
    } else if ((rs != nullptr && (rs->type == setting_type::list ||
                                  (rs->type == setting_type::range && value != "bound"))) ||
               (name == "period" && value.find(',') != std::string::npos)) {
      args += "(" + value + ")";
    } else if ((row != nullptr && row->type == perlin::option_type::choice) ||
               (rs != nullptr &&
                (rs->type == setting_type::text || rs->type == setting_type::choice ||
                 rs->type == setting_type::range || rs->type == setting_type::epsg))) {
      args += "\"" + value + "\"";
    } else {
      args += value;
    }
  }
  if (!q.options.recipe.empty()) args = ", recipe=" + json_string(q.options.recipe) + args;
  return "import perlin\n\npixels = perlin.render(\"" + preset + "\"" + args + ")\n";
}

/// The values in force, by control name: every field option (the preset's or the defaults when
/// not given), the step, the size and the colormap, for the page to show in empty controls.
namespace {

std::string in_force_json(const render_plan& r) {
  std::string out = "{";
  for (const auto& row : perlin::field_options()) {
    out += json_string(std::string(row.name)) + ":" + json_string(row.get(r.spec)) + ",";
  }
  out += "\"step\":" + json_string(perlin::detail::number_text(r.step[0])) +
         ",\"size\":" + json_string(std::to_string(r.width) + "x" + std::to_string(r.height)) +
         ",\"colormap\":" + json_string(r.cmap != nullptr ? r.cmap->name : "grey") + "}";
  return out;
}

}  // namespace

std::string stats_json(const query& q, const render_plan& plan, const frame_values& values,
                       double ms) {
  const auto& v = values.values;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (const float x : v) {
    lo = std::min(lo, double(x));
    hi = std::max(hi, double(x));
    sum += x;
  }
  const auto [blo, bhi] = value_bounds(plan, values);
  std::vector<std::size_t> hist(64, 0);
  for (const float x : v) {
    const double t = perlin::to_unit(x, blo, bhi);  // in [0, 1], NaN included
    ++hist[std::min<std::size_t>(63, static_cast<std::size_t>(t * 64))];
  }
  std::string h;
  for (const auto c : hist) h += (h.empty() ? "" : ",") + std::to_string(c);
  return "{\"ms\":" + json_number(ms) + ",\"min\":" + json_number(lo) +
         ",\"max\":" + json_number(hi) +
         ",\"mean\":" + json_number(sum / static_cast<double>(v.size())) +
         ",\"lo\":" + json_number(blo) + ",\"hi\":" + json_number(bhi) + ",\"histogram\":[" + h +
         "],\"width\":" + std::to_string(plan.width) +
         ",\"height\":" + std::to_string(plan.height) + ",\"step\":[" + json_number(plan.step[0]) +
         "," + json_number(plan.step[1]) + "],\"origin\":[" + json_number(plan.origin[0]) + "," +
         json_number(plan.origin[1]) + "],\"command\":" + json_string(command_of(q, ".png")) +
         ",\"recipe\":" + json_string(plan.recipe) + ",\"in_force\":" + in_force_json(plan) +
         ",\"cpp\":" + json_string(cpp_of(plan)) + ",\"js\":" + json_string(js_of(plan)) +
         ",\"python\":" + json_string(python_of(q)) + "}";
}

std::string shader_json(const render_plan& plan) {
  if (plan.sphere_radius > 0)
    bad_setting("projection", "the GPU mode draws planes; a projection is drawn on the CPU only");
  const std::string source =
      perlin::shader_source(plan.field, {.language = perlin::shader_language::glsl_es,
                                         .dims = plan.dims,
                                         .derivatives = false,
                                         .split = false,
                                         .standalone = true});
  const perlin::grid g = plan.frame_grid(0);
  std::string origin;
  for (std::size_t a = 0; a < 4; ++a) {
    origin += a == 0 ? "" : ",";
    origin += json_number(a < g.dims ? g.coordinate(a, 0) : 0.0);
  }
  return "{\"source\":" + json_string(source) + ",\"width\":" + std::to_string(plan.width) +
         ",\"height\":" + std::to_string(plan.height) + ",\"origin\":[" + origin + "],\"step\":[" +
         json_number(g.step[0]) + "," + json_number(g.dims >= 2 ? g.step[1] : 0) +
         "],\"lo\":" + json_number(plan.lo) + ",\"hi\":" + json_number(plan.hi) +
         ",\"stretch\":" + (plan.stretch ? "true" : "false") +
         ",\"values\":" + (plan.f == formula::plain ? "true" : "false") +
         ",\"bound\":" + json_number(perlin::shader_float_tolerance(plan.field)) + "}";
}

}  // namespace perlin_page
