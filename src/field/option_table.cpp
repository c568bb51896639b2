// The option table (option_table.hpp): the rows, their one parser per type, the recipes.
#include "perlin/option_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_set>

#include "detail/error.hpp"
#include "field/recipe_text.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/fractal.hpp"
#include "perlin/lattice.hpp"
#include "perlin/warp.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();

bool has_fractal(const field_spec& s) { return s.fractal != "none"; }
bool is_ridged(const field_spec& s) { return s.fractal == "ridged"; }
bool is_eroded(const field_spec& s) { return s.fractal == "eroded"; }
bool is_value(const field_spec& s) { return s.noise == "value"; }
bool is_opensimplex2(const field_spec& s) {
  return s.noise == "opensimplex2" || s.noise == "opensimplex2s";
}
bool is_cellular(const field_spec& s) { return s.noise == "cellular"; }
bool is_libnoise_voronoi(const field_spec& s) { return s.noise == "libnoise-voronoi"; }
// The warp's noise is the field's kind on the warp's permutation: kinds seeded otherwise
// (OpenSimplex2's long, libnoise's int) ignore --warp-seed.
bool has_lattice_warp(const field_spec& s) {
  return s.warp != "none" && !is_opensimplex2(s) && !is_libnoise_voronoi(s);
}
bool has_warp(const field_spec& s) { return s.warp != "none"; }
bool has_warp_octaves(const field_spec& s) {
  return s.warp == "progressive" || s.warp == "independent";
}

// The `noise` option's help: one phrase per noise kind (src/noise/noise_kinds.cpp).
std::string_view noise_help() {
  static const std::string help = [] {
    std::string h = "Base noise: ";
    const auto rows = detail::noise_kind_rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      h += i == 0 ? "" : i + 1 == rows.size() ? " or " : ", ";
      h += rows[i].help;
    }
    return h;
  }();
  return help;
}

constexpr std::string_view k_no_fractal = "has no effect without --fractal (the fractal is none)";
constexpr std::string_view k_no_warp = "has no effect without --warp (the warp is none)";
constexpr std::string_view k_not_cellular =
    "has no effect on this noise (it is for --noise cellular)";
constexpr std::string_view k_not_voronoi =
    "has no effect on this noise (it is for --noise libnoise-voronoi)";

// The rows. Defaults are field_spec's members; the ranges are the library's (fractal.hpp,
// warp.hpp, lattice.hpp), which its setters check for C++ callers too.
/// The base noise: its kind, its lattice and the families' own options.
std::vector<option_info> noise_rows() {
  using T = option_type;
  return {
      {.name = "noise",
       .type = T::choice,
       .help = noise_help(),
       .choices = noise_kind_names,
       .member = &field_spec::noise},
      {.name = "interp",
       .type = T::choice,
       .help = "Value-noise interpolation: linear, cosine, cubic or quintic",
       .choices = interpolation_names,
       .used = is_value,
       .unused_reason = "has no effect on this noise (it is for --noise value)",
       .member = &field_spec::interp},
      {.name = "seed",
       .type = T::seed,
       .help = "64-bit seed of the permutation (docs/seeding.md)",
       .unset = "Ken Perlin's table",
       .member = &field_spec::seed},
      {.name = "period",
       .type = T::periods,
       .help = "Tiling period in lattice cells: P for every axis, or one per axis P,P[,P[,P]]",
       .unit = "lattice cells",
       .has_range = true,
       .min = 1,
       .max = 2147483647,
       .member = &field_spec::period},
      {.name = "orientation",
       .type = T::choice,
       .help = "OpenSimplex2's lattice orientation: standard (noise2, noise3_Fallback, "
               "noise4_Fallback), improve-x (2-D), improve-xy, improve-xz (3-D), improve-xyz-xy, "
               "improve-xyz-xz, improve-xyz, improve-xy-zw (4-D)",
       .choices = os2_orientation_names,
       .used = is_opensimplex2,
       .unused_reason = "has no effect on this noise (it is for --noise opensimplex2 and "
                        "opensimplex2s)",
       .member = &field_spec::orientation},
      {.name = "cellular-distance",
       .type = T::choice,
       .help = "Cellular noise's distance: euclidean, euclidean-squared, manhattan or chebyshev",
       .choices = cellular_metric_names,
       .used = is_cellular,
       .unused_reason = k_not_cellular,
       .member = &field_spec::cellular_distance},
      {.name = "cellular-return",
       .type = T::choice,
       .help = "Cellular noise's value: f1, f2, f2-f1 (distances to the nearest feature points) "
               "or cell-value (the nearest point's value in [-1, 1])",
       .choices = cellular_output_names,
       .used = is_cellular,
       .unused_reason = k_not_cellular,
       .member = &field_spec::cellular_return},
      {.name = "cellular-jitter",
       .type = T::number,
       .help = "How far cellular noise's feature points stray from their cells' centres",
       .has_range = true,
       .min = 0,
       .max = 1,
       .used = is_cellular,
       .unused_reason = k_not_cellular,
       .member = &field_spec::cellular_jitter},
      {.name = "voronoi-displacement",
       .type = T::number,
       .help = "libnoise-voronoi: the cells' values' scale (libnoise's SetDisplacement; finite)",
       .used = is_libnoise_voronoi,
       .unused_reason = k_not_voronoi,
       .member = &field_spec::voronoi_displacement},
      {.name = "voronoi-distance",
       .type = T::flag,
       .help = "libnoise-voronoi: add the distance to the nearest seed point (EnableDistance)",
       .used = is_libnoise_voronoi,
       .unused_reason = k_not_voronoi,
       .member = &field_spec::voronoi_distance},
  };
}

