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

/// The plan of a grid call.
grid_plan make_grid_plan(const field& f, const grid& g, bool strict);
/// The exact double-grid plan of `g` when the field is improved noise of kind none or fbm
/// (aligned, no warp) in 2-D or 3-D, rows of up to 65,536 samples and every octave coordinate
/// finite; std::nullopt otherwise.
std::optional<exact_grid_plan> make_exact_grid_plan(const field& f, const grid& g);
/// The plan of a point batch of `dims` coordinates (its `coord` left empty), or nothing when the
/// SIMD kernels do not cover it (periods that are not powers of two, 4-D).
std::optional<points_plan> make_points_plan(const field& f, std::size_t dims, bool strict);

}  // namespace perlin::detail
