// The vector building blocks every kernel family shares: the lane types, strict and fused
// arithmetic, fades, gradients, corner hashing (gathers, and byte permutes on AVX3_DL), the
// fractal combine steps, the running range of the written values (and min_max, its kernel), and
// the floor and lattice data of float coordinates.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// every family file in src/simd/ once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_NOISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_NOISE_INL_H_
#undef PERLIN_SIMD_NOISE_INL_H_
#else
#define PERLIN_SIMD_NOISE_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "detail/grid_plan.hpp"
#include "detail/reference.hpp"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

/// a*b + c: fused unless strict, so that strict mode gives the same bits on every target.
template <bool Strict>
HWY_INLINE VF mul_add(VF a, VF b, VF c) {
  if constexpr (Strict) {
    return hn::Add(hn::Mul(a, b), c);
  } else {
    return hn::MulAdd(a, b, c);
  }
}

/// Ken Perlin's lerp a + t (b - a).
template <bool Strict>
HWY_INLINE VF lerp_v(VF t, VF a, VF b) {
  return mul_add<Strict>(t, hn::Sub(b, a), a);
}

/// Ken Perlin's fade, evaluated like the reference.
template <bool Strict>
HWY_INLINE VF fade_v(VF t) {
  const DF df;
  const VF inner = mul_add<Strict>(t, mul_add<Strict>(t, hn::Set(df, 6.0f), hn::Set(df, -15.0f)),
                                   hn::Set(df, 10.0f));
  return hn::Mul(hn::Mul(hn::Mul(t, t), t), inner);
}

/// Ken Perlin's 16 gradients (k_grad3) by component, for lookups in lanes: [k][h] as floats,
/// and as bytes component + 1 (0, 1, 2) for byte shuffles.
struct gradient_tables {
  alignas(64) float f[3][16];
  alignas(16) std::uint8_t b[3][16];
};
constexpr gradient_tables k_gradients = [] {
  gradient_tables t{};
  for (int k = 0; k < 3; ++k) {
    for (int h = 0; h < 16; ++h) {
      t.f[k][h] = static_cast<float>(k_grad3[h][k]);
      t.b[k][h] = static_cast<std::uint8_t>(k_grad3[h][k] + 1);
    }
  }
  return t;
}();

/// Components [0, Dims) of the gradients of the hashes h (Ken Perlin's k_grad3[h & 15]): one
/// lane permutation per component where a vector holds 16 floats, else a byte shuffle of a
/// 16-byte table (component + 1, so that the zero-extended bytes convert exactly).
template <int Dims>
HWY_INLINE void gradient_components(VI h, VF* g) {
  const DF df;
  const DI di;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // vpermps reads bits 0-3 of each index and ignores the rest: h & 15 without the and (one
  // instruction of about twelve a corner, which a point batch and the rows hashed per sample
  // pay for every corner of every sample).
  (void)di;
  for (int k = 0; k < Dims; ++k)
    g[k] = VF{_mm512_permutexvar_ps(h.raw, _mm512_load_ps(k_gradients.f[k]))};
#elif HWY_TARGET == HWY_SCALAR
  const VI h15 = hn::And(h, hn::Set(di, 15));
  for (int k = 0; k < Dims; ++k) g[k] = hn::GatherIndex(df, k_gradients.f[k], h15);
#else
  const hn::Repartition<std::uint8_t, DF> d8;
  // Byte 0 of each lane picks the table entry (h & 15); bytes 1-3 have their top bit set: zero.
  const auto from = hn::BitCast(
      d8, hn::Or(hn::And(h, hn::Set(di, 15)), hn::Set(di, static_cast<std::int32_t>(0x80808000u))));
  const VF one = hn::Set(df, 1.0f);
  for (int k = 0; k < Dims; ++k) {
    const auto bytes = hn::TableLookupBytesOr0(hn::LoadDup128(d8, k_gradients.b[k]), from);
    g[k] = hn::Sub(hn::ConvertTo(df, hn::BitCast(di, bytes)), one);
  }
#endif
}

/// The 32 gradients of 4-D improved noise (k_grad4) by component: [k][h] as floats, and as
/// bytes component + 1 in two 16-entry halves (h < 16, h >= 16) for byte shuffles.
struct gradient4_tables {
  alignas(64) float f[4][32];
  alignas(16) std::uint8_t b[4][2][16];
};
constexpr gradient4_tables k_gradients4 = [] {
  gradient4_tables t{};
  for (int k = 0; k < 4; ++k) {
    for (int h = 0; h < 32; ++h) {
      t.f[k][h] = static_cast<float>(k_grad4[h][k]);
      t.b[k][h >> 4][h & 15] = static_cast<std::uint8_t>(k_grad4[h][k] + 1);
    }
  }
  return t;
}();

