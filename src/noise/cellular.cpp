// Cellular (Worley) noise: the feature points, the pruned search, the returns and their gradients
// (src/detail/cellular.hpp and docs/noise.md state the rules).
#include "detail/cellular.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "detail/lattice_index.hpp"

namespace perlin::detail {

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();
/// The largest reach of k_cellular_reach.
constexpr int k_max_reach = 5;

/// floor(x) as an integer (reduced like lattice_index for |x| >= 2^62, where x is an integer and
/// its fraction 0) and the fraction t = x - floor(x), exact.
std::int64_t floor_and_fraction(double x, const axis_wrap& w, double& t) noexcept {
  if (std::abs(x) < k_huge) {
    auto i = static_cast<std::int64_t>(x);
    i -= static_cast<std::int64_t>(static_cast<double>(i) > x);
    t = x - static_cast<double>(i);
    return i;
  }
  t = 0.0;
  return huge_index(x, w);
}

/// The lower bound of |v_a| over every point of the cell at offset o along one axis, for the
/// point's fraction t: 0 for x's own cell, o - t above it, t - (o + 1) below it. Safe in floating
/// point: the point's offset in its cell, off = 0.5 + jitter * u, lies in (0, 1) as a double, so
/// for o >= 1 fl(o + off) >= o and fl(fl(o + off) - t) >= fl(o - t), and for o <= -1
/// fl(o + off) <= o + 1 and |fl(fl(o + off) - t)| >= fl(t - (o + 1)) (rounding is monotone and
/// symmetric). Adding and squaring are monotone too, so the bound of a cell never exceeds the
/// computed distance of its point.
double axis_gap(int o, double t) noexcept {
  if (o > 0) return static_cast<double>(o) - t;
  if (o < 0) return t - static_cast<double>(o + 1);
  return 0.0;
}

/// Adds one axis's term (a gap or |v_a|) to a distance key, in the metric's own units: the sum of
/// squares (both euclidean metrics), the sum, or the maximum.
double add_term(cellular_distance m, double key, double term) noexcept {
  switch (m) {
    case cellular_distance::euclidean:
    case cellular_distance::euclidean_squared:
      return key + term * term;
    case cellular_distance::manhattan:
      return key + term;
    case cellular_distance::chebyshev:
      return term > key ? term : key;
  }
  return key;
}

/// b: value noise's corner hash of the wrapped indices (3 levels below 4-D, missing indices 0).
std::uint32_t feature_hash(const std::uint8_t* perm, const std::uint32_t* idx, int dims) noexcept {
  std::uint32_t h = perm[idx[0]];
  for (int k = 1; k < (dims <= 3 ? 3 : 4); ++k) h = perm[h + (k < dims ? idx[k] : 0u)];
  return h;
}

/// The point's offset in its cell along axis a: 0.5 + jitter * u_a, u_a = (q_a - 32767.5) / 65536
/// (exact) with q_a = 256 p[b + 1 + 2a] + p[b + 2 + 2a]; in (0, 1) for jitter in [0, 1].
double feature_offset(const std::uint8_t* perm, std::uint32_t h, int a, double jitter) noexcept {
  const auto k = static_cast<std::uint32_t>(2 * a);
  const std::uint32_t q = 256u * perm[h + 1 + k] + perm[h + 2 + k];
  const double u = (static_cast<double>(q) - 32767.5) * 0x1p-16;
  return 0.5 + jitter * u;
}

/// One visited feature point: its distance key, its offset from x's cell (the tie order), its
/// vector v = point - x and its cell value.
struct candidate {
  double key = k_inf;
  std::array<int, 4> o{};
  std::array<double, 4> v{};
  double value = 0;
};

/// (key, o) lexicographic, o compared from axis 0: the total order of the points (no two points
/// share a cell).
bool before(const candidate& a, const candidate& b, int dims) noexcept {
  if (a.key != b.key) return a.key < b.key;
  for (int k = 0; k < dims; ++k) {
    if (a.o[k] != b.o[k]) return a.o[k] < b.o[k];
  }
  return false;
}

struct search {
  const std::uint8_t* perm;
  cellular_distance metric;
  double jitter;
  int dims;
  bool need_f2;
  int reach;
  std::array<double, 4> t{};
  /// The wrapped index I_a of the cell at offset o along axis a: idx[a][o + k_max_reach].
  std::array<std::array<std::uint32_t, 2 * k_max_reach + 1>, 4> idx{};
  candidate cur;
  candidate best1, best2;

