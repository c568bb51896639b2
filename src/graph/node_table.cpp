// The node table (graph.hpp): one row per node kind, its parameters' parsers and writers, and
// the table as JSON. A row names its formula (formula.hpp), defined in the file of its concept.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "detail/error.hpp"
#include "graph/graph_data.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

using detail::node_formula;
using npt = node_parameter_type;
constexpr double k_inf = std::numeric_limits<double>::infinity();

// Inputs' names.
constexpr std::string_view k_none[] = {""};
constexpr std::string_view k_inputs[] = {"input"};
constexpr std::string_view k_ab[] = {"a", "b"};
constexpr std::string_view k_source[] = {"source"};
constexpr std::string_view k_abc[] = {"a", "b", "control"};
constexpr std::string_view k_displace_inputs[] = {"source", "x", "y", "z", "w"};

// Choices, the default first.
constexpr std::string_view k_curve_modes[] = {"monotone", "libnoise"};
constexpr std::string_view k_terrace_modes[] = {"libnoise", "smooth"};

/// A number parameter.
constexpr node_parameter_info number(std::string_view name, std::string_view def,
                                     std::string_view help, double min = -k_inf, double max = k_inf,
                                     bool min_exclusive = false) {
  node_parameter_info p;
  p.name = name;
  p.type = npt::number;
  p.default_text = def;
  p.help = help;
  p.has_range = !(min == -k_inf && max == k_inf);
  p.min = min;
  p.max = max;
  p.min_exclusive = min_exclusive;
  return p;
}

constexpr node_parameter_info list(std::string_view name, npt type, std::string_view def,
                                   int min_count, int max_count, std::string_view help) {
  node_parameter_info p;
  p.name = name;
  p.type = type;
  p.default_text = def;
  p.help = help;
  p.min_count = min_count;
  p.max_count = max_count;
  return p;
}

constexpr node_parameter_info choice(std::string_view name, std::span<const std::string_view> c,
                                     std::string_view help) {
  node_parameter_info p;
  p.name = name;
  p.type = npt::choice;
  p.default_text = c[0];
  p.choices = c;
  p.help = help;
  return p;
}

constexpr node_parameter_info flag(std::string_view name, std::string_view def,
                                   std::string_view help) {
  node_parameter_info p;
  p.name = name;
  p.type = npt::flag;
  p.default_text = def;
  p.help = help;
  return p;
}

constexpr int k_max_points = 256;

const node_parameter_info k_constant_params[] = {number("value", "0", "the value everywhere")};
const node_parameter_info k_smooth_params[] = {
    number("smoothness", "0.25", "the width over which the inputs blend (a difference of inputs)",
           0, k_inf, true)};
const node_parameter_info k_clamp_params[] = {
    number("lower", "-1", "the least value (below it: lower)"),
    number("upper", "1", "the greatest value (above it: upper); greater than lower")};
const node_parameter_info k_scale_bias_params[] = {number("scale", "1", "the factor"),
                                                   number("bias", "0", "added after the factor")};
const node_parameter_info k_exponent_params[] = {
    number("exponent", "1", "the power of (v + 1) / 2", 0, k_inf)};
const node_parameter_info k_select_params[] = {
    number("lower", "-1", "where control selects b from (control >= lower)"),
    number("upper", "1", "where control selects b up to (control <= upper); greater than lower"),
    number("falloff", "0",
           "the half-width of the S-curve edges (0: a hard switch); at most (upper - lower) / 2, "
           "as libnoise clamps it",
           0, k_inf)};
const node_parameter_info k_curve_params[] = {
    list("points", npt::point_list, "-1:-1,1:1", 2, k_max_points,
         "in:out pairs, 2 or more (libnoise mode: 4 or more); sorted by in, each in once"),
    choice("mode", k_curve_modes,
           "monotone: monotone cubic Hermite (C1, no overshoot); libnoise: libnoise's Curve")};
const node_parameter_info k_terrace_params[] = {
    list("points", npt::number_list, "-1,1", 2, k_max_points,
         "the terrace levels, 2 or more; sorted, each once"),
    flag("invert", "false", "libnoise mode: the terraces' steep side down (libnoise's invert)"),
    choice("mode", k_terrace_modes,
           "libnoise: libnoise's squared form (a kink at every point); smooth: a quintic S-curve "
           "(flat at every point, C2)")};
const node_parameter_info k_scale_point_params[] = {
    list("scale", npt::number_list, "1", 1, 4,
         "the factor of each axis: one for every axis, or one per axis (axes beyond the list: 1)")};
