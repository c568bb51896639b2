// The formulas of the node kinds (include/perlin/graph.hpp), in double, value and gradient
// together: what a row of the node table (node_table.cpp) points to. Each formula file
// (combine.cpp, unary.cpp, libnoise_modules.cpp, curves.cpp, transforms.cpp) defines the
// functions of its concept; graph.cpp evaluates a graph by calling them through the rows. The
// operations are written in the documented order (docs/graphs.md) and compiled without
// contraction (-ffp-contract=off), so a formula's doubles are the same on every machine and,
// for the libnoise-mode nodes, libnoise's own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/field.hpp"
#include "perlin/field_spec.hpp"

namespace perlin::detail {

/// A node's output at one sample: its value and its gradient with respect to the point the node
/// sees (components 0 to dims-1 are meaningful).
struct value_grad {
  double v = 0;
  double g[4] = {0, 0, 0, 0};
};

/// One parsed parameter: `number` for a number, a flag (0 or 1) and a choice (its index);
/// `list` for a number list and a point list (in, out, in, out, ...: points sorted by `in`).
struct param_value {
  double number = 0;
  std::vector<double> list;
  friend bool operator==(const param_value&, const param_value&) = default;
};

/// Everything a node's formula reads: its parameters in the row's order, what its prepare step
/// derived from them (curve tangents, a rotation matrix, a clamped falloff), and for a field
/// node its spec and field.
struct node_state {
  std::vector<param_value> params;
  std::vector<double> derived;
  field_spec spec;
  field source;
};

/// What a point transform gives the input it changes: the point r it sees (r_dims coordinates)
/// and the Jacobian jac[i][j] = d r_i / d q_j of r with respect to the transform's own point q.
struct point_map {
  double r[4] = {0, 0, 0, 0};
  int r_dims = 0;
  double jac[4][4] = {};
};

/// The value of a combining or unary node from its inputs' (in the row's input order); with
/// `grad`, the gradient too (components 0 to dims-1).
using combine_fn = void (*)(const node_state& s, const value_grad* const* in, std::size_t n,
                            value_grad& out, int dims, bool grad);
/// A point transform: the point its first input sees, from its own point q (q_dims coordinates)
/// and its other inputs' values (displace's displacements), and the Jacobian when `grad`.
using map_point_fn = void (*)(const node_state& s, const double* q, int q_dims,
                              const value_grad* const* rest, std::size_t n_rest, point_map& out,
                              bool grad);
/// Checks what one parameter's range cannot (lower < upper, enough points for a mode) and fills
/// `derived`; throws perlin::invalid_argument naming "<id>.<parameter>".
using prepare_fn = void (*)(node_state& s, std::string_view id);

/// The formula of a node kind: exactly one of combine and map_point, or neither for `field`.
struct node_formula {
  combine_fn combine = nullptr;
  map_point_fn map_point = nullptr;
  prepare_fn prepare = nullptr;
};

/// "<id>.<parameter>", the name errors give.
inline std::string param_name(std::string_view id, std::string_view parameter) {
  std::string out(id);
  out += '.';
  out += parameter;
  return out;
}

// combine.cpp: add, subtract, multiply, min, max, smooth-min, smooth-max, constant
void add_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void subtract_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                   bool);
void multiply_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                   bool);
void min_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void max_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void smooth_min_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                     bool);
void smooth_max_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                     bool);
void constant_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                   bool);

// unary.cpp: abs, invert, clamp, scale-bias, exponent
void abs_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void invert_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void clamp_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void prepare_clamp(node_state&, std::string_view id);
void scale_bias_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                     bool);
void exponent_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int,
                   bool);

// libnoise_modules.cpp: blend, select, curve (libnoise mode), terrace (libnoise mode)
void blend_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void select_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void prepare_select(node_state&, std::string_view id);
/// libnoise's Curve at v: value, and d value / d v in `slope`.
double libnoise_curve(const std::vector<double>& points, double v, double& slope);
/// libnoise's Terrace at v: value, and d value / d v in `slope`.
double libnoise_terrace(const std::vector<double>& points, bool invert, double v, double& slope);

// curves.cpp: the curve and terrace nodes (both modes), the monotone cubic and smooth terrace
void curve_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void prepare_curve(node_state&, std::string_view id);
void terrace_node(const node_state&, const value_grad* const*, std::size_t, value_grad&, int, bool);
void prepare_terrace(node_state&, std::string_view id);

// transforms.cpp: displace, scale-point, translate-point, rotate-point
void displace_point(const node_state&, const double*, int, const value_grad* const*, std::size_t,
                    point_map&, bool);
void scale_point(const node_state&, const double*, int, const value_grad* const*, std::size_t,
                 point_map&, bool);
void translate_point(const node_state&, const double*, int, const value_grad* const*, std::size_t,
                     point_map&, bool);
void rotate_point(const node_state&, const double*, int, const value_grad* const*, std::size_t,
                  point_map&, bool);
void prepare_rotate(node_state&, std::string_view id);

}  // namespace perlin::detail
