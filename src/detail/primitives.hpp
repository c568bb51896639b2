// The reference's building blocks: Ken Perlin's fade and lerp in his evaluation order, the
// gradient tables of 3-D and 4-D improved noise, and the NaN guards of the exact paths.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "perlin/detail/gradient3.hpp"  // k_grad3

namespace perlin::detail {

/// Ken Perlin's fade curve 6t^5 - 15t^4 + 10t^3, in his evaluation order.
template <class T>
constexpr T fade(T t) noexcept {
  return t * t * t * (t * (t * T(6) - T(15)) + T(10));
}
/// d/dt of fade: 30 t^2 (t - 1)^2.
template <class T>
constexpr T dfade(T t) noexcept {
  return T(30) * t * t * (t - T(1)) * (t - T(1));
}
/// Ken Perlin's lerp(t, a, b) = a + t (b - a), in his evaluation order.
template <class T>
constexpr T lerp(T t, T a, T b) noexcept {
  return a + t * (b - a);
}

/// The 32 gradients of 4-D improved noise, indexed by hash & 31: component h >> 3 is zero, the
/// other three are -1 when bits 0, 1, 2 of h are set (in axis order), +1 otherwise.
inline constexpr std::array<std::array<std::int8_t, 4>, 32> k_grad4 = [] {
  std::array<std::array<std::int8_t, 4>, 32> g{};
  for (int h = 0; h < 32; ++h) {
    const int zero = h >> 3;
    int bit = 0;
    for (int k = 0; k < 4; ++k) {
      if (k == zero) {
        g[h][k] = 0;
      } else {
        g[h][k] = ((h >> bit) & 1) ? -1 : 1;
        ++bit;
      }
    }
  }
  return g;
}();

template <class T, int D>
inline bool all_finite(const T* x) noexcept {
  bool ok = true;
  for (int k = 0; k < D; ++k) ok &= std::isfinite(x[k]);
  return ok;
}

template <class T, int D>
inline T fail_nan(T* grad) noexcept {
  constexpr T nan = std::numeric_limits<T>::quiet_NaN();
  if (grad != nullptr) {
    for (int k = 0; k < D; ++k) grad[k] = nan;
  }
  return nan;
}

}  // namespace perlin::detail
