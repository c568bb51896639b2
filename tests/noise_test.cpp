// Properties of improved and value noise: lattice zeros, slices, continuity, derivatives,
// periods, seeds, large and non-finite coordinates, float against double, bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

// A fixed generator: the sequence is defined by the standard (unlike the distributions), and
// the tests only need arbitrary but repeatable points.
struct points {
  std::mt19937_64 rng{12345};
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53;
  }
};

TEST(ImprovedNoise, ZeroOnIntegerLattice) {
  const perlin::improved_noise n;
  for (int x = -5; x <= 5; ++x) {
    for (int y = -5; y <= 5; ++y) {
      EXPECT_EQ(n.noise1d(double(x)), 0.0);
      EXPECT_EQ(n.noise2d(double(x), double(y)), 0.0);
      for (int z = -3; z <= 3; ++z) {
        EXPECT_EQ(n.noise3d(double(x), double(y), double(z)), 0.0);
        EXPECT_EQ(n.noise4d(double(x), double(y), double(z), double(x + y)), 0.0);
      }
    }
  }
}

TEST(ImprovedNoise, LowerDimensionsAreSlicesOf3d) {
  points r;
  for (const std::uint64_t seed : {0ull, 7ull, 123456789ull}) {
    const perlin::improved_noise n(seed);
    for (int i = 0; i < 2000; ++i) {
      const double x = r.uniform(-300, 300);
      const double y = r.uniform(-300, 300);
      EXPECT_EQ(n.noise2d(x, y), n.noise3d(x, y, 0.0));
      EXPECT_EQ(n.noise1d(x), n.noise3d(x, 0.0, 0.0));
    }
  }
  const perlin::improved_noise perlin_table;
  EXPECT_EQ(perlin_table.noise2d(3.14, 42.0), perlin_table.noise3d(3.14, 42.0, 0.0));
}

TEST(ImprovedNoise, ContinuousAcrossCellWalls) {
  const perlin::improved_noise n;
  const double eps = 1e-9;
  points r;
  for (int i = 0; i < 500; ++i) {
    const double x = std::floor(r.uniform(-100, 100));
    const double y = r.uniform(-100, 100);
    const double z = r.uniform(-100, 100);
    const double w = r.uniform(-100, 100);
    // The noise is Lipschitz with a constant below 4, so a step of 2e-9 moves it by < 1e-8.
    EXPECT_NEAR(n.noise3d(x - eps, y, z), n.noise3d(x + eps, y, z), 1e-8);
    EXPECT_NEAR(n.noise3d(y, x - eps, z), n.noise3d(y, x + eps, z), 1e-8);
    EXPECT_NEAR(n.noise4d(y, z, w, x - eps), n.noise4d(y, z, w, x + eps), 1e-8);
    EXPECT_NEAR(n.noise2d(x - eps, y), n.noise2d(x + eps, y), 1e-8);
  }
}

TEST(ImprovedNoise, NegativeCoordinatesUseFloor) {
  // (int)x truncation (the bug of the C# tutorial's OctavePerlin) would make noise(-0.5) use cell 0
  // instead of -1; with floor, the field is the same as the one 256 cells to the right.
  const perlin::improved_noise n;
  for (double x = -3.0; x < 0; x += 0.125) {
    EXPECT_EQ(n.noise3d(x, 0.5, 0.25), n.noise3d(x + 256.0, 0.5, 0.25)) << x;
  }
}

