// Self-registration of the per-target kernels: each Highway target's copy of grid_kernels.cc
// registers itself at start-up with documented macros only (HWY_TARGET), so nothing reads
// Highway's internal dispatch table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "detail/grid_plan.hpp"

namespace perlin::detail {

struct registration {
  std::int64_t target;  // Highway's target bit (a lower bit is a better target)
  const kernels* k;
};

/// Called once per compiled target during static initialisation (grid_kernels.cc).
int register_kernels(std::int64_t target, const kernels* k) noexcept;
/// Every compiled target, supported here or not (grid_kernels.cc, so that referring to it links
/// the kernels in).
std::vector<registration> registered_kernels();

/// The known-answer test of one target's kernels against the double scalar path: grids in 1 to
/// 4 dimensions, points, improved and value noise, a fractal, strict and not. Returns "" when
/// every value is within the documented tolerance, else what disagreed (self_check.cpp).
std::string self_check(const kernels& k);

/// The tolerance of the float gradient kernels for a field: 2e-5 times the sum over octaves of
/// amplitude x frequency (divided by the sum of amplitudes when normalised), the scale of the
/// gradient itself (self_check.cpp; grid.hpp states it).
double gradient_tolerance(const field& f);

}  // namespace perlin::detail
