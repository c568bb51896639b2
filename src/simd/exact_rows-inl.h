// Exact double grids (fill_rows_exact_fn in detail/grid_plan.hpp): bit for bit the scalar
// path, lane by lane.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/exact_rows.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_EXACT_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_EXACT_ROWS_INL_H_
#undef PERLIN_SIMD_EXACT_ROWS_INL_H_
#else
#define PERLIN_SIMD_EXACT_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "detail/grid_plan.hpp"
#include "detail/reference.hpp"
#include "simd/noise-inl.h"

// Double vectors: targets without them (WASM in Highway 1.0) take these kernels from the next
// target down (targets.cpp completes their table).
#if HWY_HAVE_FLOAT64
HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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
  const std::int32_t* p = g.tables->perm.data();
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
  const std::int32_t* perm = g.tables->perm.data();
  const std::int32_t* perm_z0 = g.tables->perm_z0.data();
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

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();
#endif  // HWY_HAVE_FLOAT64

#endif  // PERLIN_SIMD_EXACT_ROWS_INL_H_