  [[nodiscard]] double bound() const noexcept { return need_f2 ? best2.key : best1.key; }

  /// `h` is the hash chain through every axis (feature_hash without its missing-index levels).
  void leaf(std::uint32_t h) noexcept {
    for (int k = dims; k < 3; ++k) h = perm[h];
    double key = 0.0;
    for (int a = 0; a < dims; ++a) {
      const double v = (static_cast<double>(cur.o[a]) + feature_offset(perm, h, a, jitter)) - t[a];
      cur.v[a] = v;
      key = add_term(metric, key, std::abs(v));
    }
    cur.key = key;
    cur.value = static_cast<double>(h) / 127.5 - 1.0;
    if (before(cur, best1, dims)) {
      best2 = best1;
      best1 = cur;
    } else if (need_f2 && before(cur, best2, dims)) {
      best2 = cur;
    }
  }

  /// Offset o on axis a; `h` is the hash chain through axes 0 to a - 1.
  void visit(int a, int o, double lb, std::uint32_t h) noexcept {
    cur.o[a] = o;
    const std::uint32_t i = idx[a][o + k_max_reach];
    h = a == 0 ? perm[i] : perm[h + i];
    if (a + 1 == dims) {
      leaf(h);
    } else {
      axis(a + 1, lb, h);
    }
  }

  // Offsets 0, then -1, -2, ... and 1, 2, ... while the partial bound (the axes so far) can still
  // reach the current F2 (or F1): the gaps grow with |o| on each side, so the first cell past the
  // bound ends its side.
  void axis(int a, double lb, std::uint32_t h) noexcept {
    visit(a, 0, lb, h);
    for (int o = -1; o >= -reach; --o) {
      const double l = add_term(metric, lb, axis_gap(o, t[a]));
      if (l > bound()) break;
      visit(a, o, l, h);
    }
    for (int o = 1; o <= reach; ++o) {
      const double l = add_term(metric, lb, axis_gap(o, t[a]));
      if (l > bound()) break;
      visit(a, o, l, h);
    }
  }
};

/// The gradient with respect to x of the distance `dist` (the metric's value) to the point at
/// v = point - x.
void distance_gradient(cellular_distance m, const candidate& c, double dist, int dims,
                       std::array<double, 4>& g) noexcept {
  g = {};
  switch (m) {
    case cellular_distance::euclidean:
      if (dist > 0.0) {
        for (int a = 0; a < dims; ++a) g[a] = -c.v[a] / dist;
      }
      return;
    case cellular_distance::euclidean_squared:
      for (int a = 0; a < dims; ++a) g[a] = -2.0 * c.v[a];
      return;
    case cellular_distance::manhattan:
      for (int a = 0; a < dims; ++a) g[a] = c.v[a] > 0.0 ? -1.0 : (c.v[a] < 0.0 ? 1.0 : 0.0);
      return;
    case cellular_distance::chebyshev:
      for (int a = 0; a < dims; ++a) {
        if (std::abs(c.v[a]) == c.key) {
          g[a] = c.v[a] > 0.0 ? -1.0 : (c.v[a] < 0.0 ? 1.0 : 0.0);
          return;
        }
      }
      return;
  }
}

}  // namespace

cellular_cell cellular_feature(const permutation& p, const std::uint32_t* idx, int dims,
                               double jitter) noexcept {
  cellular_cell cell;
  cell.hash = feature_hash(p.data(), idx, dims);
  for (int a = 0; a < dims; ++a) cell.offset[a] = feature_offset(p.data(), cell.hash, a, jitter);
  return cell;
}

cellular_result cellular_search(const lattice& l, cellular_distance distance, double jitter,
                                const double* p, int dims, bool need_f2) noexcept {
  return cellular_search(l.perm().data(), wraps_of(l).data(), distance, jitter, p, dims, need_f2);
}

