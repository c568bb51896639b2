// The nodes' elementwise kernels of the bulk calls (graph_kernels.hpp). Each double loop is its
// node's formula (combine.cpp, unary.cpp, libnoise_modules.cpp) operation for operation, written
// with selects in place of branches; compiled without contraction like the formulas.
#include "graph/graph_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>

// The kernels compiled for AVX-512, AVX2 and the baseline and chosen at load time, where the
// compiler can: GCC on x86-64 Linux (Clang 14 takes target_clones on no function template).
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define PERLIN_GRAPH_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define PERLIN_GRAPH_CLONES
#endif

namespace perlin::detail {

namespace {

constexpr double k_curve_monotone = 0;  // curve's mode choices: monotone, libnoise
constexpr double k_terrace_smooth = 1;  // terrace's mode choices: libnoise, smooth

/// The largest |c1 + 2 c2 t + 3 c3 t^2| for t in [0, 1]: at an end or at the vertex.
double max_quadratic(double c1, double c2, double c3) {
  const auto d = [&](double t) { return std::fabs(c1 + 2.0 * c2 * t + 3.0 * c3 * t * t); };
  double m = std::max(d(0.0), d(1.0));
  if (c3 != 0) {
    const double t = -c2 / (3.0 * c3);
    if (t > 0 && t < 1) m = std::max(m, d(t));
  }
  return m;
}

void add_segment(piecewise_table& tab, double x0, double inv_h, const double (&c)[6]) {
  tab.x0.push_back(x0);
  tab.inv_h.push_back(inv_h);
  double sum = 0;
  for (const double ck : c) {
    tab.c.push_back(ck);
    sum += std::fabs(ck);
  }
  tab.coef_sum = std::max(tab.coef_sum, sum);
}

void add_constant(piecewise_table& tab, double x0, double value) {
  add_segment(tab, x0, 0.0, {value, 0, 0, 0, 0, 0});
}

}  // namespace

piecewise_table make_piecewise(const graph_node_data& n) {
  piecewise_table tab;
  const node_state& s = n.state;
  const std::vector<double>& pts = s.params[0].list;
  if (n.row->name == "curve") {
    const std::size_t count = pts.size() / 2;
    const auto x = [&](std::size_t i) { return pts[2 * i]; };
    const auto y = [&](std::size_t i) { return pts[2 * i + 1]; };
    for (std::size_t i = 0; i < count; ++i) tab.knots.push_back(x(i));
    const bool monotone = s.params[1].number == k_curve_monotone;
    add_constant(tab, x(0), y(0));
    for (std::size_t k = 1; k < count; ++k) {
      const double h = x(k) - x(k - 1);
      double c[6] = {0, 0, 0, 0, 0, 0};
      if (monotone) {
        const double y0 = y(k - 1), y1 = y(k);
        const double m0 = h * s.derived[k - 1], m1 = h * s.derived[k];
        c[0] = y0;
        c[1] = m0;
        c[2] = -3.0 * y0 - 2.0 * m0 + 3.0 * y1 - m1;
        c[3] = 2.0 * y0 + m0 - 2.0 * y1 + m1;
      } else {
        // libnoise's CubicInterp over points k-2 .. k+1, clamped to the list.
        const std::size_t i0 = k >= 2 ? k - 2 : 0;
        const std::size_t i3 = std::min(k + 1, count - 1);
        const double n0 = y(i0), n1 = y(k - 1), n2 = y(k), n3 = y(i3);
        const double p = (n3 - n2) - (n0 - n1);
        c[3] = p;
        c[2] = (n0 - n1) - p;
        c[1] = n2 - n0;
        c[0] = n1;
      }
      add_segment(tab, x(k - 1), 1.0 / h, c);
      tab.slope = std::max(tab.slope, max_quadratic(c[1], c[2], c[3]) / h);
    }
    add_constant(tab, x(count - 1), y(count - 1));
    tab.value_bound = tab.coef_sum;  // |value| <= the largest sum of |c_k| (add_segment)
  } else {                           // terrace
    const std::size_t count = pts.size();
    const bool smooth = s.params[2].number == k_terrace_smooth;
    const bool invert = s.params[1].number != 0;
    tab.knots = pts;
    add_constant(tab, pts[0], pts[0]);
    for (std::size_t k = 1; k < count; ++k) {
      const double p0 = pts[k - 1], d = pts[k] - pts[k - 1];
      double c[6] = {p0, 0, 0, 0, 0, 0};
      if (smooth) {
        c[3] = 10.0 * d;
        c[4] = -15.0 * d;
        c[5] = 6.0 * d;
      } else if (invert) {
        c[1] = 2.0 * d;
        c[2] = -d;
      } else {
        c[2] = d;
      }
      add_segment(tab, p0, 1.0 / d, c);
      tab.value_bound = std::max({tab.value_bound, std::fabs(pts[k - 1]), std::fabs(pts[k])});
    }
    add_constant(tab, pts[count - 1], pts[count - 1]);
    tab.slope = smooth ? 1.875 : 2.0;
  }
  return tab;
}

node_kernel make_kernel(const graph_node_data& n, bool for_float) {
  node_kernel k;
  const std::string_view name = n.row->name;
  const node_state& s = n.state;
  const auto number = [&](std::size_t i) { return s.params[i].number; };
  if (name == "constant") {
    k.kind = kernel_kind::constant;
    k.p[0] = number(0);
  } else if (name == "add") {
    k.kind = kernel_kind::add;
  } else if (name == "subtract") {
    k.kind = kernel_kind::subtract;
  } else if (name == "multiply") {
    k.kind = kernel_kind::multiply;
  } else if (name == "min") {
    k.kind = kernel_kind::min;
  } else if (name == "max") {
    k.kind = kernel_kind::max;
  } else if (name == "smooth-min" || name == "smooth-max") {
    k.kind = name == "smooth-min" ? kernel_kind::smooth_min : kernel_kind::smooth_max;
    k.p[0] = number(0);
  } else if (name == "abs") {
    k.kind = kernel_kind::abs;
  } else if (name == "invert") {
    k.kind = kernel_kind::invert;
  } else if (name == "clamp") {
    k.kind = kernel_kind::clamp;
    k.p[0] = number(0);
    k.p[1] = number(1);
  } else if (name == "scale-bias") {
    k.kind = kernel_kind::scale_bias;
    k.p[0] = number(0);
    k.p[1] = number(1);
  } else if (name == "exponent") {
    k.kind = kernel_kind::exponent;
    k.p[0] = number(0);
  } else if (name == "blend") {
    k.kind = kernel_kind::blend;
  } else if (name == "select") {
    k.kind = kernel_kind::select;
    k.p[0] = number(0);
    k.p[1] = number(1);
    k.p[2] = s.derived[0];
  } else if ((name == "curve" || name == "terrace") && for_float) {
    k.kind = kernel_kind::piecewise;
    k.table = make_piecewise(n);
  }
  return k;
}

namespace {

/// The polynomial of each element's segment: t and Horner's rule over coefficient arrays indexed
/// by the segment (gathers where the target has them: the function is compiled for AVX-512, AVX2
/// and the baseline and picked at load time where the compiler supports target_clones).
template <class T, int Degree>
PERLIN_GRAPH_CLONES void piecewise_eval(const T* __restrict v, const std::int32_t* __restrict idx,
                                        const T* const* c, T* __restrict out, std::size_t n) {
  const T* __restrict x0 = c[0];
  const T* __restrict ih = c[1];
  const T* __restrict c0 = c[2];
  const T* __restrict c1 = c[3];
  const T* __restrict c2 = c[4];
  const T* __restrict c3 = c[5];
  const T* __restrict c4 = c[6];
  const T* __restrict c5 = c[7];
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t s = idx[i];
    const T t = (v[i] - x0[s]) * ih[s];
    if constexpr (Degree == 2) {
      out[i] = c0[s] + t * (c1[s] + t * c2[s]);
    } else if constexpr (Degree == 3) {
      out[i] = c0[s] + t * (c1[s] + t * (c2[s] + t * c3[s]));
    } else {
      out[i] = c0[s] + t * (c1[s] + t * (c2[s] + t * (c3[s] + t * (c4[s] + t * c5[s]))));
    }
  }
}

/// The same for a table of few segments, without gathers: each element's coefficients chosen by
/// a chain of selects over the knots (unrolled, Segs known), so the loop runs on vectors.
template <class T, int Degree, int Segs>
PERLIN_GRAPH_CLONES void piecewise_select(const T* __restrict v, const T* __restrict knots,
                                          const T* const* c, T* __restrict out, std::size_t n) {
  constexpr int k_coefs = Degree + 3;  // x0, 1/h, c0 .. c_Degree
  T tab[k_coefs][Segs];
  for (int k = 0; k < k_coefs; ++k) {
    for (int s = 0; s < Segs; ++s) tab[k][s] = c[k][s];
  }
  T kn[Segs];
  for (int s = 1; s < Segs; ++s) kn[s] = knots[s - 1];
  for (std::size_t i = 0; i < n; ++i) {
    const T x = v[i];
    T r[k_coefs];
    for (int k = 0; k < k_coefs; ++k) r[k] = tab[k][0];
    for (int s = 1; s < Segs; ++s) {
      const bool m = x >= kn[s];
      for (int k = 0; k < k_coefs; ++k) r[k] = m ? tab[k][s] : r[k];
    }
    const T t = (x - r[0]) * r[1];
    T y = r[2 + Degree];
    for (int k = Degree - 1; k >= 0; --k) y = r[2 + k] + t * y;
    out[i] = y;
  }
}

template <class T, int Degree, int Segs = 3>
bool piecewise_small(std::size_t segs, const T* v, const T* knots, const T* const* c, T* out,
                     std::size_t n) {
  if constexpr (Segs > 9) {
    return false;
  } else {
    if (segs == static_cast<std::size_t>(Segs)) {
      piecewise_select<T, Degree, Segs>(v, knots, c, out, n);
      return true;
    }
    return piecewise_small<T, Degree, Segs + 1>(segs, v, knots, c, out, n);
  }
}

template <class T>
PERLIN_GRAPH_CLONES void piecewise(const piecewise_table& tab, const T* v, T* out,
                                   std::size_t count) {
  // The segment of each element (the number of knots at or below it: libnoise's rule), then its
  // polynomial. The coefficients in T, one array per coefficient, indexed by segment.
  constexpr std::size_t k_chunk = 512;
  const std::size_t segs = tab.x0.size();
  const std::size_t nk = tab.knots.size();
  std::vector<T> arrays(8 * segs);
  const T* c[8];
  int degree = 0;
  for (std::size_t k = 0; k < 8; ++k) {
    T* a = arrays.data() + k * segs;
    for (std::size_t s = 0; s < segs; ++s) {
      const double x = k == 0 ? tab.x0[s] : k == 1 ? tab.inv_h[s] : tab.c[6 * s + (k - 2)];
      a[s] = static_cast<T>(x);
      if (k >= 2 && x != 0) degree = std::max(degree, static_cast<int>(k) - 2);
    }
    c[k] = a;
  }
  std::vector<T> knots(nk);
  for (std::size_t j = 0; j < nk; ++j) knots[j] = static_cast<T>(tab.knots[j]);
  // Few segments (up to 8 knots): selects on vectors over the whole array.
  const bool small = degree <= 2   ? piecewise_small<T, 2>(segs, v, knots.data(), c, out, count)
                     : degree == 3 ? piecewise_small<T, 3>(segs, v, knots.data(), c, out, count)
                                   : piecewise_small<T, 5>(segs, v, knots.data(), c, out, count);
  if (small) return;
  std::int32_t idx[k_chunk];
  for (std::size_t b = 0; b < count; b += k_chunk) {
    const std::size_t n = std::min(k_chunk, count - b);
    const T* vb = v + b;
    for (std::size_t i = 0; i < n; ++i) idx[i] = 0;
    for (std::size_t j = 0; j < nk; ++j) {
      const T kj = knots[j];
      for (std::size_t i = 0; i < n; ++i) idx[i] += vb[i] >= kj ? 1 : 0;
    }
    if (degree <= 2) {
      piecewise_eval<T, 2>(vb, idx, c, out + b, n);
    } else if (degree == 3) {
      piecewise_eval<T, 3>(vb, idx, c, out + b, n);
    } else {
      piecewise_eval<T, 5>(vb, idx, c, out + b, n);
    }
  }
}

}  // namespace

