// Stefan Gustavson's simplex noise in 2-D, 3-D and 4-D (the internal double path; issue 51).
//
// The algorithm of his speed-improved SimplexNoise.java, "Version 2012-03-09" (public domain):
// Ken Perlin's permutation, the 12 cube-edge gradients (2-D uses their x, y), the 32 gradients of
// 4-D, skew F = (sqrt(n+1) - 1)/n and unskew G = (1 - 1/sqrt(n+1))/n, kernels (0.5 - r^2)^4 in
// 2-D and (0.6 - r^2)^4 in 3-D and 4-D times the gradient's dot product, the 2012 rank ordering
// of the 4-D simplex, and the output scales 70, 32 and 27. Each function repeats that code's
// double operations in its order (no fused multiply-adds: the project builds with
// -ffp-contract=off) and its int semantics: Java's saturating (int) cast of the skewed
// coordinates, its wrapping int sums, and `& 255` before the table lookups. So with Ken Perlin's
// permutation they give the Java code's doubles bit for bit, for every input (NaN and infinities
// included); tests/data/simplex_gustavson_{2,3,4}d.txt hold its values (tests/simplex_test.cpp).
// The code was written from the algorithm; it contains none of the Java file.
//
// The values lie in [-1, 1] (Gustavson's stated range; tests/simplex_test.cpp holds a random
// search of 10^6 points per dimension inside it). The largest |value| found by 10^5 random starts
// per dimension, each climbed by random steps shrinking from 0.05 to 1e-13 (the same maxima as
// 2 x 10^4 starts): 0.99788935415490965 (2-D), 0.97871639636224339 (3-D), 0.99171064574968304
// (4-D). Unlike improved noise it is not zero at the lattice points.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "perlin/lattice.hpp"

namespace perlin::detail {

/// Skew F = (sqrt(n+1) - 1)/n and unskew G = (1 - 1/sqrt(n+1))/n as the Java code computes them,
/// one rounding per operation: F2 = 0.5*(sqrt(3)-1), G2 = (3-sqrt(3))/6, F3 = 1/3, G3 = 1/6,
/// F4 = (sqrt(5)-1)/4, G4 = (5-sqrt(5))/20 (tests/simplex_test.cpp recomputes them).
inline constexpr double k_simplex_f2 = 0x1.76cf5d0b09954p-2;
inline constexpr double k_simplex_g2 = 0x1.b0cb174df99c8p-3;
inline constexpr double k_simplex_f3 = 0x1.5555555555555p-2;
inline constexpr double k_simplex_g3 = 0x1.5555555555555p-3;
inline constexpr double k_simplex_f4 = 0x1.3c6ef372fe950p-2;
inline constexpr double k_simplex_g4 = 0x1.1b06d1d200913p-3;

/// The 32 gradients of 4-D simplex noise, indexed by perm % 32: component h >> 3 is zero; the
/// other three, in axis order, are -1 where bits 2, 1, 0 of h are set (the first of them reads
/// bit 2), else +1 (Gustavson's grad4). 2-D and 3-D use the first 12 rows of k_grad3.
inline constexpr auto k_simplex_grad4 = [] {
  std::array<std::array<double, 4>, 32> g{};
  for (std::size_t h = 0; h < 32; ++h) {
    int bit = 2;
    for (std::size_t a = 0; a < 4; ++a) {
      if (a == h >> 3) continue;
      g[h][a] = ((h >> bit) & 1) != 0 ? -1.0 : 1.0;
      --bit;
    }
  }
  return g;
}();

/// 2-D simplex noise at (x, y) on permutation `p` (Ken Perlin's when omitted). Thread safe.
double simplex2(const permutation& p, double x, double y) noexcept;
/// 3-D simplex noise at (x, y, z) on permutation `p`. Thread safe.
double simplex3(const permutation& p, double x, double y, double z) noexcept;
/// 4-D simplex noise at (x, y, z, w) on permutation `p`. Thread safe.
double simplex4(const permutation& p, double x, double y, double z, double w) noexcept;

/// Simplex noise of `dims` (2 to 4) coordinates x on the doubled permutation table `perm` (512
/// entries): the value, the same bits as simplex2/3/4 above, with its analytic gradient into
/// `grad` (dims values) and its Hessian into `hess` (dims x dims, row major) when not null.
/// Each corner contributes s (r^2 - |d|^2)^4 (g . d) (s the output scale, d the offset from the
/// corner, 0 where r^2 - |d|^2 < 0), so with t = r^2 - |d|^2:
///   d/dx_a   = s (t^4 g_a - 8 t^3 d_a (g . d)),
///   d2/dx_a dx_b = s (48 t^2 d_a d_b (g . d) - 8 t^3 (delta_ab (g . d) + d_a g_b + d_b g_a)),
/// summed over the corners (continuous across the kernels' edges, where t, t^2 and t^3 vanish).
double simplex(int dims, const std::uint8_t* perm, const double* x, double* grad,
               double* hess) noexcept;

/// The same on Ken Perlin's permutation: Gustavson's SimplexNoise.noise(...) bit for bit.
double simplex2(double x, double y) noexcept;
double simplex3(double x, double y, double z) noexcept;
double simplex4(double x, double y, double z, double w) noexcept;

}  // namespace perlin::detail
