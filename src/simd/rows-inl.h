// Rows of a float grid (fill_rows_fn in detail/grid_plan.hpp). Two ways to fill a row (the x
// axis):
//  - cells: hash each lattice cell the row touches once, reduce it to four coefficients so that
//    the noise inside the cell is lerp(t(x), a0 + b0 x, a1 + b1 (x - 1)), then evaluate that per
//    sample with a few multiply-adds. Best when a cell spans several samples.
//  - gather: hash every sample with vector gathers from the permutation table. Best when cells
//    are narrower than a few samples (the high octaves of a fractal).
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/kernels.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_ROWS_INL_H_
#undef PERLIN_SIMD_ROWS_INL_H_
#else
#define PERLIN_SIMD_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#endif  // PERLIN_SIMD_ROWS_INL_H_