TEST(ImprovedNoise, LargeCoordinatesStayValid) {
  const perlin::improved_noise n;
  // Beyond 2^31 a peer returns NaN; here the 256-periodic field continues.
  const double big = 4294967296.0 * 1024.0;  // 2^42, a multiple of 256
  EXPECT_EQ(n.noise3d(big + 3.25, 1.5, 2.75), n.noise3d(3.25, 1.5, 2.75));
  EXPECT_EQ(n.noise3d(-big + 3.25, 1.5, 2.75), n.noise3d(3.25, 1.5, 2.75));
  const double edge = 2251799813685248.0;  // 2^51: the last binade with a half
  EXPECT_EQ(n.noise3d(edge + 0.5, 1.5, 2.75), n.noise3d(0.5, 1.5, 2.75));
  EXPECT_EQ(n.noise3d(-edge + 0.5, 1.5, 2.75), n.noise3d(0.5, 1.5, 2.75));
  // Huge finite numbers are integers: the noise is 0 there, and nothing overflows.
  EXPECT_EQ(n.noise3d(1e300, 0.5, 0.5), n.noise3d(0.0, 0.5, 0.5));
  EXPECT_EQ(n.noise3d(-1e300, -1e30, 1e20), 0.0);
  EXPECT_TRUE(std::isfinite(n.noise3d(std::numeric_limits<double>::max(), 0.5, 0.5)));
  perlin::improved_noise tiled;
  tiled.lattice().set_period(0, 3);
  EXPECT_EQ(tiled.noise3d(3e300, 0.5, 0.5), tiled.noise3d(std::fmod(3e300, 3.0), 0.5, 0.5));
}

TEST(ImprovedNoise, NonFiniteGivesNan) {
  const perlin::improved_noise n;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(n.noise1d(nan)));
  EXPECT_TRUE(std::isnan(n.noise2d(0.5, inf)));
  EXPECT_TRUE(std::isnan(n.noise3d(-inf, 0.5, 0.5)));
  EXPECT_TRUE(std::isnan(n.noise4d(0.5, 0.5, 0.5, nan)));
  const auto d = n.noise3d_deriv(nan, 0.0, 0.0);
  EXPECT_TRUE(std::isnan(d.value));
  EXPECT_TRUE(std::isnan(d.gradient[2]));
  EXPECT_TRUE(std::isnan(perlin::value_noise().noise2d(nan, 0.0)));
  EXPECT_TRUE(std::isnan(n.noise3d(std::numeric_limits<float>::infinity(), 0.5f, 0.5f)));
}

// Central differences with step h have error O(h^2); the noise's third derivatives are bounded
// by a few hundred, so h = 1e-5 gives agreement to a few 1e-9 (measured: 2e-9 at worst over
// 3000 random points in 1 to 4 dimensions); docs/exactness.md promises 1e-7.
template <class F, std::size_t D>
void expect_gradient_matches(F&& f, const std::array<double, D>& p,
                             const std::array<double, D>& grad, double tol = 1e-7) {
  const double h = 1e-5;
  for (std::size_t k = 0; k < D; ++k) {
    auto a = p;
    auto b = p;
    a[k] -= h;
    b[k] += h;
    const double numeric = (f(b) - f(a)) / (2 * h);
    EXPECT_NEAR(grad[k], numeric, tol) << "axis " << k;
  }
}

TEST(ImprovedNoise, DerivativesMatchCentralDifferences) {
  points r;
  const perlin::improved_noise n(99);
  for (int i = 0; i < 300; ++i) {
    const std::array<double, 4> p = {r.uniform(-50, 50), r.uniform(-50, 50), r.uniform(-50, 50),
                                     r.uniform(-50, 50)};
    const auto d1 = n.noise1d_deriv(p[0]);
    EXPECT_EQ(d1.value, n.noise1d(p[0]));
    expect_gradient_matches([&](auto q) { return n.noise1d(q[0]); }, std::array{p[0]}, d1.gradient);
    const auto d2 = n.noise2d_deriv(p[0], p[1]);
    EXPECT_EQ(d2.value, n.noise2d(p[0], p[1]));
    expect_gradient_matches([&](auto q) { return n.noise2d(q[0], q[1]); }, std::array{p[0], p[1]},
                            d2.gradient);
    const auto d3 = n.noise3d_deriv(p[0], p[1], p[2]);
    EXPECT_EQ(d3.value, n.noise3d(p[0], p[1], p[2]));
    expect_gradient_matches([&](auto q) { return n.noise3d(q[0], q[1], q[2]); },
                            std::array{p[0], p[1], p[2]}, d3.gradient);
    const auto d4 = n.noise4d_deriv(p[0], p[1], p[2], p[3]);
    EXPECT_EQ(d4.value, n.noise4d(p[0], p[1], p[2], p[3]));
    expect_gradient_matches([&](auto q) { return n.noise4d(q[0], q[1], q[2], q[3]); }, p,
                            d4.gradient);
  }
}

