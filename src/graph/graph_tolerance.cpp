// value_tolerance and gradient_tolerance of a graph (graph_grid.hpp): the rule of docs/graphs.md,
// "Bulk calls and tolerance", carried step by step through the graph's plan. Each step gets a
// bound B on |value|, a slope bound L (|value(p) - value(p')| <= L max_i |p_i - p'_i|), the
// value tolerance T, and for gradients a bound G on each partial and its tolerance TG. Each
// point context gets a bound R on its coordinates and the error D of its points.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "graph/graph_access.hpp"
#include "graph/graph_kernels.hpp"
#include "perlin/graph_grid.hpp"

namespace perlin {

namespace {

using detail::graph_data;
using detail::graph_node_data;
using detail::plan_step;

constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_u = 1.0 / 16777216.0;  // 2^-24: a float operation's relative rounding
/// A bound on a partial derivative of one octave of unit-frequency improved or value noise: the
/// largest over 10^6 random points per dimension was 3.37 (improved, 4-D) and 3.75 (value noise:
/// its exact bound, the quintic fade's slope 1.875 times a difference of 2); the rule takes 5.
constexpr double k_unit_slope = 5.0;
/// The largest |d^2 s / dt^2| of the smooth terrace's s(t) = t^3 (t (6 t - 15) + 10): 10 sqrt(3)/3.
constexpr double k_smooth_terrace_curvature = 5.7736;

struct bounds {
  double b = 0, l = 0, t = 0, g = 0, tg = 0;
};

struct context_bounds {
  double r = 0, d = 0;
  int dims = 0;
};

/// A field's slope bound (per partial), or infinity where the rule has none.
double field_slope(const graph_node_data& n) {
  const field_spec& s = n.state.spec;
  if ((s.noise != "improved" && s.noise != "value") || s.warp != "none") return k_inf;
  double factor = 1;
  if (s.fractal == "billow") {
    factor = 2;
  } else if (s.fractal != "none" && s.fractal != "fbm" && s.fractal != "turbulence") {
    return k_inf;
  }
  return factor * k_unit_slope * gradient_tolerance(n.state.source) / k_gradient_tolerance;
}

struct rule {
  struct node_state_view {
    const graph_node_data& n;
    double number(std::size_t i) const { return n.state.params[i].number; }
  };

  const graph_data& d;
  double bound;
  std::vector<bounds> at;
  std::vector<context_bounds> ctx;
  bool smooth = true;  // no kinks, no point transform: gradients have a bound

  void run(int root_dims) {
    at.resize(d.plan.size());
    ctx.resize(static_cast<std::size_t>(d.contexts));
    ctx[0] = {bound, 0, root_dims};
    for (std::size_t s = 0; s < d.plan.size(); ++s) step(s);
  }

  const bounds& in(const plan_step& st, std::size_t k) const {
    return at[static_cast<std::size_t>(st.inputs[k])];
  }