/// The four components of the 4-D gradients of the hashes h (k_grad4[h & 31]): a two-register
/// permute per component on AVX-512, else two byte shuffles of 16-byte tables and a select on
/// bit 4.
HWY_INLINE void gradient4_components(VI h, VF* g) {
  const DF df;
  const DI di;
#if HWY_TARGET == HWY_SCALAR
  const VI h31 = hn::And(h, hn::Set(di, 31));
  for (int k = 0; k < 4; ++k) g[k] = hn::GatherIndex(df, k_gradients4.f[k], h31);
#elif HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // vpermt2ps reads bits 0-4 of each index (bit 4 picks the table): h & 31 without the and.
  (void)di;
  for (int k = 0; k < 4; ++k) {
    g[k] = VF{_mm512_permutex2var_ps(_mm512_load_ps(k_gradients4.f[k]), h.raw,
                                     _mm512_load_ps(k_gradients4.f[k] + 16))};
  }
#else
  const hn::Repartition<std::uint8_t, DF> d8;
  const auto from = hn::BitCast(
      d8, hn::Or(hn::And(h, hn::Set(di, 15)), hn::Set(di, static_cast<std::int32_t>(0x80808000u))));
  const auto upper = hn::RebindMask(df, hn::Ne(hn::And(h, hn::Set(di, 16)), hn::Zero(di)));
  const VF one = hn::Set(df, 1.0f);
  for (int k = 0; k < 4; ++k) {
    const auto lo = hn::TableLookupBytesOr0(hn::LoadDup128(d8, k_gradients4.b[k][0]), from);
    const auto hi = hn::TableLookupBytesOr0(hn::LoadDup128(d8, k_gradients4.b[k][1]), from);
    const VF glo = hn::ConvertTo(df, hn::BitCast(di, lo));
    const VF ghi = hn::ConvertTo(df, hn::BitCast(di, hi));
    g[k] = hn::Sub(hn::IfThenElse(upper, ghi, glo), one);
  }
#endif
}

/// The dot product of the gradient components g with (x, y, z), over the first Dims axes:
/// gx x + gy y + gz z, in that order. The products are exact (components are -1, 0, 1), so a
/// fused multiply-add gives the same bits as separate ones: every target, strict or not, agrees.
template <int Dims>
HWY_INLINE VF dot_v(const VF* g, VF x, VF y, VF z) {
  VF d = hn::Mul(g[0], x);
  if constexpr (Dims >= 2) d = hn::MulAdd(g[1], y, d);
  if constexpr (Dims >= 3) d = hn::MulAdd(g[2], z, d);
  return d;
}

/// The dot product of the gradients of the hashes h with (x, y, z) (dot_v).
template <int Dims>
HWY_INLINE VF grad_dot(VI h, VF x, VF y, VF z) {
  VF g[3];
  gradient_components<Dims>(h, g);
  return dot_v<Dims>(g, x, y, z);
}

/// The per-axis lattice data of a vector of samples: hashed indices, fraction and blend weight.
struct lanes_axis {
  VI i0, i1;
  VF f, t;
};

HWY_INLINE VI low16(VI q) { return hn::And(q, hn::Set(DI(), 0xFFFF)); }
HWY_INLINE VI high16(VI q) { return hn::ShiftRight<16>(q); }

/// Hashes the 2^D corners (D <= 3) into h[0 .. 2^D): the gather kernels' first half. `a0`/`a1`
/// are p[x0] and p[x1] (the first level of the hash). With Pairs (every upper index is the lower
/// one plus 1, modulo 256), one gather of a pair table fetches both corners along y, and along z.
/// The hashes of the four (x, y) corner columns from a pair table (hash_tables::pairs): one
/// gather per x corner fetches both y corners (low and high 16 bits).
HWY_INLINE void gather_pairs(const std::int32_t* pairs, VI a0, VI a1, VI y0, VI* h) {
  const DI di;
  const VI q0 = hn::GatherIndex(di, pairs, hn::Add(a0, y0));
  const VI q1 = hn::GatherIndex(di, pairs, hn::Add(a1, y0));
  h[0] = low16(q0);
  h[2] = high16(q0);
  h[1] = low16(q1);
  h[3] = high16(q1);
}

