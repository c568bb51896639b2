// One octave of noise at double coordinates, blended in double (noise_points_dd_fn in
// detail/grid_plan.hpp): the displacement of a domain warp (bulk/warp_samples.cpp), whose float
// rounding the warped field would carry through its whole gradient (a displacement off by 1e-7
// moved the field's value by up to its tolerance and its partials by 3-10 times theirs). The
// lattice is hashed in 32-bit lanes as the float kernels hash it (the same integers); fractions,
// weights, gradients and the blend are doubles, two vectors of them per vector of hashes.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/points.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_WARP_NOISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_WARP_NOISE_INL_H_
#undef PERLIN_SIMD_WARP_NOISE_INL_H_
#else
#define PERLIN_SIMD_WARP_NOISE_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"

#if HWY_HAVE_FLOAT64
HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;

/// Double vectors per vector of 32-bit hashes.
#if HWY_TARGET == HWY_SCALAR
inline constexpr int k_halves = 1;
#else
inline constexpr int k_halves = 2;
#endif

/// One axis of a vector of samples: the hashed lattice indices in 32-bit lanes, and per half the
/// fraction, its blend weight and the weight's derivative in double.
struct dd_axis {
  VI i0, i1;
  VD f[k_halves], t[k_halves], dt[k_halves];
};

/// Half h of the floats v, widened (exactly) to double.
HWY_INLINE VD widen(VF v, int h) {
  const DD dd;
#if HWY_TARGET == HWY_SCALAR
  (void)h;
  return hn::PromoteTo(dd, v);
#else
  const hn::Rebind<float, DD> dh;
  return h == 0 ? hn::PromoteTo(dd, hn::LowerHalf(dh, v)) : hn::PromoteTo(dd, hn::UpperHalf(dh, v));
#endif
}

/// Half h of the int32 lanes v, as doubles (exact).
HWY_INLINE VD widen(VI v, int h) {
  const DD dd;
#if HWY_TARGET == HWY_SCALAR
  (void)h;
  return hn::PromoteTo(dd, v);
#else
  const hn::Rebind<std::int32_t, DD> dh;
  return h == 0 ? hn::PromoteTo(dd, hn::LowerHalf(dh, v)) : hn::PromoteTo(dd, hn::UpperHalf(dh, v));
#endif
}

/// The axis of the samples x[0 .. N) at frequency `freq` and `offset`: q = x * freq + offset,
/// floor and fraction as the scalar path splits them, the floor reduced modulo 256 and masked
/// (axis_from_doubles' reduction), the blend weight of `interp` (quintic: Ken Perlin's fade) and
/// its derivative.
HWY_INLINE dd_axis dd_axis_of(const double* x, double freq, double offset, std::uint32_t mask,
                              bool improved, interpolation interp) {
  const DD dd;
  const DI di;
  const hn::Rebind<std::int32_t, DD> dih;
  const std::size_t Nd = hn::Lanes(dd);
  dd_axis a;
  hn::Vec<decltype(dih)> index[k_halves];
  const VD one = hn::Set(dd, 1.0);
  for (int h = 0; h < k_halves; ++h) {
    const VD q =
        hn::Add(hn::Mul(hn::LoadU(dd, x + static_cast<std::size_t>(h) * Nd), hn::Set(dd, freq)),
                hn::Set(dd, offset));
    const VD fl = hn::Floor(q);
    VD r =
        hn::Sub(fl, hn::Mul(hn::Floor(hn::Mul(fl, hn::Set(dd, 1.0 / 256.0))), hn::Set(dd, 256.0)));
    r = hn::IfThenElseZero(hn::Eq(r, r), r);  // NaN and infinite coordinates: index 0, value NaN
    index[h] = hn::DemoteTo(dih, r);
    const VD f = hn::Sub(q, fl);
    a.f[h] = f;
    if (improved || interp == interpolation::quintic) {
      // f^3 (f (6 f - 15) + 10) and 30 f^2 (f - 1)^2
      const VD inner =
          hn::MulAdd(f, hn::MulAdd(f, hn::Set(dd, 6.0), hn::Set(dd, -15.0)), hn::Set(dd, 10.0));
      a.t[h] = hn::Mul(hn::Mul(hn::Mul(f, f), f), inner);
      const VD g = hn::Mul(f, hn::Sub(f, one));
      a.dt[h] = hn::Mul(hn::Set(dd, 30.0), hn::Mul(g, g));
    } else if (interp == interpolation::cubic) {
      a.t[h] = hn::Mul(hn::Mul(f, f), hn::Sub(hn::Set(dd, 3.0), hn::Add(f, f)));
      a.dt[h] = hn::Mul(hn::Set(dd, 6.0), hn::Mul(f, hn::Sub(one, f)));
    } else {  // linear
      a.t[h] = f;
      a.dt[h] = one;
    }
  }
#if HWY_TARGET == HWY_SCALAR
  const VI i = index[0];
#else
  const VI i = hn::Combine(di, index[1], index[0]);
#endif
  const VI m = hn::Set(di, static_cast<std::int32_t>(mask));
  a.i0 = hn::And(i, m);
  a.i1 = hn::And(hn::Add(i, hn::Set(di, 1)), m);
  return a;
}

