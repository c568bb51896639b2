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

}  // namespace perlin::detail
