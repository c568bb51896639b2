// Cellular noise (src/detail/cellular.hpp) against a brute-force search written here from
// docs/noise.md's rules (every cell within 5 of the point's cell on each axis, the feature point
// and the distances computed from the documented formulas): every distance and return, 1-D to
// 4-D, with and without periods, several jitters, bit for bit. Then the gradients against
// central differences, the tie rule, the tiling, the stated bounds, and the cell value as value
// noise's lattice value.
#include "detail/cellular.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "detail/splitmix64.hpp"
#include "perlin/lattice.hpp"
#include "perlin/value_noise.hpp"

namespace {

using perlin::lattice;
using perlin::detail::cellular;
using perlin::detail::cellular_bound;
using perlin::detail::cellular_distance;
using perlin::detail::cellular_params;
using perlin::detail::cellular_return;

constexpr std::array<cellular_distance, 4> k_distances = {
    cellular_distance::euclidean, cellular_distance::euclidean_squared,
    cellular_distance::manhattan, cellular_distance::chebyshev};
constexpr std::array<cellular_return, 4> k_returns = {cellular_return::f1, cellular_return::f2,
                                                      cellular_return::f2_minus_f1,
                                                      cellular_return::cell_value};

// The brute force's radius: every cell whose offset from the point's cell is at most 5 on each
// axis. It certifies itself: a cell farther than 5 on some axis is farther than 5 from the point
// in every metric, so when the second nearest found is within 5 nothing outside could change F1,
// F2 or a tie (the test checks F2 <= 5).
constexpr int k_radius = 5;

// One feature point of the brute force.
struct point {
  double key = 0;  // the metric's value, before euclidean's square root
  std::array<std::int64_t, 4> cell{};
  std::array<double, 4> v{};  // feature point - x
  double value = 0;
};

// docs/noise.md: the cell's wrapped index on one axis (modulo the period, then the table's 256).
std::uint32_t wrapped(std::int64_t c, std::int64_t period) {
  if (period > 0) c = ((c % period) + period) % period;
  return static_cast<std::uint32_t>(c & 255);
}

// The feature points of every cell within k_radius of x's cell (v = point - x, the cell's value),
// from docs/noise.md's formulas.
std::vector<point> cells_around(const lattice& l, double jitter, const double* x, int dims) {
  const perlin::permutation& p = l.perm();
  std::array<std::int64_t, 4> base{};
  std::array<double, 4> t{};
  for (int a = 0; a < dims; ++a) {
    base[a] = static_cast<std::int64_t>(std::floor(x[a]));
    t[a] = x[a] - std::floor(x[a]);
  }
  std::vector<point> pts;
  const int side = 2 * k_radius + 1;
  int count = 1;
  for (int a = 0; a < dims; ++a) count *= side;
  pts.reserve(static_cast<std::size_t>(count));
  for (int n = 0; n < count; ++n) {
    std::array<int, 4> o{};
    int r = n;
    for (int a = 0; a < dims; ++a) {
      o[a] = r % side - k_radius;
      r /= side;
    }
    std::array<std::uint32_t, 4> idx{};
    for (int a = 0; a < dims; ++a) idx[a] = wrapped(base[a] + o[a], l.period(a));
    // b = p[p[p[I0] + I1] + I2] (missing indices 0), p[b + I3] more in 4-D.
    std::uint32_t b = p[idx[0]];
    b = p[b + (dims > 1 ? idx[1] : 0)];
    b = p[b + (dims > 2 ? idx[2] : 0)];
    if (dims == 4) b = p[b + idx[3]];
    point q;
    q.value = static_cast<double>(b) / 127.5 - 1.0;
    for (int a = 0; a < dims; ++a) {
      q.cell[a] = base[a] + o[a];
      const unsigned hi = p[b + 1 + 2 * a];
      const unsigned lo = p[b + 2 + 2 * a];
      const double u = (static_cast<double>(hi * 256 + lo) - 32767.5) / 65536.0;
      q.v[a] = (static_cast<double>(o[a]) + (0.5 + jitter * u)) - t[a];
    }
    pts.push_back(q);
  }
  return pts;
}

// The three first points of `cells` in the documented order: by distance (summed over the axes
// in order), then by cell, lexicographically from x.
std::vector<point> nearest3(std::vector<point> cells, cellular_distance m, int dims) {
  for (point& q : cells) {
    double key = 0;
    for (int a = 0; a < dims; ++a) {
      const double v = q.v[a];
      switch (m) {
        case cellular_distance::euclidean:
        case cellular_distance::euclidean_squared:
          key = a == 0 ? v * v : key + v * v;
          break;
        case cellular_distance::manhattan:
          key = a == 0 ? std::abs(v) : key + std::abs(v);
          break;
        case cellular_distance::chebyshev:
          key = std::max(key, std::abs(v));
          break;
      }
    }
    q.key = key;
  }
  std::partial_sort(cells.begin(), cells.begin() + 3, cells.end(),
                    [dims](const point& a, const point& b) {
                      if (a.key != b.key) return a.key < b.key;
                      for (int k = 0; k < dims; ++k) {
                        if (a.cell[k] != b.cell[k]) return a.cell[k] < b.cell[k];
                      }
                      return false;
                    });
  cells.resize(3);
  return cells;
}

std::vector<point> brute(const lattice& l, cellular_distance m, double jitter, const double* x,
                         int dims) {
  return nearest3(cells_around(l, jitter, x, dims), m, dims);
}

double metric_value(cellular_distance m, double key) {
  return m == cellular_distance::euclidean ? std::sqrt(key) : key;
}

// docs/noise.md's gradient of the distance to one point (v = point - x).
std::array<double, 4> gradient_of(cellular_distance m, const point& q, int dims) {
  std::array<double, 4> g{};
  const auto sign = [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); };
  switch (m) {
    case cellular_distance::euclidean: {
      const double r = std::sqrt(q.key);
      for (int a = 0; a < dims; ++a) g[a] = r > 0 ? -q.v[a] / r : 0.0;
      break;
    }
    case cellular_distance::euclidean_squared:
      for (int a = 0; a < dims; ++a) g[a] = -2.0 * q.v[a];
      break;
    case cellular_distance::manhattan:
      for (int a = 0; a < dims; ++a) g[a] = -sign(q.v[a]);
      break;
    case cellular_distance::chebyshev:
      for (int a = 0; a < dims; ++a) {
        if (std::abs(q.v[a]) == q.key) {
          g[a] = -sign(q.v[a]);
          break;
        }
      }
      break;
  }
  return g;
}

