// The nodes that are libnoise's modules with more than one line of formula (docs/graphs.md):
// blend, select, and the libnoise modes of curve and terrace. Each is written in the operation
// order of libnoise 1.0's src/module/*.cpp and interp.h (LinearInterp, SCurve3, CubicInterp), so
// that, fed the same source values, the doubles are libnoise's (tests/graph_libnoise_test.cpp
// holds them to Debian's libnoise bit for bit); the gradients are the chain rule through them.
#include <cstddef>
#include <vector>

#include "detail/error.hpp"
#include "graph/formula.hpp"
#include "runtime/text.hpp"

namespace perlin::detail {

namespace {

// libnoise's interp.h, in its operation order.
double linear_interp(double n0, double n1, double a) { return ((1.0 - a) * n0) + (a * n1); }
double s_curve3(double a) { return (a * a * (3.0 - 2.0 * a)); }

/// (1 - a) g0 + a g1 + (v1 - v0) da: the gradient of linear_interp(v0, v1, a).
void lerp_gradient(const value_grad& s0, const value_grad& s1, double a, const double* da,
                   value_grad& out, int dims) {
  for (int j = 0; j < dims; ++j) {
    out.g[j] = (1.0 - a) * s0.g[j] + a * s1.g[j] + (s1.v - s0.v) * da[j];
  }
}

void copy(const value_grad& in, value_grad& out, int dims, bool grad) {
  out.v = in.v;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = in.g[j];
  }
}

int clamp_index(int i, int lo, int hi) { return i < lo ? lo : (i > hi ? hi : i); }

}  // namespace

// Blend: alpha = (control + 1) / 2; LinearInterp(a, b, alpha).
void blend_node(const node_state&, const value_grad* const* in, std::size_t, value_grad& out,
                int dims, bool grad) {
  const value_grad& a = *in[0];
  const value_grad& b = *in[1];
  const value_grad& c = *in[2];
  const double alpha = (c.v + 1.0) / 2.0;
  out.v = linear_interp(a.v, b.v, alpha);
  if (grad) {
    double da[4];
    for (int j = 0; j < dims; ++j) da[j] = c.g[j] / 2.0;
    lerp_gradient(a, b, alpha, da, out, dims);
  }
}

// Select (libnoise's Select::GetValue). derived[0] is the falloff as libnoise keeps it: clamped
// to (upper - lower) / 2 by SetEdgeFalloff.
void select_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                 int dims, bool grad) {
  const value_grad& s0 = *in[0];
  const value_grad& s1 = *in[1];
  const value_grad& c = *in[2];
  const double lower = s.params[0].number;
  const double upper = s.params[1].number;
  const double falloff = s.derived[0];
  const double cv = c.v;
  if (falloff > 0.0) {
    // In a falloff band from lo_curve to hi_curve: t = (c - lo) / (hi - lo), alpha = SCurve3(t),
    // and d alpha = 6 t (1 - t) dc / (hi - lo).
    const auto band = [&](const value_grad& from, const value_grad& to, double lo_curve,
                          double hi_curve) {
      const double t = (cv - lo_curve) / (hi_curve - lo_curve);
      const double alpha = s_curve3(t);
      out.v = linear_interp(from.v, to.v, alpha);
      if (grad) {
        const double slope = 6.0 * t * (1.0 - t) / (hi_curve - lo_curve);
        double da[4];
        for (int j = 0; j < dims; ++j) da[j] = slope * c.g[j];
        lerp_gradient(from, to, alpha, da, out, dims);
      }
    };
    // libnoise's chain of five branches, its first and last (a) joined.
    if (cv < (lower - falloff) || !(cv < (upper + falloff))) {
      copy(s0, out, dims, grad);
    } else if (cv < (lower + falloff)) {
      band(s0, s1, (lower - falloff), (lower + falloff));
    } else if (cv < (upper - falloff)) {
      copy(s1, out, dims, grad);
    } else {
      band(s1, s0, (upper - falloff), (upper + falloff));
    }
  } else {
    copy(cv < lower || cv > upper ? s0 : s1, out, dims, grad);
  }
}

void prepare_select(node_state& s, std::string_view id) {
  const double lower = s.params[0].number;
  const double upper = s.params[1].number;
  if (!(lower < upper)) {
    throw_invalid(param_name(id, "upper"), "must be greater than lower (" + number_text(lower) +
                                               "), got " + number_text(upper));
  }
  // Select::SetEdgeFalloff: the falloff bands may not overlap.
  const double falloff = s.params[2].number;
  const double bound_size = upper - lower;
  s.derived = {(falloff > bound_size / 2) ? bound_size / 2 : falloff};
}

// Curve::GetValue: points are (in, out) pairs sorted by in, at least 4.
double libnoise_curve(const std::vector<double>& points, double v, double& slope) {
  const int count = static_cast<int>(points.size() / 2);
  int index_pos = 0;
  for (; index_pos < count; ++index_pos) {
    if (v < points[2 * static_cast<std::size_t>(index_pos)]) break;
  }
  const int i0 = clamp_index(index_pos - 2, 0, count - 1);
  const int i1 = clamp_index(index_pos - 1, 0, count - 1);
  const int i2 = clamp_index(index_pos, 0, count - 1);
  const int i3 = clamp_index(index_pos + 1, 0, count - 1);
  const auto in_at = [&](int i) { return points[2 * static_cast<std::size_t>(i)]; };
  const auto out_at = [&](int i) { return points[2 * static_cast<std::size_t>(i) + 1]; };
  if (i1 == i2) {
    slope = 0;
    return out_at(i1);
  }
  const double input0 = in_at(i1);
  const double input1 = in_at(i2);
  const double alpha = (v - input0) / (input1 - input0);
  // CubicInterp(n0, n1, n2, n3, alpha), and its derivative 3 p a^2 + 2 q a + r over the span.
  const double n0 = out_at(i0), n1 = out_at(i1), n2 = out_at(i2), n3 = out_at(i3);
  const double p = (n3 - n2) - (n0 - n1);
  const double q = (n0 - n1) - p;
  const double r = n2 - n0;
  const double s = n1;
  slope = (3.0 * p * alpha * alpha + 2.0 * q * alpha + r) / (input1 - input0);
  return p * alpha * alpha * alpha + q * alpha * alpha + r * alpha + s;
}

// Terrace::GetValue: points sorted, at least 2.
double libnoise_terrace(const std::vector<double>& points, bool invert, double v, double& slope) {
  const int count = static_cast<int>(points.size());
  int index_pos = 0;
  for (; index_pos < count; ++index_pos) {
    if (v < points[static_cast<std::size_t>(index_pos)]) break;
  }
  const int index0 = clamp_index(index_pos - 1, 0, count - 1);
  const int index1 = clamp_index(index_pos, 0, count - 1);
  if (index0 == index1) {
    slope = 0;
    return points[static_cast<std::size_t>(index1)];
  }
  double value0 = points[static_cast<std::size_t>(index0)];
  double value1 = points[static_cast<std::size_t>(index1)];
  double alpha = (v - value0) / (value1 - value0);
  double dalpha = 1.0 / (value1 - value0);
  if (invert) {
    alpha = 1.0 - alpha;
    dalpha = -dalpha;
    const double t = value0;
    value0 = value1;
    value1 = t;
  }
  // d/dv LinearInterp(v0, v1, alpha^2) = (v1 - v0) 2 alpha dalpha.
  slope = (value1 - value0) * (2.0 * alpha * dalpha);
  alpha *= alpha;
  return linear_interp(value0, value1, alpha);
}

}  // namespace perlin::detail
