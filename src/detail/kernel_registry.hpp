// Self-registration of the per-target kernels: each Highway target's copy of simd/kernels.cc
// registers itself at start-up with documented macros only (HWY_TARGET), so nothing reads
// Highway's internal dispatch table.
#pragma once

#include <cstdint>
#include <vector>

#include "detail/grid_plan.hpp"

namespace perlin::detail {

struct registration {
  std::int64_t target;  // Highway's target bit (a lower bit is a better target)
  const kernels* k;
};

/// Called once per compiled target during static initialisation (simd/kernels.cc).
int register_kernels(std::int64_t target, const kernels* k) noexcept;
/// Every compiled target, supported here or not (simd/kernels.cc, so that referring to it links
/// the kernels in).
std::vector<registration> registered_kernels();

/// The kernels of the active target (the best one this CPU supports that passed its
/// self-check, not above the cap); targets.cpp.
const kernels& active_kernels();

}  // namespace perlin::detail