const node_parameter_info k_translate_point_params[] = {
    list("offset", npt::number_list, "0", 1, 4,
         "added to each axis: one for every axis, or one per axis (axes beyond the list: 0)")};
const node_parameter_info k_rotate_point_params[] = {
    list("angles", npt::number_list, "0,0,0", 3, 3,
         "the angles about x, y and z in degrees (libnoise's RotatePoint)")};

constexpr node_formula k_add{detail::add_node, nullptr, nullptr};
constexpr node_formula k_subtract{detail::subtract_node, nullptr, nullptr};
constexpr node_formula k_multiply{detail::multiply_node, nullptr, nullptr};
constexpr node_formula k_min{detail::min_node, nullptr, nullptr};
constexpr node_formula k_max{detail::max_node, nullptr, nullptr};
constexpr node_formula k_smooth_min{detail::smooth_min_node, nullptr, nullptr};
constexpr node_formula k_smooth_max{detail::smooth_max_node, nullptr, nullptr};
constexpr node_formula k_constant{detail::constant_node, nullptr, nullptr};
constexpr node_formula k_abs{detail::abs_node, nullptr, nullptr};
constexpr node_formula k_invert{detail::invert_node, nullptr, nullptr};
constexpr node_formula k_clamp{detail::clamp_node, nullptr, detail::prepare_clamp};
constexpr node_formula k_scale_bias{detail::scale_bias_node, nullptr, nullptr};
constexpr node_formula k_exponent{detail::exponent_node, nullptr, nullptr};
constexpr node_formula k_blend{detail::blend_node, nullptr, nullptr};
constexpr node_formula k_select{detail::select_node, nullptr, detail::prepare_select};
constexpr node_formula k_curve{detail::curve_node, nullptr, detail::prepare_curve};
constexpr node_formula k_terrace{detail::terrace_node, nullptr, detail::prepare_terrace};
constexpr node_formula k_displace{nullptr, detail::displace_point, nullptr};
constexpr node_formula k_scale_point{nullptr, detail::scale_point, nullptr};
constexpr node_formula k_translate_point{nullptr, detail::translate_point, nullptr};
constexpr node_formula k_rotate_point{nullptr, detail::rotate_point, detail::prepare_rotate};
constexpr node_formula k_field{};

struct row_args {
  std::string_view name;
  int min_inputs, max_inputs;
  std::span<const std::string_view> input_names;
  std::span<const node_parameter_info> parameters;
  const node_formula* formula;
  std::string_view libnoise, help, gradient;
};

node_info row(const row_args& a) {
  node_info r;
  r.name = a.name;
  r.min_inputs = a.min_inputs;
  r.max_inputs = a.max_inputs;
  r.input_names =
      a.min_inputs == 0 && a.max_inputs == 0 ? std::span<const std::string_view>() : a.input_names;
  r.parameters = a.parameters;
  r.formula = a.formula;
  r.point_transform = a.formula->map_point != nullptr;
  r.libnoise = a.libnoise;
  r.help = a.help;
  r.gradient = a.gradient;
  return r;
}

/// The sources and the nodes that combine values: field, constant, sums, products, extrema.
void add_combining_rows(std::vector<node_info>& t) {
  node_info field = row({"field",
                         0,
                         0,
                         k_none,
                         {},
                         &k_field,
                         "",
                         "a field: noise, fractal, warp (its parameters are the option table's "
                         "options, docs/options.md)",
                         "the field's analytic gradient"});
  field.field_options = true;
  t.push_back(field);
  t.push_back(row({"constant", 0, 0, k_none, k_constant_params, &k_constant, "Const",
                   "the same value everywhere", "0"}));
  t.push_back(row({"add",
                   2,
                   k_any_inputs,
                   k_inputs,
                   {},
                   &k_add,
                   "Add",
                   "the sum of the inputs, from the first: ((a + b) + c) + ...",
                   "the sum of the inputs' gradients"}));
  t.push_back(row({"subtract", 2, 2, k_ab, {}, &k_subtract, "", "a - b", "ga - gb"}));
  t.push_back(row({"multiply",
                   2,
                   k_any_inputs,
                   k_inputs,
                   {},
                   &k_multiply,
                   "Multiply",
                   "the product of the inputs, from the first: ((a b) c) ...",
                   "the product rule, from the first input: g(u v) = gu v + u gv"}));
  t.push_back(row({"min",
                   2,
                   k_any_inputs,
                   k_inputs,
                   {},
                   &k_min,
                   "Min",
                   "the least input (libnoise's a < b ? a : b, from the first)",
                   "the least input's gradient; on a tie the first of the least inputs'"}));
  t.push_back(row({"max",
                   2,
                   k_any_inputs,
                   k_inputs,
                   {},
                   &k_max,
                   "Max",
                   "the greatest input (libnoise's a > b ? a : b, from the first)",
                   "the greatest input's gradient; on a tie the first of the greatest inputs'"}));
  t.push_back(row({"smooth-min", 2, k_any_inputs, k_inputs, k_smooth_params, &k_smooth_min, "",
                   "a minimum with rounded corners: min(a, b) - h^3 k / 6, h = max(k - |a - b|, "
                   "0) / k (k: smoothness), from the first input",
                   "w ga + (1 - w) gb, w = 1 - h^2 / 2 where a <= b, h^2 / 2 where a > b "
                   "(smooth everywhere)"}));
  t.push_back(row({"smooth-max", 2, k_any_inputs, k_inputs, k_smooth_params, &k_smooth_max, "",
                   "a maximum with rounded corners: max(a, b) + h^3 k / 6, h as smooth-min's",
                   "w ga + (1 - w) gb, w = 1 - h^2 / 2 where a >= b, h^2 / 2 where a < b "
                   "(smooth everywhere)"}));
}

