// The row writers of a float grid (rows-inl.h): one octave of one row, from the coefficients of
// its cells (row_by_cells, row_by_narrow_cells, row_by_register_cells, row_by_fused_cells: the
// cell method) or hashed per sample (row_by_gathers, row_by_bytes on AVX3_DL), and how an
// octave's rows choose among them (cell_rows_of).
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included once
// per target through src/simd/rows.cc, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_ROW_WRITERS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_ROW_WRITERS_INL_H_
#undef PERLIN_SIMD_ROW_WRITERS_INL_H_
#else
#define PERLIN_SIMD_ROW_WRITERS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"
#include "simd/row_lattice-inl.h"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// The coefficients a (A) and b (B) of the row at each of its lattice points along x
/// (octave_plan::points), N at a time: cell c's lower side is point c + side_offset[0], its upper
/// one c + side_offset[1]. Per lattice point, not per cell and side: a cell's upper side is its
/// neighbour's lower one.
template <int D, bool Improved, bool Strict>
HWY_INLINE void cell_coefficients_v(const row_blend& r, const octave_plan& o, float* a, float* b) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  for (std::size_t c = 0; c < o.point_count; c += N) {
    VF av, bv;
    blend_points<D, Improved, Strict>(r, c, av, bv);
    hn::StoreU(av, df, a + c);
    hn::StoreU(bv, df, b + c);
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

/// Writes the row's columns [0, nx) from samples(i), the vector of columns [i, i + N): whole
/// vectors stored as they are, the last, partial one through store_row (no branch per vector).
template <class Samples>
HWY_INLINE void store_samples(std::size_t nx, float* HWY_RESTRICT out, const Samples& samples) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  std::size_t i = 0;
  for (; i + N <= nx; i += N) hn::StoreU(samples(i), df, out + i);
  if (i < nx) {
    HWY_ALIGN float tail[64];
    store_row(samples(i), out, i, nx, tail);
  }
}

/// An octave's tables along x (octave_plan's fx, t and cell) as plain pointers, taken once per
/// row: read through the plan's spans, they were reloaded after every store to the output (which
/// may alias them as far as the compiler knows), three loads a vector.
struct columns {
  const float* fx;
  const float* t;
  const std::int32_t* cell;
  explicit columns(const octave_plan& o) : fx(o.fx.data()), t(o.t.data()), cell(o.cell.data()) {}
};

/// The samples [i, i + N) of a row from their cells' coefficients (row_by_cells).
template <bool Strict>
HWY_INLINE VF cell_samples(const columns& x, std::size_t i, VF A0, VF B0, VF A1, VF B1) {
  const DF df;
  const VF fx = hn::LoadU(df, x.fx + i);
  const VF t = hn::LoadU(df, x.t + i);
  const VF lo = mul_add<Strict>(B0, fx, A0);
  const VF hi = mul_add<Strict>(B1, hn::Sub(fx, hn::Set(df, 1.0f)), A1);
  return lerp_v<Strict>(t, lo, hi);
}

/// The samples [i, i + N) of a row whose cells differ across the vector: the cell index rises by
/// at most one a sample (octave_plan::cell), so they are among the N from the first one's, and
/// each coefficient is one permutation of the N from there (the arrays are padded by k_pad).
template <bool Strict>
HWY_INLINE VF permuted_cell_samples(const columns& x, std::size_t i, const float* a0,
                                    const float* b0, const float* a1, const float* b1) {
  const DF df;
  const DI di;
  const std::int32_t first = x.cell[i];
  const auto idx = hn::IndicesFromVec(df, hn::Sub(hn::LoadU(di, x.cell + i), hn::Set(di, first)));
  return cell_samples<Strict>(x, i, hn::TableLookupLanes(hn::LoadU(df, a0 + first), idx),
                              hn::TableLookupLanes(hn::LoadU(df, b0 + first), idx),
                              hn::TableLookupLanes(hn::LoadU(df, a1 + first), idx),
                              hn::TableLookupLanes(hn::LoadU(df, b1 + first), idx));
}

