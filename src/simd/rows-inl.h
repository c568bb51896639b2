// Rows of a float grid (fill_rows_fn in detail/grid_plan.hpp). Two ways to fill a row (the x
// axis):
//  - cells: hash each lattice cell the row touches once, reduce it to four coefficients so that
//    the noise inside the cell is lerp(t(x), a0 + b0 x, a1 + b1 (x - 1)), then evaluate that per
//    sample with a few multiply-adds. Best when a cell spans several samples.
//  - gather: hash every sample with vector gathers from the permutation table. Best when cells
//    are narrower than a few samples (the high octaves of a fractal).
// This file drives the rows (fill_rows: the octaves of each row, their fractal sum and the range);
// the lattice side of the cell method is simd/row_lattice-inl.h, the writers of one octave's row
// (cells or per sample) simd/row_writers-inl.h.
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included by
// src/simd/rows.cc once per target, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_ROWS_INL_H_
#undef PERLIN_SIMD_ROWS_INL_H_
#else
#define PERLIN_SIMD_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"
#include "simd/row_lattice-inl.h"
#include "simd/row_writers-inl.h"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Cells narrower than this many samples are hashed per sample (row_by_gathers), not per cell
/// (kernels::gather_below_width), by dimension: the same on every target and vendor now.
/// Measured on AMD Zen 5 with fn2bench's coarse-step workloads (ns a sample, cells against per
/// sample). AVX3_DL hashes samples by byte permutes (row_by_bytes): 2-D step 1/2 0.51 against
/// 0.41, step 1/4 0.40 against 0.41; 3-D step 1/2 0.62 against 0.75, step 1/4 0.50 against 0.75.
/// With gathers (capped at AVX2, an earlier session): 3-D step 1/2 0.85 against 2.87, step 1
/// 1.41 against 2.83; 2-D step 1/2 0.80 against 1.10, step 3/4 even, step 1 1.23 against 1.03.
/// 1-D keeps its earlier threshold (not measured again). AVX3_DL on AMD's cores hashed 2-D
/// samples by bytes up to cells of 3 samples (3.0) until the narrow cells' coefficients were
/// computed where they are used (row_by_fused_cells): then cells took grid2d_s2 from 0.322 to
/// 0.281 ns a sample on Zen 5 (release build, interleaved A/B, 7 rounds), fbm2d 1.98 to 1.94.
/// Intel's cores, whose 512-bit byte permutes run on one port, already took 1.2 (Emerald
/// Rapids: grid2d_s2 0.65 by bytes against 0.48 by cells).
inline std::array<double, 4> gather_below_width(cpu_vendor) {
  return k_portable_gather_below_width;
}

/// Adds one octave's row `n` (amplitude `amp`) to the running sum of a fractal row of `count`
/// samples (combine_step), read from `total` and written to `to` (ridged also updates `weight`).
/// The first octave passes no `total`: its sum starts at 0 and ridged's weights at 1 without a
/// pass that clears them. The last (`last`) passes the output row as `to`, scaled by `*scale`
/// (normalize) when `scale` is not null: no copy after it, and nothing written past the row.
/// The same operations as a cleared sum, a scaling pass and a copy, so the same bits.
template <fractal_kind Kind, bool Strict>
void combine_row(float amp, const float* HWY_RESTRICT n, const float* total, float* to, bool last,
                 float* HWY_RESTRICT weight, std::size_t count, const ridged_params& rp,
                 const float* scale) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  const VF a = hn::Set(df, amp);
  // The first octave's loop and the others' apart, so that no vector branches on which it is.
  const auto rows = [&]<bool First>() {
    const auto sum = [&](std::size_t i) {
      VF t = First ? hn::Zero(df) : hn::LoadU(df, total + i);
      VF w = hn::Zero(df);
      if constexpr (Kind == fractal_kind::ridged) {
        w = First ? hn::Set(df, 1.0f) : hn::LoadU(df, weight + i);
      }
      combine_step<Kind, Strict>(hn::LoadU(df, n + i), a, t, w, rp);
      if constexpr (Kind == fractal_kind::ridged) hn::StoreU(w, df, weight + i);
      return t;
    };
    if (!last) {  // into the sum's buffer: whole vectors, its padding included
      for (std::size_t i = 0; i < count; i += N) hn::StoreU(sum(i), df, to + i);
    } else if (scale == nullptr) {
      store_samples(count, to, sum);
    } else {
      const VF by = hn::Set(df, *scale);
      store_samples(count, to, [&](std::size_t i) { return hn::Mul(sum(i), by); });
    }
  };
  if (total == nullptr) {
    rows.template operator()<true>();
  } else {
    rows.template operator()<false>();
  }
}

