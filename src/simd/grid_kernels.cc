// Per-target SIMD kernels for grids and point batches. Compiled once for every Highway target
// (foreach_target.h); the only code that includes hwy/highway.h.
//
// Two ways to fill a row of a grid (the x axis):
//  - cells: hash each lattice cell the row touches once, reduce it to four coefficients so that
//    the noise inside the cell is lerp(t(x), a0 + b0 x, a1 + b1 (x - 1)), then evaluate that per
//    sample with a few multiply-adds. Best when a cell spans several samples.
//  - gather: hash every sample with vector gathers from the permutation table. Best when cells
//    are narrower than a few samples (the high octaves of a fractal), and for point batches.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/grid_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "detail/grid_plan.hpp"
#include "detail/kernel.hpp"
#include "detail/kernel_registry.hpp"

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
  const VI h15 = hn::And(h, hn::Set(di, 15));
#if HWY_TARGET == HWY_SCALAR
  for (int k = 0; k < Dims; ++k) g[k] = hn::GatherIndex(df, k_gradients.f[k], h15);
#else
  if constexpr (hn::MaxLanes(DF()) == 16) {
    const auto idx = hn::IndicesFromVec(df, h15);
    for (int k = 0; k < Dims; ++k) g[k] = hn::TableLookupLanes(hn::Load(df, k_gradients.f[k]), idx);
  } else {
    const hn::Repartition<std::uint8_t, DF> d8;
    // Byte 0 of each lane picks the table entry; bytes 1-3 have their top bit set: zero.
    const auto from =
        hn::BitCast(d8, hn::Or(h15, hn::Set(di, static_cast<std::int32_t>(0x80808000u))));
    const VF one = hn::Set(df, 1.0f);
    for (int k = 0; k < Dims; ++k) {
      const auto bytes = hn::TableLookupBytesOr0(hn::LoadDup128(d8, k_gradients.b[k]), from);
      g[k] = hn::Sub(hn::ConvertTo(df, hn::BitCast(di, bytes)), one);
    }
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
      const VI q0 = hn::GatherIndex(di, tb.pairs_z0.data(), hn::Add(a0, y.i0));
      const VI q1 = hn::GatherIndex(di, tb.pairs_z0.data(), hn::Add(a1, y.i0));
      h[0] = low16(q0);
      h[2] = high16(q0);
      h[1] = low16(q1);
      h[3] = high16(q1);
    } else {
      h[0] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a0, y.i0));
      h[1] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a1, y.i0));
      h[2] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a0, y.i1));
      h[3] = hn::GatherIndex(di, tb.perm_z0.data(), hn::Add(a1, y.i1));
    }
  } else {
    if constexpr (Pairs) {
      const VI q0 = hn::GatherIndex(di, tb.pairs.data(), hn::Add(a0, y.i0));
      const VI q1 = hn::GatherIndex(di, tb.pairs.data(), hn::Add(a1, y.i0));
      h[0] = low16(q0);
      h[2] = high16(q0);
      h[1] = low16(q1);
      h[3] = high16(q1);
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

/// The lattice data of one axis of a grid row (scalar, in double like the reference).
using row_axis = octave_plan::axis_sample;

/// Axes 1..dims-1 of the row with indices idx[1..3], for octave `o` (from the plan's tables).
inline void row_setup(const grid_plan& g, const octave_plan& o, const std::size_t* idx,
                      row_axis* ax) {
  for (int a = 1; a < g.dims; ++a) ax[a] = o.axis[a][idx[a]];
}

/// The four coefficients of every cell the row touches (scalar, double, then rounded).
template <int D>
void cell_coefficients(const grid_plan& g, const octave_plan& o, const row_axis* ax, float* a0,
                       float* b0, float* a1, float* b1) {
  const std::int32_t* p = g.tables.perm.data();
  constexpr int depth = D <= 3 ? 3 : 4;
  constexpr int combos = 1 << (D - 1);
  double weight[combos];
  double rest_f[combos][4];
  for (int m = 0; m < combos; ++m) {
    double w = 1;
    for (int k = 1; k < D; ++k) {
      const int bit = (m >> (k - 1)) & 1;
      w *= bit ? ax[k].t : 1.0 - ax[k].t;
      rest_f[m][k] = bit ? ax[k].f - 1.0 : ax[k].f;
    }
    weight[m] = w;
  }
  for (std::size_t c = 0; c < o.cells; ++c) {
    const std::int32_t hx[2] = {o.hx0[c], o.hx1[c]};
    double A[2] = {0, 0}, B[2] = {0, 0};
    for (int xb = 0; xb < 2; ++xb) {
      for (int m = 0; m < combos; ++m) {
        std::int32_t h = hx[xb];
        for (int k = 1; k < depth; ++k) {
          if (k < D) {
            h = p[h + static_cast<std::int32_t>(((m >> (k - 1)) & 1) ? ax[k].i1 : ax[k].i0)];
          } else {
            h = p[h];
          }
        }
        if (g.improved) {
          double rest = 0;
          double gx;
          if constexpr (D == 4) {
            const auto& gr = k_grad4[h & 31];
            gx = gr[0];
            for (int k = 1; k < 4; ++k) rest += gr[k] * rest_f[m][k];
          } else {
            const auto& gr = k_grad3[h & 15];
            gx = gr[0];
            for (int k = 1; k < D; ++k) rest += gr[k] * rest_f[m][k];
          }
          A[xb] += weight[m] * rest;
          B[xb] += weight[m] * gx;
        } else {
          A[xb] += weight[m] * (h / 127.5 - 1.0);
        }
      }
    }
    a0[c] = static_cast<float>(A[0]);
    b0[c] = static_cast<float>(B[0]);
    a1[c] = static_cast<float>(A[1]);
    b1[c] = static_cast<float>(B[1]);
  }
}

/// The corners of every cell a row touches, for one cell of the lattice along y and z: the
/// gradients' components (improved noise) or the lattice values (value noise), per x side xb
/// and y/z corner m (bit 0 = y, bit 1 = z). They depend on the row only through its y and z
/// indices, so the rows of one lattice cell (32 rows at a step of 1/32) hash them once.
struct cell_corners {
  std::uint32_t key[4] = {~0u, ~0u, ~0u, ~0u};  // the y and z indices (i0, i1) hashed for
  std::size_t stride = 0;                       // floats per (xb, m, component) array
  std::vector<float> data;
  float* at(int xb, int m, int component) {
    return data.data() + static_cast<std::size_t>((xb * 4 + m) * 3 + component) * stride;
  }
};

/// Hashes the corners of the row's cells into `cc` (N cells at a time, D <= 3).
template <int D, bool Improved, bool Strict>
HWY_NOINLINE void hash_cell_corners(const grid_plan& g, const octave_plan& o, const row_axis* ax,
                                    cell_corners& cc) {
  cc.key[0] = ax[1].i0;
  cc.key[1] = ax[1].i1;
  cc.key[2] = ax[2].i0;
  cc.key[3] = ax[2].i1;
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  if (cc.stride == 0) {
    cc.stride = (o.cells + N - 1) / N * N;
    cc.data.resize(2 * 4 * 3 * cc.stride);
  }
  const std::int32_t* p = g.tables.perm.data();
  constexpr int combos = 1 << (D - 1);
  const VI iy[2] = {hn::Set(di, static_cast<std::int32_t>(ax[1].i0)),
                    hn::Set(di, static_cast<std::int32_t>(ax[1].i1))};
  const VI iz[2] = {hn::Set(di, static_cast<std::int32_t>(ax[2].i0)),
                    hn::Set(di, static_cast<std::int32_t>(ax[2].i1))};
  // Pair gathers when every upper index is the lower one plus 1 (see tables).
  bool pairs = true;
  for (int k = 1; k < D; ++k) pairs &= ax[k].i1 == ((ax[k].i0 + 1) & 255u);
  for (std::size_t c = 0; c < o.cells; c += N) {
    const VI hx[2] = {hn::LoadU(di, o.hx0.data() + c), hn::LoadU(di, o.hx1.data() + c)};
    for (int xb = 0; xb < 2; ++xb) {
      VI hm[combos];
      if constexpr (D == 1) {
        hm[0] = hn::GatherIndex(di, g.tables.perm_z0.data(), hx[xb]);
      } else if constexpr (D == 2) {
        if (pairs) {
          const VI q = hn::GatherIndex(di, g.tables.pairs_z0.data(), hn::Add(hx[xb], iy[0]));
          hm[0] = low16(q);
          hm[1] = high16(q);
        } else {
          hm[0] = hn::GatherIndex(di, g.tables.perm_z0.data(), hn::Add(hx[xb], iy[0]));
          hm[1] = hn::GatherIndex(di, g.tables.perm_z0.data(), hn::Add(hx[xb], iy[1]));
        }
      } else {
        if (pairs) {
          const VI q = hn::GatherIndex(di, g.tables.pairs.data(), hn::Add(hx[xb], iy[0]));
          const VI qy[2] = {low16(q), high16(q)};
          for (int yb = 0; yb < 2; ++yb) {
            const VI qz = hn::GatherIndex(di, g.tables.pairs.data(), hn::Add(qy[yb], iz[0]));
            hm[yb] = low16(qz);
            hm[yb + 2] = high16(qz);
          }
        } else {
          for (int m = 0; m < combos; ++m) {
            const VI h = hn::GatherIndex(di, p, hn::Add(hx[xb], iy[m & 1]));
            hm[m] = hn::GatherIndex(di, p, hn::Add(h, iz[(m >> 1) & 1]));
          }
        }
      }
      for (int m = 0; m < combos; ++m) {
        if constexpr (Improved) {
          VF comp[3];
          gradient_components<D>(hm[m], comp);  // components past D are never read
          for (int k = 0; k < D; ++k) hn::StoreU(comp[k], df, cc.at(xb, m, k) + c);
        } else {
          const VF v = mul_add<Strict>(hn::ConvertTo(df, hm[m]), hn::Set(df, 1.0f / 127.5f),
                                       hn::Set(df, -1.0f));
          hn::StoreU(v, df, cc.at(xb, m, 0) + c);
        }
      }
    }
  }
}

/// The four coefficients of every cell the row touches, N cells at a time (D <= 3), from the
/// corners of its lattice cell: A = sum_m w_m (gy_m ry_m + gz_m rz_m) over the axes present
/// (the dot product of grad_dot without its x term), B = sum_m w_m gx_m; value noise
/// A = sum_m w_m v_m, B = 0.
template <int D, bool Improved, bool Strict>
void cell_coefficients_v(const grid_plan& g, const octave_plan& o, const row_axis* ax,
                         cell_corners& cc, float* a0, float* b0, float* a1, float* b1) {
  if (ax[1].i0 != cc.key[0] || ax[1].i1 != cc.key[1] || ax[2].i0 != cc.key[2] ||
      ax[2].i1 != cc.key[3]) {
    hash_cell_corners<D, Improved, Strict>(g, o, ax, cc);  // a new lattice cell along y or z
  }
  const DF df;
  const std::size_t N = hn::Lanes(df);
  constexpr int combos = 1 << (D - 1);
  VF weight[combos];
  VF ry[combos], rz[combos];
  for (int m = 0; m < combos; ++m) {
    double w = 1;
    double fy = 0, fz = 0;
    for (int k = 1; k < D; ++k) {
      const int bit = (m >> (k - 1)) & 1;
      w *= bit ? ax[k].t : 1.0 - ax[k].t;
      (k == 1 ? fy : fz) = bit ? ax[k].f - 1.0 : ax[k].f;
    }
    weight[m] = hn::Set(df, static_cast<float>(w));
    ry[m] = hn::Set(df, static_cast<float>(fy));
    rz[m] = hn::Set(df, static_cast<float>(fz));
  }
  const VF zero = hn::Zero(df);
  float* A[2] = {a0, a1};
  float* B[2] = {b0, b1};
  for (std::size_t c = 0; c < o.cells; c += N) {
    for (int xb = 0; xb < 2; ++xb) {
      VF acc_a = zero, acc_b = zero;
      for (int m = 0; m < combos; ++m) {
        if constexpr (Improved) {
          if constexpr (D >= 2) {
            VF dot = hn::Mul(hn::LoadU(df, cc.at(xb, m, 1) + c), ry[m]);
            if constexpr (D >= 3) dot = hn::MulAdd(hn::LoadU(df, cc.at(xb, m, 2) + c), rz[m], dot);
            acc_a = mul_add<Strict>(weight[m], dot, acc_a);
          }
          acc_b = mul_add<Strict>(weight[m], hn::LoadU(df, cc.at(xb, m, 0) + c), acc_b);
        } else {
          acc_a = mul_add<Strict>(weight[m], hn::LoadU(df, cc.at(xb, m, 0) + c), acc_a);
        }
      }
      hn::StoreU(acc_a, df, A[xb] + c);
      hn::StoreU(acc_b, df, B[xb] + c);
    }
  }
}

/// Stores the vector of columns [i, i + N) of a row of `nx`; the last, partial one goes through
/// `tail`, so that nothing is written past the row.
HWY_INLINE void store_row(VF v, float* HWY_RESTRICT out, std::size_t i, std::size_t nx,
                          float* HWY_RESTRICT tail) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  if (i + N <= nx) {
    hn::StoreU(v, df, out + i);
  } else {
    hn::Store(v, df, tail);
    std::copy(tail, tail + (nx - i), out + i);
  }
}

/// One octave of one row by the cell method, into out[0 .. nx + padding).
template <bool Strict>
void row_by_cells(const octave_plan& o, const float* a0, const float* b0, const float* a1,
                  const float* b1, std::size_t nx, float* HWY_RESTRICT out) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const VF one = hn::Set(df, 1.0f);
  HWY_ALIGN float tail[64];
  for (std::size_t i = 0; i < nx; i += N) {
    const std::int32_t first = o.cell[i], last = o.cell[i + N - 1];
    VF A0, B0, A1, B1;
    if (first == last) {
      A0 = hn::Set(df, a0[first]);
      B0 = hn::Set(df, b0[first]);
      A1 = hn::Set(df, a1[first]);
      B1 = hn::Set(df, b1[first]);
    } else if (static_cast<std::size_t>(last - first) < N) {
      // The cells of these samples are among the N from `first`: one permutation each (a
      // gather costs about one load per lane). The coefficient arrays are padded by k_pad.
      const auto idx =
          hn::IndicesFromVec(df, hn::Sub(hn::LoadU(di, o.cell.data() + i), hn::Set(di, first)));
      A0 = hn::TableLookupLanes(hn::LoadU(df, a0 + first), idx);
      B0 = hn::TableLookupLanes(hn::LoadU(df, b0 + first), idx);
      A1 = hn::TableLookupLanes(hn::LoadU(df, a1 + first), idx);
      B1 = hn::TableLookupLanes(hn::LoadU(df, b1 + first), idx);
    } else {
      const VI ci = hn::LoadU(di, o.cell.data() + i);
      A0 = hn::GatherIndex(df, a0, ci);
      B0 = hn::GatherIndex(df, b0, ci);
      A1 = hn::GatherIndex(df, a1, ci);
      B1 = hn::GatherIndex(df, b1, ci);
    }
    const VF fx = hn::LoadU(df, o.fx.data() + i);
    const VF t = hn::LoadU(df, o.t.data() + i);
    const VF lo = mul_add<Strict>(B0, fx, A0);
    const VF hi = mul_add<Strict>(B1, hn::Sub(fx, one), A1);
    store_row(lerp_v<Strict>(t, lo, hi), out, i, nx, tail);
  }
}