/// The fractal over the noise.
std::vector<option_info> fractal_rows() {
  using T = option_type;
  return {
      {.name = "fractal",
       .type = T::choice,
       .help = "Fractal over the octaves: none, fbm, turbulence, ridged, billow or eroded",
       .choices = fractal_kind_names,
       .member = &field_spec::fractal},
      {.name = "octaves",
       .type = T::integer,
       .help = "Number of octaves",
       .unit = "octaves",
       .has_range = true,
       .min = 1,
       .max = k_max_octaves,
       .used = has_fractal,
       .unused_reason = k_no_fractal,
       .member = &field_spec::octaves},
      {.name = "frequency",
       .type = T::number,
       .help = "Frequency of the first octave: lattice cells per unit",
       .unit = "cells per unit",
       .has_range = true,
       .min = 0,
       .max = k_inf,
       .min_exclusive = true,
       .member = &field_spec::frequency},
      {.name = "lacunarity",
       .type = T::number,
       .help = "Frequency ratio between octaves",
       .has_range = true,
       .min = 0,
       .max = k_inf,
       .min_exclusive = true,
       .used = has_fractal,
       .unused_reason = k_no_fractal,
       .member = &field_spec::lacunarity},
      {.name = "persistence",
       .alias = "gain",
       .type = T::number,
       .help = "Amplitude ratio between octaves",
       .has_range = true,
       .min = 0,
       .max = k_inf,
       .used = has_fractal,
       .unused_reason = k_no_fractal,
       .member = &field_spec::persistence},
      {.name = "normalize",
       .type = T::flag,
       .help = "Divide the fractal by the sum of its amplitudes",
       .used = has_fractal,
       .unused_reason = k_no_fractal,
       .member = &field_spec::normalize},
      {.name = "decorrelate",
       .type = T::flag,
       .help = "Offset each octave so that the octaves do not align",
       .used = has_fractal,
       .unused_reason = k_no_fractal,
       .member = &field_spec::decorrelate},
      {.name = "ridged-offset",
       .type = T::number,
       .help = "Ridged: the ridge's height, s = (offset - |n|)^2 w (libnoise's offset)",
       .has_range = true,
       .min = 0,
       .max = k_max_ridged_offset,
       .used = is_ridged,
       .unused_reason = "has no effect without --fractal ridged",
       .member = &field_spec::ridged_offset},
      {.name = "ridged-gain",
       .type = T::number,
       .help = "Ridged: how much an octave's ridges weight the next, w = clamp(gain s, 0, 1)",
       .has_range = true,
       .min = 0,
       .max = k_max_ridged_gain,
       .used = is_ridged,
       .unused_reason = "has no effect without --fractal ridged",
       .member = &field_spec::ridged_gain},
      {.name = "erosion",
       .type = T::number,
       .help = "Eroded: how much the slopes so far damp an octave, a n / (1 + erosion |G|^2)",
       .has_range = true,
       .min = 0,
       .max = k_max_erosion,
       .used = is_eroded,
       .unused_reason = "has no effect without --fractal eroded",
       .member = &field_spec::erosion},
  };
}