  void step(std::size_t s) {
    const plan_step& st = d.plan[s];
    const graph_node_data& n = d.nodes[static_cast<std::size_t>(st.node)];
    const std::string_view kind = n.row->name;
    const context_bounds& c = ctx[static_cast<std::size_t>(st.context)];
    const node_state_view p{n};
    bounds& o = at[s];
    if (st.point_step) {
      point(st, n, c);
      return;
    }
    if (n.row->field_options) {
      const auto range = n.state.source.range(static_cast<std::size_t>(c.dims));
      o.b = std::max(std::fabs(range.first), std::fabs(range.second));
      const double slope = field_slope(n);
      o.l = static_cast<double>(c.dims) * slope;
      // Points rounded to float where a transform made them (context 0's are the caller's).
      const double point_error = st.context == 0 ? 0.0 : c.d + k_u * c.r;
      o.t = value_tolerance(n.state.source) + (point_error > 0 ? o.l * point_error : 0.0);
      o.g = slope;
      o.tg = gradient_tolerance(n.state.source);
      return;
    }
    if (n.row->point_transform) {
      const bounds& src = in(st, 0);
      o = src;
      o.l = src.l * child_norm[static_cast<std::size_t>(st.child_context)];
      smooth = false;
      return;
    }
    const std::size_t count = st.inputs.size();
    if (kind == "constant") {
      o.b = std::fabs(p.number(0));
      o.t = k_u * o.b;
    } else if (kind == "add" || kind == "subtract") {
      for (std::size_t k = 0; k < count; ++k) {
        const bounds& a = in(st, k);
        o.b += a.b;
        o.l += a.l;
        o.t += a.t;
        o.g += a.g;
        o.tg += a.tg;
      }
      o.t += static_cast<double>(count - 1) * k_u * o.b;
      o.tg += static_cast<double>(count - 1) * k_u * o.g;
    } else if (kind == "multiply") {
      product(st, count, o);
    } else if (kind == "min" || kind == "max" || kind == "smooth-min" || kind == "smooth-max") {
      extremum(st, count, kind == "smooth-min" || kind == "smooth-max", p, o);
    } else if (kind == "abs" || kind == "invert") {
      o = in(st, 0);
      if (kind == "abs") smooth = false;
    } else if (kind == "clamp") {
      o = in(st, 0);
      o.b = std::min(o.b, std::max(std::fabs(p.number(0)), std::fabs(p.number(1))));
      smooth = false;
    } else if (kind == "scale-bias") {
      const bounds& a = in(st, 0);
      const double sc = std::fabs(p.number(0)), bias = std::fabs(p.number(1));
      o.b = sc * a.b + bias;
      o.l = sc * a.l;
      o.t = sc * a.t + 3 * k_u * o.b;
      o.g = sc * a.g;
      o.tg = sc * a.tg + 2 * k_u * o.g;
    } else if (kind == "exponent") {
      exponent(st, p.number(0), o);
    } else if (kind == "blend") {
      blend(st, o);
    } else if (kind == "select") {
      select(st, n, p, o);
    } else if (kind == "curve" || kind == "terrace") {
      piecewise(st, n, o);
    }
  }

  /// multiply: the product rule over the inputs in order.
  void product(const plan_step& st, std::size_t count, bounds& o) {
    o = in(st, 0);
    for (std::size_t k = 1; k < count; ++k) {
      const bounds& a = in(st, k);
      const bounds x = o;
      o.b = x.b * a.b;
      o.l = x.l * a.b + x.b * a.l;
      o.t = x.b * a.t + a.b * x.t + x.t * a.t + k_u * o.b;
      o.g = x.g * a.b + x.b * a.g;
      o.tg =
          x.tg * a.b + x.g * a.t + x.b * a.tg + x.t * a.g + x.t * a.tg + x.tg * a.t + 3 * k_u * o.g;
    }
  }

  /// min, max and their smooth forms (soft: smooth-min, smooth-max).
  void extremum(const plan_step& st, std::size_t count, bool soft, const node_state_view& p,
                bounds& o) {
    const double k = soft ? p.number(0) : 0.0;
    double sum_g = 0, sum_t = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const bounds& a = in(st, j);
      o.b = std::max(o.b, a.b);
      o.l = std::max(o.l, a.l);
      o.t = std::max(o.t, a.t);
      o.g = std::max(o.g, a.g);
      o.tg = std::max(o.tg, a.tg);
      sum_g += a.g;
      sum_t += a.t;
    }
    if (soft) {
      // Each fold adds at most k / 6; its weights move by at most 1/k per unit of a - b.
      o.b += static_cast<double>(count - 1) * k / 6.0;
      o.t += static_cast<double>(count - 1) * 8 * k_u * (o.b + k);
      o.tg += static_cast<double>(count - 1) * (sum_g * 2 * sum_t / k + 4 * k_u * o.g);
    } else {
      smooth = false;
    }
  }