template <int D, bool Pairs>
HWY_INLINE void hash_corners_v(const hash_tables& tb, VI a0, VI a1, const lanes_axis& y,
                               const lanes_axis& z, VI* h) {
  const DI di;
  // Corner k has bit 0 = x, bit 1 = y, bit 2 = z. A missing axis hashes with index 0 (the slice
  // of the 3-D noise); for the z = 0 slice, pz0[k] = p[p[k]] does two levels in one lookup.
  if constexpr (D == 1) {
    h[0] = hn::GatherIndex(di, tb.perm_z0.data(), a0);
    h[1] = hn::GatherIndex(di, tb.perm_z0.data(), a1);
  } else if constexpr (D == 2) {
    if constexpr (Pairs) {
      gather_pairs(tb.pairs_z0.data(), a0, a1, y.i0, h);
    } else {
      h[0] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a0, y.i0));
      h[1] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a1, y.i0));
      h[2] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a0, y.i1));
      h[3] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a1, y.i1));
    }
  } else {
    if constexpr (Pairs) {
      gather_pairs(tb.pairs.data(), a0, a1, y.i0, h);
      for (int j = 0; j < 4; ++j) {
        const VI q = hn::GatherIndex(di, tb.pairs.data(), hn::Add(h[j], z.i0));
        h[j] = low16(q);
        h[j + 4] = high16(q);
      }
    } else {
      h[0] = hn::GatherIndex(di, tb.perm.data(), hn::Add(a0, y.i0));
      h[1] = hn::GatherIndex(di, tb.perm.data(), hn::Add(a1, y.i0));
      h[2] = hn::GatherIndex(di, tb.perm.data(), hn::Add(a0, y.i1));
      h[3] = hn::GatherIndex(di, tb.perm.data(), hn::Add(a1, y.i1));
      for (int j = 0; j < 4; ++j) {
        h[j + 4] = hn::GatherIndex(di, tb.perm.data(), hn::Add(h[j], z.i1));
        h[j] = hn::GatherIndex(di, tb.perm.data(), hn::Add(h[j], z.i0));
      }
    }
  }
}

/// Blends the 2^D corners (D <= 3) of the hashes h (bits 0-7 of each lane; the gradient reads
/// bits 0-3) at fraction fx and weight tx along x and the lattice data y, z.
template <int D, bool Improved, bool Strict>
HWY_INLINE VF blend_corners_v(const VI* h, const VF fx, const VF tx, const lanes_axis& y,
                              const lanes_axis& z) {
  const DF df;
  constexpr int n = 1 << D;
  VF c[8];
  if constexpr (Improved) {
    const VF one = hn::Set(df, 1.0f);
    const VF xs[2] = {fx, hn::Sub(fx, one)};
    const VF zero = hn::Zero(df);
    const VF ys[2] = {D >= 2 ? y.f : zero, D >= 2 ? hn::Sub(y.f, one) : zero};
    const VF zs[2] = {D >= 3 ? z.f : zero, D >= 3 ? hn::Sub(z.f, one) : zero};
    for (int k = 0; k < n; ++k)
      c[k] = grad_dot<D>(h[k], xs[k & 1], ys[(k >> 1) & 1], zs[(k >> 2) & 1]);
  } else {
    const VF scale = hn::Set(df, 1.0f / 127.5f);
    const VF minus1 = hn::Set(df, -1.0f);
    for (int k = 0; k < n; ++k) c[k] = mul_add<Strict>(hn::ConvertTo(df, h[k]), scale, minus1);
  }
  for (int k = 0; k < n / 2; ++k) c[k] = lerp_v<Strict>(tx, c[2 * k], c[2 * k + 1]);
  if constexpr (D >= 2) {
    for (int k = 0; k < n / 4; ++k) c[k] = lerp_v<Strict>(y.t, c[2 * k], c[2 * k + 1]);
  }
  if constexpr (D >= 3) c[0] = lerp_v<Strict>(z.t, c[0], c[1]);
  return c[0];
}

/// Hashes the 2^D corners (D <= 3) and blends them: the gather kernel's core.
template <int D, bool Improved, bool Strict, bool Pairs>
HWY_INLINE VF corners_v(const hash_tables& tb, VI a0, VI a1, const VF fx, const VF tx,
                        const lanes_axis& y, const lanes_axis& z) {
  VI h[8];
  hash_corners_v<D, Pairs>(tb, a0, a1, y, z, h);
  return blend_corners_v<D, Improved, Strict>(h, fx, tx, y, z);
}

