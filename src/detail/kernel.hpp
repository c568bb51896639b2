// The scalar reference kernels: one generic implementation of lattice hashing, gradient and value
// noise for 1 to 4 dimensions. The single source of truth that every other path is tested against.
//
// Compiled with -ffp-contract=off (see CMakeLists.txt): the double 3-D path must evaluate in the
// same order as Ken Perlin's Java code, with no fused multiply-add, to reproduce it bit for bit.
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
#include <limits>

#include "detail/lanes.hpp"
#include "perlin/lattice.hpp"
#include "perlin/value_noise.hpp"

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

/// Multilinear reduction of corner values with per-axis weights, x first, in the reference order.
template <int D, class T>
inline T reduce(T* c, const T* t) noexcept {
  int n = 1 << D;
  for (int k = 0; k < D; ++k) {
    n >>= 1;
    for (int j = 0; j < n; ++j) c[j] = lerp(t[k], c[2 * j], c[2 * j + 1]);
  }
  return c[0];
}

/// Partial derivatives of sum_c W_c(t) v_c where W_c = prod_k (bit_k ? t_k : 1 - t_k), times the
/// derivative dt_k of each weight, added to `out`.
template <int D, class T>
inline void weight_gradient(const T* v, const T* t, const T* dt, T* out) noexcept {
  constexpr int n = 1 << D;
  for (int k = 0; k < D; ++k) {
    T sum = 0;
    for (int c = 0; c < n; ++c) {
      T w = ((c >> k) & 1) ? T(1) : T(-1);
      for (int j = 0; j < D; ++j) {
        if (j != k) w *= ((c >> j) & 1) ? t[j] : T(1) - t[j];
      }
      sum += w * v[c];
    }
    out[k] += sum * dt[k];
  }
}

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

/// Improved gradient noise at x[0..D-1]; when `grad` is not null it receives the D partials.
template <int D, class T>
T improved(const std::uint8_t* p, const axis_wrap* wrap, const T* x, T* grad) noexcept {
  static_assert(D >= 1 && D <= 4);
  // Values alone in 2-D and 3-D (the hot single calls and fractal octaves) take the written-out
  // path; it gives the same bits.
  if constexpr (D == 2) {
    if (grad == nullptr) return improved_fast<2, T>(p, wrap, x[0], x[1]);
  } else if constexpr (D == 3) {
    if (grad == nullptr) return improved_fast<3, T>(p, wrap, x[0], x[1], x[2]);
  }
  if (!all_finite<T, D>(x)) [[unlikely]]
    return fail_nan<T, D>(grad);
  constexpr int n = 1 << D;
  axis_index idx[4] = {};
  T f[D];
  T u[D];
  for (int k = 0; k < D; ++k) {
    idx[k] = split_axis(x[k], wrap[k], f[k]);
    u[k] = fade(f[k]);
  }
  std::uint32_t h[16];
  hash_corners<D>(p, idx, h);
  T c[n];
  for (int corner = 0; corner < n; ++corner) {
    T dot;
    if constexpr (D == 4) {
      const auto& g = k_grad4[h[corner] & 31];
      dot = T(g[0]) * ((corner & 1) ? f[0] - T(1) : f[0]);
      for (int k = 1; k < 4; ++k) dot = dot + T(g[k]) * (((corner >> k) & 1) ? f[k] - T(1) : f[k]);
    } else {
      const auto& g = k_grad3[h[corner] & 15];
      dot = T(g[0]) * ((corner & 1) ? f[0] - T(1) : f[0]);
      for (int k = 1; k < D; ++k) dot = dot + T(g[k]) * (((corner >> k) & 1) ? f[k] - T(1) : f[k]);
    }
    c[corner] = dot;
  }
  if (grad != nullptr) {
    // d/dx_k = (weights interpolating the gradients' k-th components) + dfade * d/du_k.
    T gk[n];
    T dt[D];
    for (int k = 0; k < D; ++k) dt[k] = dfade(f[k]);
    for (int k = 0; k < D; ++k) {
      for (int corner = 0; corner < n; ++corner) {
        gk[corner] = T(D == 4 ? k_grad4[h[corner] & 31][k] : k_grad3[h[corner] & 15][k]);
      }
      grad[k] = reduce<D>(gk, u);
    }
    weight_gradient<D>(c, u, dt, grad);
  }
  return reduce<D>(c, u);
}