/// One octave of one row by per-sample gathers (D <= 3).
template <int D, bool Improved, bool Strict>
void row_by_gathers(const grid_plan& g, const octave_plan& o, const row_axis* ax, std::size_t nx,
                    float* HWY_RESTRICT out) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  lanes_axis y{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  lanes_axis z = y;
  if constexpr (D >= 2) {
    y = {hn::Set(di, static_cast<std::int32_t>(ax[1].i0)),
         hn::Set(di, static_cast<std::int32_t>(ax[1].i1)), hn::Set(df, static_cast<float>(ax[1].f)),
         hn::Set(df, static_cast<float>(ax[1].t))};
  }
  if constexpr (D >= 3) {
    z = {hn::Set(di, static_cast<std::int32_t>(ax[2].i0)),
         hn::Set(di, static_cast<std::int32_t>(ax[2].i1)), hn::Set(df, static_cast<float>(ax[2].f)),
         hn::Set(df, static_cast<float>(ax[2].t))};
  }
  bool pairs = true;
  for (int k = 1; k < D; ++k) pairs &= ax[k].i1 == ((ax[k].i0 + 1) & 255u);
  const hash_tables& tb = g.tables;
  HWY_ALIGN float tail[64];
  std::size_t i = 0;
  if (pairs) {
    // Two vectors per iteration: their gathers overlap each other's latency.
    for (; i + 2 * N <= nx; i += 2 * N) {
      VF v[2];
      for (std::size_t u = 0; u < 2; ++u) {
        const std::size_t c = i + u * N;
        v[u] = corners_v<D, Improved, Strict, true>(
            tb, hn::LoadU(di, o.px0.data() + c), hn::LoadU(di, o.px1.data() + c),
            hn::LoadU(df, o.fx.data() + c), hn::LoadU(df, o.t.data() + c), y, z);
      }
      hn::StoreU(v[0], df, out + i);
      hn::StoreU(v[1], df, out + i + N);
    }
  }
  for (; i < nx; i += N) {
    const VI a0 = hn::LoadU(di, o.px0.data() + i);
    const VI a1 = hn::LoadU(di, o.px1.data() + i);
    const VF fx = hn::LoadU(df, o.fx.data() + i);
    const VF tx = hn::LoadU(df, o.t.data() + i);
    const VF v = pairs ? corners_v<D, Improved, Strict, true>(tb, a0, a1, fx, tx, y, z)
                       : corners_v<D, Improved, Strict, false>(tb, a0, a1, fx, tx, y, z);
    store_row(v, out, i, nx, tail);
  }
}

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

