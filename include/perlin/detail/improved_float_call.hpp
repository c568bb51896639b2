// The float single call of improved noise in 2-D (the z = 0 slice) and 3-D, inline in the
// caller's loop: the three coordinates split in one 16-byte vector, the corners four at a time
// (lanes.hpp). improved_noise::noise2d/noise3d(float) use it where PERLIN_INLINE_FLOAT_CALLS is 1,
// so that the permutation, the wrap masks and the constants stay in registers across a loop of
// calls and the call itself costs nothing; the library's kernels (src/detail/single_calls.hpp)
// run the very same function, so the bits are the same in the caller's translation unit and in
// the library's whatever the caller's flags:
//  - every product that feeds a sum passes `unfused` (an empty asm the compiler cannot see
//    through), so a caller's -ffp-contract=fast (GCC's default in gnu++ modes) or -mfma cannot
//    fuse it: the library is built with -ffp-contract=off;
//  - a translation unit built with -ffast-math (which would fold the finiteness checks and
//    reorder the sums) calls the library's out-of-line function instead.
// Coordinates of 2^31 and more, NaN and infinities, and periods that need a modulo call the
// library's written-out path (improved_float_rare), out of line.
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "perlin/detail/gradient3.hpp"
#include "perlin/detail/lanes.hpp"
#include "perlin/lattice.hpp"

#if defined(PERLIN_HAVE_LANES) && !defined(__FAST_MATH__) && \
    (defined(__x86_64__) || defined(__aarch64__))
#define PERLIN_INLINE_FLOAT_CALLS 1
#else
#define PERLIN_INLINE_FLOAT_CALLS 0
#endif

