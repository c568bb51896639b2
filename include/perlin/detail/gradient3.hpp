// Ken Perlin's 16 gradients of 3-D improved noise, as integers (the reference's grad(hash, x, y,
// z)) and as floating-point rows for lanes. Public only because the inline float single calls
// (improved_float_call.hpp) read them; the library's kernels read the same tables.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace perlin::detail {

/// The 16 gradients of the reference `grad(hash, x, y, z)`, indexed by hash & 15: the dot
/// product gx*x + gy*y + gz*z gives the same bits as the reference's `(+-u) + (+-v)` because
/// every product is exact and adding the zero term changes nothing but the sign of a zero.
inline constexpr std::array<std::array<std::int8_t, 3>, 16> k_grad3 = {{
    {1, 1, 0},
    {-1, 1, 0},
    {1, -1, 0},
    {-1, -1, 0},  // h = 0..3:   +-x +-y
    {1, 0, 1},
    {-1, 0, 1},
    {1, 0, -1},
    {-1, 0, -1},  // h = 4..7:   +-x +-z
    {0, 1, 1},
    {0, -1, 1},
    {0, 1, -1},
    {0, -1, -1},  // h = 8..11:  +-y +-z
    {1, 1, 0},
    {0, -1, 1},
    {-1, 1, 0},
    {0, -1, -1},  // h = 12..15: y+x, -y+z, y-x, -y-z
}};

/// Ken Perlin's gradients as floating-point rows {gx, gy, gz, 0}, so that a corner costs three
/// loads and multiplies instead of conversions (the values are those of k_grad3).
template <class T>
inline constexpr auto k_grad3_rows = [] {
  std::array<std::array<T, 4>, 16> g{};
  for (std::size_t h = 0; h < 16; ++h) {
    for (std::size_t k = 0; k < 3; ++k) g[h][k] = static_cast<T>(k_grad3[h][k]);
  }
  return g;
}();

}  // namespace perlin::detail