/// One octave of one row by the cell method, into out[0 .. nx + padding).
template <bool Strict>
HWY_INLINE void row_by_cells(const octave_plan& o, const float* a0, const float* b0,
                             const float* a1, const float* b1, std::size_t nx,
                             float* HWY_RESTRICT out) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  const columns x(o);
  HWY_ALIGN float tail[64];
  VF A0 = hn::Zero(df), B0 = A0, A1 = A0, B1 = A0;
  std::int32_t held = -1;  // the cell whose coefficients A0..B1 hold in every lane, if any
  for (std::size_t i = 0; i < nx; i += N) {
    const std::int32_t first = x.cell[i], last = x.cell[i + N - 1];
    if (first != last) {
      store_row(permuted_cell_samples<Strict>(x, i, a0, b0, a1, b1), out, i, nx, tail);
      continue;
    }
    if (first != held) {  // wide cells: once per cell, not per vector
      A0 = hn::Set(df, a0[first]);
      B0 = hn::Set(df, b0[first]);
      A1 = hn::Set(df, a1[first]);
      B1 = hn::Set(df, b1[first]);
      held = first;
    }
    store_row(cell_samples<Strict>(x, i, A0, B0, A1, B1), out, i, nx, tail);
  }
}

/// How an octave's rows are filled by the cell method, chosen once per call (cell_rows_of).
enum class cell_rows : char {
  wide,       // row_by_cells: coefficients broadcast once per cell
  narrow,     // row_by_narrow_cells: two or more cells a vector, permuted from memory
  fused,      // row_by_fused_cells: narrow, each vector's coefficients computed where used
  registers,  // row_by_register_cells: narrow, and every lattice point in one vector
};

/// Whether an octave's narrow cells may take row_by_fused_cells: each cell's sides are a point and
/// its neighbour (side_offset {0, 1} or {1, 0}), and every vector of samples spans cells whose
/// sides lie within N points of its first cell's (cells rise by at most one a sample, checked
/// over the row's vectors, the padding included).
inline bool fused_cells_fit(const octave_plan& o, std::size_t nx, std::size_t N) {
  if (o.side_offset[0] + o.side_offset[1] != 1) return false;
  for (std::size_t i = 0; i < nx; i += N) {
    if (o.cell[i + N - 1] - o.cell[i] + 1 >= static_cast<std::int32_t>(N)) return false;
  }
  return true;
}

/// Rows with two or more cells a vector on average permute every vector (wider cells are better
/// broadcast once per cell); those whose lattice points also fit one vector (point_count <= N)
/// keep the coefficients in registers, and the others compute each vector's where it uses them
/// when its cells fit one vector (fused_cells_fit). So do short rows (up to 64 samples) whose
/// points fit one vector, wide cells or not: a chunk's rows, where the broadcasts' round trip
/// through memory cost more than the permutes (interleaved A/B on an Ice Lake guest: small2d 0.88x
/// the time and grid4d_s32 0.96x on AVX3_DL; on AVX2, 64 samples rather than 4 vectors gave small2d
/// 0.74-0.80x).
inline cell_rows cell_rows_of(const octave_plan& o, std::size_t nx, std::size_t N) {
  if (o.point_count <= N && nx <= 64) return cell_rows::registers;
  if (o.cells * N < 2 * nx) return cell_rows::wide;
  if (o.point_count <= N) return cell_rows::registers;
  return fused_cells_fit(o, nx, N) ? cell_rows::fused : cell_rows::narrow;
}

/// row_by_cells for rows of narrow cells (cell_rows::narrow): one permutation per coefficient and
/// vector, no branch per vector.
template <bool Strict>
HWY_INLINE void row_by_narrow_cells(const octave_plan& o, const float* a0, const float* b0,
                                    const float* a1, const float* b1, std::size_t nx,
                                    float* HWY_RESTRICT out) {
  const columns x(o);
  const auto samples = [&](std::size_t i) {
    return permuted_cell_samples<Strict>(x, i, a0, b0, a1, b1);
  };
  store_samples(nx, out, samples);
}

/// An octave's side offsets (octave_plan::side_offset) in every lane.
struct cell_sides {
  VI lower, upper;
  explicit cell_sides(const octave_plan& o)
      : lower(hn::Set(DI(), static_cast<std::int32_t>(o.side_offset[0]))),
        upper(hn::Set(DI(), static_cast<std::int32_t>(o.side_offset[1]))) {}
};

/// The samples [i, i + N) of a row whose cells' coefficients lie in one vector each, a and b at
/// points [0, N) of the vector: each cell's sides at cell + the side offsets, picked by one
/// permute a coefficient.
template <bool Strict>
HWY_INLINE VF sided_cell_samples(const columns& x, std::size_t i, VI cell, VF a, VF b,
                                 const cell_sides& sides) {
  const DF df;
  const auto i0 = hn::IndicesFromVec(df, hn::Add(cell, sides.lower));
  const auto i1 = hn::IndicesFromVec(df, hn::Add(cell, sides.upper));
  return cell_samples<Strict>(x, i, hn::TableLookupLanes(a, i0), hn::TableLookupLanes(b, i0),
                              hn::TableLookupLanes(a, i1), hn::TableLookupLanes(b, i1));
}

