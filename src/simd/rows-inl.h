// Rows of a float grid (fill_rows_fn in detail/grid_plan.hpp). Two ways to fill a row (the x
// axis):
//  - cells: hash each lattice cell the row touches once, reduce it to four coefficients so that
//    the noise inside the cell is lerp(t(x), a0 + b0 x, a1 + b1 (x - 1)), then evaluate that per
//    sample with a few multiply-adds. Best when a cell spans several samples.
//  - gather: hash every sample with vector gathers from the permutation table. Best when cells
//    are narrower than a few samples (the high octaves of a fractal).
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
#include <memory>
#include <new>
#include <vector>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"

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

/// Frees what aligned_floats allocated.
struct aligned_floats_delete {
  void operator()(float* p) const noexcept {
    ::operator delete[](p, std::align_val_t{k_storage_alignment});
  }
};
/// n floats on k_storage_alignment (the plan's tables' alignment), uninitialised; throws
/// std::bad_alloc like a std::vector would. C++17's aligned operator new rather than Highway's
/// AllocateAligned, which is in libhwy, which the WebAssembly build does not link.
inline std::unique_ptr<float[], aligned_floats_delete> aligned_floats(std::size_t n) {
  return std::unique_ptr<float[], aligned_floats_delete>(static_cast<float*>(
      ::operator new[](n * sizeof(float), std::align_val_t{k_storage_alignment})));
}

/// The lattice data of one axis of a grid row (scalar, in double like the reference).
using row_axis = octave_plan::axis_sample;

/// Axes 1..dims-1 of the row with indices idx[1..3], for octave `o` (from the plan's tables).
/// Copies: pointers into the tables took fewer instructions but ran 20-30% slower on AVX3_DL.
inline void row_setup(const grid_plan& g, const octave_plan& o, const std::size_t* idx,
                      row_axis* ax) {
  for (int a = 1; a < g.dims; ++a) ax[a] = o.axis[a][idx[a]];
}

/// The cell method's coefficients, computed across rows. For improved noise, with weights
/// w and offsets r per axis, the noise inside an x cell of a row is
///   lerp(t(x), A0 + B0 fx, A1 + B1 (fx - 1)),
///   A_xb = sum over the y corners yb of w_yb (C_xb,yb + Gy_xb,yb r_yb),  B_xb = sum w_yb Gx_xb,yb,
/// where, per lattice point (x side xb, y index iy) and summed over the corners m of the other
/// axes (z, w), C = sum w_m (gz r_z,m + gw r_w,m), Gx = sum w_m gx, Gy = sum w_m gy. C, Gx and
/// Gy depend on the row only through the lattice index iy and the plane (the sample indices
/// along z and w), so they are hashed once per lattice index of a plane and shared by every row
/// of it: a cell along y reuses its lower neighbour's upper index, and neighbouring cells along x
/// share their common corner (octave_plan::points). Value noise: C = sum w_m v_m.
template <int D>
struct plane_weights {
  static constexpr int combos = D >= 3 ? 1 << (D - 2) : 1;    // the corners along z and w
  std::size_t plane[2] = {~std::size_t{0}, ~std::size_t{0}};  // sample indices along z, w
  float weight[combos], rz[combos], rw[combos];  // per corner along z and w, for this plane
  /// The plane at sample indices `at` along z and w, whose axes are ax[2..D): its corners'
  /// weights and offsets.
  void set_plane(const std::size_t* at, const row_axis* ax) {
    plane[0] = at[0];
    plane[1] = at[1];
    for (int m = 0; m < combos; ++m) {
      double w = 1, r[4] = {0, 0, 0, 0};
      for (int k = 2; k < D; ++k) {
        const int bit = (m >> (k - 2)) & 1;
        w *= bit ? ax[k].t : 1.0 - ax[k].t;
        r[k] = bit ? ax[k].f - 1.0 : ax[k].f;
      }
      weight[m] = static_cast<float>(w);
      rz[m] = static_cast<float>(r[2]);
      rw[m] = static_cast<float>(r[3]);
    }
  }
};

