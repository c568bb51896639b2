// The plan builders of the bulk calls (grid.cpp): from a field and a grid or a point batch to the
// plain plans of detail/grid_plan.hpp that the per-target kernels read. Also used by the
// self-check.
#pragma once

#include <cstddef>
#include <optional>

#include "detail/grid_plan.hpp"
#include "perlin/field.hpp"
#include "perlin/grid.hpp"

namespace perlin::detail {

/// Which path a bulk call takes: the one decision, made by route_of (the table of
/// docs/design.md, "Routes", is checked against it by tests/bulk_test.cpp, BulkRoutes).
enum class bulk_route {
  row_kernel,     ///< SIMD float rows of a lattice-aligned grid (simd/rows-inl.h)
  sample_kernel,  ///< SIMD float samples placed in double one by one, with gradients
                  ///< (eval_points_d)
  point_kernel,   ///< SIMD float point batches (eval_points)
  exact_rows,     ///< SIMD double rows, bit for bit the scalar path (simd/exact_rows-inl.h)
  plain_scalar,   ///< the scalar path's operations with the dimension and the noise fixed once
  scalar,         ///< field::eval<double> per sample (rounded for float outputs)
};
/// The bulk calls of grid.hpp, by output type.
enum class bulk_call {
  grid_float,
  grid_double,
  grid_deriv_float,
  grid_deriv_double,
  points_float,
  points_double,
  points_deriv_float,
  points_deriv_double,
};
/// The route of `call` for `f` with `dims` coordinates (rows of `row_length` samples for grids).
bulk_route route_of(const field& f, bulk_call call, std::size_t dims, std::size_t row_length = 0);
[[nodiscard]] const char* route_name(bulk_route r) noexcept;
/// The lattice dimensions the sample kernel hashes for `dims` coordinates (3 on a rotated plane),
/// or 0 when it does not cover the field.
std::size_t sample_lattice_dims(const field& f, std::size_t dims);

/// The plan of a grid call for the kernels `k` (their gather thresholds, and their axis_fractions
/// builds the axis tables).
grid_plan make_grid_plan(const field& f, const grid& g, bool strict, const kernels& k);
/// The exact double-grid plan of `g` when the field is improved noise of kind none or fbm
/// (aligned, no warp) in 2-D or 3-D, rows of up to 65,536 samples and every octave coordinate
/// finite; std::nullopt otherwise.
std::optional<exact_grid_plan> make_exact_grid_plan(const field& f, const grid& g);
/// The plan of a point batch of `dims` coordinates (its `coord` left empty), or nothing when the
/// SIMD kernels do not cover it (periods that are not powers of two, 4-D).
std::optional<points_plan> make_points_plan(const field& f, std::size_t dims, bool strict);

}  // namespace perlin::detail
