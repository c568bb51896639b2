// Point batches: float coordinates (eval_points_fn, hashed a byte per lane 64 at a time on
// AVX3_DL, by gathers elsewhere) and double coordinates with analytic gradients
// (eval_points_d_fn), both in detail/grid_plan.hpp.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/points.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_POINTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_POINTS_INL_H_
#undef PERLIN_SIMD_POINTS_INL_H_
#else
#define PERLIN_SIMD_POINTS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"

// Double vectors: targets without them (WASM in Highway 1.0) take these kernels from the next
// target down (targets.cpp completes their table).
#if HWY_HAVE_FLOAT64
HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX3_DL
/// The hot point loop (one plain octave at frequency 1, every mask 255) 64 points at a time,
/// hashed a byte per lane (byte_hash): point 16 v + j sits in byte v of 32-bit lane j, so that
/// packing and unpacking are shifts within lanes. Returns where it stopped (end, or fewer than
/// 64 points before it). `out` is the output of point 0.
template <int D, bool Improved, bool Strict>
std::size_t points_by_bytes(const points_plan& pp, std::size_t i, std::size_t end, float* out) {
  const DF df;
  const DI di;
  constexpr std::size_t N = 16;
  static_assert(hn::MaxLanes(DF()) == N);
  const byte_hash p(pp.tables->bytes.data());
  const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  for (; i + 4 * N <= end; i += 4 * N) {
    lanes_axis ax[4][3];
    __m512i idx[3];
    for (int a = 0; a < D; ++a) {
      VI packed = hn::Zero(di);
      for (int v = 0; v < 4; ++v) {
        ax[v][a] = axis_from_coords<Strict>(hn::LoadU(df, pp.coord[a] + i + v * N), 255u, Improved,
                                            pp.interp);
        packed = byte_hash::pack(packed, ax[v][a].i0, v);
      }
      idx[a] = packed.raw;
    }
    __m512i bytes[8];
    p.corners<D>(idx, bytes);
    for (int v = 0; v < 4; ++v) {
      VI h[8];
      for (int k = 0; k < (1 << D); ++k) h[k] = byte_hash::unpack<Improved>(bytes[k], v);
      const VF n = blend_corners_v<D, Improved, Strict>(
          h, ax[v][0].f, ax[v][0].t, D >= 2 ? ax[v][1] : none, D >= 3 ? ax[v][2] : none);
      hn::StoreU(n, df, out + i + v * N);
    }
  }
  return i;
}
#endif

template <int D, bool Improved, bool Strict, bool Grad>
void points_d_t(const points_plan& pp, const double* const* coord, std::size_t count, float* out,
                float* const* grad);

/// points_t for octaves off frequency 1 (fractals, offsets): the double-coordinate kernel, which
/// splits each octave's x * freq + offset in double vectors, on the coordinates widened exactly.
template <int D, bool Improved, bool Strict>
void points_widened(const points_plan& pp, std::size_t begin, std::size_t end, float* out) {
  constexpr std::size_t B = 512;
  HWY_ALIGN double wide[3][B];
  for (std::size_t b = begin; b < end; b += B) {
    const std::size_t m = std::min(B, end - b);
    const double* c[3] = {wide[0], wide[1], wide[2]};
    for (int a = 0; a < D; ++a) {
      for (std::size_t l = 0; l < m; ++l) wide[a][l] = pp.coord[a][b + l];
    }
    points_d_t<D, Improved, Strict, false>(pp, c, m, out + (b - begin), nullptr);
  }
}

/// The hot case of points_t (one plain octave, every mask 255) from point i: several vectors per
/// iteration, so that their gathers overlap each other's latency (the hash is three dependent
/// gathers deep). Returns where it stopped (fewer than 2 N points before end).
template <int D, bool Improved, bool Strict>
std::size_t points_plain(const points_plan& pp, std::size_t begin, std::size_t i, std::size_t end,
                         float* out) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const hash_tables& tb = *pp.tables;
#if HWY_TARGET == HWY_AVX3_DL
  i = points_by_bytes<D, Improved, Strict>(pp, i, end, out - begin);
