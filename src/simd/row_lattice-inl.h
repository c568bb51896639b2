// The lattice side of a float grid row by the cell method (rows-inl.h): the hashing of the
// lattice points a row's cells have as corners (lattice_hasher, a vector of points at a time),
// the per-plane caches of hashed lattice rows (plane_cache, packed_rows) and the blend of a
// row's two lattice rows along y into its coefficients A and B (row_blend, blend_points).
// Per-target code (Highway's -inl.h pattern, hwy/examples/skeleton-inl.h): included once
// per target through src/simd/rows.cc, so the guard toggles with HWY_TARGET_TOGGLE.
#if defined(PERLIN_SIMD_ROW_LATTICE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PERLIN_SIMD_ROW_LATTICE_INL_H_
#undef PERLIN_SIMD_ROW_LATTICE_INL_H_
#else
#define PERLIN_SIMD_ROW_LATTICE_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <new>

#include "detail/grid_plan.hpp"
#include "simd/noise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace perlin::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

}  // namespace HWY_NAMESPACE
}  // namespace perlin::detail
HWY_AFTER_NAMESPACE();

#endif  // PERLIN_SIMD_ROW_LATTICE_INL_H_
