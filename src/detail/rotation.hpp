// The rotation of plane::rotated (field.hpp), shared by the scalar path (field.cpp) and the bulk
// calls that place rotated samples themselves (grid.cpp): the same doubles in the same order.
#pragma once

#include <cstddef>

namespace perlin::detail {

inline constexpr double k_r2 = 0.70710678118654752440, k_r6 = 0.40824829046386301637,
                        k_r3 = 0.57735026918962576451;
/// Rows a, b, c: lattice = x a + y b + z c.
inline constexpr double k_rot[3][3] = {
    {k_r2, -k_r2, 0}, {k_r6, k_r6, -2 * k_r6}, {k_r3, k_r3, k_r3}};

/// Lattice coordinate j (< 3) of the point p[0 .. n), n >= 2: sum over k < min(3, n) of
/// p[k] k_rot[k][j], accumulated in double from k = 0.
inline double rotated(const double* p, std::size_t n, std::size_t j) noexcept {
  double s = 0;
  for (std::size_t k = 0; k < (n < 3 ? n : 3); ++k) s += p[k] * k_rot[k][j];
  return s;
}

}  // namespace perlin::detail