/// Where the noise is sampled: the plane and the domain warp.
std::vector<option_info> placement_rows() {
  using T = option_type;
  return {
      {.name = "plane",
       .type = T::choice,
       .help = "aligned (Ken Perlin's lattice axes) or rotated (no axis streaks in 2-D)",
       .choices = plane_names,
       .member = &field_spec::plane},
      {.name = "warp",
       .type = T::choice,
       .help = "Domain warp: none, basic, progressive or independent (docs/warp.md)",
       .choices = warp_kind_names,
       .member = &field_spec::warp},
      {.name = "warp-amplitude",
       .type = T::number,
       .help = "How far the warp moves points",
       .unit = "cells of the first octave",
       .has_range = true,
       .min = 0,
       .max = k_inf,
       .used = has_warp,
       .unused_reason = k_no_warp,
       .member = &field_spec::warp_amplitude},
      {.name = "warp-frequency",
       .type = T::number,
       .help = "Frequency of the warp's first octave relative to --frequency",
       .has_range = true,
       .min = 0,
       .max = 4294967296.0,
       .min_exclusive = true,
       .used = has_warp,
       .unused_reason = k_no_warp,
       .member = &field_spec::warp_frequency},
      {.name = "warp-octaves",
       .type = T::integer,
       .help = "Octaves of a progressive or independent warp",
       .unit = "octaves",
       .has_range = true,
       .min = 1,
       .max = k_max_octaves,
       .used = has_warp_octaves,
       .unused_reason =
           "has no effect on a basic warp or without one (use progressive or independent)",
       .member = &field_spec::warp_octaves},
      {.name = "warp-seed",
       .type = T::seed,
       .help = "64-bit seed of the warp's permutation",
       .unset = "the field's",
       .used = has_lattice_warp,
       .unused_reason = "has no effect without --warp, or on OpenSimplex2 and libnoise-voronoi "
                        "(their warp reads the field's own seed)",
       .member = &field_spec::warp_seed},
  };
}

const std::vector<option_info>& rows() {
  static const std::vector<option_info> table = [] {
    std::vector<option_info> t = noise_rows();
    for (auto&& part : {fractal_rows(), placement_rows()})
      t.insert(t.end(), part.begin(), part.end());
    return t;
  }();
  return table;
}

std::string range_text(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return detail::number_text(v);
}

std::string with_dash(std::string_view name) {
  std::string s(name);
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

/// Checks a parsed number against the row's range: "<name>: must be 1 to 32, got 40".
void check_range(const option_info& o, double v, std::string_view shown) {
  if (!o.has_range) return;
  const bool low = o.min_exclusive ? !(v > o.min) : !(v >= o.min);
  if (low || v > o.max) {
    detail::throw_invalid(std::string(o.name),
                          "must be " + o.domain() + ", got " + std::string(shown));
  }
}

/// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring letters ("stpe" is one from "step") cost 1 each.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

namespace detail {

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_decode(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '%') {
      const int hi = i + 2 < v.size() ? hex_digit(v[i + 1]) : -1;
      const int lo = i + 2 < v.size() ? hex_digit(v[i + 2]) : -1;
      if (hi < 0 || lo < 0)
        detail::throw_invalid("recipe", detail::quoted(v) + " has a bad %-escape");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += v[i] == '+' ? ' ' : v[i];  // as in a URL query (the page's links are recipes)
    }
  }
  return out;
}

}  // namespace detail

std::string_view to_string(option_type t) noexcept {
  switch (t) {
    case option_type::integer:
      return "integer";
    case option_type::number:
      return "number";
    case option_type::flag:
      return "flag";
    case option_type::choice:
      return "choice";
    case option_type::seed:
      return "seed";
    case option_type::periods:
      return "periods";
  }
  return "?";
}