#if HWY_TARGET == HWY_AVX3_DL
/// Hashing a byte per lane, 64 samples at a time, where every index mask is 255 (so that the
/// hash is arithmetic modulo 256): the permutation is four 64-byte registers, and a lookup is
/// two two-table byte permutes (VBMI; 128 entries each) and a blend on the index's top bit,
/// where gathers take one load per lane.
class byte_hash {
 public:
  explicit byte_hash(const std::uint8_t* p)
      : t_{_mm512_loadu_si512(p), _mm512_loadu_si512(p + 64), _mm512_loadu_si512(p + 128),
           _mm512_loadu_si512(p + 192)} {}

  /// p[i] in every byte lane.
  HWY_INLINE __m512i operator()(__m512i i) const {
    const __m512i lo = _mm512_permutex2var_epi8(t_[0], i, t_[1]);
    const __m512i hi = _mm512_permutex2var_epi8(t_[2], i, t_[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(i), lo, hi);
  }

  /// Vector v's (0-3) indices i (0-255 per 32-bit lane) added to the byte layout `packed`:
  /// sample 16 v + j sits in byte v of 32-bit lane j.
  static HWY_INLINE VI pack(VI packed, VI i, int v) {
    return hn::Or(packed, hn::ShiftLeftSame(i, 8 * v));
  }

  /// Vector v's hashes from the byte layout. The gradient reads bits 0-3 only, so improved noise
  /// leaves the bytes above in place; value noise reads the whole byte.
  template <bool Improved>
  static HWY_INLINE VI unpack(__m512i bytes, int v) {
    VI b;
    b.raw = bytes;
    b = hn::ShiftRightSame(b, 8 * v);
    return Improved ? b : hn::And(b, hn::Set(DI(), 255));
  }

  /// The hashes of the 2^D corners of 64 samples, corner k (bit 0 = x, 1 = y, 2 = z) in h[k],
  /// from the lattice indices i[a] (0-255, bytes, axis a < D): Ken Perlin's p[p[p[x] + y] + z],
  /// with index 0 on the axes the noise does not have (the slice of the 3-D noise).
  template <int D>
  HWY_INLINE void corners(const __m512i* i, __m512i* h) const {
    const __m512i one = _mm512_set1_epi8(1);
    h[0] = (*this)(i[0]);
    h[1] = (*this)(_mm512_add_epi8(i[0], one));
    int m = 2;  // corners so far
    for (int axis = 1; axis < 3; ++axis) {
      if (axis < D) {
        const __m512i i1 = _mm512_add_epi8(i[axis], one);
        for (int k = 0; k < m; ++k) {
          h[k + m] = (*this)(_mm512_add_epi8(h[k], i1));
          h[k] = (*this)(_mm512_add_epi8(h[k], i[axis]));
        }
        m *= 2;
      } else {
        for (int k = 0; k < m; ++k) h[k] = (*this)(h[k]);
      }
    }
  }

 private:
  __m512i t_[4];
};
#endif

/// The sign of n: 1, -1, or 0 (fractal.cpp's sign_of).
HWY_INLINE VF sign_v(VF n) {
  const DF df;
  const VF zero = hn::Zero(df);
  return hn::IfThenElse(hn::Gt(n, zero), hn::Set(df, 1.0f),
                        hn::IfThenElseZero(hn::Lt(n, zero), hn::Set(df, -1.0f)));
}

/// One octave's signal with its gradient, added into total and grad (fractal.cpp's fractal_sum,
/// in float): ds holds the octave noise's partials in the caller's units.
template <fractal_kind Kind, bool Strict, int D>
HWY_INLINE void combine_deriv(VF n, VF* ds, VF amp, VF& total, VF* grad, VF& weight, VF* dweight,
                              const ridged_params& rp) {
  const DF df;
  const VF one = hn::Set(df, 1.0f);
  const VF two = hn::Set(df, 2.0f);
  VF s = n;
  if constexpr (Kind == fractal_kind::turbulence) {
    s = hn::Abs(n);
    const VF sg = sign_v(n);
    for (int k = 0; k < D; ++k) ds[k] = hn::Mul(ds[k], sg);
  } else if constexpr (Kind == fractal_kind::billow) {
    s = hn::Sub(hn::Mul(two, hn::Abs(n)), one);
    const VF sg = hn::Mul(two, sign_v(n));
    for (int k = 0; k < D; ++k) ds[k] = hn::Mul(ds[k], sg);
  } else if constexpr (Kind == fractal_kind::ridged) {
    const VF gain = hn::Set(df, rp.gain);
    const VF r = hn::Sub(hn::Set(df, rp.offset), hn::Abs(n));
    const VF s0 = hn::Mul(r, r);
    s = hn::Mul(s0, weight);
    const VF c = hn::Mul(hn::Mul(hn::Set(df, -2.0f), hn::Mul(r, sign_v(n))), weight);
    for (int k = 0; k < D; ++k) ds[k] = mul_add<Strict>(s0, dweight[k], hn::Mul(c, ds[k]));
    const VF next = hn::Mul(s, gain);
    const auto inside = hn::And(hn::Gt(next, hn::Zero(df)), hn::Lt(next, one));
    weight = hn::Min(hn::Max(next, hn::Zero(df)), one);
    for (int k = 0; k < D; ++k) dweight[k] = hn::IfThenElseZero(inside, hn::Mul(gain, ds[k]));
  }
  total = mul_add<Strict>(s, amp, total);
  for (int k = 0; k < D; ++k) grad[k] = mul_add<Strict>(ds[k], amp, grad[k]);
}

/// One octave's signal s(n) (fractal.hpp) added into `total`; ridged also updates `weight`: the
/// value part of combine_deriv (the same operations, no gradient).
template <fractal_kind Kind, bool Strict>
HWY_INLINE void combine_step(VF n, VF amp, VF& total, VF& weight, const ridged_params& rp) {
  combine_deriv<Kind, Strict, 0>(n, nullptr, amp, total, nullptr, weight, nullptr, rp);
}

/// Calls f.template operator()<Kind>() with the fractal kind as a compile-time constant, so that
/// the per-sample loops do not branch on it.
template <class F>
HWY_INLINE void with_kind(fractal_kind kind, F&& f) {
  switch (kind) {
    case fractal_kind::turbulence:
      return f.template operator()<fractal_kind::turbulence>();
    case fractal_kind::billow:
      return f.template operator()<fractal_kind::billow>();
    case fractal_kind::ridged:
      return f.template operator()<fractal_kind::ridged>();
    default:
      return f.template operator()<fractal_kind::fbm>();
  }
}

/// The smallest and largest of the values folded in, NaN ignored: vector accumulators (four, so
/// that folding is not bound by Min's latency) reduced once at the end.
struct running_range {
  static constexpr float inf = std::numeric_limits<float>::infinity();
  VF mn[4], mx[4];
  float lo = inf, hi = -inf;  // the values past the last whole vector