/// The plane's weights (plane_weights) and two slots of lattice rows along y.
template <int D>
struct plane_cache : plane_weights<D> {
  std::uint32_t key[2] = {~0u, ~0u};  // the lattice index along y each slot holds
  std::size_t stride = 0;             // floats per array
  // Per slot: C, Gx, Gy of the row's lattice points along x: in `held` when they fit (a chunk's
  // rows: no allocation a call), else in `data`.
  static constexpr std::size_t k_held = 6 * 64;
  std::unique_ptr<float[], aligned_floats_delete> data;
  HWY_ALIGN float held[k_held];
  float* array[2][3] = {};  // per slot: where C, Gx, Gy start (in `held` or `data`: never copied)
  plane_cache() = default;
  plane_cache(const plane_cache&) = delete;
  plane_cache& operator=(const plane_cache&) = delete;
  float* at(int slot, int what) const { return array[slot][what]; }
  /// Arrays of `floats_per_array`, of which hash_lattice_row writes the first `hashed`: the rest
  /// is zeroed once, for the vectors that row_by_fused_cells loads past the row's last point.
  void allocate(std::size_t floats_per_array, std::size_t hashed) {
    stride = floats_per_array;
    float* base = held;
    if (2 * 3 * stride > k_held) {
      data = aligned_floats(2 * 3 * stride);
      base = data.get();
    }
    for (int slot = 0; slot < 2; ++slot) {
      for (int what = 0; what < 3; ++what) {
        array[slot][what] = base + static_cast<std::size_t>(slot * 3 + what) * stride;
        std::fill(array[slot][what] + std::min(hashed, stride), array[slot][what] + stride, 0.0f);
      }
    }
  }
};

/// C, Gx and Gy (plane_cache) of lattice points of one plane, a vector at a time: Ken Perlin's
/// hash p[...p[p[x] + y]... + w] over the levels the lattice has (the slice's index 0 past them:
/// below 3-D, perm_z0 does the z = 0 level too), then the gradients blended over the plane's
/// corners along z and w. The plane's indices and weights are broadcast once.
template <int D, bool Improved, bool Strict>
class lattice_hasher {
 public:
  static constexpr int combos = plane_weights<D>::combos;

  lattice_hasher(const grid_plan& g, const row_axis* ax, const plane_weights<D>& pc)
#if HWY_TARGET == HWY_AVX3_DL
      : bytes_(g.tables->bytes.data())
#else
      : perm_(g.tables->perm.data()),
        pairs_(g.tables->pairs.data()),
        first_(D <= 2 ? g.tables->perm_z0.data() : g.tables->perm.data())
#endif
  {
    const DF df;
    const DI di;
    for (int k = 2; k < D; ++k) {
      i0_[k] = hn::Set(di, static_cast<std::int32_t>(ax[k].i0));
      i1_[k] = hn::Set(di, static_cast<std::int32_t>(ax[k].i1));
#if HWY_TARGET != HWY_AVX3_DL
      pair_[k] = ax[k].i1 == ((ax[k].i0 + 1) & 255u);  // one gather fetches both (see tables)
#endif
    }
    for (int m = 0; m < combos; ++m) {
      weight_[m] = hn::Set(df, pc.weight[m]);
      rz_[m] = hn::Set(df, pc.rz[m]);
      rw_[m] = hn::Set(df, pc.rw[m]);
    }
  }