std::string option_info::domain() const {
  if (type == option_type::choice && choices != nullptr) {
    std::string out = "one of: ";
    const auto names = choices();
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    return out;
  }
  if (type == option_type::flag) return "true or false";
  if (type == option_type::seed) return "an integer from 0 to 18446744073709551615";
  if (!has_range) return "any";
  if (std::isinf(max)) return (min_exclusive ? "> " : ">= ") + range_text(min);
  if (min_exclusive) return "> " + range_text(min) + " and at most " + range_text(max);
  return range_text(min) + " to " + range_text(max);
}

void option_info::set(field_spec& spec, std::string_view text) const {
  const std::string option(name);
  switch (type) {
    case option_type::integer: {
      const auto v = detail::parse_integer<std::int64_t>(option, text);
      check_range(*this, static_cast<double>(v), std::to_string(v));
      spec.*std::get<int field_spec::*>(member) = static_cast<int>(v);
      return;
    }
    case option_type::number: {
      const double v = detail::parse_number(option, text);
      check_range(*this, v, detail::number_text(v));
      spec.*std::get<double field_spec::*>(member) = v;
      return;
    }
    case option_type::flag:
      spec.*std::get<bool field_spec::*>(member) = detail::parse_flag(option, text);
      return;
    case option_type::choice: {
      const auto names = choices();
      if (std::find(names.begin(), names.end(), text) == names.end()) {
        const std::vector<std::string_view> valid(names.begin(), names.end());
        detail::throw_invalid(option, unknown_choice(text, valid));
      }
      spec.*std::get<std::string field_spec::*>(member) = std::string(text);
      return;
    }
    case option_type::seed: {
      auto& seed = spec.*std::get<std::optional<std::uint64_t> field_spec::*>(member);
      if (text.empty()) {
        seed.reset();
      } else {
        seed = detail::parse_seed(option, text);
      }
      return;
    }
    case option_type::periods: {
      std::vector<std::int64_t> p;
      if (!text.empty()) {
        const auto items = detail::split_list(option, text);
        if (items.size() > k_max_dims) {
          detail::throw_invalid(option, "at most 4 periods, got " + std::to_string(items.size()));
        }
        for (const auto item : items) {
          const auto v = detail::parse_integer<std::int64_t>(option, item);
          check_range(*this, static_cast<double>(v), std::to_string(v));
          p.push_back(v);
        }
      }
      spec.*std::get<std::vector<std::int64_t> field_spec::*>(member) = std::move(p);
      return;
    }
  }
}

std::string option_info::get(const field_spec& spec) const {
  switch (type) {
    case option_type::integer:
      return std::to_string(spec.*std::get<int field_spec::*>(member));
    case option_type::number:
      return detail::number_text(spec.*std::get<double field_spec::*>(member));
    case option_type::flag:
      return spec.*std::get<bool field_spec::*>(member) ? "true" : "false";
    case option_type::choice:
      return spec.*std::get<std::string field_spec::*>(member);
    case option_type::seed: {
      const auto& seed = spec.*std::get<std::optional<std::uint64_t> field_spec::*>(member);
      return seed ? std::to_string(*seed) : std::string();
    }
    case option_type::periods: {
      std::string out;
      for (const auto p : spec.*std::get<std::vector<std::int64_t> field_spec::*>(member)) {
        out += (out.empty() ? "" : ",") + std::to_string(p);
      }
      return out;
    }
  }
  return {};
}

std::span<const option_info> field_options() noexcept { return rows(); }

const option_info* find_option(std::string_view name) noexcept {
  const std::string n = with_dash(name);
  for (const auto& o : rows()) {
    if (o.name == n || (!o.alias.empty() && o.alias == n)) return &o;
  }
  return nullptr;
}