template <class T>
PERLIN_GRAPH_CLONES void run_kernel(const node_kernel& k, const T* const* in, std::size_t n_in,
                                    T* out, std::size_t count) {
  const T* a = in != nullptr && n_in > 0 ? in[0] : nullptr;
  const T p0 = static_cast<T>(k.p[0]), p1 = static_cast<T>(k.p[1]), p2 = static_cast<T>(k.p[2]);
  switch (k.kind) {
    case kernel_kind::generic:
      break;
    case kernel_kind::constant:
      std::fill(out, out + count, p0);
      break;
    case kernel_kind::add:
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] + in[1][i];
      for (std::size_t m = 2; m < n_in; ++m) {
        const T* b = in[m];
        for (std::size_t i = 0; i < count; ++i) out[i] = out[i] + b[i];
      }
      break;
    case kernel_kind::subtract: {
      const T* b = in[1];
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] - b[i];
      break;
    }
    case kernel_kind::multiply:
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] * in[1][i];
      for (std::size_t m = 2; m < n_in; ++m) {
        const T* b = in[m];
        for (std::size_t i = 0; i < count; ++i) out[i] = out[i] * b[i];
      }
      break;
    case kernel_kind::min:
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] < in[1][i] ? a[i] : in[1][i];
      for (std::size_t m = 2; m < n_in; ++m) {
        const T* b = in[m];
        for (std::size_t i = 0; i < count; ++i) out[i] = out[i] < b[i] ? out[i] : b[i];
      }
      break;
    case kernel_kind::max:
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] > in[1][i] ? a[i] : in[1][i];
      for (std::size_t m = 2; m < n_in; ++m) {
        const T* b = in[m];
        for (std::size_t i = 0; i < count; ++i) out[i] = out[i] > b[i] ? out[i] : b[i];
      }
      break;
    case kernel_kind::smooth_min:
    case kernel_kind::smooth_max: {
      const bool is_min = k.kind == kernel_kind::smooth_min;
      const T zero = 0, six = 6;
      std::copy(a, a + count, out);
      for (std::size_t m = 1; m < n_in; ++m) {
        const T* b = in[m];
        for (std::size_t i = 0; i < count; ++i) {
          const T x = out[i], y = b[i];
          const T h = std::fmax(p0 - std::fabs(x - y), zero) / p0;
          const T corr = h * h * h * p0 / six;
          out[i] = is_min ? (x < y ? x : y) - corr : (x > y ? x : y) + corr;
        }
      }
      break;
    }
    case kernel_kind::abs:
      for (std::size_t i = 0; i < count; ++i) out[i] = std::fabs(a[i]);
      break;
    case kernel_kind::invert:
      for (std::size_t i = 0; i < count; ++i) out[i] = -a[i];
      break;
    case kernel_kind::clamp:
      for (std::size_t i = 0; i < count; ++i) {
        const T v = a[i];
        out[i] = v < p0 ? p0 : (v > p1 ? p1 : v);
      }
      break;
    case kernel_kind::scale_bias:
      for (std::size_t i = 0; i < count; ++i) out[i] = a[i] * p0 + p1;
      break;
    case kernel_kind::exponent: {
      const T one = 1, two = 2;
      for (std::size_t i = 0; i < count; ++i) {
        out[i] = std::pow(std::fabs((a[i] + one) / two), p0) * two - one;
      }
      break;
    }
    case kernel_kind::blend: {
      const T one = 1, two = 2;
      const T* b = in[1];
      const T* c = in[2];
      for (std::size_t i = 0; i < count; ++i) {
        const T alpha = (c[i] + one) / two;
        out[i] = ((one - alpha) * a[i]) + (alpha * b[i]);
      }
      break;
    }
    case kernel_kind::select: {
      const T* b = in[1];
      const T* c = in[2];
      const T lower = p0, upper = p1, f = p2;
      if (!(f > 0)) {
        for (std::size_t i = 0; i < count; ++i) {
          const bool outside = (c[i] < lower) | (c[i] > upper);
          out[i] = outside ? a[i] : b[i];
        }
        break;
      }
      // libnoise's branches as selects: the band's ends and sources chosen, then one S-curve.
      const T one = 1, two = 2, three = 3;
      const T lo_lo = lower - f, lo_hi = lower + f, hi_lo = upper - f, hi_hi = upper + f;
      const T inv_lo = one / (lo_hi - lo_lo), inv_hi = one / (hi_hi - hi_lo);
      for (std::size_t i = 0; i < count; ++i) {
        const T cv = c[i], av = a[i], bv = b[i];
        const bool outside = (cv < lo_lo) | !(cv < hi_hi);
        const bool first_band = cv < lo_hi;
        const bool inside = !first_band & (cv < hi_lo);
        const T from = first_band ? av : bv;
        const T to = first_band ? bv : av;
        const T lo = first_band ? lo_lo : hi_lo;
        const T hi = first_band ? lo_hi : hi_hi;
        // Float: times the band's reciprocal (docs/graphs.md counts its rounding); double: the
        // formula's division.
        T t;
        if constexpr (std::is_same_v<T, float>) {
          t = (cv - lo) * (first_band ? inv_lo : inv_hi);
        } else {
          t = (cv - lo) / (hi - lo);
        }
        const T alpha = (t * t * (three - two * t));
        const T band = ((one - alpha) * from) + (alpha * to);
        const T kept = inside ? bv : band;
        out[i] = outside ? av : kept;
      }
      break;
    }
    case kernel_kind::piecewise:
      piecewise(k.table, a, out, count);
      break;
  }
}

template void run_kernel<float>(const node_kernel&, const float* const*, std::size_t, float*,
                                std::size_t);
template void run_kernel<double>(const node_kernel&, const double* const*, std::size_t, double*,
                                 std::size_t);

}  // namespace perlin::detail
