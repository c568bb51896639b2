// Bulk evaluation: whole uniform grids and batches of points, on SIMD (runtime dispatch) and on
// every core. Results do not depend on the thread count; the float results stay within a stated
// tolerance of the double scalar path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
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
///
/// Origins and steps must be finite, steps not 0, and every sample's coordinate within 2^52 in
/// magnitude (the domain every front accepts); fill_grid throws perlin::invalid_argument else.
/// The default step is 1/64 (64 samples across a lattice cell), not 1: a step of 1 samples only
/// lattice points, where improved noise is 0 everywhere. The factories line(), plane() and
/// volume() set dims and counts together.
struct grid {
  static constexpr double k_default_step = 1.0 / 64;

  std::size_t dims = 2;
  std::array<std::size_t, 4> count{1, 1, 1, 1};
  std::array<double, 4> origin{0, 0, 0, 0};
  std::array<double, 4> step{k_default_step, k_default_step, k_default_step, k_default_step};
  /// Index of the first sample along each axis; |first + count| must stay below 2^53.
  std::array<std::int64_t, 4> first{0, 0, 0, 0};

  /// The coordinate of sample i along `axis`: origin[axis] + (first[axis] + i) * step[axis],
  /// computed in exactly this way by every path.
  [[nodiscard]] double coordinate(std::size_t axis, std::size_t i) const noexcept;

  /// The number of samples, the product of the counts. Throws perlin::invalid_argument when a
  /// count is 0, dims is not 1 to 4, or the product overflows std::size_t.
  [[nodiscard]] std::size_t size() const;

  /// A 1-D grid of n samples from x0 with the given step.
  [[nodiscard]] static grid line(std::size_t n, double step = k_default_step, double x0 = 0) {
    grid g;
    g.dims = 1;
    g.count = {n, 1, 1, 1};
    g.step[0] = step;
    g.origin[0] = x0;
    return g;
  }
  /// A 2-D grid of w x h samples (x fastest) from (x0, y0), the same step on both axes.
  [[nodiscard]] static grid plane(std::size_t w, std::size_t h, double step = k_default_step,
                                  double x0 = 0, double y0 = 0) {
    grid g;
    g.dims = 2;
    g.count = {w, h, 1, 1};
    g.step = {step, step, step, step};
    g.origin = {x0, y0, 0, 0};
    return g;
  }
  /// A 3-D grid of w x h x d samples from (x0, y0, z0), the same step on every axis.
  [[nodiscard]] static grid volume(std::size_t w, std::size_t h, std::size_t d,
                                   double step = k_default_step, double x0 = 0, double y0 = 0,
                                   double z0 = 0) {
    grid g;
    g.dims = 3;
    g.count = {w, h, d, 1};
    g.step = {step, step, step, step};
    g.origin = {x0, y0, z0, 0};
    return g;
  }
};

/// The smallest and largest value a bulk call wrote, found while writing (no second pass over
/// memory by the caller). NaN samples are ignored; if every sample is NaN, min is +infinity and
/// max is -infinity.
template <class T>
struct value_range {
  T min = std::numeric_limits<T>::infinity();
  T max = -std::numeric_limits<T>::infinity();
};

/// Options of the bulk calls.
struct bulk_options {
  /// Worker threads: 0 = one per usable CPU (the affinity mask and a cgroup CPU quota count), but
  /// no more than the work warrants (one per 262,144 samples of a SIMD grid, fewer samples on
  /// the slower paths: a small grid runs on the calling thread); 1 = the calling thread only; N =
  /// up to N. The result is the same, bit for bit, for every thread count. Default 0, as in every
  /// front (CLI, Python, C, C#, Lua): docs/design.md says why.
  unsigned threads = 0;
  /// Strict mode: no fused multiply-add in the vector kernels, so every SIMD target (and the
  /// scalar fallback) gives identical bits. Slightly slower on targets with FMA.
  bool strict = false;
};

/// The float paths' stated accuracy against the double scalar path (docs/exactness.md): values
/// within k_float_tolerance absolute for |coordinates| < 2^20, times the sum of the octave
/// amplitudes for fractals (value_tolerance), and partials within k_gradient_tolerance times the
/// sum over octaves of amplitude x frequency, divided by the amplitude sum when normalised
/// (gradient_tolerance). The tests, the self-check of every SIMD target and every front's tests
/// hold the kernels to these.
inline constexpr double k_float_tolerance = 2e-6;
inline constexpr double k_gradient_tolerance = 2e-5;
/// k_float_tolerance times the field's amplitude sum.
[[nodiscard]] double value_tolerance(const field& f) noexcept;
/// The tolerance of the float partial derivatives of `f` (see k_gradient_tolerance).
[[nodiscard]] double gradient_tolerance(const field& f) noexcept;

