// The float grid rows family (fill_rows, min_max, the per-target gather thresholds and the plans'
// axis tables): compiled once for every Highway target (foreach_target.h), each copy registering
// its part of the target's kernel table at start-up (detail/kernel_registry.hpp). The kernels are
// in simd/rows-inl.h (the drivers), simd/row_writers-inl.h (one octave's row),
// simd/row_lattice-inl.h (the cells' lattice side), simd/axis_fractions-inl.h and
// simd/noise-inl.h. points.cc and exact_rows.cc
// are the other families; each family is its own translation unit so that they compile in
// parallel.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/rows.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "simd/axis_fractions-inl.h"
#include "simd/noise-inl.h"
#include "simd/rows-inl.h"

// No HWY_BEFORE_NAMESPACE here: this part defines no function (the kernels are in the -inl.h
// files), and clang warns of a target attribute region with nothing in it.
namespace perlin::detail {
namespace HWY_NAMESPACE {

static_assert(k_pad * sizeof(float) >= HWY_MAX_BYTES, "k_pad must cover the widest vector");

const kernels k_row_kernels = {.fill_rows = &fill_rows,
                               .eval_points = nullptr,
                               .eval_points_d = nullptr,
                               .min_max = &min_max,
                               .fill_rows_exact = nullptr,
                               .gather_below_width = &gather_below_width,
                               .axis_fractions = &axis_fractions,
                               .noise_points_dd = nullptr};
[[maybe_unused]] const int k_registered = g_row_kernels.add(HWY_TARGET, &k_row_kernels);

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail

#if HWY_ONCE
namespace perlin::detail {
constinit kernel_family g_row_kernels;
}  // namespace perlin::detail
#endif  // HWY_ONCE