/// The nodes that reshape one value or choose between values: abs to terrace.
void add_shaping_rows(std::vector<node_info>& t) {
  t.push_back(row(
      {"abs", 1, 1, k_source, {}, &k_abs, "Abs", "|v|", "sign(v) g; at v = 0 (either zero) +g"}));
  t.push_back(row({"invert", 1, 1, k_source, {}, &k_invert, "Invert", "-v", "-g"}));
  t.push_back(row({"clamp", 1, 1, k_source, k_clamp_params, &k_clamp, "Clamp",
                   "v limited to [lower, upper]",
                   "g where lower <= v <= upper (the bounds included), 0 outside"}));
  t.push_back(row({"scale-bias", 1, 1, k_source, k_scale_bias_params, &k_scale_bias, "ScaleBias",
                   "v * scale + bias", "g * scale"}));
  t.push_back(row({"exponent", 1, 1, k_source, k_exponent_params, &k_exponent, "Exponent",
                   "pow(|(v + 1) / 2|, exponent) * 2 - 1",
                   "e |u|^(e-1) sign(u) g with u = (v + 1) / 2; at u = 0: g if e = 1, else 0"}));
  t.push_back(row({"blend",
                   3,
                   3,
                   k_abc,
                   {},
                   &k_blend,
                   "Blend",
                   "libnoise's Blend: LinearInterp(a, b, (control + 1) / 2)",
                   "(1 - t) ga + t gb + (b - a) gcontrol / 2, t = (control + 1) / 2"}));
  t.push_back(row({"select", 3, 3, k_abc, k_select_params, &k_select, "Select",
                   "libnoise's Select: b where lower <= control <= upper, else a, with "
                   "S-curve edges of half-width falloff",
                   "in an edge (1 - t) gfrom + t gto + (to - from) 6 s (1 - s) gcontrol / (2 "
                   "falloff), t = SCurve3(s); elsewhere the selected input's (falloff 0: the "
                   "value's input, also at a bound)"}));
  t.push_back(row({"curve", 1, 1, k_source, k_curve_params, &k_curve, "Curve",
                   "v mapped through a curve of points, flat outside them",
                   "the curve's slope times g (0 outside the points; at a point, the slope of "
                   "the segment on its right)"}));
  t.push_back(row({"terrace", 1, 1, k_source, k_terrace_params, &k_terrace, "Terrace",
                   "v mapped to terraces between the points, flat outside them",
                   "the terrace's slope times g (0 outside the points; at a point, the slope of "
                   "the segment on its right: libnoise mode jumps there, smooth mode is 0)"}));
}

/// The nodes that move the point their input sees.
void add_point_rows(std::vector<node_info>& t) {
  t.push_back(row({"displace",
                   2,
                   5,
                   k_displace_inputs,
                   {},
                   &k_displace,
                   "Displace",
                   "source at the point plus (x, y, z, w) displacements: one per axis given "
                   "(libnoise: x, y, z)",
                   "J^T gsource with J = I + the displacements' gradients (rows)"}));
  t.push_back(
      row({"scale-point", 1, 1, k_source, k_scale_point_params, &k_scale_point, "ScalePoint",
           "source at the point times scale, axis by axis", "gsource times scale, axis by axis"}));
  t.push_back(row({"translate-point", 1, 1, k_source, k_translate_point_params, &k_translate_point,
                   "TranslatePoint", "source at the point plus offset", "gsource"}));
  t.push_back(
      row({"rotate-point", 1, 1, k_source, k_rotate_point_params, &k_rotate_point, "RotatePoint",
           "source at the point turned by libnoise's RotatePoint matrix (x, y, z; a "
           "1-D or 2-D point gets zeros: its source sees 3-D points)",
           "R^T gsource"}));
}