cellular_result cellular_search(const std::uint8_t* perm, const axis_wrap* wraps,
                                cellular_distance distance, double jitter, const double* p,
                                int dims, bool need_f2) noexcept {
  cellular_result r;
  search s{};
  s.perm = perm;
  s.metric = distance;
  s.jitter = jitter;
  s.dims = dims;
  s.need_f2 = need_f2;
  s.reach = k_cellular_reach[static_cast<int>(distance)][dims - 1];
  for (int a = 0; a < dims; ++a) {
    if (!std::isfinite(p[a])) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      r.f1 = r.f2 = r.cell_value = nan;
      r.grad_f1.fill(nan);
      r.grad_f2.fill(nan);
      return r;
    }
    const axis_wrap& w = wraps[a];
    const std::int64_t base = floor_and_fraction(p[a], w, s.t[a]);
    for (int o = -s.reach; o <= s.reach; ++o) {
      s.idx[a][o + k_max_reach] = wrap_index(base + o, w).i0;
    }
  }
  s.axis(0, 0.0, 0);
  const auto value_of = [&](double key) {
    return distance == cellular_distance::euclidean ? std::sqrt(key) : key;
  };
  r.f1 = value_of(s.best1.key);
  r.cell_value = s.best1.value;
  distance_gradient(distance, s.best1, r.f1, dims, r.grad_f1);
  if (need_f2) {
    r.f2 = value_of(s.best2.key);
    distance_gradient(distance, s.best2, r.f2, dims, r.grad_f2);
  }
  return r;
}

double cellular(const lattice& l, const cellular_params& c, const double* p, int dims,
                double* gradient) noexcept {
  return cellular(l.perm().data(), wraps_of(l).data(), c, p, dims, gradient);
}

double cellular(const std::uint8_t* perm, const axis_wrap* wraps, const cellular_params& c,
                const double* p, int dims, double* gradient) noexcept {
  const bool need_f2 = c.ret == cellular_return::f2 || c.ret == cellular_return::f2_minus_f1;
  const cellular_result r = cellular_search(perm, wraps, c.distance, c.jitter, p, dims, need_f2);
  double value = 0;
  switch (c.ret) {
    case cellular_return::f1:
      value = r.f1;
      if (gradient != nullptr) {
        for (int a = 0; a < dims; ++a) gradient[a] = r.grad_f1[a];
      }
      break;
    case cellular_return::f2:
      value = r.f2;
      if (gradient != nullptr) {
        for (int a = 0; a < dims; ++a) gradient[a] = r.grad_f2[a];
      }
      break;
    case cellular_return::f2_minus_f1:
      value = r.f2 - r.f1;
      if (gradient != nullptr) {
        for (int a = 0; a < dims; ++a) gradient[a] = r.grad_f2[a] - r.grad_f1[a];
      }
      break;
    case cellular_return::cell_value:
      value = r.cell_value;
      if (gradient != nullptr) {
        for (int a = 0; a < dims; ++a) gradient[a] = std::isnan(value) ? value : 0.0;
      }
      break;
  }
  return value;
}

double cellular_bound(const cellular_params& c, int dims) noexcept {
  if (c.ret == cellular_return::cell_value) return 1.0;
  const double j = c.jitter;
  const double side = (1.0 + j) / 2.0;  // F1: every axis of x's own cell
  const double first = 1.0 + j / 2.0;   // F2: the neighbour's axis
  const double rest = static_cast<double>(dims - 1);
  double b = 0;
  if (c.ret == cellular_return::f1) {
    switch (c.distance) {
      case cellular_distance::euclidean:
        b = side * std::sqrt(static_cast<double>(dims));
        break;
      case cellular_distance::euclidean_squared:
        b = side * side * static_cast<double>(dims);
        break;
      case cellular_distance::manhattan:
        b = side * static_cast<double>(dims);
        break;
      case cellular_distance::chebyshev:
        b = side;
        break;
    }
  } else {
    switch (c.distance) {
      case cellular_distance::euclidean:
        b = std::sqrt(first * first + rest * side * side);
        break;
      case cellular_distance::euclidean_squared:
        b = first * first + rest * side * side;
        break;
      case cellular_distance::manhattan:
        b = first + rest * side;
        break;
      case cellular_distance::chebyshev:
        b = first;
        break;
    }
  }
  return std::nextafter(b * (1.0 + 0x1p-50), k_inf);
}

}  // namespace perlin::detail
