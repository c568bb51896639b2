// The hot single calls of improved noise in 2-D (the z = 0 slice) and 3-D: the reference's
// operations in its order, written out without the generic loops, and side by side in 16-byte
// lanes where the compiler has them (lanes.hpp). Same bits as improved<D> (reference.hpp), tested
// by ImprovedNoise.SingleCallsGiveTheBitsOfTheGenericKernel.
#pragma once

// -ffast-math folds std::isfinite to true (the NaN guards become undefined conversions) and
// reorders sums (the reference values no longer hold): refuse it rather than be wrong.
#if defined(__FAST_MATH__)
#error "perlin's exact paths cannot be compiled with -ffast-math (docs/exactness.md)"
#endif

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "detail/lattice_index.hpp"
#include "detail/primitives.hpp"
#include "perlin/detail/improved_float_call.hpp"
#include "perlin/detail/lanes.hpp"
#include "perlin/lattice.hpp"

namespace perlin::detail {

/// The cell of a finite 2-D or 3-D point: the hashes of its four (x, y) corner columns, its z
/// indices (0 in 2-D) and the fractions of its coordinates, as the reference computes them.
template <class T>
struct cell3 {
  std::uint32_t aa, ab, ba, bb;
  axis_index iz;
  T fx, fy, fz;
};

template <int D, class T>
inline cell3<T> locate(const std::uint8_t* p, const axis_wrap* wrap, T x0, T x1, T x2) noexcept {
  cell3<T> c{};
  const axis_index ix = split_axis(x0, wrap[0], c.fx);
  const axis_index iy = split_axis(x1, wrap[1], c.fy);
  if constexpr (D == 3) c.iz = split_axis(x2, wrap[2], c.fz);
  const std::uint32_t a = p[ix.i0], b = p[ix.i1];
  c.aa = p[a + iy.i0];
  c.ab = p[a + iy.i1];
  c.ba = p[b + iy.i0];
  c.bb = p[b + iy.i1];
  return c;
}

/// The hot single-call path of improved noise in 2-D (the z = 0 slice) and 3-D, written out like
/// the reference: the same operations in the same order as improved<D> (and so as Ken Perlin's
/// code), without the generic loops. Returns the same bits as improved<D, T>(p, wrap, x, nullptr).
/// Coordinates come by value (x, y, z): building an array for them costs a store-forwarding
/// stall per call on some CPUs.
template <int D, class T>
T improved_written_out(const std::uint8_t* p, const axis_wrap* wrap, T x0, T x1,
                       T x2 = T(0)) noexcept {
  static_assert(D == 2 || D == 3);
  const bool finite = std::isfinite(x0) && std::isfinite(x1) && (D == 2 || std::isfinite(x2));
  if (!finite) [[unlikely]]
    return std::numeric_limits<T>::quiet_NaN();
  const cell3<T> c = locate<D>(p, wrap, x0, x1, x2);
  const T fx = c.fx, fy = c.fy, fz = c.fz;
  const T u = fade(fx);
  const T v = fade(fy);
  const T fx1 = fx - T(1);
  const T fy1 = fy - T(1);
  if constexpr (D == 2) {
    const auto dot = [](std::uint32_t h, T px, T py) {
      const auto& r = k_grad3_rows<T>[h & 15];
      return r[0] * px + r[1] * py;
    };
    return lerp(v, lerp(u, dot(p[c.aa], fx, fy), dot(p[c.ba], fx1, fy)),
                lerp(u, dot(p[c.ab], fx, fy1), dot(p[c.bb], fx1, fy1)));
  } else {
    const std::uint32_t z0 = c.iz.i0, z1 = c.iz.i1;
    const T w = fade(fz);
    const T fz1 = fz - T(1);
    const auto dot = [](std::uint32_t h, T px, T py, T pz) {
      const auto& r = k_grad3_rows<T>[h & 15];
      return r[0] * px + r[1] * py + r[2] * pz;
    };
    return lerp(w,
                lerp(v, lerp(u, dot(p[c.aa + z0], fx, fy, fz), dot(p[c.ba + z0], fx1, fy, fz)),
                     lerp(u, dot(p[c.ab + z0], fx, fy1, fz), dot(p[c.bb + z0], fx1, fy1, fz))),
                lerp(v, lerp(u, dot(p[c.aa + z1], fx, fy, fz1), dot(p[c.ba + z1], fx1, fy, fz1)),
                     lerp(u, dot(p[c.ab + z1], fx, fy1, fz1), dot(p[c.bb + z1], fx1, fy1, fz1))));
  }
}

#ifdef PERLIN_HAVE_LANES
// The same computation with independent operations side by side in lanes: the corners' dot
// products, then the lerps of each level. Each lane performs the scalar operation on the scalar
// operands, so the bits are those of improved_written_out (tested bit for bit against the generic
// kernel, ImprovedNoise.SingleCallsGiveTheBitsOfTheGenericKernel). Float: the public inline
// call's function (perlin/detail/improved_float_call.hpp), which callers' loops inline too.

/// Double: the split as written out, the corners two at a time (a y pair per vector).
template <int D>
[[gnu::always_inline]] inline double improved_lanes(const std::uint8_t* p, const axis_wrap* wrap,
                                                    double x0, double x1, double x2) noexcept {
  using lanes::f64x2;
  const bool finite = std::isfinite(x0) && std::isfinite(x1) && (D == 2 || std::isfinite(x2));
  if (!finite) [[unlikely]]
    return std::numeric_limits<double>::quiet_NaN();
  const cell3<double> c = locate<D>(p, wrap, x0, x1, x2);
  const f64x2 fxy = {c.fx, c.fy};
  const f64x2 t = fxy * fxy * fxy * (fxy * (fxy * 6.0 - 15.0) + 10.0);  // fade of x and y
  const f64x2 fxy1 = fxy - 1.0;
  const f64x2 u = __builtin_shufflevector(t, t, 0, 0);
  const f64x2 px0 = __builtin_shufflevector(fxy, fxy, 0, 0);
  const f64x2 px1 = __builtin_shufflevector(fxy1, fxy1, 0, 0);
  const f64x2 py = __builtin_shufflevector(fxy, fxy1, 1, 3);
  // The dot products of the corner pair (y0, y1) hashed h0, h1, at x part px and z part pz.
  const auto pair = [&py](std::uint32_t h0, std::uint32_t h1, f64x2 px, f64x2 pz) {
    f64x2 r0[2], r1[2];
    std::memcpy(r0, k_grad3_rows<double>[h0 & 15].data(), sizeof r0);
    std::memcpy(r1, k_grad3_rows<double>[h1 & 15].data(), sizeof r1);
    const f64x2 d = __builtin_shufflevector(r0[0], r1[0], 0, 2) * px +
                    __builtin_shufflevector(r0[0], r1[0], 1, 3) * py;
    if constexpr (D == 2) return d;
    return d + __builtin_shufflevector(r0[1], r1[1], 0, 2) * pz;
  };
  if constexpr (D == 2) {
    const f64x2 lo = pair(p[c.aa], p[c.ab], px0, px0), hi = pair(p[c.ba], p[c.bb], px1, px1);
    const f64x2 l = lo + u * (hi - lo);
    return l[0] + t[1] * (l[1] - l[0]);
  } else {
    const std::uint32_t z0 = c.iz.i0, z1 = c.iz.i1;
    const f64x2 pz0 = {c.fz, c.fz};
    const f64x2 pz1 = pz0 - 1.0;
    const f64x2 lo0 = pair(p[c.aa + z0], p[c.ab + z0], px0, pz0);
    const f64x2 hi0 = pair(p[c.ba + z0], p[c.bb + z0], px1, pz0);
    const f64x2 lo1 = pair(p[c.aa + z1], p[c.ab + z1], px0, pz1);
    const f64x2 hi1 = pair(p[c.ba + z1], p[c.bb + z1], px1, pz1);
    const f64x2 l0 = lo0 + u * (hi0 - lo0), l1 = lo1 + u * (hi1 - lo1);  // (y0, y1) at z0, z1
    const f64x2 ya = __builtin_shufflevector(l0, l1, 0, 2),
                yb = __builtin_shufflevector(l0, l1, 1, 3);
    const f64x2 y = ya + __builtin_shufflevector(t, t, 1, 1) * (yb - ya);
    return y[0] + fade(c.fz) * (y[1] - y[0]);
  }
}
#endif

/// The hot single-call path of improved noise in 2-D and 3-D: the lanes where the compiler has
/// them, else written out; the same bits either way.
template <int D, class T>
[[gnu::always_inline]] inline T improved_fast(const std::uint8_t* p, const axis_wrap* wrap, T x0,
                                              T x1, T x2 = T(0)) noexcept {
  static_assert(D == 2 || D == 3);
#ifdef PERLIN_HAVE_LANES
  if constexpr (std::is_same_v<T, float>) {
    return improved_float_lanes<D>(p, wrap, x0, x1, x2);
  } else {
    return improved_lanes<D>(p, wrap, x0, x1, x2);
  }
#else
  return improved_written_out<D, T>(p, wrap, x0, x1, x2);
#endif
}

}  // namespace perlin::detail
