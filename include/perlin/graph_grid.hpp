// Bulk evaluation of graphs (graph.hpp): whole uniform grids, derivative grids and batches of
// points, in the shapes of grid.hpp's field versions. The graph runs over chunks of samples (a
// grid's tiles of whole rows): each `field` node fills the chunk through the field's bulk calls
// (its SIMD routes; a field under a point transform through the point batches at the points it
// sees), then the other nodes run over it elementwise in the graph's plan order, in float for
// float grids and double for double grids (docs/graphs.md, "Bulk calls and tolerance").
//
// Double results are graph::eval's bit for bit (the fields' double bulk calls are field::eval's
// and every node runs its documented formula in its order). Float results lie within
// value_tolerance(graph) of graph::eval, their partial derivatives within gradient_tolerance.
// The results do not depend on the thread count: the combining is elementwise, so no chunking
// changes a bit.
#pragma once

#include <cstddef>
#include <span>

#include "perlin/graph.hpp"
#include "perlin/grid.hpp"

namespace perlin {

/// Fills `out` (g.size() values, x fastest as grid.hpp lays them out) with the graph on the grid
/// and returns the smallest and largest value written. Throws perlin::invalid_argument for a bad
/// grid or a size mismatch. Float: within value_tolerance(gr, bound) of graph::eval where every
/// coordinate of the grid is within `bound` in magnitude; double: graph::eval bit for bit.
value_range<float> fill_grid(const graph& gr, const grid& g, std::span<float> out,
                             const bulk_options& o = {});
value_range<double> fill_grid(const graph& gr, const grid& g, std::span<double> out,
                              const bulk_options& o = {});

/// Values and gradients: `gradient` holds g.dims * g.size() values, planar (the derivative along
/// axis k of sample n is gradient[k * g.size() + n]). Double: graph::eval with a gradient bit
/// for bit; float: values as fill_grid, partials within gradient_tolerance(gr, bound).
value_range<float> fill_grid_deriv(const graph& gr, const grid& g, std::span<float> out,
                                   std::span<float> gradient, const bulk_options& o = {});
value_range<double> fill_grid_deriv(const graph& gr, const grid& g, std::span<double> out,
                                    std::span<double> gradient, const bulk_options& o = {});

/// The graph at every point of a batch (point_set: one array per coordinate), into `out` (as long
/// as the arrays). Double: graph::eval bit for bit; float: within value_tolerance.
void eval_points(const graph& gr, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o = {});
void eval_points(const graph& gr, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o = {});
/// Values and gradients at every point: `gradient` holds dims * out.size() values, planar.
void eval_points_deriv(const graph& gr, const point_set<float>& p, std::span<float> out,
                       std::span<float> gradient, const bulk_options& o = {});
void eval_points_deriv(const graph& gr, const point_set<double>& p, std::span<double> out,
                       std::span<double> gradient, const bulk_options& o = {});

/// The float bulk calls' bound on |float result - graph::eval| for points whose coordinates are
/// within `bound` in magnitude, derived from the nodes by the rule of docs/graphs.md ("Bulk calls
/// and tolerance"): each field's value_tolerance, carried through every node by its slope and
/// the sources' value bounds, plus the float rounding of each node. `bound` matters only where a
/// point transform moves the points a field sees (they are rounded to float). May be +infinity
/// (a select without falloff whose control is not exact: the float value may take the other
/// branch).
[[nodiscard]] double value_tolerance(const graph& gr, double bound = 1024) noexcept;
/// The same for the partial derivatives of fill_grid_deriv and eval_points_deriv (float);
/// +infinity for a graph with a node that has a kink (min, max, abs, clamp, select, curve and
/// terrace in libnoise mode, exponent below 2): near a kink a float gradient may take the other
/// side's value.
[[nodiscard]] double gradient_tolerance(const graph& gr, double bound = 1024) noexcept;

/// A bound B on |value| of the graph at points of `dims` coordinates: every value lies in
/// [-B, B]. Carried from its fields' ranges through every node by the rule of value_tolerance
/// (docs/graphs.md); may be +infinity (a node without a bound, such as exponent of an unbounded
/// input).
[[nodiscard]] double value_bound(const graph& gr, std::size_t dims) noexcept;

}  // namespace perlin