/// Blends c[0 .. 2^m) in place along m axes with weights w[0 .. m) (lowest bit first).
HWY_INLINE VD blend_tree_dd(VD* c, int m, const VD* w) {
  for (int l = 0; l < m; ++l) {
    for (int j = 0; j < (1 << (m - l - 1)); ++j)
      c[j] = hn::MulAdd(w[l], hn::Sub(c[2 * j + 1], c[2 * j]), c[2 * j]);
  }
  return c[0];
}

/// The noise of the corners' values d[0 .. 2^D) and, with Grad, its partials dn[0 .. D) with
/// respect to the lattice coordinates (points-inl.h's blend_deriv_v in double): for axis k the
/// blend of the corners' gradients' component k (improved noise) plus dt_k times the blend over
/// the other axes of the differences across k.
template <int D, bool Improved, bool Grad>
HWY_INLINE VD blend_dd(VD* d, VD (*comp)[3], const VD* t, const VD* dt, VD* dn) {
  if constexpr (Grad) {
    for (int k = 0; k < D; ++k) {
      VD e[4], w[2];
      int m = 0;
      for (int j = 0; j < D; ++j) {
        if (j != k) w[m++] = t[j];
      }
      for (int j = 0; j < (1 << (D - 1)); ++j) {
        const int low = j & ((1 << k) - 1);
        const int c0 = low | ((j >> k) << (k + 1));
        e[j] = hn::Sub(d[c0 | (1 << k)], d[c0]);
      }
      VD part = hn::Mul(dt[k], blend_tree_dd(e, D - 1, w));
      if constexpr (Improved) {
        VD g[8];
        for (int c = 0; c < (1 << D); ++c) g[c] = comp[c][k];
        part = hn::Add(blend_tree_dd(g, D, t), part);
      }
      dn[k] = part;
    }
  }
  return blend_tree_dd(d, D, t);
}

/// The noise and its partials (times `freq`) of one vector of samples from their axes and the
/// hashes of their corners, into out[0 .. lanes) and grad[k][0 .. lanes): k_halves double
/// vectors, stored straight when the vector is whole.
template <int D, bool Improved, bool Grad>
HWY_INLINE void blend_vector(const dd_axis* ax, const VI* h, double freq, std::size_t lanes,
                             double* out, double* const* grad) {
  const DD dd;
  const std::size_t Nd = hn::Lanes(dd);
  HWY_ALIGN double value[64];
  HWY_ALIGN double partial[3][64];
  const bool whole = lanes == Nd * k_halves;
  VF gf[8][3];  // the corners' gradients (-1, 0, 1: exact in float)
  if constexpr (Improved) {
    for (int c = 0; c < (1 << D); ++c) gradient_components<D>(h[c], gf[c]);
  }
  for (int half = 0; half < k_halves; ++half) {
    VD d[8], comp[8][3], t[3], dt[3], dn[3];
    for (int k = 0; k < D; ++k) {
      t[k] = ax[k].t[half];
      dt[k] = ax[k].dt[half];
    }
    for (int c = 0; c < (1 << D); ++c) {
      if constexpr (Improved) {
        VD dot = hn::Zero(dd);
        for (int k = 0; k < D; ++k) {
          comp[c][k] = widen(gf[c][k], half);
          const VD r = (c >> k) & 1 ? hn::Sub(ax[k].f[half], hn::Set(dd, 1.0)) : ax[k].f[half];
          dot = hn::MulAdd(comp[c][k], r, dot);
        }
        d[c] = dot;
      } else {
        d[c] = hn::MulAdd(widen(h[c], half), hn::Set(dd, 1.0 / 127.5), hn::Set(dd, -1.0));
      }
    }
    const std::size_t at = static_cast<std::size_t>(half) * Nd;
    const VD v = blend_dd<D, Improved, Grad>(d, comp, t, dt, dn);
    hn::StoreU(v, dd, (whole ? out : value) + at);
    if constexpr (Grad) {
      for (int k = 0; k < D; ++k) {
        hn::StoreU(hn::Mul(dn[k], hn::Set(dd, freq)), dd, (whole ? grad[k] : partial[k]) + at);
      }
    }
  }
  if (whole) return;
  std::copy(value, value + lanes, out);
  if constexpr (Grad) {
    for (int k = 0; k < D; ++k) std::copy(partial[k], partial[k] + lanes, grad[k]);
  }
}