// The expected value and gradient of one return from the brute force's sorted points.
double expected(cellular_distance m, cellular_return r, const std::vector<point>& pts, int dims,
                std::array<double, 4>& g) {
  const double f1 = metric_value(m, pts[0].key);
  const double f2 = metric_value(m, pts[1].key);
  const auto g1 = gradient_of(m, pts[0], dims);
  const auto g2 = gradient_of(m, pts[1], dims);
  switch (r) {
    case cellular_return::f1:
      g = g1;
      return f1;
    case cellular_return::f2:
      g = g2;
      return f2;
    case cellular_return::f2_minus_f1:
      for (int a = 0; a < dims; ++a) g[a] = g2[a] - g1[a];
      return f2 - f1;
    case cellular_return::cell_value:
      g = {};
      return pts[0].value;
  }
  return 0;
}

std::string name_of(cellular_distance m, cellular_return r, int dims, double jitter) {
  return std::string(perlin::detail::k_cellular_distance_names[static_cast<int>(m)]) + " " +
         perlin::detail::k_cellular_return_names[static_cast<int>(r)] + " " + std::to_string(dims) +
         "-D jitter " + std::to_string(jitter);
}

double uniform(perlin::detail::splitmix64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng.next() >> 11) * 0x1p-53);
}

// Every return and distance at `n` random points of [-lo, hi]^dims against the brute force.
void check_against_brute(const lattice& l, int dims, double jitter, int n, std::uint64_t seed,
                         double lo, double hi) {
#if defined(PERLIN_TEST_SANITIZED)
  n = std::max(n / 10, 30);  // a sample under the sanitizers (tests/CMakeLists.txt)
#endif
  perlin::detail::splitmix64 rng(seed);
  int failures = 0;
  for (int i = 0; i < n && failures < 10; ++i) {
    std::array<double, 4> x{};
    for (int a = 0; a < dims; ++a) x[a] = uniform(rng, lo, hi);
    // A few points on the lattice's walls and corners.
    if (i % 17 == 0) x[0] = std::floor(x[0]);
    if (i % 29 == 0)
      for (int a = 0; a < dims; ++a) x[a] = std::floor(x[a]);
    const std::vector<point> cells = cells_around(l, jitter, x.data(), dims);
    for (const cellular_distance m : k_distances) {
      const std::vector<point> pts = nearest3(cells, m, dims);
      ASSERT_LE(metric_value(m, pts[1].key), static_cast<double>(k_radius));
      for (const cellular_return r : k_returns) {
        std::array<double, 4> want_g{};
        const double want = expected(m, r, pts, dims, want_g);
        std::array<double, 4> got_g{};
        const double got = cellular(l, cellular_params{m, r, jitter}, x.data(), dims, got_g.data());
        bool same = got == want;
        for (int a = 0; a < dims; ++a) same = same && got_g[a] == want_g[a];
        if (!same) {
          ++failures;
          ADD_FAILURE() << name_of(m, r, dims, jitter) << " at x = " << x[0] << " " << x[1] << " "
                        << x[2] << " " << x[3] << ": " << got << " (gradient " << got_g[0] << " "
                        << got_g[1] << "), brute force " << want << " (" << want_g[0] << " "
                        << want_g[1] << ")";
        }
      }
    }
  }
}