TEST(ImprovedNoise, EvalSpanMatchesNamedCalls) {
  const perlin::improved_noise n(5);
  const double p[4] = {1.3, -2.7, 0.45, 9.1};
  EXPECT_EQ(n.eval(std::span<const double>(p, 3)), n.noise3d(p[0], p[1], p[2]));
  EXPECT_EQ(n.eval(std::span<const double>(p, 4)), n.noise4d(p[0], p[1], p[2], p[3]));
  double g[2];
  EXPECT_EQ(n.eval(std::span<const double>(p, 2), g), n.noise2d(p[0], p[1]));
  EXPECT_EQ(g[0], n.noise2d_deriv(p[0], p[1]).gradient[0]);
  EXPECT_THROW((void)n.eval(std::span<const double>(p, 0)), perlin::invalid_argument);
  double g3[3];
  EXPECT_THROW((void)n.eval(std::span<const double>(p, 2), g3), perlin::invalid_argument);
}

// The single calls of 2-D and 3-D values take a fast path (side-by-side lanes where the compiler
// has vectors) that must give the bits of the generic kernel, which the calls with a gradient
// use. Points: random cells, lattice points and their half-way points, -0, tiny, up to and past
// 2^31 (where the float path changes route), non-finite; periods as masks and as modulos.
template <class T>
void expect_fast_path_bits(const perlin::improved_noise& n, T x, T y, T z) {
  const auto same = [](T a, T b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
  };
  const T v3 = n.noise3d(x, y, z), g3 = n.noise3d_deriv(x, y, z).value;
  const T v2 = n.noise2d(x, y), g2 = n.noise2d_deriv(x, y).value;
  EXPECT_TRUE(same(v3, g3)) << x << ' ' << y << ' ' << z << ": " << v3 << " vs " << g3;
  EXPECT_TRUE(same(v2, g2)) << x << ' ' << y << ": " << v2 << " vs " << g2;
}

TEST(ImprovedNoise, SingleCallsGiveTheBitsOfTheGenericKernel) {
  points r;
  std::vector<double> special = {0.0,
                                 -0.0,
                                 0.5,
                                 -0.5,
                                 1.0,
                                 -1.0,
                                 1e-300,
                                 -1e-40,
                                 255.0,
                                 256.5,
                                 -257.25,
                                 2147483520.0,
                                 2147483647.5,
                                 2147483648.0,
                                 -2147483648.0,
                                 -2147483904.5,
                                 8589934593.0,
                                 1e15 + 0.5,
                                 std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN()};
  std::vector<perlin::improved_noise> noises = {perlin::improved_noise(),
                                                perlin::improved_noise(7)};
  for (const std::int64_t period : {1, 5, 16, 256, 1000}) {
    perlin::improved_noise n(3);
    n.lattice().set_period(0, period).set_period(2, period == 5 ? 16 : 5);
    noises.push_back(n);
  }
  for (const auto& n : noises) {
    for (int i = 0; i < 3000; ++i) {
      const double x = r.uniform(-1000, 1000), y = r.uniform(-1000, 1000),
                   z = r.uniform(-1000, 1000);
      expect_fast_path_bits<double>(n, x, y, z);
      expect_fast_path_bits<float>(n, static_cast<float>(x), static_cast<float>(y),
                                   static_cast<float>(z));
      // Lattice and half-way coordinates: zero dot products, where signs of zeros show.
      const double hx = std::floor(x) + 0.5 * (i % 3), hy = std::floor(y) + 0.5 * (i % 2);
      expect_fast_path_bits<double>(n, hx, hy, std::floor(z));
      expect_fast_path_bits<float>(n, static_cast<float>(hx), static_cast<float>(hy),
                                   static_cast<float>(std::floor(z)));
    }
    for (const double a : special) {
      for (const double b : special) {
        const double c = r.uniform(-4, 4);
        expect_fast_path_bits<double>(n, a, b, c);
        expect_fast_path_bits<double>(n, c, a, b);
        expect_fast_path_bits<float>(n, static_cast<float>(a), static_cast<float>(b),
                                     static_cast<float>(c));
        expect_fast_path_bits<float>(n, static_cast<float>(c), static_cast<float>(a),
                                     static_cast<float>(b));
      }
    }
  }
}