  /// C, Gx and Gy (cgg[0..2]) of the lattice points whose p[x] are hx (0-255) at lattice
  /// indices y (0-255) along y.
  HWY_INLINE void operator()(VI hx, VI y, VF* cgg) const {
    const DF df;
    const DI di;
    VI h[combos];
#if HWY_TARGET == HWY_AVX3_DL
    h[0] = lookup(hn::Add(hx, y));
    if constexpr (D <= 2) h[0] = lookup(h[0]);  // perm_z0[k] = p[p[k]]
    int m = 1;
    for (int k = 2; k < D; ++k, m *= 2) {
      for (int j = 0; j < m; ++j) {
        h[j + m] = lookup(hn::Add(h[j], i1_[k]));
        h[j] = lookup(hn::Add(h[j], i0_[k]));
      }
    }
#else
    h[0] = hn::GatherIndex(di, first_, hn::Add(hx, y));
    // Axis k doubles the corners: h[j + m] has bit k - 2 set.
    int m = 1;
    for (int k = 2; k < D; ++k, m *= 2) {
      for (int j = 0; j < m; ++j) {
        if (pair_[k]) {
          const VI q = hn::GatherIndex(di, pairs_, hn::Add(h[j], i0_[k]));
          h[j] = low16(q);
          h[j + m] = high16(q);
        } else {
          h[j + m] = hn::GatherIndex(di, perm_, hn::Add(h[j], i1_[k]));
          h[j] = hn::GatherIndex(di, perm_, hn::Add(h[j], i0_[k]));
        }
      }
    }
#endif
    const VF zero = hn::Zero(df);
    VF sum_c = zero, sum_gx = zero, sum_gy = zero;
    for (int mm = 0; mm < combos; ++mm) {
      if constexpr (Improved) {
        VF comp[4];
        if constexpr (D == 4) {
          gradient4_components(h[mm], comp);
        } else {
          gradient_components<D>(h[mm], comp);  // components past D are never read
        }
        if constexpr (D >= 3) {
          // The products are exact (components are -1, 0, 1): fused or not, the same bits.
          VF dot = hn::Mul(comp[2], rz_[mm]);
          if constexpr (D == 4) dot = hn::MulAdd(comp[3], rw_[mm], dot);
          sum_c = mul_add<Strict>(weight_[mm], dot, sum_c);
          sum_gx = mul_add<Strict>(weight_[mm], comp[0], sum_gx);
          sum_gy = mul_add<Strict>(weight_[mm], comp[1], sum_gy);
        } else {
          sum_gx = comp[0];
          if constexpr (D == 2) sum_gy = comp[1];
        }
      } else {
#if HWY_TARGET == HWY_AVX3_DL
        const VI hash = hn::And(h[mm], hn::Set(di, 255));
#else
        const VI hash = h[mm];
#endif
        const VF v = mul_add<Strict>(hn::ConvertTo(df, hash), hn::Set(df, 1.0f / 127.5f),
                                     hn::Set(df, -1.0f));
        sum_c = D >= 3 ? mul_add<Strict>(weight_[mm], v, sum_c) : v;
      }
    }
    cgg[0] = sum_c;
    cgg[1] = sum_gx;
    cgg[2] = sum_gy;
  }

 private:
#if HWY_TARGET == HWY_AVX3_DL
  // Lookups by byte permutes (byte_hash) instead of gathers: indices below 512 read the doubled
  // permutation modulo 256, which the low byte of each lane is; the permutes' latency is a few
  // cycles where a gather's is tens (the chain of levels is what a row's hashing waits for).
  // Only the low byte of each lane is the hash: the bytes above are lookups of the index's upper
  // bytes, which the next level's add carries nothing down into and the gradients' permutes
  // ignore (value noise masks them, above).
  HWY_INLINE VI lookup(VI i) const { return VI{bytes_(i.raw)}; }
  byte_hash bytes_;
#else
  const std::int32_t* perm_;
  const std::int32_t* pairs_;
  const std::int32_t* first_;
  bool pair_[4] = {false, false, false, false};
#endif
  VI i0_[4], i1_[4];
  VF weight_[combos], rz_[combos], rw_[combos];
};

/// C, Gx and Gy (plane_cache) of the row's lattice points along x (octave_plan::points) at
/// lattice index `iy` along y, N points at a time, into `slot`.
template <int D, bool Improved, bool Strict>
HWY_NOINLINE void hash_lattice_row(const grid_plan& g, const octave_plan& o, const row_axis* ax,
                                   std::uint32_t iy, plane_cache<D>& pc, int slot) {
  const DI di;
  const std::size_t N = hn::Lanes(di);
  pc.key[slot] = iy;
  const lattice_hasher<D, Improved, Strict> hash(g, ax, pc);
  const VI y = hn::Set(di, static_cast<std::int32_t>(iy));
  for (std::size_t c = 0; c < o.point_count; c += N) {
    VF cgg[3];
    hash(hn::LoadU(di, o.points.data() + c), y, cgg);
    for (int what = 0; what < 3; ++what) hn::StoreU(cgg[what], DF(), pc.at(slot, what) + c);
  }
}

