// The known-answer test of a target's kernels (self_check.cpp), run by targets.cpp before a
// target is used, and the gradient kernels' tolerance it holds them to.
#pragma once

#include <string>

#include "detail/grid_plan.hpp"
#include "perlin/field.hpp"

namespace perlin::detail {

/// The known-answer test of one target's kernels against the double scalar path: grids in 1 to
/// 4 dimensions, points, improved and value noise, a fractal, strict and not. Returns "" when
/// every value is within the documented tolerance, else what disagreed.
std::string self_check(const kernels& k);

/// The tolerance of the float gradient kernels for a field: 2e-5 times the sum over octaves of
/// amplitude x frequency (divided by the sum of amplitudes when normalised), the scale of the
/// gradient itself (grid.hpp states it).
double gradient_tolerance(const field& f);

}  // namespace perlin::detail