/// Fills `out` (exactly g.size() floats) with the field on the grid.
///
/// Accuracy: within 2e-6 absolute (times the sum of the octave amplitudes for fractals) of the
/// double scalar path at the same double coordinates, on every SIMD target, for coordinates
/// below 2^20 in magnitude (tests/grid_test.cpp and tests/promises_test.cpp hold it to that). SIMD
/// kernels cover improved and value noise in 1 to 4 dimensions with every fractal, seed and
/// period (docs/design.md, "How a grid row is filled"). Rotated
/// planes (2-D and 3-D grids) go through the per-sample kernel of fill_grid_deriv, with the same
/// accuracy; warped fields take the double scalar path, rounded.
/// Throws perlin::invalid_argument for a bad grid, a size mismatch or a non-finite origin or step.
/// Returns the smallest and largest value written.
value_range<float> fill_grid(const field& f, const grid& g, std::span<float> out,
                             const bulk_options& o = {});

/// The double version: bit for bit the single calls (the scalar reference path), on every core.
/// Improved noise in 2-D and 3-D, plain or fBm (aligned, not warped, rows of up to 65,536
/// samples), runs a SIMD kernel that performs the scalar path's operations lane by lane, in its
/// order and without fused multiply-adds (plain noise about 12x the single calls, 8-octave fBm at
/// a step of 1/64 about 7x); everything else runs the scalar path.
value_range<double> fill_grid(const field& f, const grid& g, std::span<double> out,
                              const bulk_options& o = {});

/// Values and analytic gradients: `gradient` holds g.dims * g.size() floats, planar (the
/// derivative along axis k of sample n is gradient[k * g.size() + n]).
///
/// Accuracy: values as fill_grid; each partial within 2e-5 times the sum over octaves of
/// amplitude x frequency (divided by the amplitude sum when normalised) of the double path, on
/// every SIMD target (docs/exactness.md). 1-D to 3-D grids, aligned or on a rotated plane, go
/// through a SIMD kernel that places every sample in double and blends in float; 4-D grids,
/// warped fields, periods that are not powers of two and cosine value noise take the double
/// scalar path, rounded. Near the kinks of turbulence, ridged and billow (an octave's noise at
/// 0, the ridged weight at its clamp) the gradient may take the value from the other side.
value_range<float> fill_grid_deriv(const field& f, const grid& g, std::span<float> out,
                                   std::span<float> gradient, const bulk_options& o = {});
/// The double version: values and partials bit for bit those of field::eval with a gradient
/// (the scalar path), on every core.
value_range<double> fill_grid_deriv(const field& f, const grid& g, std::span<double> out,
                                    std::span<double> gradient, const bulk_options& o = {});

/// A batch of points, one array per coordinate; the dimension is the number of leading non-empty
/// arrays (x alone is 1-D, x and y 2-D, ...). All arrays have the same length.
template <class T>
struct point_set {
  std::span<const T> x{}, y{}, z{}, w{};
};

/// Evaluates the field at every point into `out` (as long as the arrays).
/// Float: SIMD gathers for improved and value noise in 1 to 3 dimensions without a period or
/// with power-of-two periods; otherwise the double scalar path, rounded to float. An empty batch
/// (every array empty) is valid and does nothing. Within 2e-6 absolute (times the
/// sum of amplitudes) of the double path at the same coordinates, for |coordinates| < 2^20.
/// Double: the scalar reference path, bit for bit the single calls.
void eval_points(const field& f, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o = {});
void eval_points(const field& f, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o = {});

/// Values and analytic gradients at every point: `gradient` holds dims * out.size() values,
/// planar (the derivative along axis k of point i is gradient[k * out.size() + i]).
/// Float: the sample kernel of fill_grid_deriv (each point placed in double, blended in float)
/// for 1 to 3 dimensions on an aligned plane without a warp, with no period or power-of-two
/// periods and not cosine value noise, with fill_grid_deriv's accuracy; otherwise the double
/// scalar path, rounded. Double: the scalar reference path, bit for bit field::eval.
void eval_points_deriv(const field& f, const point_set<float>& p, std::span<float> out,
                       std::span<float> gradient, const bulk_options& o = {});
void eval_points_deriv(const field& f, const point_set<double>& p, std::span<double> out,
                       std::span<double> gradient, const bulk_options& o = {});

}  // namespace perlin
