// The nodes' elementwise kernels of the bulk calls (graph_grid.cpp): one loop per node kind over
// arrays of inputs, written so that the compiler vectorises it (no calls, no branches the
// compiler cannot turn into selects), in float for float grids and double for double grids. The
// double loops perform the formulas of formula.hpp's files operation for operation (so they give
// graph::eval's bits); the float curve and terrace run a piecewise polynomial table built from
// the node in double (docs/graphs.md, "Bulk calls and tolerance").
#pragma once

#include <cstddef>
#include <vector>

#include "graph/graph_data.hpp"

namespace perlin::detail {

enum class kernel_kind {
  generic,  ///< no loop of its own: the node's formula per element (value_grad)
  constant,
  add,
  subtract,
  multiply,
  min,
  max,
  smooth_min,
  smooth_max,
  abs,
  invert,
  clamp,
  scale_bias,
  exponent,
  blend,
  select,
  piecewise  ///< curve and terrace (float only): a polynomial of degree 5 per segment
};

/// A piecewise polynomial: segment s (0 to knots.size()) covers [knots[s-1], knots[s]) (the first
/// everything below knots[0], the last everything from the last knot on, both constant); on it
/// the value is c0 + t (c1 + t (c2 + t (c3 + t (c4 + t c5)))) with t = (v - x0[s]) * inv_h[s].
struct piecewise_table {
  std::vector<double> knots;
  std::vector<double> x0, inv_h;
  std::vector<double> c;   ///< 6 per segment
  double slope = 0;        ///< the largest |d value / d v|
  double coef_sum = 0;     ///< the largest sum of |c_k| over the segments
  double value_bound = 0;  ///< a bound on |value|
};

struct node_kernel {
  kernel_kind kind = kernel_kind::generic;
  double p[4] = {0, 0, 0, 0};
  piecewise_table table;
};

/// The kernel of a node for grids of type float (`for_float`) or double.
node_kernel make_kernel(const graph_node_data& n, bool for_float);

/// Runs a kernel that is not `generic` over `count` elements: in[k][i] are input k's values.
template <class T>
void run_kernel(const node_kernel& k, const T* const* in, std::size_t n_in, T* out,
                std::size_t count);

/// The curve or terrace node's table (value bounds and slopes for the tolerance too).
piecewise_table make_piecewise(const graph_node_data& n);

}  // namespace perlin::detail