/// One octave of one row of narrow cells whose lattice points fit one vector
/// (cell_rows::registers): the coefficients a and b of points [0, N) stay in registers and each
/// vector of samples selects its cells' by permutes, instead of a round trip through memory, whose
/// loads at the cells' side offsets (a float off the stores) wait for the stores to complete.
/// Long rows of wide cells keep row_by_cells' broadcasts (permuting registers once per cell
/// measured 30% slower on grid4d_s32's rows of one cell on Zen 4, when they took the general row
/// loop; short rows now take fill_register_rows, cell_rows_of).
template <bool Strict>
HWY_INLINE void row_by_register_cells(const octave_plan& o, VF a, VF b, std::size_t nx,
                                      float* HWY_RESTRICT out) {
  const DI di;
  const cell_sides sides(o);
  const columns x(o);
  const auto samples = [&](std::size_t i) {
    return sided_cell_samples<Strict>(x, i, hn::LoadU(di, x.cell + i), a, b, sides);
  };
  store_samples(nx, out, samples);
}

/// fill_register_rows' operands per column, the same for every row of a call: each lane's
/// permute indices to its cell's two sides (cell + side_offset) and fx - 1, so that a row's
/// vectors do not add and subtract them again. Held here up to k_held columns (a chunk's rows),
/// else allocated.
struct register_columns {
  static constexpr std::size_t k_held = 128;
  const float* fx;
  const float* t;
  const std::int32_t* lower;
  const std::int32_t* upper;
  const float* fx_less_one;
  HWY_ALIGN std::int32_t held_lower[k_held];
  HWY_ALIGN std::int32_t held_upper[k_held];
  HWY_ALIGN float held_fx_less_one[k_held];
  std::unique_ptr<float[], aligned_floats_delete> data;
  register_columns(const octave_plan& o, std::size_t nx) : fx(o.fx.data()), t(o.t.data()) {
    const DF df;
    const DI di;
    const std::size_t N = hn::Lanes(df);
    const std::size_t n = (nx + N - 1) / N * N;
    std::int32_t* lo = held_lower;
    std::int32_t* up = held_upper;
    float* fm = held_fx_less_one;
    if (n > k_held) {
      data = aligned_floats(3 * n);
      lo = reinterpret_cast<std::int32_t*>(data.get());
      up = lo + n;
      fm = data.get() + 2 * n;
    }
    const cell_sides sides(o);
    for (std::size_t i = 0; i < n; i += N) {
      const VI cell = hn::LoadU(di, o.cell.data() + i);
      hn::Store(hn::Add(cell, sides.lower), di, lo + i);
      hn::Store(hn::Add(cell, sides.upper), di, up + i);
      hn::Store(hn::Sub(hn::LoadU(df, fx + i), hn::Set(df, 1.0f)), df, fm + i);
    }
    lower = lo;
    upper = up;
    fx_less_one = fm;
  }
  register_columns(const register_columns&) = delete;
  register_columns& operator=(const register_columns&) = delete;
};

/// row_by_register_cells with the columns' operands of register_columns: the same operations
/// on the same values (cell_samples' fx - 1 is the float subtraction done once), so the same bits.
template <bool Strict>
HWY_INLINE void row_by_held_register_cells(const register_columns& x, VF a, VF b, std::size_t nx,
                                           float* HWY_RESTRICT out) {
  const DF df;
  const DI di;
  const auto samples = [&](std::size_t i) {
    const auto i0 = hn::IndicesFromVec(df, hn::Load(di, x.lower + i));
    const auto i1 = hn::IndicesFromVec(df, hn::Load(di, x.upper + i));
    const VF fx = hn::LoadU(df, x.fx + i);
    const VF t = hn::LoadU(df, x.t + i);
    const VF lo = mul_add<Strict>(hn::TableLookupLanes(b, i0), fx, hn::TableLookupLanes(a, i0));
    const VF hi = mul_add<Strict>(hn::TableLookupLanes(b, i1), hn::Load(df, x.fx_less_one + i),
                                  hn::TableLookupLanes(a, i1));
    return lerp_v<Strict>(t, lo, hi);
  };
  store_samples(nx, out, samples);
}