/// Adds one octave's row `n` into the running `total` (and ridged `weight`).
template <fractal_kind Kind, bool Strict>
void combine_row(float amp, const float* HWY_RESTRICT n, float* HWY_RESTRICT total,
                 float* HWY_RESTRICT weight, std::size_t count, const ridged_params& rp) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  const VF a = hn::Set(df, amp);
  for (std::size_t i = 0; i < count; i += N) {
    VF t = hn::LoadU(df, total + i);
    VF w = hn::LoadU(df, weight + i);
    combine_step<Kind, Strict>(hn::LoadU(df, n + i), a, t, w, rp);
    hn::StoreU(t, df, total + i);
    if constexpr (Kind == fractal_kind::ridged) hn::StoreU(w, df, weight + i);
  }
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

  HWY_INLINE void fold(const float* v, std::size_t n) {
    const DF df;
    const std::size_t N = hn::Lanes(df);
    const VF pinf = hn::Set(df, inf), minf = hn::Set(df, -inf);
    std::size_t i = 0;
    const auto one = [&](std::size_t u, VF x) {
      const auto ok = hn::Eq(x, x);  // NaN lanes take no part
      mn[u] = hn::Min(mn[u], hn::IfThenElse(ok, x, pinf));
      mx[u] = hn::Max(mx[u], hn::IfThenElse(ok, x, minf));
    };
    for (; i + 4 * N <= n; i += 4 * N) {
      for (std::size_t u = 0; u < 4; ++u) one(u, hn::LoadU(df, v + i + u * N));
    }
    for (; i + N <= n; i += N) one(0, hn::LoadU(df, v + i));
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

template <int D, bool Strict>
void fill_rows_t(const grid_plan& g, std::size_t row_begin, std::size_t row_end, float* out,
                 float* lo, float* hi) {
  const std::size_t nx = g.count[0];
  const std::size_t padded = nx + k_pad;
  std::size_t max_cells = 0;
  for (const auto& o : g.octaves) max_cells = std::max(max_cells, o.cells);
  std::vector<float> coeff(4 * (max_cells + k_pad));
  float* a0 = coeff.data();
  float* b0 = a0 + max_cells + k_pad;
  float* a1 = b0 + max_cells + k_pad;
  float* b1 = a1 + max_cells + k_pad;
  // A single plain octave is written straight into the output; fractals sum in row buffers.
  const bool single = (g.kind == fractal_kind::none || g.kind == fractal_kind::fbm) &&
                      g.octaves.size() == 1 && g.amp[0] == 1.0f && !g.normalize;
  std::vector<float> noise, total, weight;
  if (!single) {
    noise.resize(padded);
    total.resize(padded);
    weight.resize(padded);
  }
  std::vector<cell_corners> corners(D <= 3 ? g.octaves.size() : 0);
  running_range range;
  // Axes beyond dims stay at index 0 (the slice); row_setup overwrites the others per row.
  row_axis ax[4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  // The row's indices along y, z, w: divided once, then counted.
  std::size_t idx[4] = {0, 0, 0, 0};
  {
    std::size_t rem = row_begin;
    for (int a = 1; a < g.dims; ++a) {
      idx[a] = rem % g.count[a];
      rem /= g.count[a];
    }
  }
  for (std::size_t row = row_begin; row < row_end; ++row) {
    float* out_row = out + (row - row_begin) * g.row_stride;
    if (row != row_begin) {
      for (int a = 1; a < g.dims; ++a) {
        if (++idx[a] < g.count[a]) break;
        idx[a] = 0;
      }
    }
    if (!single) {
      std::fill(total.begin(), total.end(), 0.0f);
      if (g.kind == fractal_kind::ridged) std::fill(weight.begin(), weight.end(), 1.0f);
    }
    for (std::size_t oi = 0; oi < g.octaves.size(); ++oi) {
      const octave_plan& o = g.octaves[oi];
      row_setup(g, o, idx, ax);
      float* dst = single ? out_row : noise.data();
      const std::size_t n = single ? nx : padded - k_pad;
      bool done = false;
      if constexpr (D <= 3) {
        if (o.gather) {
          if (g.improved) {
            row_by_gathers<D, true, Strict>(g, o, ax, n, dst);
          } else {
            row_by_gathers<D, false, Strict>(g, o, ax, n, dst);
          }
          done = true;
        }
      }
      if (!done) {
        if constexpr (D <= 3) {
          if (g.improved) {
            cell_coefficients_v<D, true, Strict>(g, o, ax, corners[oi], a0, b0, a1, b1);
          } else {
            cell_coefficients_v<D, false, Strict>(g, o, ax, corners[oi], a0, b0, a1, b1);
          }
        } else {
          cell_coefficients<D>(g, o, ax, a0, b0, a1, b1);
        }
        row_by_cells<Strict>(o, a0, b0, a1, b1, n, dst);
      }
      if (!single) {
        with_kind(g.kind, [&]<fractal_kind Kind>() {
          combine_row<Kind, Strict>(g.amp[oi], noise.data(), total.data(), weight.data(), nx,
                                    g.ridged);
        });
      }
    }
    if (!single) {
      if (g.normalize) {
        for (std::size_t i = 0; i < nx; ++i) total[i] *= g.normalize_by;
      }
      std::copy(total.begin(), total.begin() + static_cast<std::ptrdiff_t>(nx), out_row);
    }
    range.fold(out_row, nx);
  }
  range.fold_into(lo, hi);
}

void fill_rows(const grid_plan& g, std::size_t row_begin, std::size_t row_end, float* out,
               float* lo, float* hi) {
  switch (g.dims * 2 + (g.strict ? 1 : 0)) {
    case 2:
      return fill_rows_t<1, false>(g, row_begin, row_end, out, lo, hi);
    case 3:
      return fill_rows_t<1, true>(g, row_begin, row_end, out, lo, hi);
    case 4:
      return fill_rows_t<2, false>(g, row_begin, row_end, out, lo, hi);
    case 5:
      return fill_rows_t<2, true>(g, row_begin, row_end, out, lo, hi);
    case 6:
      return fill_rows_t<3, false>(g, row_begin, row_end, out, lo, hi);
    case 7:
      return fill_rows_t<3, true>(g, row_begin, row_end, out, lo, hi);
    case 8:
      return fill_rows_t<4, false>(g, row_begin, row_end, out, lo, hi);
    default:
      return fill_rows_t<4, true>(g, row_begin, row_end, out, lo, hi);
  }
}

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
  const byte_hash p(pp.tables.bytes.data());
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

template <int D, bool Improved, bool Strict>
void points_t(const points_plan& pp, std::size_t begin, std::size_t end, float* out) {
  const DF df;
  const DI di;
  const std::size_t N = hn::Lanes(df);
  const std::int32_t* p = pp.tables.perm.data();
  const std::size_t octaves = pp.amp.size();
  const bool plain = octaves == 1 && pp.freq[0] == 1.0 && pp.offset[0] == std::array<double, 4>{};
  // Every interpolation but cosine has a vector blend weight.
  const bool vector_weight = Improved || pp.interp != interpolation::cosine;
  // Lattice data straight from the float coordinates (one octave at frequency 1, no offset)
  // instead of the prepass in double.
  const bool from_coords = plain && vector_weight;
  if (!from_coords && vector_weight) {
    // Octaves off frequency 1 (fractals, offsets): the double-coordinate kernel, which splits
    // each octave's x * freq + offset in double vectors, on the coordinates widened exactly.
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
    return;
  }
  const hash_tables& tb = pp.tables;
  // Pair gathers need every axis's upper index to be the lower one plus 1 (mod 256): mask 255.
  std::vector<bool> pairs(octaves);
  for (std::size_t oi = 0; oi < octaves; ++oi) {
    pairs[oi] = true;
    for (int a = 0; a < D; ++a) pairs[oi] = pairs[oi] && pp.mask[oi][a] == 255u;
  }
  // One octave of plain noise: the value is the noise itself.
  const bool raw = octaves == 1 && pp.amp[0] == 1.0f &&
                   (pp.kind == fractal_kind::none || pp.kind == fractal_kind::fbm);
  // Cosine value noise off frequency 1 takes a prepass in double per lane.
  HWY_ALIGN float buf[4][3][64];  // prepass: per axis f, t and the index bits (as int)
  HWY_ALIGN std::int32_t ibuf[4][2][64];
  HWY_ALIGN float tmp[64];
  HWY_ALIGN float tail[4][64];  // the last, partial vector, padded with its last point
  std::size_t i = begin;
  if (raw && from_coords && !pp.normalize && pairs[0]) {
    // The hot case (one plain octave): several vectors per iteration, so that their gathers
    // overlap each other's latency (the hash is three dependent gathers deep).
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
          ax[u][a] = axis_from_coords<Strict>(hn::LoadU(df, pp.coord[a] + i + u * N), 255u,
                                              Improved, pp.interp);
        }
      }
      for (std::size_t u = 0; u < U; ++u) {
        const VI q = hn::GatherIndex(di, tb.pairs.data(), ax[u][0].i0);
        n[u] = corners_v<D, Improved, Strict, true>(tb, low16(q), high16(q), ax[u][0].f, ax[u][0].t,
                                                    D >= 2 ? ax[u][1] : none,
                                                    D >= 3 ? ax[u][2] : none);
      }
      for (std::size_t u = 0; u < U; ++u) hn::StoreU(n[u], df, out + (i + u * N - begin));
    }
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
        if (from_coords) {
          ax[a] = axis_from_coords<Strict>(hn::LoadU(df, coord[a]), pp.mask[oi][a], Improved,
                                           pp.interp);
        } else {
          // Prepass in double: the octave coordinate x * freq + offset, split exactly.
          for (std::size_t l = 0; l < N; ++l) {
            const double q = static_cast<double>(coord[a][l]) * pp.freq[oi] + pp.offset[oi][a];
            const double fl = std::floor(q);
            axis_wrap w;
            w.mask = pp.mask[oi][a];
            const axis_index li = lattice_index(fl, w);
            ibuf[a][0][l] = static_cast<std::int32_t>(li.i0);
            ibuf[a][1][l] = static_cast<std::int32_t>(li.i1);
            buf[a][0][l] = static_cast<float>(q - fl);
            buf[a][1][l] = static_cast<float>(blend_weight(Improved, pp.interp, q - fl));
          }
          ax[a] = {hn::Load(di, ibuf[a][0]), hn::Load(di, ibuf[a][1]), hn::Load(df, buf[a][0]),
                   hn::Load(df, buf[a][1])};
        }
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

  // Written out: an implicit constructor would lack the target's attributes.
  HWY_INLINE deriv_sum()
      : total(hn::Zero(DF())),
        weight(hn::Set(DF(), 1.0f)),
        g{hn::Zero(DF()), hn::Zero(DF()), hn::Zero(DF())},
        dweight{hn::Zero(DF()), hn::Zero(DF()), hn::Zero(DF())} {}

  /// Adds octave oi's noise n and its partials dn (with respect to the lattice coordinates).
  HWY_INLINE void add(const points_plan& pp, std::size_t oi, VF n, VF* dn) {
    const DF df;
    const VF amp = hn::Set(df, pp.amp[oi]);
    if constexpr (Grad) {
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
      for (int k = 0; k < D; ++k) {
        hn::Store(g[k], df, tmp);
        std::copy(tmp, tmp + lanes, grad[k] + i);
      }
    }
  }
};