#endif
  const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  constexpr std::size_t U = 2;
  for (; i + U * N <= end; i += U * N) {
    lanes_axis ax[U][3];
    VF n[U];
    for (std::size_t u = 0; u < U; ++u) {
      for (int a = 0; a < D; ++a) {
        ax[u][a] = axis_from_coords<Strict>(hn::LoadU(df, pp.coord[a] + i + u * N), 255u, Improved,
                                            pp.interp);
      }
    }
    for (std::size_t u = 0; u < U; ++u) {
      const VI q = hn::GatherIndex(di, tb.pairs.data(), ax[u][0].i0);
      n[u] =
          corners_v<D, Improved, Strict, true>(tb, low16(q), high16(q), ax[u][0].f, ax[u][0].t,
                                               D >= 2 ? ax[u][1] : none, D >= 3 ? ax[u][2] : none);
    }
    for (std::size_t u = 0; u < U; ++u) hn::StoreU(n[u], df, out + (i + u * N - begin));
  }
  return i;
}

/// Octave oi's lattice data along axis a of the N points coord[0 .. N): straight from the float
/// coordinates (from_coords: one octave at frequency 1, no offset), or by a prepass in double per
/// lane (the octave coordinate x * freq + offset, split exactly; cosine value noise's weights).
template <bool Improved, bool Strict>
HWY_INLINE lanes_axis octave_axis(const points_plan& pp, std::size_t oi, int a, const float* coord,
                                  bool from_coords) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  if (from_coords) {
    return axis_from_coords<Strict>(hn::LoadU(df, coord), pp.mask[oi][a], Improved, pp.interp);
  }
  HWY_ALIGN float buf[2][64];  // f and t
  HWY_ALIGN std::int32_t ibuf[2][64];
  for (std::size_t l = 0; l < N; ++l) {
    const double q = static_cast<double>(coord[l]) * pp.freq[oi] + pp.offset[oi][a];
    const double fl = std::floor(q);
    axis_wrap w;
    w.mask = pp.mask[oi][a];
    const axis_index li = lattice_index(fl, w);
    ibuf[0][l] = static_cast<std::int32_t>(li.i0);
    ibuf[1][l] = static_cast<std::int32_t>(li.i1);
    buf[0][l] = static_cast<float>(q - fl);
    buf[1][l] = static_cast<float>(blend_weight(Improved, pp.interp, q - fl));
  }
  return {hn::Load(di, ibuf[0]), hn::Load(di, ibuf[1]), hn::Load(df, buf[0]), hn::Load(df, buf[1])};
}

template <int D, bool Improved, bool Strict>
void points_t(const points_plan& pp, std::size_t begin, std::size_t end, float* out) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const std::int32_t* p = pp.tables->perm.data();
  const std::size_t octaves = pp.amp.size();
  const bool plain = octaves == 1 && pp.freq[0] == 1.0 && pp.offset[0] == std::array<double, 4>{};
  // Every interpolation but cosine has a vector blend weight.
  const bool vector_weight = Improved || pp.interp != interpolation::cosine;
  // Lattice data straight from the float coordinates (one octave at frequency 1, no offset)
  // instead of the prepass in double.
  const bool from_coords = plain && vector_weight;
  if (!from_coords && vector_weight)
    return points_widened<D, Improved, Strict>(pp, begin, end, out);
  const hash_tables& tb = *pp.tables;
  // Pair gathers need every axis's upper index to be the lower one plus 1 (mod 256): mask 255.
  std::vector<bool> pairs(octaves);
  for (std::size_t oi = 0; oi < octaves; ++oi) {
    pairs[oi] = true;
    for (int a = 0; a < D; ++a) pairs[oi] = pairs[oi] && pp.mask[oi][a] == 255u;
  }
  // One octave of plain noise: the value is the noise itself.
  const bool raw = octaves == 1 && pp.amp[0] == 1.0f &&
                   (pp.kind == fractal_kind::none || pp.kind == fractal_kind::fbm);
  HWY_ALIGN float tmp[64];
  HWY_ALIGN float tail[4][64];  // the last, partial vector, padded with its last point
  std::size_t i = begin;
  if (raw && from_coords && !pp.normalize && pairs[0]) {
    i = points_plain<D, Improved, Strict>(pp, begin, i, end, out);
  }
  for (; i < end; i += N) {
    const std::size_t lanes = std::min(N, end - i);
    const float* coord[4];
    for (int a = 0; a < D; ++a) {
      coord[a] = pp.coord[a] + i;
      if (lanes < N) {
        for (std::size_t l = 0; l < N; ++l) tail[a][l] = coord[a][std::min(l, lanes - 1)];
        coord[a] = tail[a];
      }
    }
    VF total = hn::Zero(df);
    VF weight = hn::Set(df, 1.0f);
    for (std::size_t oi = 0; oi < octaves; ++oi) {
      lanes_axis ax[3];
      for (int a = 0; a < D; ++a) {
        ax[a] = octave_axis<Improved, Strict>(pp, oi, a, coord[a], from_coords);
      }
      const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
      const lanes_axis& ay = D >= 2 ? ax[1] : none;
      const lanes_axis& az = D >= 3 ? ax[2] : none;
      VF n;
      if (pairs[oi]) {
        const VI q = hn::GatherIndex(di, tb.pairs.data(), ax[0].i0);
        n = corners_v<D, Improved, Strict, true>(tb, low16(q), high16(q), ax[0].f, ax[0].t, ay, az);
      } else {
        const VI a0 = hn::GatherIndex(di, p, ax[0].i0);
        const VI a1 = hn::GatherIndex(di, p, ax[0].i1);
        n = corners_v<D, Improved, Strict, false>(tb, a0, a1, ax[0].f, ax[0].t, ay, az);
      }
      if (raw) {
        total = n;
      } else {
        const VF amp = hn::Set(df, pp.amp[oi]);
        with_kind(pp.kind, [&]<fractal_kind Kind>() {
          combine_step<Kind, Strict>(n, amp, total, weight, pp.ridged);
        });
      }
    }
    if (pp.normalize) total = hn::Mul(total, hn::Set(df, pp.normalize_by));
    hn::Store(total, df, tmp);
    std::copy(tmp, tmp + lanes, out + (i - begin));
  }
}