lattice periodic(std::uint64_t seed, std::array<std::int64_t, 4> periods) {
  lattice l(seed);
  for (std::size_t a = 0; a < 4; ++a) l.set_period(a, periods[a]);
  return l;
}

constexpr std::array<double, 4> k_jitters = {1.0, 0.75, 0.3, 0.0};

TEST(Cellular, MatchesTheBruteForceSearch1D2D) {
  for (int dims = 1; dims <= 2; ++dims) {
    for (const double j : k_jitters) {
      check_against_brute(lattice(), dims, j, 3000, 11 + dims, -300, 300);
      check_against_brute(lattice(0x9E3779B97F4A7C15ULL), dims, j, 3000, 21 + dims, -1e6, 1e6);
    }
  }
}

// Up to the documented 2^52, where a double still has fraction bits.
TEST(Cellular, MatchesTheBruteForceSearchFarOut) {
  for (int dims = 1; dims <= 3; ++dims) {
    check_against_brute(lattice(17), dims, 1.0, 300, 140 + dims, -0x1p51, 0x1p51);
    check_against_brute(periodic(18, {1000, 3, 7, 5}), dims, 1.0, 300, 150 + dims, -0x1p51, 0x1p51);
  }
}

TEST(Cellular, MatchesTheBruteForceSearch3D) {
  for (const double j : k_jitters) {
    check_against_brute(lattice(), 3, j, 2000, 31, -300, 300);
    check_against_brute(lattice(42), 3, j, 1000, 32, -1e6, 1e6);
  }
}

TEST(Cellular, MatchesTheBruteForceSearch4D) {
  for (const double j : {1.0, 0.5}) {
    check_against_brute(lattice(), 4, j, 1000, 41, -300, 300);
    check_against_brute(lattice(7), 4, j, 500, 42, -1e6, 1e6);
  }
}