  /// blend: libnoise's (1 - alpha) a + alpha b with alpha = (control + 1) / 2.
  void blend(const plan_step& st, bounds& o) {
    const bounds &a = in(st, 0), &b = in(st, 1), &ct = in(st, 2);
    const double alpha = (ct.b + 1) / 2;  // |alpha|; |1 - alpha| <= 1 + alpha
    o.b = (1 + alpha) * a.b + alpha * b.b;
    o.l = (1 + alpha) * a.l + alpha * b.l + (a.b + b.b) * ct.l / 2;
    o.t = (1 + alpha) * a.t + alpha * b.t + (a.b + b.b) * (ct.t + k_u * (ct.b + 1)) / 2 +
          8 * k_u * o.b;
    o.g = (1 + alpha) * a.g + alpha * b.g + (a.b + b.b) * ct.g / 2;
    o.tg = (1 + alpha) * a.tg + alpha * b.tg + (a.g + b.g) * ct.t / 2 + (a.t + b.t) * ct.g / 2 +
           (a.b + b.b) * ct.tg / 2 + 8 * k_u * o.g;
  }

  /// select: the S-curve edge over the falloff band, or a jump without falloff.
  void select(const plan_step& st, const graph_node_data& n, const node_state_view& p, bounds& o) {
    const bounds &a = in(st, 0), &b = in(st, 1), &ct = in(st, 2);
    const double f = n.state.derived[0];
    o.b = std::max(a.b, b.b);
    const double tc = ct.t + 4 * k_u * (ct.b + std::fabs(p.number(0)) + std::fabs(p.number(1)));
    if (f > 0) {
      const double slope = 0.75 / f;  // SCurve3' <= 1.5 over a band 2 f wide
      o.l = std::max(a.l, b.l) + (a.b + b.b) * slope * ct.l;
      o.t = std::max(a.t, b.t) + (a.b + b.b) * slope * tc + 16 * k_u * (a.b + b.b);
      o.g = std::max(a.g, b.g) + (a.b + b.b) * slope * ct.g;
      o.tg = std::max(a.tg, b.tg) + (a.g + b.g) * slope * tc + (a.t + b.t) * slope * ct.g +
             (a.b + b.b) * (slope * ct.tg + 1.5 / (f * f) * tc * ct.g) + 8 * k_u * o.g;
    } else {
      o.l = k_inf;
      // A control that is not exact may take the other branch: a jump of up to |a| + |b|.
      o.t = ct.t > 0 ? std::max(a.t, b.t) + a.b + b.b : std::max(a.t, b.t);
      smooth = false;
    }
  }

  void exponent(const plan_step& st, double e, bounds& o) {
    const bounds& a = in(st, 0);
    const double bu = (a.b + 1) / 2;  // |u|, u = (v + 1) / 2
    const double tu = (a.t + k_u * (a.b + 1)) / 2;
    o.b = 2 * std::pow(bu, e) + 1;
    if (e == 0) {
      o.l = o.t = o.g = o.tg = 0;
      return;
    }
    const double round = 8 * k_u * o.b;
    if (e < 1) {
      // |u|^e is Hoelder of order e with constant 1: |x^e - y^e| <= |x - y|^e.
      o.l = k_inf;
      o.t = 2 * std::pow(tu, e) + round;
      smooth = false;
      return;
    }
    const double slope = e * std::pow(bu, e - 1);  // d value / d v
    o.l = slope * a.l;
    o.t = slope * 2 * tu + round;
    o.g = slope * a.g;
    if (e == 1 || e >= 2) {
      const double curvature = e == 1 ? 0.0 : e * (e - 1) * std::pow(bu, e - 2) / 2;
      o.tg = slope * a.tg + curvature * (a.t + k_u * (a.b + 1)) * a.g + 8 * k_u * o.g;
    } else {
      smooth = false;
    }
  }