void eval_points(const points_plan& pp, std::size_t begin, std::size_t end, float* out) {
  const int key = pp.dims * 4 + (pp.improved ? 2 : 0) + (pp.strict ? 1 : 0);
  switch (key) {
    case 4:
      return points_t<1, false, false>(pp, begin, end, out);
    case 5:
      return points_t<1, false, true>(pp, begin, end, out);
    case 6:
      return points_t<1, true, false>(pp, begin, end, out);
    case 7:
      return points_t<1, true, true>(pp, begin, end, out);
    case 8:
      return points_t<2, false, false>(pp, begin, end, out);
    case 9:
      return points_t<2, false, true>(pp, begin, end, out);
    case 10:
      return points_t<2, true, false>(pp, begin, end, out);
    case 11:
      return points_t<2, true, true>(pp, begin, end, out);
    case 12:
      return points_t<3, false, false>(pp, begin, end, out);
    case 13:
      return points_t<3, false, true>(pp, begin, end, out);
    case 14:
      return points_t<3, true, false>(pp, begin, end, out);
    default:
      return points_t<3, true, true>(pp, begin, end, out);
  }
}

// ---------------------------------------------------------------------------------------------
// Samples at double coordinates, with analytic gradients (eval_points_d_fn in grid_plan.hpp).

