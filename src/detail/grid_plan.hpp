// The plain data that crosses the dispatch boundary: everything a per-target kernel needs to fill
// rows of a grid or a range of points. No vector types here: only pointers, sizes and plain
// structs cross the dispatch boundary (docs/design.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "perlin/fractal.hpp"
#include "perlin/lattice.hpp"
#include "perlin/value_noise.hpp"
#include "runtime/cpu_vendor.hpp"

namespace perlin::detail {

/// Extra entries after every per-column table, so that a kernel may load a whole vector at the
/// last column: 64 floats cover the widest vectors Highway has (HWY_MAX_BYTES, 256 bytes for
/// SVE/RVV; 64 on x86). simd/rows.cc checks this against HWY_MAX_BYTES at compile time.
inline constexpr std::size_t k_pad = 64;

/// The int32 tables the kernels gather from, built from the permutation once per permutation
/// (shared_hash_tables) and shared, read-only, by every plan and thread that uses it.
struct hash_tables {
  std::array<std::int32_t, 512 + 16> perm{};  // the doubled permutation
  /// perm_z0[k] = perm[perm[k]]: the last two levels of the hash of the z = 0 slice in one
  /// lookup, so 2-D noise needs one gather per corner instead of two.
  std::array<std::int32_t, 512 + 16> perm_z0{};
  /// pairs[k] = perm[k] | perm[k + 1] << 16 (and the same of perm_z0): when the upper index of
  /// an axis is the lower one plus 1 (no period, or one that is a multiple of 256), one gather
  /// fetches the hashes of both corners along that axis.
  std::array<std::int32_t, 512 + 16> pairs{};
  std::array<std::int32_t, 512 + 16> pairs_z0{};
  /// The permutation as bytes, for lookups of a byte per lane (64 at a time where the CPU has
  /// a two-table byte permute): with every index mask 255, hashing is arithmetic modulo 256.
  std::array<std::uint8_t, 256> bytes{};
};

/// One octave of a grid: where it samples and its tables along x (the row direction). The tables
/// are views of their grid_plan's storage.
struct octave_plan {
  /// Axes 1..3: per sample index along that axis, the hashed indices, fraction and blend weight,
  /// so that starting a row costs lookups only.
  struct axis_sample {
    std::uint32_t i0, i1;
    double f, t;
  };
  double freq = 1;  // octave coordinate = x * freq + offset
  std::array<double, 4> offset{};
  std::array<axis_wrap, 4> wrap{};
  /// True: per-sample gathers (cells narrower than a few columns; 1 to 3 dimensions only), with
  /// px0 and px1 and no cells; false: per-cell coefficients, with cell and points.
  bool gather = false;
  // Per column (count[0] + k_pad entries, the padding repeats the last column):
  std::span<float> fx;           // fraction of the octave coordinate, in [0, 1)
  std::span<float> t;            // its blend weight: fade for improved, the interpolation for value
  std::span<std::int32_t> cell;  // its cell among the row's, in order: +0 or +1 a column
  std::span<std::int32_t> px0, px1;  // p[hashed x index] of its lower and upper corner
  /// The lattice points along x that the row's cells have as corners, as p[x] (the first level
  /// of the hash): `point_count` of them, then k_pad copies of the last. Cell c's lower corner is
  /// points[c + side_offset[0]], its upper one points[c + side_offset[1]]: {0, 1} when the cells
  /// rise along the row and share their corners, {1, 0} when they fall, {0, cells} otherwise
  /// (each cell's two corners, cells apart).
  std::span<std::int32_t> points;
  std::size_t point_count = 0;
  std::array<std::uint32_t, 2> side_offset{0, 1};
  std::array<std::span<axis_sample>, 4> axis;
  std::size_t cells = 0;
};

/// The ridged fractal's offset and gain, in float (fractal.hpp).
struct ridged_params {
  float offset = 1;
  float gain = 2;
};

/// The alignment of the tables in grid_plan::storage (a cache line, and an AVX-512 vector).
inline constexpr std::size_t k_storage_alignment = 64;

/// A whole grid call, built once by the public entry point and read by every thread.
struct grid_plan {
  int dims = 2;
  bool improved = true;  // false: value noise
  interpolation interp = interpolation::quintic;
  fractal_kind kind = fractal_kind::none;
  ridged_params ridged;
  float normalize_by = 1;  // 1 / sum of amplitudes, or 1
  bool normalize = false;
  bool strict = false;
  /// Whose cores run the kernels (this_cpu_vendor(), read once when the plan is made): AVX3_DL
  /// hashes 2-D rows differently on Intel's and on AMD's (simd/rows-inl.h).
  cpu_vendor vendor = cpu_vendor::other;
  std::array<std::size_t, 4> count{1, 1, 1, 1};
  std::array<double, 4> origin{};
  std::array<double, 4> step{};
  std::array<std::int64_t, 4> first{};
  /// Distance in floats between the starts of two rows of the output (the whole grid's width
  /// when the plan covers a band of columns).
  std::size_t row_stride = 0;
  /// Per octave, in `storage` (vectors of their own were two more allocations a call, and each
  /// octave_plan was built on the stack then copied in).
  std::span<float> amp;
  std::span<octave_plan> octaves;
  std::shared_ptr<const hash_tables> tables;
  /// What the octaves and their tables are (and the plan builder's scratch): one allocation a
  /// call rather than seven an octave (a 64x64 grid's call spent a tenth of its time in malloc
  /// and free). Move-only, so that no copy views another plan's storage.
  std::unique_ptr<std::byte[]> storage;
  grid_plan() = default;
  grid_plan(grid_plan&&) noexcept = default;
  grid_plan& operator=(grid_plan&&) noexcept = default;
  grid_plan(const grid_plan&) = delete;
  grid_plan& operator=(const grid_plan&) = delete;
  ~grid_plan() = default;
};

/// A double grid of improved noise, plain or fBm (2-D or 3-D, aligned, no warp), to be computed
/// with the scalar path's bits: the plan holds, per octave, per column and per row index, what
/// the scalar code computes for that coordinate (its own split_axis and fade, so the same
/// doubles); the kernel blends the corners in lanes, each lane the scalar operations in the
/// scalar order (no fused multiply-add), and sums the octaves as fractal.cpp does
/// (total = total + n * amp from 0, then / the amplitude sum when normalised).
struct exact_grid_plan {
  struct octave {
    double amp = 1;
    // Per column (nx + k_pad; the padding repeats the last column): the fraction, its fade, and
    // the index of its cell among the row's cells.
    std::vector<double> fx, u;
    std::vector<std::int32_t> cell;
    // Per cell of the row (`cells`, then k_pad copies of the last): p[lower x index] and
    // p[upper x index].
    std::size_t cells = 0;
    std::vector<std::int32_t> a, b;
    // Per index along y (axis 1) and z (axis 2): wrapped indices, fraction and fade.
    std::array<std::vector<octave_plan::axis_sample>, 3> axis;
  };
  int dims = 2;
  std::size_t nx = 0;
  std::array<std::size_t, 4> count{1, 1, 1, 1};
  std::size_t row_stride = 0;  // doubles between the starts of two rows of the output
  std::shared_ptr<const hash_tables> tables;  // the lattice's permutation as gather tables
  bool normalize = false;
  double amplitude_sum = 1;
  std::vector<octave> octaves;
};

/// A batch of float points for the gather kernel.
struct points_plan {
  int dims = 3;
  bool improved = true;
  interpolation interp = interpolation::quintic;
  fractal_kind kind = fractal_kind::none;
  ridged_params ridged;
  bool normalize = false;
  float normalize_by = 1;
  bool strict = false;
  float erosion = 0;  // the eroded fractal's k (fractal::erosion): eval_points_d, values only
  /// eval_points_d: coordinates 1.. are the same at every sample of a call (an aligned grid's
  /// row, grid.cpp), so the kernel splits them once per octave.
  bool constant_axes = false;
  std::vector<float> amp;
  std::vector<double> freq;
  std::vector<std::array<double, 4>> offset;
  std::vector<std::array<std::uint32_t, 4>> mask;  // per octave and axis: the index mask
  const float* coord[4] = {nullptr, nullptr, nullptr, nullptr};
  std::shared_ptr<const hash_tables> tables;
};

/// The per-target entry points, filled by the kernels' translation unit for each target.
/// fill_rows writes rows [row_begin, row_end) of the plan's grid from `out` (row_stride apart)
/// and folds the smallest and largest value it wrote (NaN ignored) into *lo and *hi, while the
/// rows are still in cache (a second pass over a large grid reads it back from memory).
using fill_rows_fn = void (*)(const grid_plan&, std::size_t row_begin, std::size_t row_end,
                              float* out, float* lo, float* hi);
using eval_points_fn = void (*)(const points_plan&, std::size_t begin, std::size_t end, float* out);

/// Samples at double coordinates coord[a][0 .. n) (a < plan.dims <= 3): every octave's lattice
/// position x * freq + offset is computed in double and split exactly (so that any coordinate,
/// rotated planes included, is placed like the scalar path places it), then the noise is blended
/// in float. Values go to out[0 .. n); when `grad` is not null, grad[a][0 .. n) receives the
/// analytic partial derivative along axis a (chain rule through the fractal). The plan's
/// `coord` pointers are not used. Improved noise, and value noise but the cosine interpolation.
/// The eroded fractal (each octave's gradient feeds it): values only, `grad` null.
using eval_points_d_fn = void (*)(const points_plan&, const double* const* coord, std::size_t n,
                                  float* out, float* const* grad);

/// One octave of noise (a plan of one octave, kind none, amplitude 1: a domain warp's) at double
/// coordinates coord[a][0 .. n) (a < plan.dims <= 3), hashed in 32-bit lanes and blended in
/// double: values to out[0 .. n) and, when `grad` is not null, the partials along each axis (the
/// octave's frequency included) to grad[a][0 .. n). Improved noise, and value noise but the
/// cosine interpolation; every mask (no modulo period).
using noise_points_dd_fn = void (*)(const points_plan&, const double* const* coord, std::size_t n,
                                    double* out, double* const* grad);

/// One axis of a grid at one octave: sample i's octave coordinate is
/// q = (origin + (first + i) * step) * freq + offset, grid::coordinate's sum then the octave's.
/// Its blend weight is detail::interp_weight's `weight` (quintic: Ken Perlin's fade, the weight
/// of improved noise); cosine's, a library call per sample, is left to the caller.
struct axis_line {
  double origin = 0, first = 0, step = 1, freq = 1, offset = 0;
  interpolation weight = interpolation::quintic;
};

/// For i in [0, n): fl[i] = floor(q), f[i] = q - floor(q) and t[i] its blend weight (not written
/// for cosine), the scalar operations in their order, so the same doubles on every
/// target (q NaN or infinite: fl and f are what floor and the difference give, NaN for f).
using axis_fractions_fn = void (*)(const axis_line& a, std::size_t n, double* fl, double* f,
                                   double* t);

/// The smallest and largest of v[0 .. n), NaN ignored (+inf and -inf when every value is NaN).
using min_max_fn = void (*)(const float* v, std::size_t n, float* lo, float* hi);

/// Rows [row_begin, row_end) of an exact double grid (exact_grid_plan) from `out`, the smallest
/// and largest value folded into *lo and *hi.
using fill_rows_exact_fn = void (*)(const exact_grid_plan&, std::size_t row_begin,
                                    std::size_t row_end, double* out, double* lo, double* hi);

/// The per-sample crossover of every target without a faster way to hash a sample
/// (kernels::gather_below_width), and of strict mode on every target: the cell method and the
/// per-sample one round differently, so strict mode's same bits on every target need the same
/// choice on every target.
inline constexpr std::array<double, 4> k_portable_gather_below_width = {3.0, 1.2, 0.9, 0.0};

/// A target's crossovers on cores of `vendor` (kernels::gather_below_width).
using gather_widths_fn = std::array<double, 4> (*)(cpu_vendor vendor);

struct kernels {
  fill_rows_fn fill_rows;
  eval_points_fn eval_points;
  eval_points_d_fn eval_points_d;
  min_max_fn min_max;
  fill_rows_exact_fn fill_rows_exact;
  /// Cells narrower than this many samples are hashed per sample (row_by_gathers) rather than
  /// per cell, by dimension (1-D to 4-D; 4-D has only the cell method): the crossover depends on
  /// how a target hashes a sample, and on AVX3_DL on whose cores run it (simd/rows-inl.h).
  gather_widths_fn gather_below_width;
  /// The plans' axis tables (make_grid_plan).
  axis_fractions_fn axis_fractions;
  /// A domain warp's displacement noise (bulk/warp_samples.cpp).
  noise_points_dd_fn noise_points_dd = nullptr;
};

}  // namespace perlin::detail
