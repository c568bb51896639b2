// The point batch family (eval_points, eval_points_d): compiled once for every Highway target
// (foreach_target.h), each copy registering its part of the target's kernel table at start-up
// (detail/kernel_registry.hpp). The kernels are in simd/points-inl.h, and the warps'
// displacement noise in simd/warp_noise-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/points.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "simd/points-inl.h"
#include "simd/warp_noise-inl.h"

namespace perlin::detail {
namespace HWY_NAMESPACE {

// No double vectors (WASM in Highway 1.0): that target has no point batches of its own, and
// targets.cpp completes its table from the next target down.
#if HWY_HAVE_FLOAT64
const kernels k_point_kernels = {.fill_rows = nullptr,
                                 .eval_points = &eval_points,
                                 .eval_points_d = &eval_points_d,
                                 .min_max = nullptr,
                                 .fill_rows_exact = nullptr,
                                 .gather_below_width = nullptr,
                                 .axis_fractions = nullptr,
                                 .noise_points_dd = &noise_points_dd};
[[maybe_unused]] const int k_registered = g_point_kernels.add(HWY_TARGET, &k_point_kernels);
#endif

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail

#if HWY_ONCE
namespace perlin::detail {
constinit kernel_family g_point_kernels;
}  // namespace perlin::detail
#endif  // HWY_ONCE
