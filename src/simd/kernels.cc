// The per-target SIMD kernels, one table per Highway target: this file is compiled once for
// every target (foreach_target.h) and is, with the -inl.h files it includes, the only code that
// includes hwy/highway.h. Each target's copy registers its table at start-up with documented
// macros only (HWY_TARGET); targets.cpp picks the best one that passes its self-check.
//   simd/noise-inl.h       lanes, hashing, gradients, fractal steps, ranges (shared)
//   simd/rows-inl.h        rows of float grids (fill_rows)
//   simd/points-inl.h      point batches, float and double with gradients
//   simd/exact_rows-inl.h  exact double grids, bit for bit the scalar path
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "simd/exact_rows-inl.h"
#include "simd/noise-inl.h"
#include "simd/points-inl.h"
#include "simd/rows-inl.h"

// No HWY_BEFORE_NAMESPACE here: this part defines no function (the kernels are in the -inl.h
// files), and clang warns of a target attribute region with nothing in it.
namespace perlin::detail {
namespace HWY_NAMESPACE {

static_assert(k_pad * sizeof(float) >= HWY_MAX_BYTES, "k_pad must cover the widest vector");

#if HWY_HAVE_FLOAT64
const kernels k_kernels = {&fill_rows, &eval_points,     &eval_points_d,
                           &min_max,   &fill_rows_exact, k_gather_below_width};
#else
// No double vectors (WASM in Highway 1.0): point batches and exact grids, which need them, come
// from the next target down (targets.cpp completes the table).
const kernels k_kernels = {&fill_rows, nullptr, nullptr, &min_max, nullptr, k_gather_below_width};
#endif
[[maybe_unused]] const int k_registered = register_kernels(HWY_TARGET, &k_kernels);

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail

#if HWY_ONCE
#include <atomic>

namespace perlin::detail {

namespace {
// Constant-initialised, so that they exist before any registrar runs; no allocation, no lock.
constexpr std::size_t k_max_targets = 64;
registration g_registrations[k_max_targets];
std::atomic<std::size_t> g_registered{0};
}  // namespace

int register_kernels(std::int64_t target, const kernels* k) noexcept {
  const std::size_t i = g_registered.fetch_add(1);
  if (i < k_max_targets) g_registrations[i] = {target, k};
  return 0;
}

std::vector<registration> registered_kernels() {
  const std::size_t n = std::min(g_registered.load(), k_max_targets);
  return {g_registrations, g_registrations + n};
}

}  // namespace perlin::detail
#endif  // HWY_ONCE
