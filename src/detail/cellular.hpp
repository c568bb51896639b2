// Cellular (Worley) noise on the library's seeded lattice, 1-D to 4-D: the internal exact double
// path (issue 51 item 3). docs/noise.md, "Cellular noise", states all of it; in short:
//
// Feature points. Cell c (integer coordinates c_0..c_{d-1}) is reduced per axis by the lattice's
// wrap exactly as improved noise reduces a lattice index (modulo the axis's period, then to the
// table: I_a in [0, 255]). Its hash byte b is value noise's corner hash of (I_0, ..., I_{d-1}):
// p[p[p[I_0] + I_1] + I_2] (missing indices 0 below 3-D, one more level p[... + I_3] in 4-D). Its
// one feature point is c_a + 0.5 + jitter * u_a with u_a = (q_a - 32767.5) / 65536, where the
// 16-bit q_a = 256 * p[b + 1 + 2a] + p[b + 2 + 2a]: so h_a = u_a + 0.5 = (q_a + 0.5) / 65536 lies
// in (0, 1) and the point strictly inside its cell for every jitter in [0, 1]. Its value
// (`cell-value`) is b / 127.5 - 1 in [-1, 1]: value noise's lattice value at the cell's corner c.
//
// Distances are computed from the point's fraction t_a = x_a - floor(x_a) and the cell offset o_a
// relative to x's cell: v_a = (o_a + (0.5 + jitter * u_a)) - t_a, summed over the axes in order
// (v_0^2 + v_1^2 + ..., |v_0| + |v_1| + ..., max |v_a|). Euclidean distances are compared by that
// sum of squares (the square root, taken last, is weakly monotone), so `euclidean` and
// `euclidean-squared` always pick the same points.
//
// Search. Every cell that can hold a point at distance <= the current F2 (F1 when only F1 or the
// cell value is asked) is visited; per-axis gaps from the point to the cell's box give a lower
// bound that prunes the rest (provably safe in floating point: see cellular.cpp). Offsets beyond
// k_cellular_reach[metric][d] never qualify (the F2 bound below, from x's own cell and its
// neighbour on x's nearer side of one axis).
//
// Ties. F1 <= F2 are the two smallest distances with multiplicity (two points at one distance:
// F2 = F1). Among points at one distance the cell whose coordinates are lexicographically
// smallest (x compared first) comes first: it gives F1's gradient and the cell value.
//
// Bounds (j = jitter, n = the metric's norm of (1, ..., 1): 1 chebyshev, sqrt(d) euclidean, d
// manhattan): 0 <= F1 < (1 + j)/2 * n (the supremum, approached at a lattice corner whose 2^d
// cells hold their points in their far corners); 0 <= F1 <= F2 < |(1 + j/2, (1 + j)/2, ...)|, the
// metric's length of that vector; 0 <= F2 - F1 < the F2 bound; euclidean-squared: the squares.
// cellular_bound() gives them, rounded up.
//
// Gradient (with respect to x) of the distance to one fixed point, v = point - x: euclidean
// -v / r (0 at r = 0), euclidean-squared -2 v, manhattan -sign(v_a) (sign(0) = 0), chebyshev
// -sign(v_m) on the first axis m of largest |v_m|, 0 elsewhere. F1's and F2's gradients are those
// of their points (at a border, where the nearest point changes, the point that the tie rule
// picks); F2 - F1's is their difference; the cell value's is 0.
#pragma once

#include <array>
#include <cstdint>

#include "perlin/lattice.hpp"

