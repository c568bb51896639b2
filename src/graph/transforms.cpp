// The point transforms (docs/graphs.md): displace, scale-point, translate-point and rotate-point,
// libnoise's Displace, ScalePoint, TranslatePoint and RotatePoint bit for bit. Each gives the point
// its first input sees and the Jacobian of that point; graph.cpp pulls the input's gradient back
// through it (the chain rule: grad_q = J^T grad_r).
#include <cmath>
#include <cstddef>

#include "detail/error.hpp"
#include "graph/formula.hpp"
#include "runtime/text.hpp"

namespace perlin::detail {

namespace {

void identity(point_map& out, int dims) {
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) out.jac[i][j] = i == j && i < dims ? 1.0 : 0.0;
  }
}

/// A per-axis list: one value for every axis, or one per axis with `unset` beyond the list.
double axis_value(const std::vector<double>& list, int axis, double unset) {
  if (list.size() == 1) return list[0];
  return static_cast<std::size_t>(axis) < list.size() ? list[static_cast<std::size_t>(axis)]
                                                      : unset;
}

}  // namespace

// Displace: r_i = q_i + d_i(q) for the displacements given (libnoise: x + (X.GetValue(x, y, z)));
// a displacement beyond the point's coordinates adds a coordinate (0 + d_i). Jacobian I + dd/dq.
void displace_point(const node_state&, const double* q, int q_dims, const value_grad* const* rest,
                    std::size_t n_rest, point_map& out, bool grad) {
  const int n = static_cast<int>(n_rest);
  out.r_dims = q_dims > n ? q_dims : n;
  for (int i = 0; i < out.r_dims; ++i) {
    const double qi = i < q_dims ? q[i] : 0.0;
    out.r[i] = i < n ? qi + (rest[i]->v) : qi;
  }
  if (grad) {
    identity(out, q_dims);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < q_dims; ++j) out.jac[i][j] = out.jac[i][j] + rest[i]->g[j];
    }
  }
}

// ScalePoint: r_i = q_i * scale_i.
void scale_point(const node_state& s, const double* q, int q_dims, const value_grad* const*,
                 std::size_t, point_map& out, bool grad) {
  const std::vector<double>& scale = s.params[0].list;
  out.r_dims = q_dims;
  if (grad) identity(out, q_dims);
  for (int i = 0; i < q_dims; ++i) {
    const double si = axis_value(scale, i, 1.0);
    out.r[i] = q[i] * si;
    if (grad) out.jac[i][i] = si;
  }
}

// TranslatePoint: r_i = q_i + offset_i.
void translate_point(const node_state& s, const double* q, int q_dims, const value_grad* const*,
                     std::size_t, point_map& out, bool grad) {
  const std::vector<double>& offset = s.params[0].list;
  out.r_dims = q_dims;
  if (grad) identity(out, q_dims);
  for (int i = 0; i < q_dims; ++i) out.r[i] = q[i] + axis_value(offset, i, 0.0);
}

// RotatePoint: (x, y, z) turned by libnoise's matrix (derived[0..8], row by row, from
// prepare_rotate); a point of fewer than 3 coordinates gets zeros (its input sees 3-D points), a
// fourth coordinate is kept.
void rotate_point(const node_state& s, const double* q, int q_dims, const value_grad* const*,
                  std::size_t, point_map& out, bool grad) {
  const double* m = s.derived.data();
  const double x = q_dims > 0 ? q[0] : 0.0;
  const double y = q_dims > 1 ? q[1] : 0.0;
  const double z = q_dims > 2 ? q[2] : 0.0;
  out.r_dims = q_dims > 3 ? q_dims : 3;
  out.r[0] = (m[0] * x) + (m[1] * y) + (m[2] * z);
  out.r[1] = (m[3] * x) + (m[4] * y) + (m[5] * z);
  out.r[2] = (m[6] * x) + (m[7] * y) + (m[8] * z);
  if (q_dims > 3) out.r[3] = q[3];
  if (grad) {
    identity(out, 0);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3 && j < q_dims; ++j) out.jac[i][j] = m[3 * i + j];
    }
    if (q_dims > 3) out.jac[3][3] = 1.0;
  }
}

// RotatePoint::SetAngles, in its order: degrees to radians with libnoise's DEG_TO_RAD = PI / 180
// (PI = 3.1415926535897932385), then the matrix's nine entries.
void prepare_rotate(node_state& s, std::string_view) {
  const std::vector<double>& a = s.params[0].list;
  constexpr double pi = 3.1415926535897932385;
  constexpr double deg_to_rad = pi / 180.0;
  const double x_cos = std::cos(a[0] * deg_to_rad);
  const double y_cos = std::cos(a[1] * deg_to_rad);
  const double z_cos = std::cos(a[2] * deg_to_rad);
  const double x_sin = std::sin(a[0] * deg_to_rad);
  const double y_sin = std::sin(a[1] * deg_to_rad);
  const double z_sin = std::sin(a[2] * deg_to_rad);
  s.derived = {y_sin * x_sin * z_sin + y_cos * z_cos,
               x_cos * z_sin,
               y_sin * z_cos - y_cos * x_sin * z_sin,
               y_sin * x_sin * z_cos - y_cos * z_sin,
               x_cos * z_cos,
               -y_cos * x_sin * z_cos - y_sin * z_sin,
               -y_sin * x_cos,
               x_sin,
               y_cos * x_cos};
}

}  // namespace perlin::detail