/// Lattice data of one axis for the N samples x[0 .. N), octave frequency `freq` and `offset`:
/// q = x * freq + offset in double (no contraction: the same bits on every target), split into
/// floor and fraction exactly; the floor reduced modulo 256 (exact for every double) and masked;
/// the fraction rounded to float, its blend weight and the weight's derivative `dt` in float.
template <bool Strict>
HWY_INLINE lanes_axis axis_from_doubles(const double* x, double freq, double offset,
                                        std::uint32_t mask, bool improved, interpolation interp,
                                        VF& dt) {
  const DF df;
  const DI di;
  using DD = hn::ScalableTag<double>;
  const DD dd;
  const hn::Rebind<float, DD> dfh;
  const hn::Rebind<std::int32_t, DD> dih;
  const auto vfreq = hn::Set(dd, freq);
  const auto voff = hn::Set(dd, offset);
  // The fraction and the reduced index of the doubles x[j .. j + Nd), demoted.
  const auto split = [&](std::size_t j, auto& frac, auto& index) {
    const auto q = hn::Add(hn::Mul(hn::LoadU(dd, x + j), vfreq), voff);
    const auto fl = hn::Floor(q);
    auto r =
        hn::Sub(fl, hn::Mul(hn::Floor(hn::Mul(fl, hn::Set(dd, 1.0 / 256.0))), hn::Set(dd, 256.0)));
    r = hn::IfThenElseZero(hn::Eq(r, r), r);  // NaN and infinite coordinates: index 0, value NaN
    frac = hn::DemoteTo(dfh, hn::Sub(q, fl));
    index = hn::DemoteTo(dih, r);
  };
#if HWY_TARGET == HWY_SCALAR
  hn::Vec<decltype(dfh)> fv;
  hn::Vec<decltype(dih)> iv;
  split(0, fv, iv);
  const VF f = fv;
  const VI i = iv;
#else
  // Two halves of doubles make one vector of floats (combined in registers: storing halves and
  // loading the whole would stall store forwarding).
  hn::Vec<decltype(dfh)> f_lo, f_hi;
  hn::Vec<decltype(dih)> i_lo, i_hi;
  split(0, f_lo, i_lo);
  split(hn::Lanes(dd), f_hi, i_hi);
  const VF f = hn::Combine(df, f_hi, f_lo);
  const VI i = hn::Combine(di, i_hi, i_lo);
#endif
  const VI m = hn::Set(di, static_cast<std::int32_t>(mask));
  lanes_axis a{hn::And(i, m), hn::And(hn::Add(i, hn::Set(di, 1)), m), f, f};
  const VF one = hn::Set(df, 1.0f);
  if (improved || interp == interpolation::quintic) {
    a.t = fade_v<Strict>(f);
    const VF g = hn::Mul(f, hn::Sub(f, one));  // 30 f^2 (f - 1)^2
    dt = hn::Mul(hn::Set(df, 30.0f), hn::Mul(g, g));
  } else if (interp == interpolation::cubic) {
    a.t = hn::Mul(hn::Mul(f, f), hn::Sub(hn::Set(df, 3.0f), hn::Add(f, f)));
    dt = hn::Mul(hn::Set(df, 6.0f), hn::Mul(f, hn::Sub(one, f)));
  } else {  // linear
    dt = one;
  }
  return a;
}

/// Blends c[0 .. 2^m) in place along m axes with weights w[0 .. m) (lowest bit first).
template <bool Strict>
HWY_INLINE VF blend_tree(VF* c, int m, const VF* w) {
  for (int l = 0; l < m; ++l) {
    for (int j = 0; j < (1 << (m - l - 1)); ++j)
      c[j] = lerp_v<Strict>(w[l], c[2 * j], c[2 * j + 1]);
  }
  return c[0];
}

/// The noise of the 2^D hashed corners h and its partials dn[0 .. D) with respect to the lattice
/// coordinates: the corners' values blended like corners_v, plus for each axis k the blend of
/// the corners' own gradients and dt_k times the blend (over the other axes) of the differences
/// across k. Without Grad, the value only.
template <int D, bool Improved, bool Strict, bool Grad>
HWY_INLINE VF blend_deriv_v(const VI* h, const lanes_axis* ax, const VF* dt, VF* dn) {
  const DF df;
  constexpr int n = 1 << D;
  const VF zero = hn::Zero(df);
  const VF one = hn::Set(df, 1.0f);
  VF d[8];
  VF comp[8][3];  // the corners' gradients (improved noise)
  if constexpr (Improved) {
    const VF xs[2] = {ax[0].f, hn::Sub(ax[0].f, one)};
    const VF ys[2] = {D >= 2 ? ax[1].f : zero, D >= 2 ? hn::Sub(ax[1].f, one) : zero};
    const VF zs[2] = {D >= 3 ? ax[2].f : zero, D >= 3 ? hn::Sub(ax[2].f, one) : zero};
    for (int c = 0; c < n; ++c) {
      gradient_components<D>(h[c], comp[c]);
      d[c] = dot_v<D>(comp[c], xs[c & 1], ys[(c >> 1) & 1], zs[(c >> 2) & 1]);
    }
  } else {
    const VF scale = hn::Set(df, 1.0f / 127.5f);
    for (int c = 0; c < n; ++c)
      d[c] = mul_add<Strict>(hn::ConvertTo(df, h[c]), scale, hn::Set(df, -1.0f));
  }
  VF t[3];
  for (int k = 0; k < D; ++k) t[k] = ax[k].t;
  if constexpr (Grad) {
    for (int k = 0; k < D; ++k) {
      // Differences across axis k, indexed by the other axes' bits (lowest first).
      VF e[4];
      VF w[2];
      int m = 0;
      for (int j = 0; j < D; ++j) {
        if (j != k) w[m++] = t[j];
      }
      for (int j = 0; j < (1 << (D - 1)); ++j) {
        const int low = j & ((1 << k) - 1);
        const int c0 = low | ((j >> k) << (k + 1));
        e[j] = hn::Sub(d[c0 | (1 << k)], d[c0]);
      }
      VF part = hn::Mul(dt[k], blend_tree<Strict>(e, D - 1, w));
      if constexpr (Improved) {
        // The corners' gradients' component k, blended.
        VF g[8];
        for (int c = 0; c < n; ++c) g[c] = comp[c][k];
        part = hn::Add(blend_tree<Strict>(g, D, t), part);
      }
      dn[k] = part;
    }
  }
  return blend_tree<Strict>(d, D, t);
}