namespace perlin::detail {

/// How the distance from the point to a feature point is measured.
enum class cellular_distance : std::uint8_t {
  euclidean,          ///< sqrt(sum v_a^2): the default
  euclidean_squared,  ///< sum v_a^2
  manhattan,          ///< sum |v_a|
  chebyshev,          ///< max |v_a|
};

/// What cellular() returns.
enum class cellular_return : std::uint8_t {
  f1,           ///< the distance to the nearest feature point: the default
  f2,           ///< the distance to the second nearest
  f2_minus_f1,  ///< F2 - F1 (0 on the borders of the Voronoi cells)
  cell_value,   ///< the nearest point's value b / 127.5 - 1, in [-1, 1]
};

/// The option names, in enum order ("euclidean", ...; "f1", "f2", "f2-f1", "cell-value").
inline constexpr std::array<const char*, 4> k_cellular_distance_names = {
    "euclidean", "euclidean-squared", "manhattan", "chebyshev"};
inline constexpr std::array<const char*, 4> k_cellular_return_names = {"f1", "f2", "f2-f1",
                                                                       "cell-value"};

/// The settings of cellular noise. jitter must lie in [0, 1] (the caller checks: the core does
/// not, and its search radius and bounds hold only there).
struct cellular_params {
  cellular_distance distance = cellular_distance::euclidean;
  cellular_return ret = cellular_return::f1;
  double jitter = 1.0;
};

/// The largest cell offset per axis that can hold a point within F2's bound (jitter 1, the
/// largest), by metric (enum order) and dimension 1..4: ceil of the F2 bound. Offsets of |o| = R
/// are farther than R - 1 along their axis, and every metric is at least the largest axis.
inline constexpr int k_cellular_reach[4][4] = {
    {2, 2, 3, 3},  // euclidean: 1.5, sqrt(3.25), sqrt(4.25), sqrt(5.25)
    {2, 2, 3, 3},  // euclidean-squared: the same cells
    {2, 3, 4, 5},  // manhattan: 1.5, 2.5, 3.5, 4.5
    {2, 2, 2, 2},  // chebyshev: 1.5
};

/// Everything the search finds: F1 and F2 (in the metric's units), the nearest point's cell
/// value, and the gradients of F1 and F2 with respect to the point (entries [0, dims)).
struct cellular_result {
  double f1 = 0;
  double f2 = 0;
  double cell_value = 0;
  std::array<double, 4> grad_f1{};
  std::array<double, 4> grad_f2{};
};

/// The full search at `p` (dims = 1 to 4 coordinates). `need_f2` false may skip cells that only
/// F2 needs: f2 and grad_f2 are then unspecified. A NaN or infinite coordinate gives NaN
/// everywhere. Thread safe; deterministic.
cellular_result cellular_search(const lattice& l, cellular_distance distance, double jitter,
                                const double* p, int dims, bool need_f2) noexcept;
cellular_result cellular_search(const std::uint8_t* perm, const axis_wrap* wraps,
                                cellular_distance distance, double jitter, const double* p,
                                int dims, bool need_f2) noexcept;

/// Cellular noise at `p` (dims = 1 to 4 coordinates) as `c` asks; when `gradient` is not null
/// it receives the analytic gradient (dims entries). NaN or infinite coordinates give NaN.
double cellular(const lattice& l, const cellular_params& c, const double* p, int dims,
                double* gradient) noexcept;
/// The same on a permutation table and per-axis wraps (a fractal's octave: its periods scaled by
/// the lacunarity); cellular(l, ...) is cellular(l.perm().data(), wraps_of(l).data(), ...).
double cellular(const std::uint8_t* perm, const axis_wrap* wraps, const cellular_params& c,
                const double* p, int dims, double* gradient) noexcept;

/// The upper bound of cellular(l, c, ., dims) over every point and every lattice (rounded up a
/// few ulps, so the computed values stay at or below it); the lower bound is 0, or -1 for the
/// cell value (whose upper bound is 1).
double cellular_bound(const cellular_params& c, int dims) noexcept;

/// The feature point of a cell, relative to the cell's lower corner, and its hash byte: `idx`
/// holds the cell's wrapped indices I_a in [0, 255] (dims of them). Exposed for the bulk paths
/// and the tests that build the field from the documented formula.
struct cellular_cell {
  std::array<double, 4> offset{};  ///< 0.5 + jitter * u_a
  std::uint32_t hash = 0;          ///< b
};
cellular_cell cellular_feature(const permutation& p, const std::uint32_t* idx, int dims,
                               double jitter) noexcept;

}  // namespace perlin::detail