const std::vector<node_info>& rows() {
  static const std::vector<node_info> table = [] {
    std::vector<node_info> t;
    add_combining_rows(t);
    add_shaping_rows(t);
    add_point_rows(t);
    return t;
  }();
  return table;
}

std::string range_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return detail::number_text(v);
}

void check_number(const node_parameter_info& p, std::string_view id, double v,
                  std::string_view shown) {
  if (!p.has_range) return;
  const bool low = p.min_exclusive ? !(v > p.min) : !(v >= p.min);
  if (low || v > p.max) {
    detail::throw_invalid(detail::param_name(id, p.name),
                          "must be " + p.domain() + ", got " + std::string(shown));
  }
}

void check_count(const node_parameter_info& p, std::string_view id, std::size_t n,
                 std::string_view what) {
  if (n < static_cast<std::size_t>(p.min_count) || n > static_cast<std::size_t>(p.max_count)) {
    const std::string count = p.min_count == p.max_count ? std::to_string(p.min_count)
                                                         : std::to_string(p.min_count) + " to " +
                                                               std::to_string(p.max_count);
    detail::throw_invalid(
        detail::param_name(id, p.name),
        "must have " + count + " " + std::string(what) + ", got " + std::to_string(n));
  }
}

}  // namespace

std::string_view to_string(node_parameter_type t) noexcept {
  switch (t) {
    case npt::number:
      return "number";
    case npt::number_list:
      return "number list";
    case npt::point_list:
      return "point list";
    case npt::flag:
      return "flag";
    case npt::choice:
      return "choice";
  }
  return "?";
}

std::string node_parameter_info::domain() const {
  switch (type) {
    case npt::choice: {
      std::string out = "one of: ";
      for (std::size_t i = 0; i < choices.size(); ++i) {
        out += (i ? ", " : "") + std::string(choices[i]);
      }
      return out;
    }
    case npt::flag:
      return "true or false";
    case npt::number_list:
    case npt::point_list: {
      const std::string count =
          min_count == max_count ? std::to_string(min_count)
                                 : std::to_string(min_count) + " to " + std::to_string(max_count);
      return count + (type == npt::point_list ? " in:out points" : " numbers");
    }
    case npt::number:
      break;
  }
  if (!has_range) return "any number";
  if (std::isinf(max)) return (min_exclusive ? "> " : ">= ") + range_text(min);
  return range_text(min) + " to " + range_text(max);
}

std::string node_info::inputs_text() const {
  if (max_inputs == 0) return "none";
  std::string names;
  if (max_inputs != k_any_inputs) {
    for (int i = 0; i < max_inputs; ++i) {
      names += (i ? ", " : "") + std::string(input_names[static_cast<std::size_t>(i)]);
    }
  }
  if (max_inputs == k_any_inputs) return std::to_string(min_inputs) + " or more";
  if (min_inputs == max_inputs) return std::to_string(min_inputs) + " (" + names + ")";
  return std::to_string(min_inputs) + " to " + std::to_string(max_inputs) + " (" + names + ")";
}

std::span<const node_info> node_kinds() noexcept { return rows(); }

