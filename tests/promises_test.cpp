// Promises of the docs that had no test of their own (review 3.2): the float scalar path in
// every dimension and through fractals, the bounds of 4-D noise and of normalised fractals, the
// same bits for every thread count in every dimension and for points, strict mode in every
// dimension, and grid accuracy for coordinates up to 2^20.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

struct rng {
  std::mt19937_64 g{12345};
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
};

TEST(Promises, FloatScalarPathWithinToleranceInEveryDimension) {
  // docs/exactness.md: within 2e-6 of the double path for coordinates below 256.
  rng r;
  const perlin::improved_noise n(3);
  const perlin::value_noise v(3, perlin::interpolation::cubic);
  double worst = 0;
  const auto diff = [&](float a, double b) { worst = std::max(worst, std::abs(double(a) - b)); };
  for (int i = 0; i < 20000; ++i) {
    const float x = float(r.uniform(-255, 255)), y = float(r.uniform(-255, 255)),
                z = float(r.uniform(-255, 255)), w = float(r.uniform(-255, 255));
    const double X = x, Y = y, Z = z, W = w;
    diff(n.noise1d(x), n.noise1d(X));
    diff(n.noise2d(x, y), n.noise2d(X, Y));
    diff(v.noise1d(x), v.noise1d(X));
    diff(v.noise2d(x, y), v.noise2d(X, Y));
    diff(v.noise4d(x, y, z, w), v.noise4d(X, Y, Z, W));
  }
  EXPECT_LT(worst, perlin::k_float_tolerance);
  EXPECT_GT(worst, 0.0);
}

TEST(Promises, FloatFractalsWithinToleranceTimesTheAmplitudes) {
  // Octave coordinates stay below 256: x in [-15, 15] at frequencies up to 2^4, and no
  // decorrelation (its offsets, i * 101.6..., count towards the 256: docs/exactness.md).
  rng r;
  for (const auto kind : {perlin::fractal_kind::fbm, perlin::fractal_kind::turbulence,
                          perlin::fractal_kind::ridged, perlin::fractal_kind::billow}) {
    const perlin::field f(perlin::improved_noise(7),
                          perlin::fractal().set_kind(kind).set_octaves(5));
    const double tol = perlin::value_tolerance(f);
    for (int i = 0; i < 3000; ++i) {
      const float p[3] = {float(r.uniform(-15, 15)), float(r.uniform(-15, 15)),
                          float(r.uniform(-15, 15))};
      const double pd[3] = {p[0], p[1], p[2]};
      ASSERT_NEAR(f.eval(std::span<const float>(p)), f.eval(std::span<const double>(pd)), tol)
          << perlin::to_string(kind);
    }
  }
}

TEST(Promises, FourDimensionalNoiseStaysWithinItsBoundAndComesClose) {
  // docs/ranges.md: |noise4d| <= 1.5366 for every seed. Random points rarely come near the
  // corner cases (the bound needs every corner's most favourable gradient), so this checks that
  // the bound is never exceeded and is not absurdly loose (600,000 samples reach about 1.06).
  rng r;
  double worst = 0;
  for (const std::uint64_t seed : {0ull, 5ull, 77ull}) {
    const perlin::improved_noise n(seed);
    for (int i = 0; i < 200000; ++i) {
      worst = std::max(worst, std::abs(n.noise4d(r.uniform(-40, 40), r.uniform(-40, 40),
                                                 r.uniform(-40, 40), r.uniform(-40, 40))));
    }
  }
  EXPECT_LE(worst, perlin::improved_bound(4));
  EXPECT_GT(worst, 0.65 * perlin::improved_bound(4)) << worst;
}

TEST(Promises, FieldRangesHoldForEveryKindDimensionAndNormalisation) {
  rng r;
  for (const bool value : {false, true}) {
    for (const auto kind :
         {perlin::fractal_kind::none, perlin::fractal_kind::fbm, perlin::fractal_kind::turbulence,
          perlin::fractal_kind::ridged, perlin::fractal_kind::billow}) {
      for (const bool normalize : {false, true}) {
        perlin::fractal fr;
        fr.set_kind(kind).set_octaves(4).set_persistence(0.7).set_normalize(normalize);
        const perlin::field f = value ? perlin::field(perlin::value_noise(9), fr)
                                      : perlin::field(perlin::improved_noise(9), fr);
        for (std::size_t dims = 1; dims <= 4; ++dims) {
          const auto [lo, hi] = f.range(dims);
          double seen_lo = 1e9, seen_hi = -1e9;
          for (int i = 0; i < 4000; ++i) {
            const double p[4] = {r.uniform(-30, 30), r.uniform(-30, 30), r.uniform(-30, 30),
                                 r.uniform(-30, 30)};
            const double v = f.eval(std::span<const double>(p, dims));
            seen_lo = std::min(seen_lo, v);
            seen_hi = std::max(seen_hi, v);
          }
          const std::string what = std::string(value ? "value " : "improved ") +
                                   std::string(perlin::to_string(kind)) +
                                   (normalize ? " normalised " : " ") + std::to_string(dims) + "-D";
          EXPECT_GE(seen_lo, lo) << what;
          EXPECT_LE(seen_hi, hi) << what;
          EXPECT_LT(seen_lo, seen_hi) << what;
        }
      }
    }
  }
  // The billow upper bound is max(1, 2B - 1) * sum: with B = 1.0364 (3-D) that is 1.0728 * sum.
  const perlin::fractal billow =
      perlin::fractal().set_kind(perlin::fractal_kind::billow).set_octaves(3);
  EXPECT_DOUBLE_EQ(billow.bound(1.0364), (2 * 1.0364 - 1) * billow.amplitude_sum());
  EXPECT_DOUBLE_EQ(billow.bound(0.5), billow.amplitude_sum());
}