/// The row's coefficients A and B at its lattice points along x, as a blend of the two lattice
/// rows along y that the plane cache holds (row_blend_of): A = wy0 term0 + wy1 term1 with
/// term = C + Gy ry (improved noise, D >= 2), B = wy0 Gx0 + wy1 Gx1.
struct row_blend {
  // The two lattice rows' arrays (plane_cache), addresses taken once: the compiler reloads them
  // from the cache around every store otherwise.
  const float* cs[2];
  const float* gxs[2];
  const float* gys[2];
  VF wy[2], ry[2];
};

/// A and B at the lattice points [c, c + N) of the row (row_blend).
template <int D, bool Improved, bool Strict>
HWY_INLINE void blend_points(const row_blend& r, std::size_t c, VF& a, VF& b) {
  const DF df;
  VF term[2], gx[2];
  for (int yb = 0; yb < 2; ++yb) {
    const VF cv = hn::LoadU(df, r.cs[yb] + c);
    if constexpr (Improved && D >= 2) {
      const VF gy = hn::LoadU(df, r.gys[yb] + c);
      term[yb] = D >= 3 ? mul_add<Strict>(gy, r.ry[yb], cv) : hn::Mul(gy, r.ry[yb]);
    } else {
      term[yb] = cv;
    }
    gx[yb] = hn::LoadU(df, r.gxs[yb] + c);
  }
  if constexpr (D == 1) {
    a = term[0];  // one lattice row: weight 1
    b = gx[0];
  } else {
    a = mul_add<Strict>(r.wy[1], term[1], hn::Mul(r.wy[0], term[0]));
    if constexpr (Improved) {
      b = mul_add<Strict>(r.wy[1], gx[1], hn::Mul(r.wy[0], gx[0]));
    } else {
      b = hn::Zero(df);
    }
  }
}

/// The weights (wy) and offsets (ry) of the row's two lattice rows along y, from its sample `y`.
HWY_INLINE void set_row_weights(const row_axis& y, row_blend& r) {
  const DF df;
  r.wy[0] = hn::Set(df, static_cast<float>(1.0 - y.t));
  r.wy[1] = hn::Set(df, static_cast<float>(y.t));
  r.ry[0] = hn::Set(df, static_cast<float>(y.f));
  r.ry[1] = hn::Set(df, static_cast<float>(y.f - 1.0));
}

/// The row's blend (row_blend) for octave `o`: its two lattice points along y are looked up in
/// the cache of its plane (plane_cache: the sample indices `plane` along z and w) and hashed when
/// missing.
template <int D, bool Improved, bool Strict>
HWY_INLINE row_blend row_blend_of(const grid_plan& g, const octave_plan& o, const row_axis* ax,
                                  const std::size_t* plane, plane_cache<D>& pc) {
  const DF df;
  const std::size_t N = hn::Lanes(df);
  if (pc.stride == 0) {
    // Whole vectors of points are hashed, and whole vectors of cells read from side offsets up
    // to `cells` on.
    pc.allocate((std::max(o.point_count, o.cells + o.side_offset[1]) + 2 * N - 1) / N * N,
                (o.point_count + N - 1) / N * N);
  }
  if (plane[0] != pc.plane[0] || plane[1] != pc.plane[1]) {  // a new plane: new z/w weights
    pc.set_plane(plane, ax);
    pc.key[0] = pc.key[1] = ~0u;
  }
  // The slots of the row's lower and upper lattice index along y, hashed when missing.
  const std::uint32_t iy[2] = {ax[1].i0, ax[1].i1};
  int s[2] = {-1, -1};
  for (int yb = 0; yb < 2; ++yb) {
    if (pc.key[0] == iy[yb]) s[yb] = 0;
    if (pc.key[1] == iy[yb]) s[yb] = 1;
  }
  if (s[0] < 0 && s[1] < 0) {
    s[0] = 0;
    s[1] = iy[0] == iy[1] ? 0 : 1;
    hash_lattice_row<D, Improved, Strict>(g, o, ax, iy[0], pc, s[0]);
    if (s[1] != s[0]) hash_lattice_row<D, Improved, Strict>(g, o, ax, iy[1], pc, s[1]);
  } else if (s[0] < 0 || s[1] < 0) {
    const int missing = s[0] < 0 ? 0 : 1;
    s[missing] = 1 - s[1 - missing];
    hash_lattice_row<D, Improved, Strict>(g, o, ax, iy[missing], pc, s[missing]);
  }
  row_blend r{{pc.at(s[0], 0), pc.at(s[1], 0)},
              {pc.at(s[0], 1), pc.at(s[1], 1)},
              {pc.at(s[0], 2), pc.at(s[1], 2)},
              {},
              {}};
  set_row_weights(ax[1], r);
  return r;
}