/// Rows of one plain octave whose lattice points fit one vector (cell_rows::registers): a
/// chunk's short rows (a 16^3 grid's are one vector each), where the general loop's bookkeeping
/// per row cost more than the samples. Its own function, so that the general loop's registers
/// stay as they are. Same operations per row as fill_rows_t's, so the same values.
template <int D, bool Improved, bool Strict>
HWY_NOINLINE void fill_register_rows(const grid_plan& g, std::size_t row_begin, std::size_t row_end,
                                     float* out, float* lo, float* hi) {
  const std::size_t nx = g.count[0];
  const octave_plan& o = g.octaves[0];
  const register_columns x(o, nx);
  plane_cache<D> plane;
  packed_rows<D> rows;
  bool packed = false;
  // A plane of its own for each lattice row is 2-D's: there each is hashed once a call anyway.
  if constexpr (D >= 3) packed = rows.build(o, g.count[1]);
  running_range range;
  const std::size_t fold_rows = g.row_stride == nx ? std::max<std::size_t>(1, 4096 / nx) : 1;
  std::size_t pending = 0;
  const float* pending_from = out;
  row_axis ax[4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  std::size_t idx[4] = {0, 0, 0, 0};
  {
    std::size_t rem = row_begin;
    for (int a = 1; a < D; ++a) {
      idx[a] = rem % g.count[a];
      rem /= g.count[a];
    }
  }
  // Consecutive rows of one plane and one cell along y share their blend's lattice rows (the
  // plane cache's slots): only its weights change. Such rows skip row_blend_of's lookups (most
  // rows: 15 of 16 at step 1/16).
  row_blend r{};
  // The held blend's lattice indices along y, in locals of their own: compared against ax[1]'s
  // two halves, which GCC stores apart and reloads as one 64-bit word, the load waited for the
  // stores (a failed store forwarding, a quarter of the function's time).
  std::uint32_t held_i0 = 0, held_i1 = 0;
  for (std::size_t row = row_begin; row < row_end; ++row) {
    float* out_row = out + (row - row_begin) * g.row_stride;
    bool same_cell = row != row_begin;
    if (row != row_begin) {
      for (int a = 1; a < D; ++a) {
        if (++idx[a] < g.count[a]) break;
        idx[a] = 0;
        same_cell = false;  // a new plane (or, in 2-D, the first row again)
      }
    }
    if constexpr (D >= 2) {
      const row_axis& y = o.axis[1][idx[1]];
      same_cell = same_cell && y.i0 == held_i0 && y.i1 == held_i1;
      held_i0 = y.i0;
      held_i1 = y.i1;
    }
    if (same_cell) {
      // Straight from the plan: copied into ax[1] first, its halves were stored and reloaded
      // (a stall on every row of small3d).
      set_row_weights(o.axis[1][idx[1]], r);
    } else {
      for (int a = 1; a < D; ++a) ax[a] = o.axis[a][idx[a]];
      if constexpr (D >= 3) {
        r = packed ? rows.template blend_of<Improved, Strict>(g, ax, idx + 2)
                   : row_blend_of<D, Improved, Strict>(g, o, ax, idx + 2, plane);
      } else {
        r = row_blend_of<D, Improved, Strict>(g, o, ax, idx + 2, plane);
      }
    }
    VF a, b;
    blend_points<D, Improved, Strict>(r, 0, a, b);
    row_by_held_register_cells<Strict>(x, a, b, nx, out_row);
    if (pending == 0) pending_from = out_row;
    if (++pending == fold_rows) {
      range.fold(pending_from, pending * nx);
      pending = 0;
    }
  }
  if (pending != 0) range.fold(pending_from, pending * nx);
  range.fold_into(lo, hi);
}

/// One octave `o` of one row (axes `ax`, sample indices `idx`) into dst[0 .. n): per-sample
/// gathers when the octave takes them, else the cell method `method` (cell_rows_of) with the
/// octave's plane cache; pa and pb are the scratch of cell_coefficients_v.
template <int D, bool Strict>
HWY_INLINE void octave_row(const grid_plan& g, const octave_plan& o, cell_rows method,
                           const row_axis* ax, const std::size_t* idx, plane_cache<D>& plane,
                           float* pa, float* pb, std::size_t n, float* dst) {
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
  // Two branches rather than one lambda choosing inside: that shape measured 28-34% slower
  // on grid4d and grid4d_s4 (A/B), the register rows' blend no longer kept in registers.
  if (!done && method == cell_rows::registers) {
    const auto in_registers = [&]<bool Improved>() {
      const row_blend r = row_blend_of<D, Improved, Strict>(g, o, ax, idx + 2, plane);
      VF a, b;
      blend_points<D, Improved, Strict>(r, 0, a, b);
      row_by_register_cells<Strict>(o, a, b, n, dst);
    };
    if (g.improved) {
      in_registers.template operator()<true>();
    } else {
      in_registers.template operator()<false>();
    }
    done = true;
  }
  if (!done && method == cell_rows::fused) {
    if (g.improved) {
      row_by_fused_cells<D, true, Strict>(row_blend_of<D, true, Strict>(g, o, ax, idx + 2, plane),
                                          o, n, dst);
    } else {
      row_by_fused_cells<D, false, Strict>(row_blend_of<D, false, Strict>(g, o, ax, idx + 2, plane),
                                           o, n, dst);
    }
    done = true;
  }
  if (!done) {
    if (g.improved) {
      cell_coefficients_v<D, true, Strict>(row_blend_of<D, true, Strict>(g, o, ax, idx + 2, plane),
                                           o, pa, pb);
    } else {
      cell_coefficients_v<D, false, Strict>(
          row_blend_of<D, false, Strict>(g, o, ax, idx + 2, plane), o, pa, pb);
    }
    const float* a0 = pa + o.side_offset[0];
    const float* b0 = pb + o.side_offset[0];
    const float* a1 = pa + o.side_offset[1];
    const float* b1 = pb + o.side_offset[1];
    if (method == cell_rows::narrow) {
      row_by_narrow_cells<Strict>(o, a0, b0, a1, b1, n, dst);
    } else {
      row_by_cells<Strict>(o, a0, b0, a1, b1, n, dst);
    }
  }
}

template <int D, bool Strict>
void fill_rows_t(const grid_plan& g, std::size_t row_begin, std::size_t row_end, float* out,
                 float* lo, float* hi) {
  const std::size_t nx = g.count[0];
  const std::size_t padded = nx + k_pad;
  const std::size_t N = hn::Lanes(DF());
  // A single plain octave is written straight into the output; fractals sum in row buffers.
  const bool single = (g.kind == fractal_kind::none || g.kind == fractal_kind::fbm) &&
                      g.octaves.size() == 1 && g.amp[0] == 1.0f && !g.normalize;
  if (single && !g.octaves[0].gather && cell_rows_of(g.octaves[0], nx, N) == cell_rows::registers) {
    if (g.improved) return fill_register_rows<D, true, Strict>(g, row_begin, row_end, out, lo, hi);
    return fill_register_rows<D, false, Strict>(g, row_begin, row_end, out, lo, hi);
  }
  // The coefficients at the row's lattice points (cell_coefficients_v), padded for whole
  // vectors from any cell's side.
  std::size_t max_points = 0;
  for (const auto& o : g.octaves) max_points = std::max(max_points, o.point_count);
  // With the fractal's row buffers, in one allocation, each array on a vector boundary: the
  // loads and stores at multiples of N are then whole vectors (misaligned, each AVX-512 one
  // splits two cache lines).
  const auto whole_vectors = [N](std::size_t n) { return (n + N - 1) / N * N; };
  const std::size_t point_room = whole_vectors(max_points + k_pad);
  const std::size_t row_room = single ? 0 : whole_vectors(padded);
  const auto buffers = aligned_floats(2 * point_room + 3 * row_room);
  float* pa = buffers.get();
  float* pb = pa + point_room;
  float* noise = pb + point_room;
  float* total = noise + row_room;
  float* weight = total + row_room;
  std::vector<plane_cache<D>> planes(g.octaves.size());
  std::vector<cell_rows> method(g.octaves.size());
  for (std::size_t oi = 0; oi < g.octaves.size(); ++oi) {
    method[oi] = cell_rows_of(g.octaves[oi], nx, N);
  }
  running_range range;
  // The range is folded over runs of contiguous rows of about 16 KB (still in L1) rather than row
  // by row: its accumulators would be spilled around each row's kernel calls, which cost short
  // rows (a 16^3 chunk's 16 samples) more than the fold itself.
  const std::size_t fold_rows = g.row_stride == nx ? std::max<std::size_t>(1, 4096 / nx) : 1;
  std::size_t pending = 0;  // rows written and not folded yet, from pending_from
  const float* pending_from = out;
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
    for (std::size_t oi = 0; oi < g.octaves.size(); ++oi) {
      const octave_plan& o = g.octaves[oi];
      row_setup(g, o, idx, ax);
      float* dst = single ? out_row : noise;
      const std::size_t n = single ? nx : padded - k_pad;
      octave_row<D, Strict>(g, o, method[oi], ax, idx, planes[oi], pa, pb, n, dst);
      if (!single) {  // the sum: started by the first octave, written out by the last
        const bool last = oi + 1 == g.octaves.size();
        with_kind(g.kind, [&]<fractal_kind Kind>() {
          combine_row<Kind, Strict>(g.amp[oi], noise, oi == 0 ? nullptr : total,
                                    last ? out_row : total, last, weight, nx, g.ridged,
                                    last && g.normalize ? &g.normalize_by : nullptr);
        });
      }
    }
    if (pending == 0) pending_from = out_row;
    if (++pending == fold_rows) {
      range.fold(pending_from, pending * nx);
      pending = 0;
    }
  }
  if (pending != 0) range.fold(pending_from, pending * nx);
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