/// Runs `body` once per available target.
template <class F>
void for_each_target(F&& body) {
  for (const auto& t : perlin::available_targets()) {
    perlin::set_max_target(t);
    SCOPED_TRACE(t);
    body(t);
  }
  perlin::set_max_target("");
}

std::vector<perlin::grid> grids_of_every_shape() {
  std::vector<perlin::grid> out;
  out.push_back(perlin::grid::line(100003, 0.013, -7.25));  // 1-D: the threads split columns
  out.push_back(perlin::grid::plane(9000, 3, 0.021, 3.5));  // wider than a band, few rows
  out.push_back(perlin::grid::plane(123, 77, 0.11, -20.5));
  out.push_back(perlin::grid::volume(33, 9, 7, 0.17, 1.5, -2.5, 0.25));
  perlin::grid g4;
  g4.dims = 4;
  g4.count = {21, 5, 4, 3};
  g4.origin = {0.3, 0.6, -1.2, 2.4};
  g4.step = {0.19, 0.23, 0.29, 0.31};
  out.push_back(g4);
  return out;
}

TEST(Promises, SameBitsForEveryThreadCountInEveryShape) {
  const perlin::field f(perlin::improved_noise(4),
                        perlin::fractal().set_kind(perlin::fractal_kind::ridged).set_octaves(3));
  for (const auto& g : grids_of_every_shape()) {
    std::vector<float> one(g.size()), many(g.size());
    (void)perlin::fill_grid(f, g, one, {.threads = 1});
    for (const unsigned t : {0u, 2u, 3u, 16u}) {
      (void)perlin::fill_grid(f, g, many, {.threads = t});
      ASSERT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0)
          << g.dims << "-D, " << t << " threads";
    }
  }
  rng r;
  std::vector<float> xs(50000), ys(50000), zs(50000);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xs[i] = float(r.uniform(-100, 100));
    ys[i] = float(r.uniform(-100, 100));
    zs[i] = float(r.uniform(-100, 100));
  }
  std::vector<float> one(xs.size()), many(xs.size());
  perlin::eval_points(f, {.x = xs, .y = ys, .z = zs}, one, {.threads = 1});
  for (const unsigned t : {0u, 2u, 5u}) {
    perlin::eval_points(f, {.x = xs, .y = ys, .z = zs}, many, {.threads = t});
    ASSERT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0) << t;
  }
}

TEST(Promises, StrictModeGivesTheSameBitsOnEveryTargetInEveryDimension) {
  if (perlin::available_targets().size() < 2) {
    GTEST_SKIP() << "one SIMD target here: nothing to compare";
  }
  const perlin::field f(perlin::value_noise(2, perlin::interpolation::quintic),
                        perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(3));
  const perlin::field g_improved(
      perlin::improved_noise(2),
      perlin::fractal().set_kind(perlin::fractal_kind::billow).set_octaves(2));
  for (const perlin::field* field : {&f, &g_improved}) {
    for (auto g : grids_of_every_shape()) {
      if (g.size() > 50000) g.count[0] = 5000;
      std::vector<float> first;
      for_each_target([&](const std::string& t) {
        std::vector<float> out(g.size());
        (void)perlin::fill_grid(*field, g, out, {.strict = true});
        if (first.empty()) {
          first = out;
        } else {
          EXPECT_EQ(std::memcmp(first.data(), out.data(), out.size() * sizeof(float)), 0)
              << t << " " << g.dims << "-D";
        }
      });
    }
  }
}

TEST(Promises, GridsHoldTheToleranceForCoordinatesUpTo2To20) {
  const perlin::field f(perlin::improved_noise(6),
                        perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(3));
  const double tol = perlin::value_tolerance(f);
  for (const double at : {1048000.5, -1048000.25}) {
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      perlin::grid g;
      g.dims = dims;
      g.count = {40, 3, 3, 2};
      g.origin = {at, at, at, at};
      g.step = {0.07, 0.3, 0.5, 0.7};
      std::vector<float> out(g.size());
      for_each_target([&](const std::string&) {
        (void)perlin::fill_grid(f, g, out);
        std::size_t idx = 0;
        for (std::size_t l = 0; l < (dims > 3 ? g.count[3] : 1); ++l) {
          for (std::size_t k = 0; k < (dims > 2 ? g.count[2] : 1); ++k) {
            for (std::size_t j = 0; j < (dims > 1 ? g.count[1] : 1); ++j) {
              for (std::size_t i = 0; i < g.count[0]; ++i, ++idx) {
                const double p[4] = {g.coordinate(0, i), g.coordinate(1, j), g.coordinate(2, k),
                                     g.coordinate(3, l)};
                ASSERT_NEAR(out[idx], f.eval(std::span<const double>(p, dims)), tol)
                    << dims << "-D at " << at;
              }
            }
          }
        }
      });
    }
  }
}

}  // namespace