/// A plane's lattice rows along y packed into whole vectors, for register rows (a chunk's) whose
/// plane has few: lane l holds point l % point_count of lattice row l / point_count, so that row
/// k's points start at k * point_count and a new plane hashes all of them in a few vectors, where
/// plane_cache hashes a vector per lattice row with a few points in it (16^3 at step 1/4: 5 rows
/// of 5 points, 2 vectors instead of 5). Each lane's operations are plane_cache's: the same bits.
template <int D>
struct packed_rows {
  static constexpr std::size_t k_rows = 16;  // lattice rows along y
  static constexpr std::size_t k_max_lanes = 8 * hn::MaxLanes(DF());
  std::size_t rows = 0;
  std::size_t point_count = 0;             // the octave's lattice points along x, per row
  std::size_t lanes = 0;                   // rows * point_count, in whole vectors
  std::uint32_t index[k_rows] = {};        // each row's lattice index along y
  HWY_ALIGN std::int32_t px[k_max_lanes];  // p[x] of each lane's point
  HWY_ALIGN std::int32_t iy[k_max_lanes];  // each lane's lattice index along y
  // C, Gx, Gy of each row, moved out of the hashed vectors into a vector of its own (row k's
  // at k * N): loads at
  // the rows' starts k * point_count split cache lines (small3d took 1.27x the time), and
  // through memory they waited on the stores of two vectors.
  HWY_ALIGN float c[k_rows * hn::MaxLanes(DF())];
  HWY_ALIGN float gx[k_rows * hn::MaxLanes(DF())];
  HWY_ALIGN float gy[k_rows * hn::MaxLanes(DF())];
  plane_weights<D> plane;

  packed_rows() = default;
  packed_rows(const packed_rows&) = delete;
  packed_rows& operator=(const packed_rows&) = delete;

  /// The lattice rows of axis 1's `ny` samples of octave `o`; false when they do not fit.
  bool build(const octave_plan& o, std::size_t ny) {
    const std::size_t N = hn::Lanes(DF());
    const std::size_t pc = o.point_count;
    if (pc == 0 || pc > N) return false;
    const row_axis* y = o.axis[1].data();
    std::uint32_t held0 = ~0u, held1 = ~0u;
    for (std::size_t i = 0; i < ny; ++i) {
      if (y[i].i0 == held0 && y[i].i1 == held1) continue;  // the same cell along y
      held0 = y[i].i0;
      held1 = y[i].i1;
      for (const std::uint32_t li : {held0, held1}) {
        if (find(li) < rows) continue;
        if (rows == k_rows || (rows + 1) * pc > k_max_lanes) return false;
        index[rows++] = li;
      }
    }
    if (rows == 0) return false;
    point_count = pc;
    lanes = (rows * pc + N - 1) / N * N;
    for (std::size_t l = 0; l < lanes; ++l) {
      const std::size_t k = std::min(l / pc, rows - 1);  // padding: copies of the last row's
      px[l] = o.points[l % pc];
      iy[l] = static_cast<std::int32_t>(index[k]);
    }
    return true;
  }

  std::size_t find(std::uint32_t li) const {
    std::size_t k = 0;
    while (k < rows && index[k] != li) ++k;
    return k;
  }