TEST(Periods, NoiseRepeatsExactlyForEverySeedAndDimension) {
  points r;
  for (const std::int64_t period : {1, 2, 3, 5, 16, 17, 100, 255, 256, 257, 1000, 65536}) {
    for (const std::uint64_t seed : {0ull, 31337ull}) {
      perlin::improved_noise n(seed);
      n.lattice().set_period_all(period);
      perlin::value_noise v(seed, perlin::interpolation::cubic);
      v.lattice().set_period_all(period);
      const auto P = static_cast<double>(period);
      // Multiples of 2^-10, so that x + k*P is exact.
      const auto q = [&r] { return std::round(r.uniform(-20, 20) * 1024.0) / 1024.0; };
      for (int i = 0; i < 40; ++i) {
        const double x = q(), y = q(), z = q(), w = q();
        const double k = std::floor(r.uniform(-3, 4));
        EXPECT_EQ(n.noise1d(x + k * P), n.noise1d(x)) << period;
        EXPECT_EQ(n.noise2d(x, y + k * P), n.noise2d(x, y)) << period;
        EXPECT_EQ(n.noise3d(x + k * P, y - P, z + 2 * P), n.noise3d(x, y, z)) << period;
        EXPECT_EQ(n.noise4d(x, y, z, w + k * P), n.noise4d(x, y, z, w)) << period;
        EXPECT_EQ(v.noise3d(x + k * P, y, z - P), v.noise3d(x, y, z)) << period;
      }
    }
  }
}

TEST(Periods, Period256IsKenPerlinsOwnField) {
  points r;
  perlin::improved_noise tiled;
  tiled.lattice().set_period_all(256);
  const perlin::improved_noise plain;
  for (int i = 0; i < 1000; ++i) {
    const double x = r.uniform(-600, 600), y = r.uniform(-600, 600), z = r.uniform(-600, 600);
    EXPECT_EQ(tiled.noise3d(x, y, z), plain.noise3d(x, y, z));
  }
}

TEST(Periods, ANonDividingPeriodChangesTheField) {
  perlin::improved_noise tiled;
  tiled.lattice().set_period(0, 3);
  const perlin::improved_noise plain;
  // Cell 2's upper neighbour wraps to 0 instead of 3.
  EXPECT_NE(tiled.noise3d(2.5, 0.3, 0.7), plain.noise3d(2.5, 0.3, 0.7));
  EXPECT_EQ(tiled.noise3d(1.5, 0.3, 0.7), plain.noise3d(1.5, 0.3, 0.7));
}

TEST(Periods, InvalidPeriodsAreRejectedWithTheirName) {
  perlin::lattice l;
  for (const std::int64_t bad : {0ll, -1ll, 2147483648ll}) {
    try {
      l.set_period(0, bad);
      FAIL() << bad;
    } catch (const perlin::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("period"), std::string::npos);
    }
  }
  EXPECT_THROW(l.set_period(4, 8), perlin::invalid_argument);
  EXPECT_NO_THROW(l.set_period(3, 2147483647));
  EXPECT_EQ(l.period(3), 2147483647);
  l.clear_period(3);
  EXPECT_EQ(l.period(3), 0);
}

