// The unary nodes (docs/graphs.md): abs, invert, clamp, scale-bias and exponent, each libnoise's
// module of that name bit for bit (Abs, Invert, Clamp, ScaleBias, Exponent), with the chain rule.
#include <cmath>

#include "detail/error.hpp"
#include "graph/formula.hpp"
#include "runtime/text.hpp"

namespace perlin::detail {

// Abs: fabs(v). Gradient sign(v) g, with +g at v = 0 (either zero): the derivative from the
// right.
void abs_node(const node_state&, const value_grad* const* in, std::size_t, value_grad& out,
              int dims, bool grad) {
  const double v = in[0]->v;
  out.v = std::fabs(v);
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = v < 0 ? -in[0]->g[j] : in[0]->g[j];
  }
}

// Invert: -v.
void invert_node(const node_state&, const value_grad* const* in, std::size_t, value_grad& out,
                 int dims, bool grad) {
  out.v = -in[0]->v;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = -in[0]->g[j];
  }
}

// Clamp: v < lower ? lower : v > upper ? upper : v. Gradient: the input's where the value is
// the input's (lower <= v <= upper, the bounds included), 0 where it is a bound.
void clamp_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                int dims, bool grad) {
  const double lower = s.params[0].number;
  const double upper = s.params[1].number;
  const double v = in[0]->v;
  const bool inside = !(v < lower) && !(v > upper);
  out.v = v < lower ? lower : (v > upper ? upper : v);
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = inside ? in[0]->g[j] : 0.0;
  }
}

void prepare_clamp(node_state& s, std::string_view id) {
  // libnoise's Clamp::SetBounds asserts lower < upper.
  if (!(s.params[0].number < s.params[1].number)) {
    throw_invalid(param_name(id, "upper"), "must be greater than lower (" +
                                               number_text(s.params[0].number) + "), got " +
                                               number_text(s.params[1].number));
  }
}

// ScaleBias: v * scale + bias.
void scale_bias_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                     int dims, bool grad) {
  const double scale = s.params[0].number;
  const double bias = s.params[1].number;
  out.v = in[0]->v * scale + bias;
  if (grad) {
    for (int j = 0; j < dims; ++j) out.g[j] = in[0]->g[j] * scale;
  }
}

// Exponent: pow(fabs((v + 1) / 2), e) * 2 - 1. With u = (v + 1) / 2, d/dv = e |u|^(e-1) sign(u)
// (the 2 and the 1/2 cancel); at u = 0 the gradient is 0 where e != 1 (the derivative is 0 for
// e > 1 and does not exist for e < 1) and the input's for e = 1.
void exponent_node(const node_state& s, const value_grad* const* in, std::size_t, value_grad& out,
                   int dims, bool grad) {
  const double e = s.params[0].number;
  const double v = in[0]->v;
  const double u = (v + 1.0) / 2.0;
  out.v = std::pow(std::fabs(u), e) * 2.0 - 1.0;
  if (grad) {
    double d = 0;
    if (u != 0) {
      d = e * std::pow(std::fabs(u), e - 1.0);
      if (u < 0) d = -d;
    } else if (e == 1.0) {
      d = 1.0;
    }
    for (int j = 0; j < dims; ++j) out.g[j] = d * in[0]->g[j];
  }
}

}  // namespace perlin::detail