/// The fractal sum of a vector of samples at double coordinates, and its gradient, octave by
/// octave (points_d_t).
template <int D, bool Strict, bool Grad>
struct deriv_sum {
  VF total, weight;
  VF g[3], dweight[3];
  VF eroded_g[3];  // eroded: the sum of the octaves' gradients so far, in lattice units

  // Written out: an implicit constructor would lack the target's attributes.
  HWY_INLINE deriv_sum()
      : total(hn::Zero(DF())),
        weight(hn::Set(DF(), 1.0f)),
        g{hn::Zero(DF()), hn::Zero(DF()), hn::Zero(DF())},
        dweight{hn::Zero(DF()), hn::Zero(DF()), hn::Zero(DF())},
        eroded_g{hn::Zero(DF()), hn::Zero(DF()), hn::Zero(DF())} {}

  /// Adds octave oi's noise n and its partials dn (with respect to the lattice coordinates).
  HWY_INLINE void add(const points_plan& pp, std::size_t oi, VF n, VF* dn) {
    const DF df;
    const VF amp = hn::Set(df, pp.amp[oi]);
    if constexpr (Grad) {
      if (pp.kind == fractal_kind::eroded) {
        // fractal.cpp's eroded octave, values only: G += dn (lattice units), s = n / (1 + k |G|^2).
        VF g2 = hn::Zero(df);
        for (int k = 0; k < D; ++k) {
          eroded_g[k] = hn::Add(eroded_g[k], dn[k]);
          g2 = mul_add<Strict>(eroded_g[k], eroded_g[k], g2);
        }
        const VF d = mul_add<Strict>(hn::Set(df, pp.erosion), g2, hn::Set(df, 1.0f));
        total = mul_add<Strict>(hn::Div(n, d), amp, total);
        return;
      }
      const VF freq = hn::Set(df, static_cast<float>(pp.freq[oi]));
      for (int k = 0; k < D; ++k) dn[k] = hn::Mul(dn[k], freq);
      with_kind(pp.kind, [&]<fractal_kind Kind>() {
        combine_deriv<Kind, Strict, D>(n, dn, amp, total, g, weight, dweight, pp.ridged);
      });
    } else {
      with_kind(pp.kind, [&]<fractal_kind Kind>() {
        combine_step<Kind, Strict>(n, amp, total, weight, pp.ridged);
      });
    }
  }

  /// Stores the first `lanes` samples at out[i] (and grad[k][i]), normalised if the plan says.
  HWY_INLINE void store(const points_plan& pp, float* out, float* const* grad, std::size_t i,
                        std::size_t lanes) {
    const DF df;
    if (pp.normalize) {
      const VF by = hn::Set(df, pp.normalize_by);
      total = hn::Mul(total, by);
      for (int k = 0; k < D; ++k) g[k] = hn::Mul(g[k], by);
    }
    HWY_ALIGN float tmp[64];
    hn::Store(total, df, tmp);
    std::copy(tmp, tmp + lanes, out + i);
    if constexpr (Grad) {
      if (grad == nullptr) return;  // the eroded fractal's values (eval_points_d)
      for (int k = 0; k < D; ++k) {
        hn::Store(g[k], df, tmp);
        std::copy(tmp, tmp + lanes, grad[k] + i);
      }
    }
  }
};