std::string closest_name(std::string_view name, std::span<const std::string_view> candidates) {
  std::string best;
  std::size_t best_d = 3;
  for (const auto c : candidates) {
    std::size_t d = edit_distance(name, c);
    if (d >= best_d && name.size() >= 3 && c.substr(0, name.size()) == name) d = 2;  // a prefix
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

namespace {

/// "unknown option 'octave' (did you mean 'octaves'?)" over the table's names and aliases and
/// `more` names (a recipe's render settings), or the table's names, then `more_words`.
[[noreturn]] void throw_unknown_name(std::string_view name,
                                     std::span<const std::string_view> more = {},
                                     std::string_view more_words = {}) {
  std::vector<std::string_view> names;
  for (const auto& o : rows()) {
    names.push_back(o.name);
    if (!o.alias.empty()) names.push_back(o.alias);
  }
  names.insert(names.end(), more.begin(), more.end());
  const std::string near = closest_name(with_dash(name), names);
  if (!near.empty()) {
    detail::throw_unknown_option("unknown option " + detail::quoted(name) + " (did you mean '" +
                                 near + "'?)");
  }
  std::string valid;
  for (const auto& o : rows()) valid += (valid.empty() ? "" : ", ") + std::string(o.name);
  detail::throw_unknown_option("unknown option " + detail::quoted(name) + " (valid: " + valid +
                               std::string(more_words) + ")");
}

}  // namespace

std::string unknown_choice(std::string_view name, std::span<const std::string_view> valid,
                           std::string_view noun, std::string_view more) {
  std::string list;
  for (const auto v : valid) list += (list.empty() ? "" : ", ") + std::string(v);
  if (!more.empty()) list += ", " + std::string(more);
  const std::string near = closest_name(name, valid);
  return "unknown " + (noun.empty() ? "" : std::string(noun) + " ") + detail::quoted(name) + " (" +
         (near.empty() ? "" : "did you mean '" + near + "'? ") + "valid: " + list + ")";
}

const option_info& option(std::string_view name) {
  if (const option_info* o = find_option(name)) return *o;
  throw_unknown_name(name);
}

void field_spec::set(std::string_view name, std::string_view value) {
  option(name).set(*this, value);
}

std::string field_spec::get(std::string_view name) const { return option(name).get(*this); }

std::vector<std::string> unused_options(const field_spec& spec, std::span<const std::string> given,
                                        std::string_view prefix) {
  std::vector<std::string> out;
  for (const auto& o : rows()) {
    if (o.used == nullptr || o.used(spec)) continue;
    const bool named = std::any_of(given.begin(), given.end(), [&](const std::string& g) {
      const option_info* r = find_option(g);
      return r == &o;
    });
    if (named)
      out.push_back(std::string(prefix) + std::string(o.name) + " " + std::string(o.unused_reason));
  }
  return out;
}

std::string options_json() {
  std::string out = "[";
  bool first = true;
  for (const auto& o : rows()) {
    out += first ? "\n  {" : ",\n  {";
    first = false;
    out += "\"name\": " + json_string(o.name);
    if (!o.alias.empty()) out += ", \"alias\": " + json_string(o.alias);
    out += ", \"type\": " + json_string(to_string(o.type));
    const std::string def = o.default_text();
    if (o.type == option_type::integer || o.type == option_type::number ||
        o.type == option_type::flag) {
      out += ", \"default\": " + def;  // a JSON number, or true / false
    } else if (def.empty()) {
      out += ", \"default\": null";
    } else {
      out += ", \"default\": " + json_string(def);
    }
    if (o.has_range) {
      out += ", \"min\": " + range_text(o.min);
      out += std::isinf(o.max) ? std::string(", \"max\": null") : ", \"max\": " + range_text(o.max);
      if (o.min_exclusive) out += ", \"min_exclusive\": true";
    }
    if (o.choices != nullptr) {
      out += ", \"choices\": [";
      const auto names = o.choices();
      for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + json_string(names[i]);
      out += "]";
    }
    if (!o.unit.empty()) out += ", \"unit\": " + json_string(o.unit);
    out += ", \"help\": " + json_string(o.help);
    if (!o.unset.empty()) out += ", \"unset\": " + json_string(o.unset);
    if (o.used != nullptr) out += ", \"unused_reason\": " + json_string(o.unused_reason);
    out += "}";
  }
  return out + "\n]\n";
}

// ---------------------------------------------------------------------------------------------
// Recipes

std::string recipe_escape(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || c == '.' || c == '_' || c == '~' || c == ',' || c == ':' ||
        c == '-') {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string to_recipe(const field_spec& spec) {
  std::string out = "perlin=" + std::to_string(k_recipe_version);
  const field_spec defaults;
  for (const auto& o : rows()) {
    const std::string v = o.get(spec);
    if (v == o.get(defaults)) continue;
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "&" + name + ...
    out += '&';
    out += o.name;
    out += '=';
    out += recipe_escape(v);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> recipe_pairs(std::string_view text) {
  if (text.size() > 65536) detail::throw_invalid("recipe", "longer than 65536 characters");
  // A recipe is text: a NUL byte is refused at its position in every front (a C string would
  // end there silently, and the part before it could be a valid recipe).
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    detail::throw_invalid("recipe", "a NUL byte at position " + std::to_string(nul) +
                                        " (a recipe is text; remove it)");
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t i = 0;
  if (!text.empty() && text[0] == '?') i = 1;
  bool versioned = false;
  std::unordered_set<std::string> seen;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find_first_of("& \t\r\n", i), text.size());
    const std::string_view item = text.substr(i, end - i);
    i = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      detail::throw_invalid("recipe", detail::quoted(item) + " is not name=value");
    }
    std::string name = detail::percent_decode(item.substr(0, eq));
    std::string value = detail::percent_decode(item.substr(eq + 1));
    if (!versioned) {
      if (name != "perlin") {
        detail::throw_invalid(
            "recipe", "must start with perlin=" + std::to_string(k_recipe_version) + ", got " +
                          detail::quoted(item));
      }
      const auto v = detail::parse_integer<int>("recipe", value, "a version number");
      if (v < 1 || v > k_recipe_version) {
        detail::throw_invalid("recipe", "unknown version " + detail::quoted(value) +
                                            " (this library reads 1 to " +
                                            std::to_string(k_recipe_version) + ")");
      }
      versioned = true;
      continue;
    }
    // One canonical key per option (an alias and "_" for "-" name the same row), so a long
    // recipe costs one hash lookup a pair, not a scan of the pairs before it.
    const option_info* row = find_option(name);
    if (!seen.insert(row != nullptr ? std::string(row->name) : name).second) {
      detail::throw_invalid("recipe", detail::quoted(name) + " is given twice");
    }
    pairs.emplace_back(std::move(name), std::move(value));
  }
  if (!versioned) detail::throw_invalid("recipe", "empty (a recipe starts with perlin=1)");
  return pairs;
}

std::span<const std::string_view> recipe_render_settings() noexcept {
  static constexpr std::string_view names[] = {
      "preset",     "size",     "step",       "scale",         "origin",    "offset",
      "depth",      "colormap", "bits",       "range",         "invert",    "stretch",
      "tileable",   "frames",   "loop",       "loop-radius",   "time-step", "animated",
      "fps",        "tiles",    "projection", "radius",        "normals",   "height-scale",
      "tiff-tiles", "crs",      "geo-origin", "geo-pixel-size"};
  return names;
}

namespace {

bool is_render_setting(std::string_view name) {
  const std::string n = with_dash(name);
  const auto names = recipe_render_settings();
  return std::find(names.begin(), names.end(), n) != names.end();
}

}  // namespace

field_spec spec_from_recipe(std::string_view text,
                            std::vector<std::pair<std::string, std::string>>* skipped) {
  field_spec spec;
  for (auto& [name, value] : recipe_pairs(text)) {
    // An alias ("gain") or "_" for "-" reads too; recipes write the table's names.
    if (const option_info* row = find_option(name)) {
      row->set(spec, value);
    } else if (is_render_setting(name)) {
      if (skipped != nullptr) skipped->emplace_back(with_dash(name), std::move(value));
    } else {
      throw_unknown_name(name, recipe_render_settings(),
                         "; and the render settings of docs/recipes.md");
    }
  }
  return spec;
}

std::string recipe_skipped_warning(std::span<const std::pair<std::string, std::string>> skipped) {
  if (skipped.empty()) return {};
  std::string names;
  for (const auto& [name, value] : skipped) names += (names.empty() ? "" : ", ") + name;
  return "recipe: " + names +
         (skipped.size() == 1 ? " is a render setting" : " are render settings") +
         ", not part of the field (perlin render --recipe and perlin.render(recipe=...) use " +
         (skipped.size() == 1 ? "it" : "them") + ")";
}

}  // namespace perlin
