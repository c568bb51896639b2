// Fixed-width vectors of the single-call path (GCC and Clang vector extensions): four floats or
// two doubles in one 16-byte register, SSE2 on every x86-64 and NEON on AArch64, with no runtime
// dispatch. Every lane operation is the IEEE operation of the scalar code (the kernels are
// compiled with -ffp-contract=off), so code written with them keeps the scalar path's bits.
// Highway is not used here: its static target at the baseline flags is a scalar emulation.
#pragma once

#include <cstdint>

#if defined(__GNUC__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector) && __has_builtin(__builtin_convertvector)
#define PERLIN_HAVE_LANES 1
#endif
#endif

#ifdef PERLIN_HAVE_LANES
namespace perlin::detail::lanes {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));
typedef std::uint32_t u32x4 __attribute__((vector_size(16)));
typedef double f64x2 __attribute__((vector_size(16)));

/// True when some lane of the comparison result `m` (lanes 0 or -1) is set.
inline bool any(i32x4 m) noexcept {
#if defined(__SSE2__)
  return __builtin_ia32_movmskps(reinterpret_cast<f32x4>(m)) != 0;
#else
  return (m[0] | m[1] | m[2] | m[3]) != 0;
#endif
}

/// Lane k of `v` in every lane.
template <int k>
inline f32x4 broadcast(f32x4 v) noexcept {
  return __builtin_shufflevector(v, v, k, k, k, k);
}

}  // namespace perlin::detail::lanes
#endif