TEST(Seeds, PermutationIsAPermutation) {
  for (const std::uint64_t seed : {0ull, 1ull, 42ull, ~0ull}) {
    const perlin::permutation p(seed);
    std::set<int> seen;
    for (std::size_t i = 0; i < 256; ++i) {
      seen.insert(p[i]);
      EXPECT_EQ(p[i], p[i + 256]);
    }
    EXPECT_EQ(seen.size(), 256u);
    EXPECT_EQ(p.seed(), seed);
  }
  EXPECT_FALSE(perlin::permutation().seed().has_value());
  EXPECT_EQ(perlin::permutation()[0], 151);  // Ken Perlin's table starts 151, 160, 137
  EXPECT_EQ(perlin::permutation()[255], 180);
}

/// The lines of tests/data/seeds.txt (docs/seeding.md's check values; the format is in the
/// file) whose second column is `kind` ("permutation", "improved" or "value"), split at tabs.
std::vector<std::vector<std::string>> seed_rows(const std::string& kind) {
  const std::string path = std::string(PERLIN_TEST_DATA) + "/seeds.txt";
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<std::vector<std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream split(line);
    for (std::string c; std::getline(split, c, '\t');) cols.push_back(c);
    EXPECT_GE(cols.size(), 3u) << line;
    if (cols.size() >= 3 && cols[1] == kind) out.push_back(cols);
  }
  return out;
}

/// The numbers of a column ("x y z", "p[0] ... p[7]").
template <class T>
std::vector<T> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<T> out;
  for (T v; in >> v;) out.push_back(v);
  return out;
}

TEST(Seeds, GoldenPermutationPrefixes) {
  // docs/seeding.md quotes these so that a port to another language can check itself.
  std::size_t checked = 0;
  for (const auto& row : seed_rows("permutation")) {
    const std::uint64_t seed = std::stoull(row[0]);
    const std::vector<int> prefix = numbers<int>(row[2]);
    EXPECT_EQ(prefix.size(), 8u) << row[0];
    const perlin::permutation p(seed);
    for (std::size_t i = 0; i < prefix.size(); ++i) EXPECT_EQ(p[i], prefix[i]) << seed << " " << i;
    ++checked;
  }
  EXPECT_GE(checked, 4u);
}

TEST(Seeds, GoldenNoiseValues) {
  std::size_t checked = 0;
  for (const char* kind : {"improved", "value"}) {
    for (const auto& row : seed_rows(kind)) {
      SCOPED_TRACE(row[0] + " " + row[1] + " " + row[2]);
      ASSERT_EQ(row.size(), 5u);
      const std::uint64_t seed = std::stoull(row[0]);
      const std::vector<double> p = numbers<double>(row[2]);
      const double want = std::strtod(row[3].c_str(), nullptr);
      std::uint64_t want_bits;
      std::memcpy(&want_bits, &want, sizeof want);
      EXPECT_EQ(want_bits, std::stoull(row[4], nullptr, 16)) << "the two columns disagree";
      double got = std::numeric_limits<double>::quiet_NaN();
      if (row[1] == "improved") {
        const perlin::improved_noise n(seed);
        if (p.size() == 1) got = n.noise1d(p[0]);
        if (p.size() == 2) got = n.noise2d(p[0], p[1]);
        if (p.size() == 3) got = n.noise3d(p[0], p[1], p[2]);
        if (p.size() == 4) got = n.noise4d(p[0], p[1], p[2], p[3]);
      } else {
        const perlin::value_noise v(seed);
        if (p.size() == 1) got = v.noise1d(p[0]);
        if (p.size() == 2) got = v.noise2d(p[0], p[1]);
        if (p.size() == 3) got = v.noise3d(p[0], p[1], p[2]);
        if (p.size() == 4) got = v.noise4d(p[0], p[1], p[2], p[3]);
      }
      EXPECT_EQ(got, want) << std::setprecision(17) << got << ", seeds.txt says " << row[3];
      ++checked;
    }
  }
  EXPECT_GE(checked, 9u);
}

