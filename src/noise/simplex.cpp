// Stefan Gustavson's simplex noise, the double path (src/detail/simplex.hpp): the operations of
// his SimplexNoise.java (2012-03-09) in its order, with Java's int semantics.
#include "detail/simplex.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "perlin/detail/gradient3.hpp"  // k_grad3: its first 12 rows are Gustavson's grad3

namespace perlin::detail {

namespace {

using jint = std::int32_t;  // Java's int

// Java's int sum: two's complement, wrapping.
constexpr jint jadd(jint a, jint b) noexcept {
  return static_cast<jint>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

// Java's (int) cast of a double: NaN gives 0, values past the int range saturate, the others
// truncate toward zero.
jint java_int(double v) noexcept {
  if (std::isnan(v)) return 0;
  if (v >= 2147483647.0) return std::numeric_limits<jint>::max();
  if (v <= -2147483648.0) return std::numeric_limits<jint>::min();
  return static_cast<jint>(v);
}

// Gustavson's fastfloor: the truncation, minus one where it rounded up.
jint fast_floor(double v) noexcept {
  const jint t = java_int(v);
  return v < static_cast<double>(t) ? jadd(t, -1) : t;
}

// The 12 gradients of 2-D and 3-D (the midpoints of the cube's edges; 2-D reads x and y),
// indexed by perm % 12: the same vectors in the same order as improved noise's first 12.
constexpr auto k_grad12 = [] {
  std::array<std::array<double, 3>, 12> g{};
  for (std::size_t h = 0; h < 12; ++h)
    for (std::size_t a = 0; a < 3; ++a) g[h][a] = k_grad3[h][a];
  return g;
}();

// The 32 gradients of 4-D (simplex.hpp).
constexpr const auto& k_grad32 = k_simplex_grad4;

// One corner's contribution: t = r2 - dx^2 - dy^2 ... (left to right); 0 where t < 0, else
// (t^2)^2 times the dot product, summed in axis order.
double corner(double r2, const double* g, const double* d, int n) noexcept {
  double t = r2;
  for (int a = 0; a < n; ++a) t = t - d[a] * d[a];
  if (t < 0) return 0.0;
  t *= t;
  double dot = g[0] * d[0];
  for (int a = 1; a < n; ++a) dot = dot + g[a] * d[a];
  return t * t * dot;
}

// The corners of the simplex holding a point: their offsets d (the point minus the corner) and
// gradients, with the kernel's r^2 and the output scale.
struct simplex_cell {
  int n = 0;      // dimensions
  int count = 0;  // corners: n + 1
  double r2 = 0;
  double scale = 0;
  double d[5][4] = {};
  const double* g[5] = {};

  // The Java code's value: scale * (n0 + n1 + ...), summed from the first corner.
  [[nodiscard]] double value() const noexcept {
    double sum = corner(r2, g[0], d[0], n);
    for (int c = 1; c < count; ++c) sum = sum + corner(r2, g[c], d[c], n);
    return scale * sum;
  }

  // The analytic gradient and Hessian (either may be null): simplex.hpp's formulas.
  void derivatives(double* grad, double* hess) const noexcept {
    if (grad != nullptr) std::fill(grad, grad + n, 0.0);
    if (hess != nullptr) std::fill(hess, hess + static_cast<std::ptrdiff_t>(n) * n, 0.0);
    for (int c = 0; c < count; ++c) {
      const double* dc = d[c];
      const double* gc = g[c];
      double t = r2;
      for (int a = 0; a < n; ++a) t = t - dc[a] * dc[a];
      if (t < 0) continue;
      double dot = 0;
      for (int a = 0; a < n; ++a) dot += gc[a] * dc[a];
      const double t2 = t * t;
      const double t3 = t2 * t;
      const double t4 = t2 * t2;
      if (grad != nullptr) {
        for (int a = 0; a < n; ++a) grad[a] += scale * (t4 * gc[a] - 8.0 * t3 * dc[a] * dot);
      }
      if (hess != nullptr) {
        for (int a = 0; a < n; ++a) {
          for (int b = 0; b < n; ++b) {
            const double delta = a == b ? dot : 0.0;
            hess[a * n + b] += scale * (48.0 * t2 * dc[a] * dc[b] * dot -
                                        8.0 * t3 * (delta + dc[a] * gc[b] + dc[b] * gc[a]));
          }
        }
      }
    }
  }
};

simplex_cell cell2(const std::uint8_t* perm, double x, double y) noexcept {
  const double s = (x + y) * k_simplex_f2;
  const jint i = fast_floor(x + s);
  const jint j = fast_floor(y + s);
  const double t = static_cast<double>(jadd(i, j)) * k_simplex_g2;
  const double d0[2] = {x - (static_cast<double>(i) - t), y - (static_cast<double>(j) - t)};
  // The middle corner: a step along x first where x0 > y0, else along y.
  const int i1 = d0[0] > d0[1] ? 1 : 0;
  const int j1 = 1 - i1;
  const double d1[2] = {d0[0] - i1 + k_simplex_g2, d0[1] - j1 + k_simplex_g2};
  const double d2[2] = {d0[0] - 1.0 + 2.0 * k_simplex_g2, d0[1] - 1.0 + 2.0 * k_simplex_g2};
  const int ii = i & 255;
  const int jj = j & 255;
  const int h0 = perm[ii + perm[jj]] % 12;
  const int h1 = perm[ii + i1 + perm[jj + j1]] % 12;
  const int h2 = perm[ii + 1 + perm[jj + 1]] % 12;
  simplex_cell c{.n = 2, .count = 3, .r2 = 0.5, .scale = 70.0};
  const double* ds[3] = {d0, d1, d2};
  const int hs[3] = {h0, h1, h2};
  for (int v = 0; v < 3; ++v) {
    for (int a = 0; a < 2; ++a) c.d[v][a] = ds[v][a];
    c.g[v] = k_grad12[hs[v]].data();
  }
  return c;
}

simplex_cell cell3(const std::uint8_t* perm, double x, double y, double z) noexcept {
  const double s = (x + y + z) * k_simplex_f3;
  const jint i = fast_floor(x + s);
  const jint j = fast_floor(y + s);
  const jint k = fast_floor(z + s);
  const double t = static_cast<double>(jadd(jadd(i, j), k)) * k_simplex_g3;
  const double d0[3] = {x - (static_cast<double>(i) - t), y - (static_cast<double>(j) - t),
                        z - (static_cast<double>(k) - t)};
  // The second and third corners: unit steps along the axes in decreasing order of the offsets,
  // ties going to the earlier axis.
  int o1[3];
  int o2[3];
  if (d0[0] >= d0[1]) {
    if (d0[1] >= d0[2]) {
      o1[0] = 1, o1[1] = 0, o1[2] = 0, o2[0] = 1, o2[1] = 1, o2[2] = 0;
    } else if (d0[0] >= d0[2]) {
      o1[0] = 1, o1[1] = 0, o1[2] = 0, o2[0] = 1, o2[1] = 0, o2[2] = 1;
    } else {
      o1[0] = 0, o1[1] = 0, o1[2] = 1, o2[0] = 1, o2[1] = 0, o2[2] = 1;
    }
  } else {
    if (d0[1] < d0[2]) {
      o1[0] = 0, o1[1] = 0, o1[2] = 1, o2[0] = 0, o2[1] = 1, o2[2] = 1;
    } else if (d0[0] < d0[2]) {
      o1[0] = 0, o1[1] = 1, o1[2] = 0, o2[0] = 0, o2[1] = 1, o2[2] = 1;
    } else {
      o1[0] = 0, o1[1] = 1, o1[2] = 0, o2[0] = 1, o2[1] = 1, o2[2] = 0;
    }
  }
  double d1[3];
  double d2[3];
  double d3[3];
  for (int a = 0; a < 3; ++a) {
    d1[a] = d0[a] - o1[a] + k_simplex_g3;
    d2[a] = d0[a] - o2[a] + 2.0 * k_simplex_g3;
    d3[a] = d0[a] - 1.0 + 3.0 * k_simplex_g3;
  }
  const int ii = i & 255;
  const int jj = j & 255;
  const int kk = k & 255;
  const int h0 = perm[ii + perm[jj + perm[kk]]] % 12;
  const int h1 = perm[ii + o1[0] + perm[jj + o1[1] + perm[kk + o1[2]]]] % 12;
  const int h2 = perm[ii + o2[0] + perm[jj + o2[1] + perm[kk + o2[2]]]] % 12;
  const int h3 = perm[ii + 1 + perm[jj + 1 + perm[kk + 1]]] % 12;
  simplex_cell c{.n = 3, .count = 4, .r2 = 0.6, .scale = 32.0};
  const double* ds[4] = {d0, d1, d2, d3};
  const int hs[4] = {h0, h1, h2, h3};
  for (int v = 0; v < 4; ++v) {
    for (int a = 0; a < 3; ++a) c.d[v][a] = ds[v][a];
    c.g[v] = k_grad12[hs[v]].data();
  }
  return c;
}

simplex_cell cell4(const std::uint8_t* perm, double x, double y, double z, double w) noexcept {
  const double s = (x + y + z + w) * k_simplex_f4;
  const jint c[4] = {fast_floor(x + s), fast_floor(y + s), fast_floor(z + s), fast_floor(w + s)};
  const double t = static_cast<double>(jadd(jadd(jadd(c[0], c[1]), c[2]), c[3])) * k_simplex_g4;
  const double in[4] = {x, y, z, w};
  double d0[4];
  for (int a = 0; a < 4; ++a) d0[a] = in[a] - (static_cast<double>(c[a]) - t);
  // The 2012 rank ordering: each pairwise comparison (a before b, a > b) gives a point to the
  // larger, to b on a tie; a corner's step along an axis is 1 where the axis' rank reaches
  // 3, 2, 1 for the second, third and fourth corner.
  int rank[4] = {0, 0, 0, 0};
  for (int a = 0; a < 3; ++a) {
    for (int b = a + 1; b < 4; ++b) ++rank[d0[a] > d0[b] ? a : b];
  }
  double d1[4];
  double d2[4];
  double d3[4];
  double d4[4];
  int o1[4];
  int o2[4];
  int o3[4];
  for (int a = 0; a < 4; ++a) {
    o1[a] = rank[a] >= 3 ? 1 : 0;
    o2[a] = rank[a] >= 2 ? 1 : 0;
    o3[a] = rank[a] >= 1 ? 1 : 0;
    d1[a] = d0[a] - o1[a] + k_simplex_g4;
    d2[a] = d0[a] - o2[a] + 2.0 * k_simplex_g4;
    d3[a] = d0[a] - o3[a] + 3.0 * k_simplex_g4;
    d4[a] = d0[a] - 1.0 + 4.0 * k_simplex_g4;
  }
  const int ii = c[0] & 255;
  const int jj = c[1] & 255;
  const int kk = c[2] & 255;
  const int ll = c[3] & 255;
  const auto hash = [&](const int* o) {
    return perm[ii + o[0] + perm[jj + o[1] + perm[kk + o[2] + perm[ll + o[3]]]]] % 32;
  };
  const int zero[4] = {0, 0, 0, 0};
  const int one[4] = {1, 1, 1, 1};
  simplex_cell cell{.n = 4, .count = 5, .r2 = 0.6, .scale = 27.0};
  const double* ds[5] = {d0, d1, d2, d3, d4};
  const int hs[5] = {hash(zero), hash(o1), hash(o2), hash(o3), hash(one)};
  for (int v = 0; v < 5; ++v) {
    for (int a = 0; a < 4; ++a) cell.d[v][a] = ds[v][a];
    cell.g[v] = k_grad32[hs[v]].data();
  }
  return cell;
}

}  // namespace

double simplex2(const permutation& p, double x, double y) noexcept {
  return cell2(p.data(), x, y).value();
}
double simplex3(const permutation& p, double x, double y, double z) noexcept {
  return cell3(p.data(), x, y, z).value();
}
double simplex4(const permutation& p, double x, double y, double z, double w) noexcept {
  return cell4(p.data(), x, y, z, w).value();
}

double simplex(int dims, const std::uint8_t* perm, const double* x, double* grad,
               double* hess) noexcept {
  simplex_cell c;
  switch (dims) {
    case 2:
      c = cell2(perm, x[0], x[1]);
      break;
    case 3:
      c = cell3(perm, x[0], x[1], x[2]);
      break;
    case 4:
      c = cell4(perm, x[0], x[1], x[2], x[3]);
      break;
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
  if (grad != nullptr || hess != nullptr) c.derivatives(grad, hess);
  return c.value();
}

namespace {
const permutation& perlin_permutation() noexcept {
  static const permutation p;
  return p;
}
}  // namespace

double simplex2(double x, double y) noexcept { return simplex2(perlin_permutation(), x, y); }
double simplex3(double x, double y, double z) noexcept {
  return simplex3(perlin_permutation(), x, y, z);
}
double simplex4(double x, double y, double z, double w) noexcept {
  return simplex4(perlin_permutation(), x, y, z, w);
}

}  // namespace perlin::detail