/// Axes 1 .. D-1 split once per octave for a call whose coordinates along them are the same at
/// every sample (points_plan::constant_axes: an aligned grid's row), so that a vector's octave
/// splits x alone. The same operations on the same coordinates, so the same values.
template <int D>
struct held_axes {
  lanes_axis ax[k_max_octaves][2];
  VF dt[k_max_octaves][2];
  VI packed[k_max_octaves][2];  // the lower indices in byte_hash's layout (AVX3_DL)
  template <bool Strict, bool Improved>
  HWY_INLINE void build(const points_plan& pp, const double* const* coord) {
    const std::size_t N = hn::Lanes(DF());
    HWY_ALIGN double same[64];
    for (int a = 1; a < D; ++a) {
      std::fill(same, same + N, coord[a][0]);
      for (std::size_t oi = 0; oi < pp.amp.size() && oi < k_max_octaves; ++oi) {
        lanes_axis& h = ax[oi][a - 1];
        h = axis_from_doubles<Strict>(same, pp.freq[oi], pp.offset[oi][a], pp.mask[oi][a], Improved,
                                      pp.interp, dt[oi][a - 1]);
        VI p = hn::Zero(DI());
#if HWY_TARGET == HWY_AVX3_DL
        for (int v = 0; v < 4; ++v) p = byte_hash::pack(p, h.i0, v);
#endif
        packed[oi][a - 1] = p;
      }
    }
  }
};

#if HWY_TARGET == HWY_AVX3_DL
/// points_d_t's samples 64 at a time where no octave has a period below 256 (every mask 255),
/// hashed a byte per lane (byte_hash; the layout of points_by_bytes). Returns where it stopped.
template <int D, bool Improved, bool Strict, bool Grad>
std::size_t points_d_by_bytes(const points_plan& pp, const double* const* coord, std::size_t count,
                              float* out, float* const* grad, const held_axes<D>* held) {
  const DF df;
  const DI di;
  constexpr std::size_t N = 16;
  static_assert(hn::MaxLanes(DF()) == N);
  for (const auto& m : pp.mask) {
    for (int a = 0; a < D; ++a) {
      if (m[a] != 255u) return 0;
    }
  }
  const byte_hash p(pp.tables->bytes.data());
  const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  std::size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) {
    deriv_sum<D, Strict, Grad> sum[4];
    for (std::size_t oi = 0; oi < pp.amp.size(); ++oi) {
      lanes_axis ax[4][3];
      VF dt[4][3];
      __m512i idx[3];
      for (int a = 0; a < D; ++a) {
        if (a >= 1 && held != nullptr) {
          for (int v = 0; v < 4; ++v) {
            ax[v][a] = held->ax[oi][a - 1];
            dt[v][a] = held->dt[oi][a - 1];
          }
          idx[a] = held->packed[oi][a - 1].raw;
          continue;
        }
        VI packed = hn::Zero(di);
        for (int v = 0; v < 4; ++v) {
          ax[v][a] = axis_from_doubles<Strict>(coord[a] + i + v * N, pp.freq[oi], pp.offset[oi][a],
                                               255u, Improved, pp.interp, dt[v][a]);
          packed = byte_hash::pack(packed, ax[v][a].i0, v);
        }
        idx[a] = packed.raw;
      }
      for (int a = D; a < 3; ++a) {
        for (int v = 0; v < 4; ++v) ax[v][a] = none;
      }
      __m512i bytes[8];
      p.corners<D>(idx, bytes);
      for (int v = 0; v < 4; ++v) {
        VI h[8];
        for (int k = 0; k < (1 << D); ++k) h[k] = byte_hash::unpack<Improved>(bytes[k], v);
        VF dn[3];
        const VF n = blend_deriv_v<D, Improved, Strict, Grad>(h, ax[v], dt[v], dn);
        sum[v].add(pp, oi, n, dn);
      }
    }
    for (int v = 0; v < 4; ++v) sum[v].store(pp, out, grad, i + v * N, N);
  }
  return i;
}
#endif

template <int D, bool Improved, bool Strict, bool Grad>
void points_d_t(const points_plan& pp, const double* const* coord, std::size_t count, float* out,
                float* const* grad) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const std::int32_t* p = pp.tables->perm.data();
  const std::size_t octaves = pp.amp.size();
  HWY_ALIGN double tail[3][64];  // the last, partial vector, padded with its last sample
  bool pairs[k_max_octaves];
  for (std::size_t oi = 0; oi < octaves && oi < k_max_octaves; ++oi) {
    pairs[oi] = true;
    for (int a = 0; a < D; ++a) pairs[oi] = pairs[oi] && pp.mask[oi][a] == 255u;
  }
  // An aligned grid's row: axes 1.. split once per octave (held_axes), up to 32 octaves.
  held_axes<D> held_storage;
  const held_axes<D>* held = nullptr;
  if (D >= 2 && pp.constant_axes && octaves <= k_max_octaves && count != 0) {
    held_storage.template build<Strict, Improved>(pp, coord);
    held = &held_storage;
  }
  std::size_t start = 0;
