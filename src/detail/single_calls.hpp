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

#include "detail/lanes.hpp"
#include "detail/lattice_index.hpp"
#include "detail/primitives.hpp"
#include "perlin/lattice.hpp"

namespace perlin::detail {

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
// kernel, ImprovedNoise.SingleCallsGiveTheBitsOfTheGenericKernel).

/// The gradient rows {gx, gy, gz, 0} of the corners hashed h0..h3, transposed into one vector per
/// component (lane k from h_k).
inline void gradient_lanes(std::uint32_t h0, std::uint32_t h1, std::uint32_t h2, std::uint32_t h3,
                           lanes::f32x4& gx, lanes::f32x4& gy, lanes::f32x4& gz) noexcept {
  const auto row = [](std::uint32_t h) {
    lanes::f32x4 r;
    std::memcpy(&r, k_grad3_rows<float>[h & 15].data(), sizeof r);
    return r;
  };
  const lanes::f32x4 r0 = row(h0), r1 = row(h1), r2 = row(h2), r3 = row(h3);
  const lanes::f32x4 xy01 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
  const lanes::f32x4 xy23 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const lanes::f32x4 z01 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
  const lanes::f32x4 z23 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  gx = __builtin_shufflevector(xy01, xy23, 0, 1, 4, 5);
  gy = __builtin_shufflevector(xy01, xy23, 2, 3, 6, 7);
  gz = __builtin_shufflevector(z01, z23, 0, 1, 4, 5);
}

/// Float: the three coordinates split in one vector (floor by truncation and correction, the
/// wrap masks), the 4 corners of 2-D or the 8 of 3-D four at a time. Coordinates of 2^31 and
/// more, NaN and infinities, and periods that need a modulo take the written-out path.
template <int D>
[[gnu::always_inline]] inline float improved_lanes(const std::uint8_t* p, const axis_wrap* wrap,
                                                   float x0, float x1, float x2) noexcept {
  using namespace lanes;
  const f32x4 x = {x0, x1, x2, 0.f};
  const i32x4 mask = {static_cast<std::int32_t>(wrap[0].mask),
                      static_cast<std::int32_t>(wrap[1].mask),
                      D == 3 ? static_cast<std::int32_t>(wrap[2].mask) : 255, 255};
  const f32x4 ax = reinterpret_cast<f32x4>(reinterpret_cast<i32x4>(x) & 0x7fffffff);
  if (any(~(ax < 2147483648.f) | (mask == 0))) [[unlikely]] {
    return improved_written_out<D, float>(p, wrap, x0, x1, x2);
  }
  i32x4 i = __builtin_convertvector(x, i32x4);
  i += __builtin_convertvector(i, f32x4) > x;  // -1 where truncation went up
  const f32x4 f = x - __builtin_convertvector(i, f32x4);
  const u32x4 m = reinterpret_cast<u32x4>(mask);
  const u32x4 i0 = reinterpret_cast<u32x4>(i) & m;
  const u32x4 i1 = (reinterpret_cast<u32x4>(i) + 1u) & m;
  const f32x4 t = f * f * f * (f * (f * 6.f - 15.f) + 10.f);  // fade, lane by lane
  const f32x4 f1 = f - 1.f;
  const std::uint32_t a = p[i0[0]], b = p[i1[0]];
  const std::uint32_t aa = p[a + i0[1]], ab = p[a + i1[1]];
  const std::uint32_t ba = p[b + i0[1]], bb = p[b + i1[1]];
  const f32x4 py = __builtin_shufflevector(f, f1, 1, 5, 1, 5);
  f32x4 gx, gy, gz;
  if constexpr (D == 2) {
    // Lanes: corners aa, ab, ba, bb; then lerp(u, aa, ba), lerp(u, ab, bb); then along y.
    gradient_lanes(p[aa], p[ab], p[ba], p[bb], gx, gy, gz);
    const f32x4 d = gx * __builtin_shufflevector(f, f1, 0, 0, 4, 4) + gy * py;
    const f32x4 lo = __builtin_shufflevector(d, d, 0, 1, 0, 1);
    const f32x4 hi = __builtin_shufflevector(d, d, 2, 3, 2, 3);
    const f32x4 l = lo + broadcast<0>(t) * (hi - lo);
    return l[0] + t[1] * (l[1] - l[0]);
  } else {
    // Lanes: (y0 z0, y1 z0, y0 z1, y1 z1) at x0, then at x1; lerp along x, y, then z.
    const std::uint32_t z0 = i0[2], z1 = i1[2];
    const f32x4 pz = __builtin_shufflevector(f, f1, 2, 2, 6, 6);
    gradient_lanes(p[aa + z0], p[ab + z0], p[aa + z1], p[ab + z1], gx, gy, gz);
    const f32x4 lo = gx * broadcast<0>(f) + gy * py + gz * pz;
    gradient_lanes(p[ba + z0], p[bb + z0], p[ba + z1], p[bb + z1], gx, gy, gz);
    const f32x4 hi = gx * broadcast<0>(f1) + gy * py + gz * pz;
    const f32x4 l = lo + broadcast<0>(t) * (hi - lo);
    const f32x4 ya = __builtin_shufflevector(l, l, 0, 2, 0, 2);
    const f32x4 yb = __builtin_shufflevector(l, l, 1, 3, 1, 3);
    const f32x4 y = ya + broadcast<1>(t) * (yb - ya);
    return y[0] + t[2] * (y[1] - y[0]);
  }
}

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
  return improved_lanes<D>(p, wrap, x0, x1, x2);
#else
  return improved_written_out<D, T>(p, wrap, x0, x1, x2);
#endif
}

}  // namespace perlin::detail
