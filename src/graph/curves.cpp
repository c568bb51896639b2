// The curve and terrace nodes (docs/graphs.md). curve: `monotone` (the default), a monotone cubic
// Hermite spline (Fritsch and Carlson 1980): C1 for any spacing of the points and never beyond
// two neighbouring points' outputs; `libnoise`: libnoise's Curve (libnoise_modules.cpp).
// terrace: `libnoise`, libnoise's Terrace; `smooth`, a quintic S-curve between neighbouring
// points: flat at every point, so C1 (C2) where libnoise's form has a kink. Both are flat outside
// their first and last points.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

#include "detail/error.hpp"
#include "graph/formula.hpp"
#include "runtime/text.hpp"

namespace perlin::detail {

namespace {

constexpr double k_curve_monotone = 0;  // the index of `monotone` in curve's mode choices
constexpr double k_terrace_smooth = 1;  // the index of `smooth` in terrace's mode choices

/// The segment of v among sorted knots, by libnoise's rule: the first knot k with v < x_k ends
/// it (so a knot starts the segment on its right); 0 below the first knot, count above the last.
template <class At>
int segment_end(int count, double v, At x) {
  int k = 0;
  for (; k < count; ++k) {
    if (v < x(k)) break;
  }
  return k;
}

/// The monotone cubic at v from points (in, out, ...) and tangents m (one per point).
double monotone_curve(const std::vector<double>& points, const std::vector<double>& m, double v,
                      double& slope) {
  const int count = static_cast<int>(points.size() / 2);
  const auto x = [&](int i) { return points[2 * static_cast<std::size_t>(i)]; };
  const auto y = [&](int i) { return points[2 * static_cast<std::size_t>(i) + 1]; };
  const int k = segment_end(count, v, x);
  slope = 0;
  if (k == 0) return y(0);
  if (k == count) return y(count - 1);
  const double x0 = x(k - 1), x1 = x(k), y0 = y(k - 1), y1 = y(k);
  const double h = x1 - x0;
  const double m0 = h * m[static_cast<std::size_t>(k - 1)];
  const double m1 = h * m[static_cast<std::size_t>(k)];
  const double t = (v - x0) / h;
  const double t2 = t * t;
  const double t3 = t2 * t;
  // The Hermite basis h00, h10, h01, h11 and their derivatives in t.
  const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
  const double h10 = t3 - 2.0 * t2 + t;
  const double h01 = -2.0 * t3 + 3.0 * t2;
  const double h11 = t3 - t2;
  const double d00 = 6.0 * t2 - 6.0 * t;
  const double d10 = 3.0 * t2 - 4.0 * t + 1.0;
  const double d01 = -6.0 * t2 + 6.0 * t;
  const double d11 = 3.0 * t2 - 2.0 * t;
  slope = (d00 * y0 + d10 * m0 + d01 * y1 + d11 * m1) / h;
  return h00 * y0 + h10 * m0 + h01 * y1 + h11 * m1;
}

/// The smooth terrace: between neighbouring points p0 < p1, LinearInterp(p0, p1, s(t)) with
/// t = (v - p0) / (p1 - p0) and s(t) = t^3 (t (6 t - 15) + 10).
double smooth_terrace(const std::vector<double>& points, double v, double& slope) {
  const int count = static_cast<int>(points.size());
  const auto x = [&](int i) { return points[static_cast<std::size_t>(i)]; };
  const int k = segment_end(count, v, x);
  slope = 0;
  if (k == 0) return x(0);
  if (k == count) return x(count - 1);
  const double p0 = x(k - 1), p1 = x(k);
  const double t = (v - p0) / (p1 - p0);
  const double s = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
  const double ds = 30.0 * t * t * (t - 1.0) * (t - 1.0);
  slope = ds;  // d/dv of p0 + (p1 - p0) s(t), with dt/dv = 1 / (p1 - p0)
  return ((1.0 - s) * p0) + (s * p1);
}

void apply_slope(const value_grad& in, double value, double slope, value_grad& out, int dims,
                 bool grad) {
  out.v = value;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = slope * in.g[j];
  }
}

}  // namespace

void curve_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                int dims, bool grad) {
  double slope = 0;
  const double v = s.params[1].number == k_curve_monotone
                       ? monotone_curve(s.params[0].list, s.derived, in[0]->v, slope)
                       : libnoise_curve(s.params[0].list, in[0]->v, slope);
  apply_slope(*in[0], v, slope, out, dims, grad);
}

void prepare_curve(node_state& s, std::string_view id) {
  std::vector<double>& list = s.params[0].list;
  const std::size_t count = list.size() / 2;
  // Sorted by input (libnoise's AddControlPoint keeps them so), so that equal curves are
  // written alike; an input given twice is refused, as libnoise does.
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return list[2 * a] < list[2 * b]; });
  std::vector<double> sorted;
  for (const std::size_t i : order) {
    sorted.push_back(list[2 * i]);
    sorted.push_back(list[2 * i + 1]);
  }
  for (std::size_t i = 1; i < count; ++i) {
    if (sorted[2 * i] == sorted[2 * i - 2]) {
      throw_invalid(param_name(id, "points"),
                    "the input " + number_text(sorted[2 * i]) + " is given twice");
    }
  }
  list = sorted;
  const bool monotone = s.params[1].number == k_curve_monotone;
  if (!monotone && count < 4) {
    throw_invalid(param_name(id, "points"),
                  "mode libnoise needs at least 4 points, got " + std::to_string(count));
  }
  if (!monotone) return;
  // Fritsch-Carlson tangents: secants d_k; m_k the mean of neighbouring secants of one sign,
  // else 0 (one-sided at the ends); then each segment's pair scaled into the circle of radius 3.
  std::vector<double> d(count - 1), m(count);
  for (std::size_t k = 0; k + 1 < count; ++k) {
    d[k] = (sorted[2 * k + 3] - sorted[2 * k + 1]) / (sorted[2 * k + 2] - sorted[2 * k]);
  }
  m[0] = d[0];
  m[count - 1] = d[count - 2];
  for (std::size_t k = 1; k + 1 < count; ++k) {
    m[k] = d[k - 1] * d[k] > 0 ? (d[k - 1] + d[k]) / 2.0 : 0.0;
  }
  for (std::size_t k = 0; k + 1 < count; ++k) {
    if (d[k] == 0) {
      m[k] = 0;
      m[k + 1] = 0;
      continue;
    }
    const double a = m[k] / d[k];
    const double b = m[k + 1] / d[k];
    const double r = a * a + b * b;
    if (r > 9.0) {
      const double tau = 3.0 / std::sqrt(r);
      m[k] = tau * a * d[k];
      m[k + 1] = tau * b * d[k];
    }
  }
  s.derived = m;
}

void terrace_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                  int dims, bool grad) {
  double slope = 0;
  const double v =
      s.params[2].number == k_terrace_smooth
          ? smooth_terrace(s.params[0].list, in[0]->v, slope)
          : libnoise_terrace(s.params[0].list, s.params[1].number != 0, in[0]->v, slope);
  apply_slope(*in[0], v, slope, out, dims, grad);
}

void prepare_terrace(node_state& s, std::string_view id) {
  std::vector<double>& list = s.params[0].list;
  std::sort(list.begin(), list.end());
  for (std::size_t i = 1; i < list.size(); ++i) {
    if (list[i] == list[i - 1]) {
      throw_invalid(param_name(id, "points"),
                    "the point " + number_text(list[i]) + " is given twice");
    }
  }
}

}  // namespace perlin::detail