const node_info* find_node_kind(std::string_view name) noexcept {
  for (const auto& r : rows()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

namespace detail {

std::string json_quote(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

bool is_node_id(std::string_view id) {
  if (id.empty() || id.size() > 64 || id[0] < 'a' || id[0] > 'z') return false;
  for (const char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

param_value parse_parameter(const node_parameter_info& p, std::string_view id,
                            std::string_view text) {
  const std::string name = param_name(id, p.name);
  param_value out;
  switch (p.type) {
    case npt::number:
      out.number = parse_number(name, text);
      check_number(p, id, out.number, text);
      break;
    case npt::flag:
      out.number = parse_flag(name, text) ? 1 : 0;
      break;
    case npt::choice: {
      for (std::size_t i = 0; i < p.choices.size(); ++i) {
        if (p.choices[i] == text) {
          out.number = static_cast<double>(i);
          return out;
        }
      }
      throw_invalid(name, unknown_choice(text, p.choices));
    }
    case npt::number_list:
      for (const auto item : split_list(name, text)) {
        const double v = parse_number(name, item);
        check_number(p, id, v, item);
        out.list.push_back(v);
      }
      check_count(p, id, out.list.size(), "numbers");
      break;
    case npt::point_list:
      for (const auto item : split_list(name, text)) {
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos) {
          throw_invalid(name, quoted(item) + " is not a point in:out");
        }
        out.list.push_back(parse_number(name, item.substr(0, colon)));
        out.list.push_back(parse_number(name, item.substr(colon + 1)));
      }
      check_count(p, id, out.list.size() / 2, "points");
      break;
  }
  return out;
}

std::string parameter_text(const node_parameter_info& p, const param_value& v) {
  switch (p.type) {
    case npt::number:
      return number_text(v.number);
    case npt::flag:
      return v.number != 0 ? "true" : "false";
    case npt::choice:
      return std::string(p.choices[static_cast<std::size_t>(v.number)]);
    case npt::number_list: {
      std::string out;
      for (std::size_t i = 0; i < v.list.size(); ++i) {
        out += (i ? "," : "") + number_text(v.list[i]);
      }
      return out;
    }
    case npt::point_list: {
      std::string out;
      for (std::size_t i = 0; i + 1 < v.list.size(); i += 2) {
        out += (i ? "," : "") + number_text(v.list[i]) + ":" + number_text(v.list[i + 1]);
      }
      return out;
    }
  }
  return {};
}

std::string parameter_json(const node_parameter_info& p, const param_value& v) {
  switch (p.type) {
    case npt::number:
    case npt::flag:
      return parameter_text(p, v);
    case npt::choice:
      return json_quote(parameter_text(p, v));
    case npt::number_list: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.list.size(); ++i) {
        out += (i ? ", " : "") + number_text(v.list[i]);
      }
      return out + "]";
    }
    case npt::point_list: {
      std::string out = "[";
      for (std::size_t i = 0; i + 1 < v.list.size(); i += 2) {
        out += (i ? ", [" : "[") + number_text(v.list[i]) + ", " + number_text(v.list[i + 1]) + "]";
      }
      return out + "]";
    }
  }
  return {};
}

param_value parameter_default(const node_parameter_info& p) {
  return parse_parameter(p, "default", p.default_text);
}

}  // namespace detail

std::string nodes_json() {
  std::string out = "[";
  bool first = true;
  for (const auto& r : rows()) {
    out += first ? "\n  {" : ",\n  {";
    first = false;
    out += "\"name\": " + detail::json_quote(r.name);
    out += ", \"inputs\": {\"min\": " + std::to_string(r.min_inputs) + ", \"max\": " +
           (r.max_inputs == k_any_inputs ? std::string("null") : std::to_string(r.max_inputs)) +
           ", \"names\": [";
    for (std::size_t i = 0; i < r.input_names.size(); ++i) {
      out += (i ? ", " : "") + detail::json_quote(r.input_names[i]);
    }
    out += "]}, \"parameters\": ";
    if (r.field_options) {
      out += "\"options\"";  // the option table's (perlin options --json)
    } else {
      out += "[";
      for (std::size_t i = 0; i < r.parameters.size(); ++i) {
        const auto& p = r.parameters[i];
        out += (i ? ", " : "");
        out += "{\"name\": " + detail::json_quote(p.name);
        out += ", \"type\": " + detail::json_quote(to_string(p.type));
        out += ", \"default\": " + detail::parameter_json(p, detail::parameter_default(p));
        if (p.has_range) {
          out += ", \"min\": " + range_text(p.min);
          out += std::isinf(p.max) ? std::string(", \"max\": null")
                                   : ", \"max\": " + range_text(p.max);
          if (p.min_exclusive) out += ", \"min_exclusive\": true";
        }
        if (p.type == npt::number_list || p.type == npt::point_list) {
          out += ", \"min_count\": " + std::to_string(p.min_count) +
                 ", \"max_count\": " + std::to_string(p.max_count);
        }
        if (!p.choices.empty()) {
          out += ", \"choices\": [";
          for (std::size_t c = 0; c < p.choices.size(); ++c) {
            out += (c ? ", " : "") + detail::json_quote(p.choices[c]);
          }
          out += "]";
        }
        out += ", \"help\": " + detail::json_quote(p.help) + "}";
      }
      out += "]";
    }
    if (!r.libnoise.empty()) out += ", \"libnoise\": " + detail::json_quote(r.libnoise);
    out += ", \"point_transform\": " + std::string(r.point_transform ? "true" : "false");
    out += ", \"help\": " + detail::json_quote(r.help);
    out += ", \"gradient\": " + detail::json_quote(r.gradient) + "}";
  }
  return out + "\n]\n";
}

}  // namespace perlin