TEST(Seeds, DifferentSeedsGiveDifferentFields) {
  const perlin::improved_noise a(1), b(2), c;
  int same_ab = 0, same_ac = 0;
  points r;
  for (int i = 0; i < 100; ++i) {
    const double x = r.uniform(0, 50), y = r.uniform(0, 50), z = r.uniform(0, 50);
    same_ab += a.noise3d(x, y, z) == b.noise3d(x, y, z);
    same_ac += a.noise3d(x, y, z) == c.noise3d(x, y, z);
  }
  EXPECT_LT(same_ab, 5);
  EXPECT_LT(same_ac, 5);
}

TEST(FloatPath, WithinToleranceOfDouble) {
  // Stated tolerance of the float scalar path: 2e-6 absolute for |coordinates| < 256 (float
  // has 24 bits; the fraction of a coordinate near 256 keeps 16 of them, and every step of the
  // evaluation rounds once more).
  points r;
  const perlin::improved_noise n(3);
  const perlin::value_noise v(3);
  double worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto x = static_cast<float>(r.uniform(-255, 255));
    const auto y = static_cast<float>(r.uniform(-255, 255));
    const auto z = static_cast<float>(r.uniform(-255, 255));
    const auto w = static_cast<float>(r.uniform(-255, 255));
    worst = std::max(
        worst, std::abs(double(n.noise3d(x, y, z)) - n.noise3d(double(x), double(y), double(z))));
    worst = std::max(worst, std::abs(double(n.noise4d(x, y, z, w)) -
                                     n.noise4d(double(x), double(y), double(z), double(w))));
    worst = std::max(
        worst, std::abs(double(v.noise3d(x, y, z)) - v.noise3d(double(x), double(y), double(z))));
  }
  EXPECT_LT(worst, perlin::k_float_tolerance);
  EXPECT_GT(worst, 0.0);  // the paths are really different
}

TEST(Bounds, SampledValuesStayWithinTheDocumentedBounds) {
  points r;
  for (const std::uint64_t seed : {0ull, 11ull, 2024ull}) {
    const perlin::improved_noise n(seed);
    double m[5] = {};
    for (int i = 0; i < 100000; ++i) {
      const double x = r.uniform(-64, 64), y = r.uniform(-64, 64), z = r.uniform(-64, 64),
                   w = r.uniform(-64, 64);
      m[1] = std::max(m[1], std::abs(n.noise1d(x)));
      m[2] = std::max(m[2], std::abs(n.noise2d(x, y)));
      m[3] = std::max(m[3], std::abs(n.noise3d(x, y, z)));
      m[4] = std::max(m[4], std::abs(n.noise4d(x, y, z, w)));
    }
    for (std::size_t d = 1; d <= 4; ++d) {
      EXPECT_LE(m[d], perlin::improved_bound(d)) << d;
      EXPECT_GT(m[d], 0.6 * perlin::improved_bound(d)) << d;  // and the bound is not loose
    }
  }
  // The documented extremes of Ken Perlin's table.
  const perlin::improved_noise n;
  EXPECT_NEAR(n.noise3d(12.355, 187.519, 5.5), 1.0363, 2e-4);
  EXPECT_GT(n.noise3d(12.355, 187.519, 5.5), 1.0);
  EXPECT_GT(perlin::to_unit(n.noise3d(12.355, 187.519, 5.5)), 1.0);
  EXPECT_EQ(perlin::to_unit(1.2, -1.0, 1.0), 1.0);
  EXPECT_THROW((void)perlin::improved_bound(5), perlin::invalid_argument);
}

