// From a coordinate to the lattice: floor and fraction, the wrapped (periodic) indices of a cell
// and its neighbour along each axis, and the hash bytes of a cell's corners. Shared by the scalar
// reference (reference.hpp), the single calls (single_calls.hpp) and the bulk plans.
#pragma once

// -ffast-math folds std::isfinite to true (the NaN guards become undefined conversions) and
// reorders sums (the reference values no longer hold): refuse it rather than be wrong.
#if defined(__FAST_MATH__)
#error "perlin's exact paths cannot be compiled with -ffast-math (docs/exactness.md)"
#endif

#include <cmath>
#include <cstdint>

#include "perlin/lattice.hpp"

namespace perlin::detail {

/// 2^62: above it a double is an integer far beyond the documented 2^52 and may not fit int64.
inline constexpr double k_huge = 4611686018427387904.0;

/// The two hashed lattice indices (cell and next cell) of one axis, each in [0, 255].
struct axis_index {
  std::uint32_t i0, i1;
};

/// Reduces the lattice index i with the axis wrap: modulo its period, then to the table.
inline axis_index wrap_index(std::int64_t i, const axis_wrap& w) noexcept {
  if (!w.modulo) [[likely]] {
    return {static_cast<std::uint32_t>(i) & w.mask, static_cast<std::uint32_t>(i + 1) & w.mask};
  }
  const auto period = static_cast<std::int64_t>(w.period);
  std::int64_t m = i % period;
  if (m < 0) m += period;
  const std::int64_t m1 = (m + 1 == period) ? 0 : m + 1;
  return {static_cast<std::uint32_t>(m) & 255u, static_cast<std::uint32_t>(m1) & 255u};
}

/// The lattice index of a huge integer-valued `fl` (|fl| >= 2^62): reducing by the period (or by
/// 2^62, a multiple of the table size 256) with fmod, which is exact, keeps the residue the hash
/// sees and avoids an overflowing conversion.
/// A NaN or infinite `fl` (an octave coordinate that overflowed, or a NaN point in a bulk call)
/// gives index 0: memory stays safe, the conversion is never undefined, and the caller's fraction
/// x - floor(x) is NaN, so the sample is NaN.
inline std::int64_t huge_index(double fl, const axis_wrap& w) noexcept {
  if (!std::isfinite(fl)) [[unlikely]]
    return 0;
  return static_cast<std::int64_t>(
      std::fmod(fl, w.modulo ? static_cast<double>(w.period) : k_huge));
}

/// Reduces the integer `fl` (= floor(x)) with the axis wrap.
template <class T>
inline axis_index lattice_index(T fl, const axis_wrap& w) noexcept {
  if (std::abs(fl) < T(k_huge)) [[likely]]
    return wrap_index(static_cast<std::int64_t>(fl), w);
  return wrap_index(huge_index(static_cast<double>(fl), w), w);
}

/// floor(x) as an exact T and the fraction x - floor(x), then the wrapped indices. The floor is
/// computed by truncation and correction rather than std::floor, which is a library call on
/// baseline x86-64; the result is the same (floor is exact), so is the fraction.
template <class T>
inline axis_index split_axis(T x, const axis_wrap& w, T& frac) noexcept {
  if (std::abs(x) < T(k_huge)) [[likely]] {
    std::int64_t i = static_cast<std::int64_t>(x);
    i -= static_cast<std::int64_t>(static_cast<T>(i) > x);  // branch-free: signs are random
    frac = x - static_cast<T>(i);
    return wrap_index(i, w);
  }
  frac = T(0);  // |x| >= 2^62 is an integer
  return wrap_index(huge_index(static_cast<double>(x), w), w);
}

/// Hash bytes of the 2^D corners of the cell, corner c having bit k set when it takes the upper
/// index along axis k. Dimensions below 3 hash like the 3-D noise with the missing indices 0.
template <int D>
inline void hash_corners(const std::uint8_t* p, const axis_index* idx, std::uint32_t* h) noexcept {
  constexpr int depth = D <= 3 ? 3 : 4;
  h[0] = p[idx[0].i0];
  h[1] = p[idx[0].i1];
  int n = 2;
  for (int k = 1; k < depth; ++k) {
    if (k < D) {
      for (int j = 0; j < n; ++j) {
        h[j + n] = p[h[j] + idx[k].i1];
        h[j] = p[h[j] + idx[k].i0];
      }
      n *= 2;
    } else {
      for (int j = 0; j < n; ++j) h[j] = p[h[j]];
    }
  }
}

}  // namespace perlin::detail