namespace perlin::detail {

/// The library's float single call of D-D improved noise by the written-out path (any
/// coordinate, any period), out of line.
template <int D>
[[gnu::pure]] float improved_float_rare(const std::uint8_t* p, const axis_wrap* wrap, float x0,
                                        float x1, float x2) noexcept;
extern template float improved_float_rare<2>(const std::uint8_t*, const axis_wrap*, float, float,
                                             float) noexcept;
extern template float improved_float_rare<3>(const std::uint8_t*, const axis_wrap*, float, float,
                                             float) noexcept;

#ifdef PERLIN_HAVE_LANES

/// a * b, as a value the compiler must materialise before it is added to anything: no fused
/// multiply-add whatever the translation unit's contraction flags.
template <class V>
[[gnu::always_inline]] inline V unfused(V a, V b) noexcept {
  V product = a * b;
#if defined(__x86_64__)
  __asm__("" : "+x"(product));
#elif defined(__aarch64__)
  __asm__("" : "+w"(product));
#endif
  return product;
}

/// The gradient rows {gx, gy, gz, 0} of the corners hashed h0..h3, transposed into one vector per
/// component (lane k from h_k).
[[gnu::always_inline]] inline void gradient_lanes(std::uint32_t h0, std::uint32_t h1,
                                                  std::uint32_t h2, std::uint32_t h3,
                                                  lanes::f32x4& gx, lanes::f32x4& gy,
                                                  lanes::f32x4& gz) noexcept {
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

/// Improved noise in float, 2-D or 3-D, with the bits of the reference's operations in its order
/// (each lane performs the scalar operation on the scalar operands): the floor (roundps where the
/// caller's flags have SSE4.1, else truncation and correction), the wrap masks, then the 4 corners
/// of 2-D or the 8 of 3-D four at a time.
template <int D>
[[gnu::always_inline]] inline float improved_float_lanes(const std::uint8_t* p,
                                                         const axis_wrap* wrap, float x0, float x1,
                                                         float x2) noexcept {
  static_assert(D == 2 || D == 3);
  using namespace lanes;
  const auto splat = [](float v) { return f32x4{v, v, v, v}; };
  const f32x4 x = {x0, x1, x2, 0.f};
  const i32x4 mask = {static_cast<std::int32_t>(wrap[0].mask),
                      static_cast<std::int32_t>(wrap[1].mask),
                      D == 3 ? static_cast<std::int32_t>(wrap[2].mask) : 255, 255};
  const f32x4 ax = reinterpret_cast<f32x4>(reinterpret_cast<i32x4>(x) & 0x7fffffff);
  if (any(~(ax < 2147483648.f) | (mask == 0))) [[unlikely]] {
    return improved_float_rare<D>(p, wrap, x0, x1, x2);
  }
#if defined(__SSE4_1__)
  // roundps: the floor in one instruction at the head of the hash's chain of loads (3-4% of a
  // call measured on Zen 4). The same integer for |x| < 2^31, and the fraction is taken from it
  // as below, so the same bits (x - floor(x) would make -0.0's fraction +0.0).
  const i32x4 i = __builtin_convertvector(f32x4(_mm_floor_ps(x)), i32x4);
#else
  i32x4 i = __builtin_convertvector(x, i32x4);
  i += __builtin_convertvector(i, f32x4) > x;  // -1 where truncation went up
#endif
  const f32x4 f = x - __builtin_convertvector(i, f32x4);
  const u32x4 m = reinterpret_cast<u32x4>(mask);
  const u32x4 i0 = reinterpret_cast<u32x4>(i) & m;
  const u32x4 i1 = (reinterpret_cast<u32x4>(i) + 1u) & m;
  // fade, lane by lane: f * f * f * (f * (f * 6 - 15) + 10)
  const f32x4 t = f * f * f * (unfused(f, unfused(f, splat(6.f)) - 15.f) + 10.f);
  const f32x4 f1 = f - 1.f;
  const std::uint32_t a = p[i0[0]], b = p[i1[0]];
  const std::uint32_t aa = p[a + i0[1]], ab = p[a + i1[1]];
  const std::uint32_t ba = p[b + i0[1]], bb = p[b + i1[1]];
  const f32x4 py = __builtin_shufflevector(f, f1, 1, 5, 1, 5);
  f32x4 gx, gy, gz;
  if constexpr (D == 2) {
    // Lanes: corners aa, ab, ba, bb; then lerp(u, aa, ba), lerp(u, ab, bb); then along y.
    gradient_lanes(p[aa], p[ab], p[ba], p[bb], gx, gy, gz);
    const f32x4 d = unfused(gx, __builtin_shufflevector(f, f1, 0, 0, 4, 4)) + unfused(gy, py);
    const f32x4 lo = __builtin_shufflevector(d, d, 0, 1, 0, 1);
    const f32x4 hi = __builtin_shufflevector(d, d, 2, 3, 2, 3);
    const f32x4 l = lo + unfused(broadcast<0>(t), hi - lo);
    return l[0] + unfused(t[1], l[1] - l[0]);
  } else {
    // Lanes: (y0 z0, y1 z0, y0 z1, y1 z1) at x0, then at x1; lerp along x, y, then z.
    const std::uint32_t z0 = i0[2], z1 = i1[2];
    const f32x4 pz = __builtin_shufflevector(f, f1, 2, 2, 6, 6);
    gradient_lanes(p[aa + z0], p[ab + z0], p[aa + z1], p[ab + z1], gx, gy, gz);
    const f32x4 lo = unfused(gx, broadcast<0>(f)) + unfused(gy, py) + unfused(gz, pz);
    gradient_lanes(p[ba + z0], p[bb + z0], p[ba + z1], p[bb + z1], gx, gy, gz);
    const f32x4 hi = unfused(gx, broadcast<0>(f1)) + unfused(gy, py) + unfused(gz, pz);
    const f32x4 l = lo + unfused(broadcast<0>(t), hi - lo);
    const f32x4 ya = __builtin_shufflevector(l, l, 0, 2, 0, 2);
    const f32x4 yb = __builtin_shufflevector(l, l, 1, 3, 1, 3);
    const f32x4 y = ya + unfused(broadcast<1>(t), yb - ya);
    return y[0] + unfused(t[2], y[1] - y[0]);
  }
}

#endif  // PERLIN_HAVE_LANES

/// improved_noise's float call in 2-D (x2 = 0) and 3-D: the lanes inline where
/// PERLIN_INLINE_FLOAT_CALLS, else the library's out-of-line path; the same bits either way.
template <int D>
[[gnu::always_inline]] inline float improved_float_call(const lattice& l, float x0, float x1,
                                                        float x2) noexcept {
#if PERLIN_INLINE_FLOAT_CALLS
  return improved_float_lanes<D>(l.perm().data(), wraps_of(l).data(), x0, x1, x2);
#else
  return improved_float_rare<D>(l.perm().data(), wraps_of(l).data(), x0, x1, x2);
#endif
}

}  // namespace perlin::detail
