// Self-registration of the per-target kernels. Each kernel family is its own file in src/simd/
// (rows.cc, points.cc, exact_rows.cc), compiled once per Highway target by foreach_target.h, so
// that the families compile in parallel; each target's copy of a family adds its part of that
// target's table to the family's list at start-up, with documented macros only (HWY_TARGET), so
// nothing reads Highway's internal dispatch table. registered_kernels() joins the parts by target.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "detail/grid_plan.hpp"

namespace perlin::detail {

struct registration {
  std::int64_t target;  // Highway's target bit (a lower bit is a better target)
  const kernels* k;
};

/// One family's tables, one per compiled target, each with only that family's kernels set.
/// Constant-initialised (constinit where defined), so that it exists before any target's copy
/// adds to it; no allocation, no lock.
class kernel_family {
 public:
  /// Called once per compiled target during static initialisation; returns 0.
  int add(std::int64_t target, const kernels* k) noexcept {
    const std::size_t i = count_.fetch_add(1);
    if (i < k_max_targets) entries_[i] = {target, k};
    return 0;
  }
  [[nodiscard]] std::vector<registration> list() const {
    const std::size_t n = std::min(count_.load(), k_max_targets);
    return {entries_, entries_ + n};
  }

 private:
  static constexpr std::size_t k_max_targets = 64;
  registration entries_[k_max_targets]{};
  std::atomic<std::size_t> count_{0};
};

// Defined by each family's file (HWY_ONCE part), so that referring to them links the kernels in.
extern kernel_family g_row_kernels;    ///< fill_rows, min_max, gather_below_width, axis_fractions
extern kernel_family g_point_kernels;  ///< eval_points, eval_points_d (points.cc)
extern kernel_family g_exact_row_kernels;  ///< fill_rows_exact (exact_rows.cc)

/// Fills the kernels `k` lacks from `from` (the gather thresholds go with fill_rows): joins a
/// target's families here, and completes a target from the ones below it in targets.cpp.
void complete_from(kernels& k, const kernels& from);

/// Every compiled target, supported here or not, with the kernels its families registered
/// (a family without a target's copy leaves those kernels null: targets.cpp completes them from
/// the next target down). Tables live as long as the program.
std::vector<registration> registered_kernels();

/// The kernels of the active target (the best one this CPU supports that passed its
/// self-check, not above the cap); targets.cpp.
const kernels& active_kernels();

}  // namespace perlin::detail
