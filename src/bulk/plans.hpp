// The plan builders of the bulk calls (grid.cpp): from a field and a grid or a point batch to the
// plain plans of detail/grid_plan.hpp that the per-target kernels read. Also used by the
// self-check.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

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
  warp_kernel,    ///< warped fields: the sample kernel for each warp octave's noise and for the
                  ///< field at the warped points (bulk/warp_samples.cpp)
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
/// or 0 when it does not cover the field (the eroded fractal: values only, route_of decides).
std::size_t sample_lattice_dims(const field& f, std::size_t dims);

/// A warped field on the sample kernel (bulk_route::warp_kernel): one single-octave plan per
/// warp octave i and displacement component k (noise[i * dims + k]: the warp lattice's noise at
/// q * freq_i + o_ik, perlin/warp.hpp), the displacement's scale per octave, and the field's own
/// plan for the warped points. dims is the lattice's (3 on a rotated plane).
struct warp_plan {
  int dims = 2;
  bool progressive = false;
  bool turned = false;  // a rotated plane: points turned onto the lattice first
  std::vector<points_plan> noise;
  std::vector<double> scale;  // (A / f) a_i: the displacement of octave i is scale[i] n_i
  points_plan field;
};
/// The lattice dimensions the warp kernel hashes for a warped `f` with `dims` coordinates (3 on
/// a rotated plane), or 0 when it does not cover the field: not warped, 4-D, the eroded fractal,
/// cosine value noise, or a period (of the field or of a warp octave) that is not a power of two.
std::size_t warp_lattice_dims(const field& f, std::size_t dims);
/// The warp kernel's plan (warp_lattice_dims(f, dims) != 0).
warp_plan make_warp_plan(const field& f, std::size_t dims, bool strict);

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