/// One octave of one row of narrow cells (cell_rows::fused) with the cells'
/// coefficients computed where they are used: per vector of samples, A and B at the N lattice
/// points from its first cell's (blend_points, from the plane cache), each sample's sides by
/// permutes. row_by_narrow_cells instead reads arrays written for the whole row just before, at
/// the cells' side offsets: loads that straddle two of the stores just made, which wait for them.
/// Computes up to N points per vector where the row has fewer (at step 1/4, 5 of 16 used), for no
/// round trip through memory.
template <int D, bool Improved, bool Strict>
HWY_INLINE void row_by_fused_cells(const row_blend& r, const octave_plan& o, std::size_t nx,
                                   float* HWY_RESTRICT out) {
  const DI di;
  const cell_sides sides(o);
  const columns x(o);
  const auto samples = [&](std::size_t i) {
    const std::int32_t first = x.cell[i];
    VF a, b;
    blend_points<D, Improved, Strict>(r, static_cast<std::size_t>(first), a, b);
    const VI cell = hn::Sub(hn::LoadU(di, x.cell + i), hn::Set(di, first));
    return sided_cell_samples<Strict>(x, i, cell, a, b, sides);
  };
  store_samples(nx, out, samples);
}

#if HWY_TARGET == HWY_AVX3_DL
/// The per-sample hashing of row_by_gathers 64 samples at a time, a byte per lane (byte_hash,
/// the layout of points_by_bytes): from the first level p[x] of the plan (px0, px1), each further
/// level is a byte permute instead of a gather. Indices are below 256 at every level, so the sums
/// modulo 256 read what the doubled table would (any period). The same hashes, so the same bits.
/// Returns where it stopped (fewer than 64 samples before nx).
template <int D, bool Improved, bool Strict>
std::size_t row_by_bytes(const grid_plan& g, const octave_plan& o, const lanes_axis& y,
                         const lanes_axis& z, const row_axis* ax, std::size_t nx,
                         float* HWY_RESTRICT out) {
  const DF df;
  const DI di;
  constexpr std::size_t N = 16;
  static_assert(hn::MaxLanes(DF()) == N);
  const byte_hash p(g.tables->bytes.data());
  __m512i lower[3], upper[3];  // the row's indices along y and z in every byte (0 past D)
  for (int a = 1; a < 3; ++a) {
    lower[a] = _mm512_set1_epi8(static_cast<char>(a < D ? ax[a].i0 : 0));
    upper[a] = _mm512_set1_epi8(static_cast<char>(a < D ? ax[a].i1 : 0));
  }
  std::size_t i = 0;
  for (; i + 4 * N <= nx; i += 4 * N) {
    VI x0 = hn::Zero(di), x1 = hn::Zero(di);
    for (int v = 0; v < 4; ++v) {
      x0 = byte_hash::pack(x0, hn::LoadU(di, o.px0.data() + i + v * N), v);
      x1 = byte_hash::pack(x1, hn::LoadU(di, o.px1.data() + i + v * N), v);
    }
    __m512i bytes[8] = {x0.raw, x1.raw};
    int m = 2;  // corners so far; corner k has bit 0 = x, bit 1 = y, bit 2 = z
    for (int a = 1; a < 3; ++a) {
      if (a < D) {
        for (int k = 0; k < m; ++k) {
          bytes[k + m] = p(_mm512_add_epi8(bytes[k], upper[a]));
          bytes[k] = p(_mm512_add_epi8(bytes[k], lower[a]));
        }
        m *= 2;
      } else {
        for (int k = 0; k < m; ++k) bytes[k] = p(bytes[k]);  // index 0: p[h + 0]
      }
    }
    for (int v = 0; v < 4; ++v) {
      VI h[8];
      for (int k = 0; k < (1 << D); ++k) h[k] = byte_hash::unpack<Improved>(bytes[k], v);
      const std::size_t c = i + v * N;
      hn::StoreU(blend_corners_v<D, Improved, Strict>(h, hn::LoadU(df, o.fx.data() + c),
                                                      hn::LoadU(df, o.t.data() + c), y, z),
                 df, out + c);
    }
  }
  return i;
}
#endif

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
  const hash_tables& tb = *g.tables;
  HWY_ALIGN float tail[64];
  std::size_t i = 0;
#if HWY_TARGET == HWY_AVX3_DL
  // On Intel's cores (one port for 512-bit byte permutes), 2-D samples hash faster by gathers:
  // fbm2d, whose two highest octaves are hashed per sample, 3.16 -> 3.06 ns a sample on an
  // Emerald Rapids Xeon (release build, interleaved A/B; 4.03 -> 3.84 at -O2). 1-D and 3-D keep
  // the bytes (not measured there).
  if (D != 2 || g.vendor != cpu_vendor::intel) {
    i = row_by_bytes<D, Improved, Strict>(g, o, y, z, ax, nx, out);
  }
#endif
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

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#endif  // PERLIN_SIMD_ROW_WRITERS_INL_H_