TEST(ValueNoise, TakesItsLatticeValuesAndStaysInRange) {
  const perlin::permutation p;
  for (const auto interp : {perlin::interpolation::linear, perlin::interpolation::cosine,
                            perlin::interpolation::cubic, perlin::interpolation::quintic}) {
    const perlin::value_noise v(perlin::lattice(), interp);
    // At (i, j, k) the value is p[p[p[i]+j]+k] / 127.5 - 1.
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        const int h = p[static_cast<std::size_t>(p[static_cast<std::size_t>(p[i] + j)] + 2)];
        EXPECT_DOUBLE_EQ(v.noise3d(i, j, 2.0), h / 127.5 - 1.0);
      }
    }
    points r;
    for (int i = 0; i < 5000; ++i) {
      const double val = v.noise2d(r.uniform(-40, 40), r.uniform(-40, 40));
      EXPECT_GE(val, -1.0);
      EXPECT_LE(val, 1.0);
    }
  }
}

TEST(ValueNoise, InterpolationsDifferAndDerivativesMatch) {
  const perlin::value_noise lin(7, perlin::interpolation::linear);
  const perlin::value_noise cosv(7, perlin::interpolation::cosine);
  const perlin::value_noise cub(7, perlin::interpolation::cubic);
  const perlin::value_noise quin(7, perlin::interpolation::quintic);
  EXPECT_NE(lin.noise2d(0.3, 0.6), cosv.noise2d(0.3, 0.6));
  EXPECT_NE(cub.noise2d(0.3, 0.6), quin.noise2d(0.3, 0.6));
  // Midway along an axis every symmetric interpolation gives the average of the two ends.
  EXPECT_DOUBLE_EQ(lin.noise1d(4.5), cub.noise1d(4.5));
  EXPECT_DOUBLE_EQ(lin.noise1d(4.5), quin.noise1d(4.5));
  points r;
  for (const auto* v : {&lin, &cosv, &cub, &quin}) {
    for (int i = 0; i < 200; ++i) {
      const std::array<double, 3> p = {r.uniform(-9, 9), r.uniform(-9, 9), r.uniform(-9, 9)};
      // Stay away from cell walls, where linear interpolation has a kink.
      bool near_wall = false;
      for (double c : p) near_wall |= std::abs(c - std::round(c)) < 1e-3;
      if (near_wall) continue;
      const auto d = v->noise3d_deriv(p[0], p[1], p[2]);
      EXPECT_EQ(d.value, v->noise3d(p[0], p[1], p[2]));
      expect_gradient_matches([&](auto q) { return v->noise3d(q[0], q[1], q[2]); }, p, d.gradient);
    }
  }
  EXPECT_EQ(perlin::parse_interpolation("cosine"), perlin::interpolation::cosine);
  EXPECT_THROW((void)perlin::parse_interpolation("spline"), perlin::invalid_argument);
}

TEST(ValueNoise, FourDimensionsAndSeeds) {
  const perlin::value_noise a(1), b(2);
  EXPECT_NE(a.noise4d(0.5, 0.5, 0.5, 0.5), b.noise4d(0.5, 0.5, 0.5, 0.5));
  perlin::value_noise t(1);
  t.lattice().set_period(3, 7);
  EXPECT_EQ(t.noise4d(0.2, 0.4, 0.6, 0.75 + 14.0), t.noise4d(0.2, 0.4, 0.6, 0.75));
}

TEST(FourD, PropertiesOfTheDeeperHash) {
  const perlin::improved_noise n;
  // Not a slice of 3-D: the w = 0 plane hashes one level deeper.
  int differ = 0;
  points r;
  for (int i = 0; i < 100; ++i) {
    const double x = r.uniform(-9, 9), y = r.uniform(-9, 9), z = r.uniform(-9, 9);
    differ += n.noise4d(x, y, z, 0.0) != n.noise3d(x, y, z);
    EXPECT_EQ(n.noise4d(x, y, z, 256.0 + 0.5), n.noise4d(x, y, z, 0.5));
  }
  EXPECT_GT(differ, 90);
  EXPECT_EQ(n.noise4d(0.1, 0.2, 0.3, 0.4), 0.44272860930524088);
}

}  // namespace