TEST(Cellular, MatchesTheBruteForceSearchWithPeriods) {
  // Periods 1 and 2 (the neighbours are copies of the cell), odd, power of two, above 256.
  for (int dims = 1; dims <= 4; ++dims) {
    for (const double j : {1.0, 0.6}) {
      const int n = dims == 4 ? 400 : 1500;
      check_against_brute(periodic(5, {1, 2, 3, 1000}), dims, j, n, 50 + dims, -40, 40);
      check_against_brute(periodic(6, {7, 256, 1000, 5}), dims, j, n, 60 + dims, -3000, 3000);
      check_against_brute(periodic(9, {2, 16, 1, 3}), dims, j, n, 70 + dims, -40, 40);
    }
  }
}

// Jitter 0 puts every point at its cell's centre: points on the quarter grid have exact ties
// (several nearest points at one distance), where the lexicographically lowest cell must win.
TEST(Cellular, TiesGoToTheLowestCell) {
  for (int dims = 1; dims <= 4; ++dims) {
    const int n = dims == 4 ? 300 : 1000;
    perlin::detail::splitmix64 rng(80 + dims);
    const lattice l(3);
    int ties = 0;
    for (int i = 0; i < n; ++i) {
      std::array<double, 4> x{};
      for (int a = 0; a < dims; ++a) {
        x[a] = static_cast<double>(static_cast<std::int64_t>(rng.below(400)) - 200) / 4.0;
      }
      const std::vector<point> cells = cells_around(l, 0.0, x.data(), dims);
      for (const cellular_distance m : k_distances) {
        const std::vector<point> pts = nearest3(cells, m, dims);
        ties += pts[0].key == pts[1].key ? 1 : 0;
        for (const cellular_return r : k_returns) {
          std::array<double, 4> want_g{};
          const double want = expected(m, r, pts, dims, want_g);
          std::array<double, 4> got_g{};
          const double got = cellular(l, cellular_params{m, r, 0.0}, x.data(), dims, got_g.data());
          ASSERT_EQ(got, want) << name_of(m, r, dims, 0.0) << " at " << x[0] << " " << x[1];
          for (int a = 0; a < dims; ++a) ASSERT_EQ(got_g[a], want_g[a]) << name_of(m, r, dims, 0);
        }
      }
    }
    EXPECT_GT(ties, n) << dims << "-D: the quarter grid should give many ties";
  }
}

// With a period P on every axis the field repeats: x and x + k P give the same bits (points with
// 20 fraction bits, so that x + k P is exact and has the same fraction).
TEST(Cellular, PeriodsTile) {
  for (int dims = 1; dims <= 4; ++dims) {
    for (const std::int64_t period : {1, 3, 64, 1000}) {
      lattice l(11);
      l.set_period_all(period);
      perlin::detail::splitmix64 rng(90 + dims);
      for (int i = 0; i < 200; ++i) {
        std::array<double, 4> x{};
        std::array<double, 4> y{};
        for (int a = 0; a < dims; ++a) {
          x[a] = std::round(uniform(rng, -50, 50) * 0x1p20) * 0x1p-20;  // x + k P exact
          y[a] = x[a] + static_cast<double>(period) * static_cast<double>(rng.below(7) + 1) *
                            (rng.below(2) != 0 ? 1.0 : -1.0);
        }
        for (const cellular_distance m : k_distances) {
          for (const cellular_return r : k_returns) {
            const cellular_params c{m, r, 0.9};
            ASSERT_EQ(cellular(l, c, x.data(), dims, nullptr),
                      cellular(l, c, y.data(), dims, nullptr))
                << name_of(m, r, dims, 0.9) << " period " << period;
          }
        }
      }
    }
  }
}

