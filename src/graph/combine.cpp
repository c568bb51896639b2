// The combining nodes (docs/graphs.md): add, subtract, multiply, min, max, smooth-min,
// smooth-max and constant. Inputs fold from the left in their order, so a node of two inputs is
// libnoise's Add, Multiply, Min and Max bit for bit, and more inputs are those modules chained.
#include <cmath>

#include "graph/formula.hpp"

namespace perlin::detail {

namespace {

void copy(const value_grad& in, value_grad& out, int dims, bool grad) {
  out.v = in.v;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = in.g[j];
  }
}

/// The smooth minimum of a and b with smoothness k (a cubic polynomial blend, C2):
/// h = max(k - |a - b|, 0) / k; min(a, b) - h^3 k / 6. Its partial derivatives are w_a and
/// 1 - w_a with w_a = 1 - h^2 / 2 where a <= b, h^2 / 2 where a > b (equal at a = b).
double smooth_min(double a, double b, double k, double& w_a) {
  const double h = std::fmax(k - std::fabs(a - b), 0.0) / k;
  const double m = a < b ? a : b;
  w_a = a <= b ? 1.0 - h * h / 2.0 : h * h / 2.0;
  return m - h * h * h * k / 6.0;
}

/// The smooth maximum: max(a, b) + h^3 k / 6 with the same h; w_a = 1 - h^2 / 2 where a >= b.
double smooth_max(double a, double b, double k, double& w_a) {
  const double h = std::fmax(k - std::fabs(a - b), 0.0) / k;
  const double m = a > b ? a : b;
  w_a = a >= b ? 1.0 - h * h / 2.0 : h * h / 2.0;
  return m + h * h * h * k / 6.0;
}

}  // namespace

void add_node(const node_state&, const value_grad* const* in, std::size_t n, value_grad& out,
              int dims, bool grad) {
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    out.v = out.v + in[i]->v;
    if (grad) {
      for (int j = 0; j < dims; ++j) out.g[j] = out.g[j] + in[i]->g[j];
    }
  }
}

void subtract_node(const node_state&, const value_grad* const* in, std::size_t, value_grad& out,
                   int dims, bool grad) {
  out.v = in[0]->v - in[1]->v;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = in[0]->g[j] - in[1]->g[j];
  }
}

void multiply_node(const node_state&, const value_grad* const* in, std::size_t n, value_grad& out,
                   int dims, bool grad) {
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    // d(u v) = du v + u dv, with u the product so far.
    if (grad) {
      for (int j = 0; j < dims; ++j) out.g[j] = out.g[j] * in[i]->v + out.v * in[i]->g[j];
    }
    out.v = out.v * in[i]->v;
  }
}

// libnoise's GetMin(a, b) is a < b ? a : b: on a tie the value is b's (the same number, or its
// other zero). The gradient on a tie is the first input's: it changes only where an input is
// strictly smaller.
void min_node(const node_state&, const value_grad* const* in, std::size_t n, value_grad& out,
              int dims, bool grad) {
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    const double v = in[i]->v;
    if (grad && v < out.v) {
      for (int j = 0; j < dims; ++j) out.g[j] = in[i]->g[j];
    }
    out.v = out.v < v ? out.v : v;
  }
}

void max_node(const node_state&, const value_grad* const* in, std::size_t n, value_grad& out,
              int dims, bool grad) {
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    const double v = in[i]->v;
    if (grad && v > out.v) {
      for (int j = 0; j < dims; ++j) out.g[j] = in[i]->g[j];
    }
    out.v = out.v > v ? out.v : v;
  }
}

void smooth_min_node(const node_state& s, const value_grad* const* in, std::size_t n,
                     value_grad& out, int dims, bool grad) {
  const double k = s.params[0].number;
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    double w = 0;
    const double v = smooth_min(out.v, in[i]->v, k, w);
    if (grad) {
      for (int j = 0; j < dims; ++j) out.g[j] = w * out.g[j] + (1.0 - w) * in[i]->g[j];
    }
    out.v = v;
  }
}

void smooth_max_node(const node_state& s, const value_grad* const* in, std::size_t n,
                     value_grad& out, int dims, bool grad) {
  const double k = s.params[0].number;
  copy(*in[0], out, dims, grad);
  for (std::size_t i = 1; i < n; ++i) {
    double w = 0;
    const double v = smooth_max(out.v, in[i]->v, k, w);
    if (grad) {
      for (int j = 0; j < dims; ++j) out.g[j] = w * out.g[j] + (1.0 - w) * in[i]->g[j];
    }
    out.v = v;
  }
}

void constant_node(const node_state& s, const value_grad* const*, std::size_t, value_grad& out,
                   int dims, bool) {
  out.v = s.params[0].number;
  for (int j = 0; j < dims; ++j) out.g[j] = 0;
}

}  // namespace perlin::detail