  HWY_INLINE running_range() {
    for (std::size_t u = 0; u < 4; ++u) {
      mn[u] = hn::Set(DF(), inf);
      mx[u] = hn::Set(DF(), -inf);
    }
  }

  /// Folds v[0 .. n) in. The accumulators are copied into locals for the loop: as members they
  /// were stored and reloaded around every vector (a fifth of a 2048^2 grid's time at step 1/64).
  HWY_INLINE void fold(const float* v, std::size_t n) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    VF a[4] = {mn[0], mn[1], mn[2], mn[3]}, b[4] = {mx[0], mx[1], mx[2], mx[3]};
    std::size_t i = 0;
    const auto one = [&](std::size_t u, VF x) {
#if HWY_ARCH_X86
      // minps/maxps return their second operand when either is NaN: with the accumulator
      // second (never NaN), a NaN lane takes no part, without a compare and two blends.
      a[u] = hn::Min(x, a[u]);
      b[u] = hn::Max(x, b[u]);
#else
      const auto ok = hn::Eq(x, x);  // NaN lanes take no part
      a[u] = hn::Min(a[u], hn::IfThenElse(ok, x, hn::Set(df, inf)));
      b[u] = hn::Max(b[u], hn::IfThenElse(ok, x, hn::Set(df, -inf)));
#endif
    };
    for (; i + 4 * N <= n; i += 4 * N) {
      for (std::size_t u = 0; u < 4; ++u) one(u, hn::LoadU(df, v + i + u * N));
    }
    for (; i + N <= n; i += N) one(0, hn::LoadU(df, v + i));
    for (std::size_t u = 0; u < 4; ++u) {
      mn[u] = a[u];
      mx[u] = b[u];
    }
    for (; i < n; ++i) {
      lo = v[i] < lo ? v[i] : lo;
      hi = v[i] > hi ? v[i] : hi;
    }
  }