#if HWY_TARGET == HWY_AVX3_DL
/// points_d_t's samples 64 at a time where no octave has a period below 256 (every mask 255),
/// hashed a byte per lane (byte_hash; the layout of points_by_bytes). Returns where it stopped.
template <int D, bool Improved, bool Strict, bool Grad>
std::size_t points_d_by_bytes(const points_plan& pp, const double* const* coord, std::size_t count,
                              float* out, float* const* grad) {
  const DF df;
  const DI di;
  constexpr std::size_t N = 16;
  static_assert(hn::MaxLanes(DF()) == N);
  for (const auto& m : pp.mask) {
    for (int a = 0; a < D; ++a) {
      if (m[a] != 255u) return 0;
    }
  }
  const byte_hash p(pp.tables.bytes.data());
  const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
  std::size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) {
    deriv_sum<D, Strict, Grad> sum[4];
    for (std::size_t oi = 0; oi < pp.amp.size(); ++oi) {
      lanes_axis ax[4][3];
      VF dt[4][3];
      __m512i idx[3];
      for (int a = 0; a < D; ++a) {
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
  const std::int32_t* p = pp.tables.perm.data();
  const std::size_t octaves = pp.amp.size();
  HWY_ALIGN double tail[3][64];  // the last, partial vector, padded with its last sample
  bool pairs[k_max_octaves];
  for (std::size_t oi = 0; oi < octaves && oi < k_max_octaves; ++oi) {
    pairs[oi] = true;
    for (int a = 0; a < D; ++a) pairs[oi] = pairs[oi] && pp.mask[oi][a] == 255u;
  }
  std::size_t start = 0;
#if HWY_TARGET == HWY_AVX3_DL
  start = points_d_by_bytes<D, Improved, Strict, Grad>(pp, coord, count, out, grad);
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
        ax[a] = axis_from_doubles<Strict>(x[a], pp.freq[oi], pp.offset[oi][a], pp.mask[oi][a],
                                          Improved, pp.interp, dt[a]);
      }
      const lanes_axis none{hn::Zero(di), hn::Zero(di), hn::Zero(df), hn::Zero(df)};
      VI h[8];
      if (pairs[oi]) {
        // No period below 256 on any axis: one gather of the pair table per two corners.
        const VI q = hn::GatherIndex(di, pp.tables.pairs.data(), ax[0].i0);
        hash_corners_v<D, true>(pp.tables, low16(q), high16(q), D >= 2 ? ax[1] : none,
                                D >= 3 ? ax[2] : none, h);
      } else {
        hash_corners_v<D, false>(pp.tables, hn::GatherIndex(di, p, ax[0].i0),
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
  if (grad != nullptr) {
    run.template operator()<true>();
  } else {
    run.template operator()<false>();
  }
}

void min_max(const float* v, std::size_t n, float* lo, float* hi) {
  running_range r;
  r.fold(v, n);
  *lo = std::numeric_limits<float>::infinity();
  *hi = -*lo;
  r.fold_into(lo, hi);
}

// ---------------------------------------------------------------------------------------------
// Exact double grids (fill_rows_exact_fn in grid_plan.hpp): each lane performs the scalar path's
// operations in its order, separate multiplies and adds (this file is compiled without
// contraction), on the doubles the plan took from the scalar code.

/// The corners of the row's cells for an exact double grid: per corner k (bit 0 = x, bit 1 = y,
/// bit 2 = z) and cell c, at [k * stride + c], the gradient's x component and the exact products
/// gy * py and gz * pz. Hashed N cells at a time by gathers (the components by lane lookups,
/// exact, then widened to double); one cell at a time where a vector holds a single lane.
template <int D>
HWY_INLINE void exact_cell_corners(const exact_grid_plan& g, const exact_grid_plan::octave& o,
                                   const octave_plan::axis_sample& ay,
                                   const octave_plan::axis_sample& az, std::size_t stride,
                                   double* cgx, double* cgy, double* cgz) {
  const double py[2] = {ay.f, ay.f - 1.0}, pz[2] = {az.f, az.f - 1.0};
#if HWY_TARGET == HWY_SCALAR
  constexpr int corners = 1 << D;
  const std::int32_t* p = g.tables.perm.data();
  for (std::size_t c = 0; c < o.cells; ++c) {
    for (int k = 0; k < corners; ++k) {
      const int xb = k & 1, yb = (k >> 1) & 1, zb = (k >> 2) & 1;
      const std::int32_t h1 =
          p[(xb ? o.b[c] : o.a[c]) + static_cast<std::int32_t>(yb ? ay.i1 : ay.i0)];
      const std::int32_t h = D == 2 ? p[h1] : p[h1 + static_cast<std::int32_t>(zb ? az.i1 : az.i0)];
      const auto& r = k_grad3_rows<double>[h & 15];
      cgx[k * stride + c] = r[0];
      cgy[k * stride + c] = r[1] * py[yb];
      cgz[k * stride + c] = r[2] * pz[zb];
    }
  }
#else
  const DF df;
  const DI di;
  using DD = hn::ScalableTag<double>;
  const DD dd;
  const hn::Half<DF> dh;
  const std::size_t N = hn::Lanes(df), Nd = hn::Lanes(dd);
  const std::int32_t* perm = g.tables.perm.data();
  const std::int32_t* perm_z0 = g.tables.perm_z0.data();
  const VI iy[2] = {hn::Set(di, static_cast<std::int32_t>(ay.i0)),
                    hn::Set(di, static_cast<std::int32_t>(ay.i1))};
  const VI iz[2] = {hn::Set(di, static_cast<std::int32_t>(az.i0)),
                    hn::Set(di, static_cast<std::int32_t>(az.i1))};
  // Widens the N floats v to doubles, times `scale` (an exact product: v is -1, 0 or 1).
  const auto store = [&](VF v, double scale, double* dst) {
    const auto s = hn::Set(dd, scale);
    hn::StoreU(hn::Mul(hn::PromoteTo(dd, hn::LowerHalf(dh, v)), s), dd, dst);
    hn::StoreU(hn::Mul(hn::PromoteTo(dd, hn::UpperHalf(dh, v)), s), dd, dst + Nd);
  };
  for (std::size_t c = 0; c < o.cells; c += N) {
    const VI hx[2] = {hn::LoadU(di, o.a.data() + c), hn::LoadU(di, o.b.data() + c)};
    for (int xy = 0; xy < 4; ++xy) {  // the corner columns: x | y << 1
      const int xb = xy & 1, yb = xy >> 1;
      // 2-D: p[p[hx + iy]] in one lookup; 3-D: p[hx + iy] once for both z corners.
      const VI h1 = hn::GatherIndex(di, D == 2 ? perm_z0 : perm, hn::Add(hx[xb], iy[yb]));
      for (int zb = 0; zb < D - 1; ++zb) {
        const int kz = xy | zb << 2;
        const VI h = D == 2 ? h1 : hn::GatherIndex(di, perm, hn::Add(h1, iz[zb]));
        VF comp[3];
        gradient_components<D>(h, comp);
        store(comp[0], 1.0, cgx + kz * stride + c);
        store(comp[1], py[yb], cgy + kz * stride + c);
        if constexpr (D == 3) store(comp[2], pz[zb], cgz + kz * stride + c);
      }
    }
  }
#endif
}

template <int D>
void exact_rows_t(const exact_grid_plan& g, std::size_t row_begin, std::size_t row_end, double* out,
                  double* lo, double* hi) {
  using DD = hn::ScalableTag<double>;
  using VD = hn::Vec<DD>;
  const DD dd;
  const hn::RebindToSigned<DD> di64;
  const hn::Rebind<std::int32_t, DD> di32;
  const std::size_t N = hn::Lanes(dd);
  constexpr int corners = 1 << D;
  const std::size_t nx = g.nx;
  std::size_t stride = 0;  // cells, rounded up to whole vectors and more
  for (const auto& o : g.octaves) stride = std::max(stride, o.cells + k_pad);
  std::vector<double> cgx(corners * stride), cgy(corners * stride), cgz(corners * stride);
  std::vector<double> acc(nx + k_pad);  // the octaves' running total
  std::size_t idx[3] = {0, 0, 0};
  {
    std::size_t rem = row_begin;
    for (int a = 1; a < D; ++a) {
      idx[a] = rem % g.count[a];
      rem /= g.count[a];
    }
  }
  const VD one = hn::Set(dd, 1.0);
  const VD sum = hn::Set(dd, g.amplitude_sum);
  constexpr double inf = std::numeric_limits<double>::infinity();
  VD mn = hn::Set(dd, inf), mx = hn::Set(dd, -inf);
  HWY_ALIGN double tail[64];
  for (std::size_t row = row_begin; row < row_end; ++row) {
    if (row != row_begin) {
      for (int a = 1; a < D; ++a) {
        if (++idx[a] < g.count[a]) break;
        idx[a] = 0;
      }
    }
    double* out_row = out + (row - row_begin) * g.row_stride;
    for (std::size_t oi = 0; oi < g.octaves.size(); ++oi) {
      const exact_grid_plan::octave& o = g.octaves[oi];
      const bool last = oi + 1 == g.octaves.size();
      const auto& ay = o.axis[1][idx[1]];
      const octave_plan::axis_sample az =
          D == 3 ? o.axis[2][idx[2]] : octave_plan::axis_sample{0, 0, 0, 0};
      exact_cell_corners<D>(g, o, ay, az, stride, cgx.data(), cgy.data(), cgz.data());
      const VD v = hn::Set(dd, ay.t);
      const VD amp = hn::Set(dd, o.amp);
      for (std::size_t i = 0; i < nx; i += N) {
        const VD fx = hn::LoadU(dd, o.fx.data() + i);
        const VD u = hn::LoadU(dd, o.u.data() + i);
        const VD px[2] = {fx, hn::Sub(fx, one)};
        // The samples' cells: all one (a broadcast), or their indices for gathers.
        const std::int32_t c0 = o.cell[i];
        const bool one_cell = c0 == o.cell[i + N - 1];
        const auto ci =
            one_cell ? hn::Zero(di64) : hn::PromoteTo(di64, hn::LoadU(di32, o.cell.data() + i));
        const auto at = [&](const double* per_cell) {
          return one_cell ? hn::Set(dd, per_cell[c0]) : hn::GatherIndex(dd, per_cell, ci);
        };
        // The dot product of corner k: (gx px + gy py) + gz pz, as improved_lanes computes it.
        const auto dot = [&](int k) {
          VD d =
              hn::Add(hn::Mul(at(cgx.data() + k * stride), px[k & 1]), at(cgy.data() + k * stride));
          if constexpr (D == 3) d = hn::Add(d, at(cgz.data() + k * stride));
          return d;
        };
        const auto lerp = [](VD t, VD a, VD b) { return hn::Add(a, hn::Mul(t, hn::Sub(b, a))); };
        VD x[4];  // along x, for corner pair m = y | z << 1
        for (int m = 0; m < corners / 2; ++m) x[m] = lerp(u, dot(2 * m), dot(2 * m + 1));
        VD n = lerp(v, x[0], x[1]);
        if constexpr (D == 3) n = lerp(hn::Set(dd, az.t), n, lerp(v, x[2], x[3]));
        // fractal.cpp: total = 0, then total += n * amp per octave, then / the amplitude sum.
        VD total = hn::Add(oi == 0 ? hn::Zero(dd) : hn::LoadU(dd, acc.data() + i), hn::Mul(n, amp));
        if (!last) {
          hn::StoreU(total, dd, acc.data() + i);  // acc is padded: whole vectors fit
          continue;
        }
        if (g.normalize) total = hn::Div(total, sum);
        mn = hn::Min(mn, total);
        mx = hn::Max(mx, total);
        if (i + N <= nx) {
          hn::StoreU(total, dd, out_row + i);
        } else {
          hn::Store(total, dd, tail);
          std::copy(tail, tail + (nx - i), out_row + i);
        }
      }
    }
  }
  HWY_ALIGN double a[64], b[64];
  hn::Store(mn, dd, a);
  hn::Store(mx, dd, b);
  for (std::size_t k = 0; k < N; ++k) {
    *lo = a[k] < *lo ? a[k] : *lo;
    *hi = b[k] > *hi ? b[k] : *hi;
  }
}

void fill_rows_exact(const exact_grid_plan& g, std::size_t row_begin, std::size_t row_end,
                     double* out, double* lo, double* hi) {
  if (g.dims == 2) return exact_rows_t<2>(g, row_begin, row_end, out, lo, hi);
  return exact_rows_t<3>(g, row_begin, row_end, out, lo, hi);
}

static_assert(k_pad * sizeof(float) >= HWY_MAX_BYTES, "k_pad must cover the widest vector");

const kernels k_kernels = {&fill_rows, &eval_points, &eval_points_d, &min_max, &fill_rows_exact};
[[maybe_unused]] const int k_registered = register_kernels(HWY_TARGET, &k_kernels);

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <atomic>

namespace perlin::detail {

namespace {
// Constant-initialised, so that they exist before any registrar runs; no allocation, no lock.
constexpr std::size_t k_max_targets = 64;
registration g_registrations[k_max_targets];
std::atomic<std::size_t> g_registered{0};
}  // namespace

int register_kernels(std::int64_t target, const kernels* k) noexcept {
  const std::size_t i = g_registered.fetch_add(1);
  if (i < k_max_targets) g_registrations[i] = {target, k};
  return 0;
}

std::vector<registration> registered_kernels() {
  const std::size_t n = std::min(g_registered.load(), k_max_targets);
  return {g_registrations, g_registrations + n};
}

}  // namespace perlin::detail
#endif  // HWY_ONCE