// Without a period the table repeats every 256 cells, as improved noise does.
TEST(Cellular, WithoutPeriodsTheTableRepeatsEvery256Cells) {
  const lattice l(12);
  perlin::detail::splitmix64 rng(100);
  for (int i = 0; i < 500; ++i) {
    std::array<double, 4> x{};
    std::array<double, 4> y{};
    for (int a = 0; a < 4; ++a) {
      x[a] = std::round(uniform(rng, -10, 10) * 0x1p20) * 0x1p-20;  // x + 256 k exact
      y[a] = x[a] + 256.0 * static_cast<double>(rng.below(5));
    }
    EXPECT_EQ(cellular(l, cellular_params{}, x.data(), 4, nullptr),
              cellular(l, cellular_params{}, y.data(), 4, nullptr));
  }
}

// The analytic gradients against central differences, at points where the nearest points (and
// for manhattan and chebyshev the axis kinks) are at least 1e-3 away from changing.
TEST(Cellular, GradientsMatchCentralDifferences) {
  const lattice l(13);
  const double h = 1e-6;
  for (int dims = 1; dims <= 4; ++dims) {
    perlin::detail::splitmix64 rng(110 + dims);
    int checked = 0;
    for (int i = 0; i < 600; ++i) {
      std::array<double, 4> x{};
      for (int a = 0; a < dims; ++a) x[a] = uniform(rng, -100, 100);
      const std::vector<point> cells = cells_around(l, 1.0, x.data(), dims);
      for (const cellular_distance m : k_distances) {
        const std::vector<point> pts = nearest3(cells, m, dims);
        const double margin = 1e-3;
        if (metric_value(m, pts[1].key) - metric_value(m, pts[0].key) < margin ||
            metric_value(m, pts[2].key) - metric_value(m, pts[1].key) < margin) {
          continue;
        }
        bool kink = false;
        for (int k = 0; k < 2; ++k) {
          std::vector<double> mag;
          for (int a = 0; a < dims; ++a) {
            kink = kink || std::abs(pts[k].v[a]) < margin;
            mag.push_back(std::abs(pts[k].v[a]));
          }
          std::sort(mag.begin(), mag.end());
          if (dims > 1 && m == cellular_distance::chebyshev)
            kink = kink || mag[dims - 1] - mag[dims - 2] < margin;
        }
        if (kink) continue;
        for (const cellular_return r :
             {cellular_return::f1, cellular_return::f2, cellular_return::f2_minus_f1}) {
          const cellular_params c{m, r, 1.0};
          std::array<double, 4> g{};
          (void)cellular(l, c, x.data(), dims, g.data());
          for (int a = 0; a < dims; ++a) {
            std::array<double, 4> up = x;
            std::array<double, 4> down = x;
            up[a] += h;
            down[a] -= h;
            const double d = (cellular(l, c, up.data(), dims, nullptr) -
                              cellular(l, c, down.data(), dims, nullptr)) /
                             (up[a] - down[a]);
            EXPECT_NEAR(g[a], d, 1e-5 * (1 + std::abs(d))) << name_of(m, r, dims, 1.0);
          }
        }
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000) << dims << "-D";
  }
}

// The stated bounds (cellular_bound) hold at 10^5 random points per dimension, distance, return
// and jitter; the cell value is in [-1, 1].
TEST(Cellular, StaysInsideTheStatedBounds) {
  const lattice l(14);
  for (int dims = 1; dims <= 4; ++dims) {
    perlin::detail::splitmix64 rng(120 + dims);
    for (const double j : {1.0, 0.5, 0.0}) {
      for (const cellular_distance m : k_distances) {
        const cellular_params f1{m, cellular_return::f1, j};
        const cellular_params f2{m, cellular_return::f2, j};
        const double b1 = cellular_bound(f1, dims);
        const double b2 = cellular_bound(f2, dims);
        EXPECT_EQ(b2, cellular_bound(cellular_params{m, cellular_return::f2_minus_f1, j}, dims));
        EXPECT_EQ(cellular_bound(cellular_params{m, cellular_return::cell_value, j}, dims), 1.0);
        const int n = dims == 4 ? 20000 : 100000;
        for (int i = 0; i < n; ++i) {
          std::array<double, 4> x{};
          for (int a = 0; a < dims; ++a) x[a] = uniform(rng, -1000, 1000);
          const perlin::detail::cellular_result r =
              perlin::detail::cellular_search(l, m, j, x.data(), dims, true);
          ASSERT_GE(r.f1, 0.0);
          ASSERT_LE(r.f1, r.f2);
          ASSERT_LE(r.f1, b1) << name_of(m, cellular_return::f1, dims, j);
          ASSERT_LE(r.f2, b2) << name_of(m, cellular_return::f2, dims, j);
          ASSERT_GE(r.cell_value, -1.0);
          ASSERT_LE(r.cell_value, 1.0);
        }
      }
    }
  }
}

// The cell value of the nearest point is value noise's lattice value at that cell's corner (the
// same hash byte, b / 127.5 - 1), periods included.
TEST(Cellular, TheCellValueIsValueNoiseAtTheCellCorner) {
  lattice l(15);
  l.set_period(1, 6);
  const perlin::value_noise vn(l);
  perlin::detail::splitmix64 rng(130);
  for (int dims = 1; dims <= 4; ++dims) {
    for (int i = 0; i < 300; ++i) {
      std::array<double, 4> x{};
      for (int a = 0; a < dims; ++a) x[a] = uniform(rng, -500, 500);
      const std::vector<point> pts = brute(l, cellular_distance::euclidean, 1.0, x.data(), dims);
      std::array<double, 4> c{};
      for (int a = 0; a < dims; ++a) c[a] = static_cast<double>(pts[0].cell[a]);
      const double want = dims == 1   ? vn.noise1d(c[0])
                          : dims == 2 ? vn.noise2d(c[0], c[1])
                          : dims == 3 ? vn.noise3d(c[0], c[1], c[2])
                                      : vn.noise4d(c[0], c[1], c[2], c[3]);
      EXPECT_EQ(
          cellular(l,
                   cellular_params{cellular_distance::euclidean, cellular_return::cell_value, 1.0},
                   x.data(), dims, nullptr),
          want);
    }
  }
}

// Every feature point lies strictly inside its cell (0 < offset < 1), at the centre for jitter 0.
TEST(Cellular, FeaturePointsLieInsideTheirCells) {
  const perlin::permutation p(16);
  for (std::uint32_t i = 0; i < 256; ++i) {
    const std::array<std::uint32_t, 4> idx = {i, (i * 7) & 255, (i * 13) & 255, (i * 29) & 255};
    for (int dims = 1; dims <= 4; ++dims) {
      const auto one = perlin::detail::cellular_feature(p, idx.data(), dims, 1.0);
      const auto zero = perlin::detail::cellular_feature(p, idx.data(), dims, 0.0);
      for (int a = 0; a < dims; ++a) {
        EXPECT_GT(one.offset[a], 0.0);
        EXPECT_LT(one.offset[a], 1.0);
        EXPECT_EQ(zero.offset[a], 0.5);
      }
      EXPECT_EQ(one.hash, zero.hash);
    }
  }
}

TEST(Cellular, NotFiniteGivesNaN) {
  const lattice l;
  const double nan = std::nan("");
  const double inf = INFINITY;
  for (const double bad : {nan, inf, -inf}) {
    const std::array<double, 4> x = {0.5, bad, 0.25, 0.75};
    for (const cellular_return r : k_returns) {
      std::array<double, 4> g{};
      EXPECT_TRUE(std::isnan(cellular(l, cellular_params{cellular_distance::euclidean, r, 1.0},
                                      x.data(), 3, g.data())));
      EXPECT_TRUE(std::isnan(g[0]));
    }
  }
}

}  // namespace