#if HWY_TARGET == HWY_AVX3_DL
/// noise_points_dd_t's samples 64 at a time where every mask is 255, hashed a byte per lane
/// (byte_hash; the layout of points_by_bytes): byte permutes instead of gathers, the same hashes.
/// Returns where it stopped.
template <int D, bool Improved, bool Grad>
std::size_t noise_points_dd_by_bytes(const points_plan& pp, const double* const* coord,
                                     std::size_t count, double* out, double* const* grad) {
  const DI di;
  constexpr std::size_t N = 16;
  static_assert(hn::MaxLanes(DF()) == N);
  const byte_hash p(pp.tables->bytes.data());
  const double freq = pp.freq[0];
  std::size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) {
    dd_axis ax[4][3];
    __m512i idx[3];
    for (int a = 0; a < D; ++a) {
      VI packed = hn::Zero(di);
      for (int v = 0; v < 4; ++v) {
        ax[v][a] =
            dd_axis_of(coord[a] + i + v * N, freq, pp.offset[0][a], 255u, Improved, pp.interp);
        packed = byte_hash::pack(packed, ax[v][a].i0, v);
      }
      idx[a] = packed.raw;
    }
    __m512i bytes[8];
    p.corners<D>(idx, bytes);
    for (int v = 0; v < 4; ++v) {
      VI h[8];
      for (int k = 0; k < (1 << D); ++k) h[k] = byte_hash::unpack<Improved>(bytes[k], v);
      const std::size_t at = i + static_cast<std::size_t>(v) * N;
      double* g[3] = {};
      if constexpr (Grad) {
        for (int k = 0; k < D; ++k) g[k] = grad[k] + at;
      }
      blend_vector<D, Improved, Grad>(ax[v], h, freq, N, out + at, g);
    }
  }
  return i;
}
#endif

/// noise_points_dd for D lattice dimensions (1 to 3): N samples a step (64 by bytes on
/// AVX3_DL), hashed once (pair gathers where every mask is 255), blended in k_halves double
/// vectors.
template <int D, bool Improved, bool Grad>
void noise_points_dd_t(const points_plan& pp, const double* const* coord, std::size_t count,
                       double* out, double* const* grad) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const hash_tables& tb = *pp.tables;
  const double freq = pp.freq[0];
  bool pairs = true;  // every upper index the lower one plus 1 (modulo 256)
  for (int a = 0; a < D; ++a) pairs = pairs && pp.mask[0][a] == 255u;
  HWY_ALIGN double tail[3][64];  // the last, partial vector, padded with its last sample
  const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  std::size_t i = 0;
#if HWY_TARGET == HWY_AVX3_DL
  if (pairs) i = noise_points_dd_by_bytes<D, Improved, Grad>(pp, coord, count, out, grad);
#endif
  for (; i < count; i += N) {
    const std::size_t lanes = std::min(N, count - i);
    dd_axis ax[3];
    for (int a = 0; a < D; ++a) {
      const double* x = coord[a] + i;
      if (lanes < N) {
        for (std::size_t l = 0; l < N; ++l) tail[a][l] = x[std::min(l, lanes - 1)];
        x = tail[a];
      }
      ax[a] = dd_axis_of(x, freq, pp.offset[0][a], pp.mask[0][a], Improved, pp.interp);
    }
    const lanes_axis y = D >= 2 ? lanes_axis{ax[1].i0, ax[1].i1, none.f, none.t} : none;
    const lanes_axis z = D >= 3 ? lanes_axis{ax[2].i0, ax[2].i1, none.f, none.t} : none;
    VI h[8];
    if (pairs) {
      const VI q = hn::GatherIndex(di, tb.pairs.data(), ax[0].i0);
      hash_corners_v<D, true>(tb, low16(q), high16(q), y, z, h);
    } else {
      hash_corners_v<D, false>(tb, hn::GatherIndex(di, tb.perm.data(), ax[0].i0),
                               hn::GatherIndex(di, tb.perm.data(), ax[0].i1), y, z, h);
    }
    double* g[3] = {};
    if constexpr (Grad) {
      for (int k = 0; k < D; ++k) g[k] = grad[k] + i;
    }
    blend_vector<D, Improved, Grad>(ax, h, freq, lanes, out + i, g);
  }
}

void noise_points_dd(const points_plan& pp, const double* const* coord, std::size_t n, double* out,
                     double* const* grad) {
  const auto run = [&]<bool Grad>() {
    switch (pp.dims * 2 + (pp.improved ? 1 : 0)) {
      case 2:
        return noise_points_dd_t<1, false, Grad>(pp, coord, n, out, grad);
      case 3:
        return noise_points_dd_t<1, true, Grad>(pp, coord, n, out, grad);
      case 4:
        return noise_points_dd_t<2, false, Grad>(pp, coord, n, out, grad);
      case 5:
        return noise_points_dd_t<2, true, Grad>(pp, coord, n, out, grad);
      case 6:
        return noise_points_dd_t<3, false, Grad>(pp, coord, n, out, grad);
      default:
        return noise_points_dd_t<3, true, Grad>(pp, coord, n, out, grad);
    }
  };
  if (grad != nullptr) {
    run.template operator()<true>();
  } else {
    run.template operator()<false>();
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();
#endif  // HWY_HAVE_FLOAT64

#endif  // PERLIN_SIMD_WARP_NOISE_INL_H_