#if HWY_TARGET == HWY_AVX3_DL
  start = points_d_by_bytes<D, Improved, Strict, Grad>(pp, coord, count, out, grad, held);
#endif
  for (std::size_t i = start; i < count; i += N) {
    const std::size_t lanes = std::min(N, count - i);
    const double* x[3] = {};
    for (int a = 0; a < D; ++a) {
      x[a] = coord[a] + i;
      if (lanes < N) {
        for (std::size_t l = 0; l < N; ++l) tail[a][l] = x[a][std::min(l, lanes - 1)];
        x[a] = tail[a];
      }
    }
    deriv_sum<D, Strict, Grad> sum;
    for (std::size_t oi = 0; oi < octaves; ++oi) {
      lanes_axis ax[3];
      VF dt[3];
      for (int a = 0; a < D; ++a) {
        if (a >= 1 && held != nullptr) {
          ax[a] = held->ax[oi][a - 1];
          dt[a] = held->dt[oi][a - 1];
          continue;
        }
        ax[a] = axis_from_doubles<Strict>(x[a], pp.freq[oi], pp.offset[oi][a], pp.mask[oi][a],
                                          Improved, pp.interp, dt[a]);
      }
      const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
      VI h[8];
      if (pairs[oi]) {
        // No period below 256 on any axis: one gather of the pair table per two corners.
        const VI q = hn::GatherIndex(di, pp.tables->pairs.data(), ax[0].i0);
        hash_corners_v<D, true>(*pp.tables, low16(q), high16(q), D >= 2 ? ax[1] : none,
                                D >= 3 ? ax[2] : none, h);
      } else {
        hash_corners_v<D, false>(*pp.tables, hn::GatherIndex(di, p, ax[0].i0),
                                 hn::GatherIndex(di, p, ax[0].i1), D >= 2 ? ax[1] : none,
                                 D >= 3 ? ax[2] : none, h);
      }
      VF dn[3];
      const VF n = blend_deriv_v<D, Improved, Strict, Grad>(h, ax, dt, dn);
      sum.add(pp, oi, n, dn);
    }
    sum.store(pp, out, grad, i, lanes);
  }
}

void eval_points_d(const points_plan& pp, const double* const* coord, std::size_t n, float* out,
                   float* const* grad) {
  const auto run = [&]<bool Grad>() {
    const int key = pp.dims * 4 + (pp.improved ? 2 : 0) + (pp.strict ? 1 : 0);
    switch (key) {
      case 4:
        return points_d_t<1, false, false, Grad>(pp, coord, n, out, grad);
      case 5:
        return points_d_t<1, false, true, Grad>(pp, coord, n, out, grad);
      case 6:
        return points_d_t<1, true, false, Grad>(pp, coord, n, out, grad);
      case 7:
        return points_d_t<1, true, true, Grad>(pp, coord, n, out, grad);
      case 8:
        return points_d_t<2, false, false, Grad>(pp, coord, n, out, grad);
      case 9:
        return points_d_t<2, false, true, Grad>(pp, coord, n, out, grad);
      case 10:
        return points_d_t<2, true, false, Grad>(pp, coord, n, out, grad);
      case 11:
        return points_d_t<2, true, true, Grad>(pp, coord, n, out, grad);
      case 12:
        return points_d_t<3, false, false, Grad>(pp, coord, n, out, grad);
      case 13:
        return points_d_t<3, false, true, Grad>(pp, coord, n, out, grad);
      case 14:
        return points_d_t<3, true, false, Grad>(pp, coord, n, out, grad);
      default:
        return points_d_t<3, true, true, Grad>(pp, coord, n, out, grad);
    }
  };
  // The eroded fractal reads every octave's gradient: the gradient kernels, values only (its
  // own gradient needs the octaves' Hessians: not covered, route_of).
  if (grad != nullptr || pp.kind == fractal_kind::eroded) {
    run.template operator()<true>();
  } else {
    run.template operator()<false>();
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();
#endif  // HWY_HAVE_FLOAT64

#endif  // PERLIN_SIMD_POINTS_INL_H_