  /// Folds the range into *l and *h.
  void fold_into(float* l, float* h) const {
    const DF df;
    VF a = mn[0], b = mx[0];
    for (std::size_t u = 1; u < 4; ++u) {
      a = hn::Min(a, mn[u]);
      b = hn::Max(b, mx[u]);
    }
    // The lanes reduced by hand: some targets' MinOfLanes pad with the largest finite float,
    // which would turn an all-NaN range's +inf into FLT_MAX.
    HWY_ALIGN float la[64], lb[64];
    hn::Store(a, df, la);
    hn::Store(b, df, lb);
    float rl = lo < *l ? lo : *l, rh = hi > *h ? hi : *h;
    for (std::size_t k = 0; k < hn::Lanes(df); ++k) {
      rl = la[k] < rl ? la[k] : rl;
      rh = lb[k] > rh ? lb[k] : rh;
    }
    *l = rl;
    *h = rh;
  }
};

/// The integer floor(x) of every lane, modulo 256 (its low 8 bits), and the fraction x - floor(x).
/// Floats of 2^24 and beyond are integers, and from 2^31 on multiples of 256. NaN and infinite
/// x give a NaN fraction: the sample is NaN. The fraction of -0 is +0, as in the reference.
HWY_INLINE VI floor_mod_256(VF x, VF& f) {
  const DF df;
  const DI di;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX2 || \
    HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3
  // x86's truncation turns NaN, infinities and |x| >= 2^31 into 0x80000000, whose low 8 bits
  // are right for them; Highway's ConvertTo would saturate to 0x7fffffff instead.
  const VF fl = hn::Floor(x);
  f = hn::Sub(x, fl);
#if HWY_TARGET == HWY_SSSE3
  f = hn::Add(f, hn::Zero(df));  // the emulated Floor gives +0 for -0, and -0 - +0 is -0
#endif
  (void)di;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  return VI{_mm512_cvttps_epi32(fl.raw)};
#elif HWY_TARGET == HWY_AVX2
  return VI{_mm256_cvttps_epi32(fl.raw)};
#else
  return VI{_mm_cvttps_epi32(fl.raw)};
#endif
#else  // every other target (Arm, the scalar fallback)
  // Reduced modulo 256 first (exactly), so that the conversion never overflows.
  const VF big = hn::Set(df, 16777216.0f);
  const VF reduced =
      hn::Sub(x, hn::Mul(hn::Floor(hn::Mul(x, hn::Set(df, 1.0f / 256.0f))), hn::Set(df, 256.0f)));
  const VF xr = hn::IfThenElse(hn::Ge(hn::Abs(x), big), reduced, x);
  const VF fl = hn::Floor(xr);
  f = hn::Add(hn::Sub(xr, fl), hn::Zero(df));  // +0 for -0, where Floor(-0) is +0
  // NaN lanes convert as 0 (Highway's emulated targets would cast NaN to int, which is UB).
  return hn::ConvertTo(di, hn::IfThenElseZero(hn::Eq(fl, fl), fl));
#endif
}

/// Lattice data of one axis for a vector of float coordinates (octave frequency 1, no offset);
/// `mask` is 2^k - 1 <= 255.
template <bool Strict>
HWY_INLINE lanes_axis axis_from_coords(VF x, std::uint32_t mask, bool improved,
                                       interpolation interp) {
  const DF df;
  const DI di;
  VF f;
  const VI i = floor_mod_256(x, f);
  const VI m = hn::Set(di, static_cast<std::int32_t>(mask));
  lanes_axis a{hn::And(i, m), hn::And(hn::Add(i, hn::Set(di, 1)), m), f, f};
  if (improved || interp == interpolation::quintic) {
    a.t = fade_v<Strict>(f);
  } else if (interp == interpolation::cubic) {
    a.t = hn::Mul(hn::Mul(f, f), hn::Sub(hn::Set(df, 3.0f), hn::Add(f, f)));
  }
  return a;
}

// inline: every kernel family includes this file, and the rows family registers it.
inline void min_max(const float* v, std::size_t n, float* lo, float* hi) {
  running_range r;
  r.fold(v, n);
  *lo = std::numeric_limits<float>::infinity();
  *hi = -*lo;
  r.fold_into(lo, hi);
}

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#endif  // PERLIN_SIMD_NOISE_INL_H_
