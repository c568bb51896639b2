// The axis tables of a grid plan in lanes (axis_fractions_fn in detail/grid_plan.hpp): per sample
// index, the octave coordinate, its floor, fraction and blend weight, with the scalar plan
// builder's double operations in its order (no fused multiply-add), so the same doubles on every
// target. A 64x64 grid's plan spent most of its time on these chains one sample at a time.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/rows.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_AXIS_FRACTIONS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_AXIS_FRACTIONS_INL_H_
#undef PERLIN_SIMD_AXIS_FRACTIONS_INL_H_
#else
#define PERLIN_SIMD_AXIS_FRACTIONS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "detail/grid_plan.hpp"
#include "detail/reference.hpp"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_HAVE_FLOAT64
/// The blend weight of fractions `f`: detail::interp_weight's polynomials (quintic is fade), each
/// product in the reference's order.
template <interpolation W, class V>
HWY_INLINE V axis_weight_v(V f) {
  const hn::DFromV<V> d;
  if constexpr (W == interpolation::quintic) {
    // t * t * t * (t * (t * 6 - 15) + 10)
    const V inner = hn::Add(hn::Mul(f, hn::Sub(hn::Mul(f, hn::Set(d, 6.0)), hn::Set(d, 15.0))),
                            hn::Set(d, 10.0));
    return hn::Mul(hn::Mul(hn::Mul(f, f), f), inner);
  } else if constexpr (W == interpolation::cubic) {
    // t * t * (3 - 2 * t)
    return hn::Mul(hn::Mul(f, f), hn::Sub(hn::Set(d, 3.0), hn::Mul(hn::Set(d, 2.0), f)));
  } else {
    return f;  // linear (the cosine's weights are left unwritten)
  }
}
#endif

#if !HWY_HAVE_FLOAT64
/// Targets without double lanes (WebAssembly's in this Highway): the same operations one sample
/// at a time.
template <interpolation W>
void axis_fractions_t(const axis_line& a, std::size_t n, double* HWY_RESTRICT fl,
                      double* HWY_RESTRICT f, double* HWY_RESTRICT t) {
  for (std::size_t i = 0; i < n; ++i) {
    const double x = a.origin + (a.first + static_cast<double>(i)) * a.step;
    const double q = x * a.freq + a.offset;
    fl[i] = std::floor(q);
    f[i] = q - fl[i];
    if constexpr (W != interpolation::cosine) {
      double unused = 0;
      t[i] = interp_weight(W, f[i], &unused);
    }
  }
}
#else
template <interpolation W>
void axis_fractions_t(const axis_line& a, std::size_t n, double* HWY_RESTRICT fl,
                      double* HWY_RESTRICT f, double* HWY_RESTRICT t) {
  const hn::ScalableTag<double> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t N = hn::Lanes(d);
  const V origin = hn::Set(d, a.origin), first = hn::Set(d, a.first), step = hn::Set(d, a.step);
  const V freq = hn::Set(d, a.freq), offset = hn::Set(d, a.offset);
  const V iota = hn::Iota(d, 0.0);
  HWY_ALIGN double tail[3][HWY_MAX_BYTES / sizeof(double)];
  for (std::size_t i = 0; i < n; i += N) {
    // (first + i) * step + origin, then * freq + offset: grid::coordinate's and the plan's sums;
    // i + lane is exact (below 2^53), so first + (i + lane) is the scalar first + i.
    const V index = hn::Add(first, hn::Add(hn::Set(d, static_cast<double>(i)), iota));
    const V x = hn::Add(origin, hn::Mul(index, step));
    const V q = hn::Add(hn::Mul(x, freq), offset);
    const V floor = hn::Floor(q);
    const V frac = hn::Sub(q, floor);
    const bool whole = i + N <= n;
    hn::StoreU(floor, d, whole ? fl + i : tail[0]);
    hn::StoreU(frac, d, whole ? f + i : tail[1]);
    if constexpr (W != interpolation::cosine) {
      hn::StoreU(axis_weight_v<W>(frac), d, whole ? t + i : tail[2]);
    }
    if (!whole) {
      const std::size_t left = n - i;
      std::copy(tail[0], tail[0] + left, fl + i);
      std::copy(tail[1], tail[1] + left, f + i);
      if constexpr (W != interpolation::cosine) std::copy(tail[2], tail[2] + left, t + i);
    }
  }
}

#endif  // HWY_HAVE_FLOAT64

void axis_fractions(const axis_line& a, std::size_t n, double* fl, double* f, double* t) {
  switch (a.weight) {
    case interpolation::linear:
      return axis_fractions_t<interpolation::linear>(a, n, fl, f, t);
    case interpolation::cubic:
      return axis_fractions_t<interpolation::cubic>(a, n, fl, f, t);
    case interpolation::cosine:
      return axis_fractions_t<interpolation::cosine>(a, n, fl, f, t);
    case interpolation::quintic:
      break;
  }
  return axis_fractions_t<interpolation::quintic>(a, n, fl, f, t);
}

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#endif  // PERLIN_SIMD_AXIS_FRACTIONS_INL_H_