/// The blend weight of value noise and its derivative.
template <class T>
inline T interp_weight(interpolation kind, T t, T* dt) noexcept {
  constexpr T pi = T(3.14159265358979323846);
  switch (kind) {
    case interpolation::linear:
      *dt = T(1);
      return t;
    case interpolation::cosine:
      *dt = T(0.5) * pi * std::sin(pi * t);
      return T(0.5) - T(0.5) * std::cos(pi * t);
    case interpolation::cubic:
      *dt = T(6) * t * (T(1) - t);
      return t * t * (T(3) - T(2) * t);
    case interpolation::quintic:
    default:
      *dt = dfade(t);
      return fade(t);
  }
}

/// The blend weight of an axis: Ken Perlin's fade for improved noise, the chosen interpolation
/// for value noise (used where a whole field's weight is needed without its derivative).
template <class T>
inline T blend_weight(bool improved, interpolation kind, T t) noexcept {
  if (improved) return fade(t);
  T unused;
  return interp_weight(kind, t, &unused);
}

/// Value noise at x[0..D-1], in [-1, 1]; when `grad` is not null it receives the D partials.
template <int D, class T>
T value(const std::uint8_t* p, const axis_wrap* wrap, interpolation kind, const T* x,
        T* grad) noexcept {
  static_assert(D >= 1 && D <= 4);
  if (!all_finite<T, D>(x)) [[unlikely]]
    return fail_nan<T, D>(grad);
  constexpr int n = 1 << D;
  axis_index idx[4] = {};
  T s[D];
  T ds[D];
  for (int k = 0; k < D; ++k) {
    T f;
    idx[k] = split_axis(x[k], wrap[k], f);
    s[k] = interp_weight(kind, f, &ds[k]);
  }
  std::uint32_t h[16];
  hash_corners<D>(p, idx, h);
  T c[n];
  // h / 127.5 - 1 maps 0 -> -1 and 255 -> +1 exactly.
  for (int corner = 0; corner < n; ++corner) c[corner] = T(h[corner]) / T(127.5) - T(1);
  if (grad != nullptr) {
    for (int k = 0; k < D; ++k) grad[k] = 0;
    weight_gradient<D>(c, s, ds, grad);
  }
  return reduce<D>(c, s);
}

/// Decorrelation offsets per axis (documented on fractal::set_decorrelate). Each has an odd
/// number of 128ths as its fraction, so i * offset is off the lattice for every octave i < 128,
/// and adding it to a coordinate on a coarse dyadic grid is exact, which keeps periods exact.
inline constexpr std::array<double, 4> k_decorrelate_offsets = {101.6171875, 67.4140625, 43.7265625,
                                                                29.2421875};

/// The integer lacunarity that scales periods between octaves, or 1 when it is not an integer
/// (then the octaves keep the base period and the fractal does not tile).
inline std::uint64_t integral_lacunarity(double lacunarity) noexcept {
  const bool integral =
      lacunarity == std::floor(lacunarity) && lacunarity >= 1.0 && lacunarity < 4294967296.0;
  return integral ? static_cast<std::uint64_t>(lacunarity) : 1;
}

/// Multiplies every set period by the integer lacunarity, for the next octave. A period stays
/// below 2^62: once capped, the octave wraps with the table's own period 256 (2^62 is a multiple
/// of it) instead of P * L^i. For improved noise that is unobservable (octave coordinates beyond
/// 2^52 are integers, where it is 0); value noise takes its lattice values there, so such an
/// octave of value noise no longer tiles with P * L^i, which no finite image can show anyway.
inline void scale_periods(std::array<axis_wrap, k_max_dims>& wraps, std::uint64_t lac) noexcept {
  constexpr std::uint64_t cap = 1ULL << 62;
  if (lac <= 1) return;
  for (auto& w : wraps) {
    if (w.period != 0) w = make_axis_wrap(w.period > cap / lac ? cap : w.period * lac);
  }
}

}  // namespace perlin::detail