  void piecewise(const plan_step& st, const graph_node_data& n, bounds& o) {
    const bounds& a = in(st, 0);
    const detail::piecewise_table tab = detail::make_piecewise(n);
    const double xmax = std::max(std::fabs(tab.knots.front()), std::fabs(tab.knots.back()));
    // The float table: t = (v - x0) / h rounds by about 3 u (|v| + |x0|) / h, the polynomial by
    // 12 u times its coefficients' sum, the coefficients themselves by u.
    const double round = 2 * tab.slope * 3 * k_u * (a.b + xmax) + 16 * k_u * tab.coef_sum;
    o.b = tab.value_bound;
    o.l = tab.slope * a.l;
    o.t = tab.slope * a.t + round;
    o.g = tab.slope * a.g;
    const bool monotone_curve = n.row->name == "curve" && n.state.params[1].number == 0;
    const bool smooth_terrace = n.row->name == "terrace" && n.state.params[2].number == 1;
    if (monotone_curve || smooth_terrace) {
      double curvature = 0;  // the largest |d^2 value / d v^2|
      for (std::size_t s = 1; s + 1 < tab.x0.size(); ++s) {
        const double* c = tab.c.data() + 6 * s;
        const double ih = tab.inv_h[s];
        const double k2 = smooth_terrace
                              ? k_smooth_terrace_curvature * std::fabs(c[3] / 10.0)
                              : std::max(std::fabs(2 * c[2]), std::fabs(2 * c[2] + 6 * c[3]));
        curvature = std::max(curvature, k2 * ih * ih);
      }
      o.tg = tab.slope * a.tg + curvature * (a.t + round) * a.g + 8 * k_u * o.g;
    } else {
      smooth = false;
    }
  }

  // Point transforms: the context's points, their bound and error, and the norm of the Jacobian
  // (max-norm) that pulls the input's slope back.
  std::vector<double> child_norm;

  void point(const plan_step& st, const graph_node_data& n, const context_bounds& c) {
    const auto ci = static_cast<std::size_t>(st.child_context);
    context_bounds& out = ctx[ci];
    const std::string_view kind = n.row->name;
    const std::vector<double>& list =
        n.state.params.empty() ? std::vector<double>() : n.state.params[0].list;
    out = c;
    if (kind == "displace") {
      const std::size_t count = st.inputs.size();
      double max_b = 0, max_t = 0, sum_l = 0;
      for (std::size_t k = 0; k < count; ++k) {
        const bounds& a = in(st, k);
        max_b = std::max(max_b, a.b);
        max_t = std::max(max_t, a.t);
        sum_l += a.l;
      }
      out.dims = std::max(c.dims, static_cast<int>(count));
      out.r = c.r + max_b;
      out.d = c.d + max_t;
      child_norm[ci] = 1 + sum_l;
    } else if (kind == "scale-point") {
      double m = 1;
      for (const double x : list) m = std::max(m, std::fabs(x));
      out.r = c.r * m;
      out.d = c.d * m;
      child_norm[ci] = m;
    } else if (kind == "translate-point") {
      double m = 0;
      for (const double x : list) m = std::max(m, std::fabs(x));
      out.r = c.r + m;
      child_norm[ci] = 1;
    } else {  // rotate-point: the largest row sum of |m|
      const std::vector<double>& m = n.state.derived;
      double norm = 1;
      for (std::size_t r = 0; r < 9; r += 3) {
        norm = std::max(norm, std::fabs(m[r]) + std::fabs(m[r + 1]) + std::fabs(m[r + 2]));
      }
      out.dims = std::max(c.dims, 3);
      out.r = c.r * norm;
      out.d = c.d * norm;
      child_norm[ci] = norm;
    }
  }
};

/// The rule for points of 1 to 4 coordinates, the largest (the fields' bounds depend on it).
double worst(const graph& gr, double bound, bool gradients) {
  const graph_data& d = detail::graph_access::data(gr);
  double out = 0;
  for (int dims = 1; dims <= 4; ++dims) {
    rule r{d, bound, {}, {}, true, {}};
    r.child_norm.assign(static_cast<std::size_t>(d.contexts), 1.0);
    r.run(dims);
    const auto& last = r.at.back();
    out = std::max(out, gradients ? (r.smooth ? last.tg : k_inf) : last.t);
  }
  return out;
}

}  // namespace

double value_tolerance(const graph& gr, double bound) noexcept { return worst(gr, bound, false); }

double gradient_tolerance(const graph& gr, double bound) noexcept { return worst(gr, bound, true); }

double value_bound(const graph& gr, std::size_t dims) noexcept {
  const graph_data& d = detail::graph_access::data(gr);
  rule r{d, 1024, {}, {}, true, {}};
  r.child_norm.assign(static_cast<std::size_t>(d.contexts), 1.0);
  r.run(static_cast<int>(std::clamp<std::size_t>(dims, 1, 4)));
  return r.at.back().b;
}

}  // namespace perlin
