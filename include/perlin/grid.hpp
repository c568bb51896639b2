// Bulk evaluation: whole uniform grids and batches of points, on SIMD (runtime dispatch) and on
// every core. Results do not depend on the thread count; the float results stay within a stated
// tolerance of the double scalar path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "perlin/field.hpp"

namespace perlin {

/// A uniform grid of `dims` (1 to 4) axes: sample (i, j, k, l) lies at
/// (origin[0] + (first[0] + i)*step[0], origin[1] + (first[1] + j)*step[1], ...), each
/// coordinate computed in double exactly so. Samples are stored with x fastest:
/// index = ((l*count[2] + k)*count[1] + j)*count[0] + i. Axes at and beyond `dims` are ignored.
///
/// `first` makes tiles exact: the grid with first = (a, b) and counts (w, h) is, value for value,
/// the region [a, a+w) x [b, b+h) of the grid with first = (0, 0) and the same origin and step.
/// (Moving `origin` by a*step instead would round differently in the last bits.)
struct grid {
  std::size_t dims = 2;
  std::array<std::size_t, 4> count{1, 1, 1, 1};
  std::array<double, 4> origin{0, 0, 0, 0};
  std::array<double, 4> step{1, 1, 1, 1};
  /// Index of the first sample along each axis; |first + count| must stay below 2^53.
  std::array<std::int64_t, 4> first{0, 0, 0, 0};

  /// The coordinate of sample i along `axis`: origin[axis] + (first[axis] + i) * step[axis],
  /// computed in exactly this way by every path.
  [[nodiscard]] double coordinate(std::size_t axis, std::size_t i) const noexcept;

  /// The number of samples, the product of the counts. Throws perlin::invalid_argument when a
  /// count is 0, dims is not 1 to 4, or the product overflows std::size_t.
  [[nodiscard]] std::size_t size() const;
};

/// Options of the bulk calls.
struct bulk_options {
  /// Worker threads: 0 = one per usable CPU (the affinity mask and a cgroup CPU quota count), 1 = the calling
  /// thread only. The result is the same, bit for bit, for every thread count.
  unsigned threads = 1;
  /// Strict mode: no fused multiply-add in the vector kernels, so every SIMD target (and the
  /// scalar fallback) gives identical bits. Slightly slower on targets with FMA.
  bool strict = false;
};

/// Fills `out` (exactly g.size() floats) with the field on the grid.
///
/// Accuracy: within 2e-6 absolute (times the sum of the octave amplitudes for fractals) of the
/// double scalar path at the same double coordinates, on every SIMD target, for coordinates
/// below 2^20 in magnitude (tests/grid_test.cpp holds it to that). SIMD kernels cover improved and
/// value noise in 1 to 4 dimensions with every fractal, seed and period.
/// Throws perlin::invalid_argument for a bad grid, a size mismatch or a non-finite origin or step.
void fill_grid(const field& f, const grid& g, std::span<float> out, const bulk_options& o = {});

/// The double version: the scalar reference path at every sample (bit for bit the single calls),
/// on every core.
void fill_grid(const field& f, const grid& g, std::span<double> out, const bulk_options& o = {});

/// Values and analytic gradients: `gradient` holds g.dims * g.size() floats, planar (the
/// derivative along axis k of sample n is gradient[k * g.size() + n]). Computed by the scalar
/// double path and rounded to float (within one float rounding of exact), on every core.
void fill_grid_deriv(const field& f, const grid& g, std::span<float> out,
                     std::span<float> gradient, const bulk_options& o = {});

/// A batch of points, one array per coordinate; the dimension is the number of leading non-empty
/// arrays (x alone is 1-D, x and y 2-D, ...). All arrays have the same length.
template <class T>
struct point_set {
  std::span<const T> x{}, y{}, z{}, w{};
};

/// Evaluates the field at every point into `out` (as long as the arrays).
/// Float: SIMD gathers for improved and value noise in 1 to 3 dimensions without a period or
/// with power-of-two periods; the scalar float path otherwise. Within 2e-6 absolute (times the
/// sum of amplitudes) of the double path at the same coordinates, for |coordinates| < 2^20.
/// Double: the scalar reference path, bit for bit the single calls.
void eval_points(const field& f, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o = {});
void eval_points(const field& f, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o = {});

}  // namespace perlin