  /// The row's blend (row_blend) from the plane at sample indices at[0..1] along z and w, hashed
  /// when it is not the one held.
  template <bool Improved, bool Strict>
  HWY_INLINE row_blend blend_of(const grid_plan& g, const row_axis* ax, const std::size_t* at) {
    if (at[0] != plane.plane[0] || at[1] != plane.plane[1]) hash_plane<Improved, Strict>(g, ax, at);
    const std::size_t N = hn::Lanes(DF());
    const std::size_t k0 = find(ax[1].i0) * N, k1 = find(ax[1].i1) * N;
    row_blend r{{c + k0, c + k1}, {gx + k0, gx + k1}, {gy + k0, gy + k1}, {}, {}};
    set_row_weights(ax[1], r);
    return r;
  }

  template <bool Improved, bool Strict>
  HWY_NOINLINE void hash_plane(const grid_plan& g, const row_axis* ax, const std::size_t* at) {
    const DI di;
    const std::size_t N = hn::Lanes(di);
    plane.set_plane(at, ax);
    const lattice_hasher<D, Improved, Strict> hash(g, ax, plane);
    const DF df;
    const std::size_t pc = point_count;
    float* const to[3] = {c, gx, gy};
    // Row k starts in vector k * pc / N: its lanes come from that vector and the next.
    VF prev[3], cur[3];
    std::size_t row = 0;
    for (std::size_t l = 0; row < rows; l += N) {
      if (l < lanes) {
        hash(hn::Load(di, px + l), hn::Load(di, iy + l), cur);
      } else {
        cur[0] = cur[1] = cur[2] = hn::Zero(df);
      }
      for (; l != 0 && row < rows && row * pc < l; ++row) {
        const std::size_t from = row * pc - (l - N);
        for (int what = 0; what < 3; ++what) {
          hn::Store(lanes_from(prev[what], cur[what], from), df, to[what] + row * N);
        }
      }
      for (int what = 0; what < 3; ++what) prev[what] = cur[what];
    }
  }

  /// Lanes [from, from + N) of lo followed by hi.
  /// (Highway 1.0 has no two-table lookup: the AVX-512 permute by hand, memory elsewhere.)
  static HWY_INLINE VF lanes_from(VF lo, VF hi, std::size_t from) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    const __m512i idx =
        _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                         _mm512_set1_epi32(static_cast<int>(from)));
    return VF{_mm512_permutex2var_ps(lo.raw, idx, hi.raw)};
#else
    const DF df;
    HWY_ALIGN float both[2 * hn::MaxLanes(DF())];
    hn::Store(lo, df, both);
    hn::Store(hi, df, both + hn::Lanes(df));
    return hn::LoadU(df, both + from);
#endif
  }
};

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
      if (!done && method[oi] == cell_rows::registers) {
        const auto in_registers = [&]<bool Improved>() {
          const row_blend r = row_blend_of<D, Improved, Strict>(g, o, ax, idx + 2, planes[oi]);
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
      if (!done && method[oi] == cell_rows::fused) {
        if (g.improved) {
          row_by_fused_cells<D, true, Strict>(
              row_blend_of<D, true, Strict>(g, o, ax, idx + 2, planes[oi]), o, n, dst);
        } else {
          row_by_fused_cells<D, false, Strict>(
              row_blend_of<D, false, Strict>(g, o, ax, idx + 2, planes[oi]), o, n, dst);
        }
        done = true;
      }
      if (!done) {
        if (g.improved) {
          cell_coefficients_v<D, true, Strict>(
              row_blend_of<D, true, Strict>(g, o, ax, idx + 2, planes[oi]), o, pa, pb);
        } else {
          cell_coefficients_v<D, false, Strict>(
              row_blend_of<D, false, Strict>(g, o, ax, idx + 2, planes[oi]), o, pa, pb);
        }
        const float* a0 = pa + o.side_offset[0];
        const float* b0 = pb + o.side_offset[0];
        const float* a1 = pa + o.side_offset[1];
        const float* b1 = pb + o.side_offset[1];
        if (method[oi] == cell_rows::narrow) {
          row_by_narrow_cells<Strict>(o, a0, b0, a1, b1, n, dst);
        } else {
          row_by_cells<Strict>(o, a0, b0, a1, b1, n, dst);
        }
      }
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
