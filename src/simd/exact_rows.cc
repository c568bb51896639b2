// The exact double grid family (fill_rows_exact): compiled once for every Highway target
// (foreach_target.h), each copy registering its part of the target's kernel table at start-up
// (detail/kernel_registry.hpp). The kernel is in simd/exact_rows-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/exact_rows.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "simd/exact_rows-inl.h"

namespace perlin::detail {
namespace HWY_NAMESPACE {

// No double vectors (WASM in Highway 1.0): that target has no exact grids of its own, and
// targets.cpp completes its table from the next target down.
#if HWY_HAVE_FLOAT64
const kernels k_exact_row_kernels = {.fill_rows = nullptr,
                                     .eval_points = nullptr,
                                     .eval_points_d = nullptr,
                                     .min_max = nullptr,
                                     .fill_rows_exact = &fill_rows_exact,
                                     .gather_below_width = nullptr,
                                     .axis_fractions = nullptr,
                                     .noise_points_dd = nullptr};
[[maybe_unused]] const int k_registered = g_exact_row_kernels.add(HWY_TARGET, &k_exact_row_kernels);
#endif

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail

#if HWY_ONCE
namespace perlin::detail {
constinit kernel_family g_exact_row_kernels;
}  // namespace perlin::detail
#endif  // HWY_ONCE
