// Point batches (eval_points) on every SIMD target this machine runs: against the double scalar
// path, strict mode, and non-finite coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bulk_cases.hpp"
#include "perlin/perlin.hpp"

namespace {

using bulk_cases::fields;
using bulk_cases::for_each_target;
using bulk_cases::tolerance;

TEST(Points, MatchTheDoublePathOnEveryTarget) {
  std::mt19937_64 rng(7);
  const auto uniform = [&](double lo, double hi) {
    return static_cast<float>(lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53);
  };
  std::vector<perlin::field> all = fields();
  perlin::improved_noise pow2(9);
  pow2.lattice().set_period_all(64);
  all.emplace_back(pow2, perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(3));
  for (const std::size_t n : {1u, 5u, 8u, 16u, 17u, 49u, 1000u}) {
    std::vector<float> x(n), y(n), z(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double range = i % 3 == 0 ? 1000.0 : (i % 3 == 1 ? 20.0 : 1048576.0);
      x[i] = uniform(-range, range);
      y[i] = uniform(-range, range);
      z[i] = uniform(-20, 20);
      w[i] = uniform(-20, 20);
    }
    for_each_target([&](const std::string&) {
      for (const auto& f : all) {
        for (std::size_t dims = 1; dims <= 4; ++dims) {
          perlin::point_set<float> ps{x, {}, {}, {}};
          if (dims >= 2) ps.y = y;
          if (dims >= 3) ps.z = z;
          if (dims >= 4) ps.w = w;
          std::vector<float> got(n);
          perlin::eval_points(f, ps, got, {.threads = 2});
          for (std::size_t i = 0; i < n; ++i) {
            const double p[4] = {x[i], y[i], z[i], w[i]};
            const double want = f.eval<double>(std::span<const double>(p, dims));
            ASSERT_NEAR(got[i], want, tolerance(f)) << "dims " << dims << " i " << i;
          }
        }
      }
    });
  }
}

TEST(Points, PlainNoiseIsTheSameInStrictModeOnEveryTargetAndNearTheDoublePath) {
  // One plain octave takes the kernels' fastest loops (AVX3_DL hashes 64 points a byte per lane;
  // x86 targets floor by truncation): 203 points cover whole blocks of 64, pairs of vectors and a
  // tail, with huge, integral, negative and non-finite coordinates in each of them.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> special = {
      0x1p24f + 2, -0x1p24f - 6, 0x1p31f, -0x1p31f, 0x1p31f - 128, -0x1p31f + 128,
      3e30f,       -3e30f,       nan,     inf,      -inf,          0.0f,
      -0.0f,       255.5f,       -255.5f, 256.0f,   -1.0f,         0x1p23f + 0.5f};
  std::mt19937_64 rng(11);
  const std::size_t n = 203;
  std::vector<float> c[3];
  for (auto& axis : c) {
    axis.resize(n);
    for (auto& v : axis)
      v = static_cast<float>(static_cast<double>(rng() >> 11) * 0x1p-53 * 2000 - 1000);
  }
  for (std::size_t i = 0; i < n; i += 7) c[i % 3][i] = special[(i / 7) % special.size()];
  std::vector<perlin::field> all;
  all.emplace_back();
  all.emplace_back(perlin::improved_noise(5),
                   perlin::fractal().set_kind(perlin::fractal_kind::none));
  perlin::improved_noise periodic(6);
  periodic.lattice().set_period_all(64);
  all.emplace_back(periodic, perlin::fractal().set_kind(perlin::fractal_kind::none));
  for (const auto interp : {perlin::interpolation::linear, perlin::interpolation::cubic,
                            perlin::interpolation::quintic}) {
    all.emplace_back(perlin::value_noise(7, interp),
                     perlin::fractal().set_kind(perlin::fractal_kind::none));
  }
  for (std::size_t fi = 0; fi < all.size(); ++fi) {
    const perlin::field& f = all[fi];
    for (std::size_t dims = 1; dims <= 3; ++dims) {
      perlin::point_set<float> ps{c[0], {}, {}, {}};
      if (dims >= 2) ps.y = c[1];
      if (dims >= 3) ps.z = c[2];
      std::vector<float> first;
      for_each_target([&](const std::string&) {
        for (const bool strict : {false, true}) {
          std::vector<float> got(n);
          perlin::eval_points(f, ps, got, {.threads = 1, .strict = strict});
          for (std::size_t i = 0; i < n; ++i) {
            const double p[3] = {c[0][i], c[1][i], c[2][i]};
            const double want = f.eval<double>(std::span<const double>(p, dims));
            if (std::isnan(want)) {
              ASSERT_TRUE(std::isnan(got[i])) << "field " << fi << " dims " << dims << " i " << i;
            } else {
              ASSERT_NEAR(got[i], want, tolerance(f))
                  << "field " << fi << " dims " << dims << " i " << i;
            }
          }
          if (!strict) continue;
          if (first.empty()) {
            first = got;
          } else {
            EXPECT_EQ(std::memcmp(first.data(), got.data(), n * sizeof(float)), 0)
                << "field " << fi << " dims " << dims;
          }
        }
      });
    }
  }
}

TEST(Points, WarpedFieldsAreWithinTheirToleranceOnEveryTarget) {
  // Float point batches of warped fields on the warp kernel (bulk/warp_samples.cpp), values and
  // gradients, against the double path within value_tolerance and gradient_tolerance, on every
  // target, strict or not, 1 and 2 threads the same bits; a batch longer than a chunk (1,024) and
  // a tail. 4-D and rotated fields take the double path, rounded: within the same tolerances.
  std::vector<perlin::field> all;
  const auto with = [&](perlin::field f, perlin::warp_kind kind, double amplitude, int octaves) {
    f.set_warp(
        perlin::warp().set_kind(kind).set_amplitude(amplitude).set_frequency(0.5).set_octaves(
            octaves));
    all.push_back(f);
  };
  with(perlin::field(perlin::improved_noise(), perlin::fractal()
                                                   .set_kind(perlin::fractal_kind::fbm)
                                                   .set_octaves(4)
                                                   .set_normalize(true)
                                                   .set_decorrelate(true)),
       perlin::warp_kind::progressive, 2.5, 3);
  with(perlin::field(perlin::value_noise(4, perlin::interpolation::linear),
                     perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(2)),
       perlin::warp_kind::independent, 1.0, 2);
  perlin::field turned(perlin::improved_noise(6), perlin::fractal());
  turned.set_plane(perlin::plane::rotated);
  with(turned, perlin::warp_kind::basic, 1.0, 1);
  std::mt19937_64 rng(11);
  const auto uniform = [&](double lo, double hi) {
    return static_cast<float>(lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53);
  };
  constexpr std::size_t n = 1100;
  std::vector<float> xs[4];
  for (auto& axis : xs) {
    for (std::size_t i = 0; i < n; ++i) axis.push_back(uniform(-50, 50));
  }
  double worst_value = 0, worst_gradient = 0;
  for (std::size_t fi = 0; fi < all.size(); ++fi) {
    const perlin::field& f = all[fi];
    const double tol = perlin::value_tolerance(f), gtol = perlin::gradient_tolerance(f);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      perlin::point_set<float> p;
      std::span<const float>* axes[4] = {&p.x, &p.y, &p.z, &p.w};
      for (std::size_t a = 0; a < dims; ++a) *axes[a] = xs[a];
      std::vector<double> want(n), want_grad(dims * n);
      for (std::size_t i = 0; i < n; ++i) {
        double q[4], g[4];
        for (std::size_t a = 0; a < dims; ++a) q[a] = xs[a][i];
        want[i] = f.eval<double>(std::span<const double>(q, dims), std::span<double>(g, dims));
        for (std::size_t a = 0; a < dims; ++a) want_grad[a * n + i] = g[a];
      }
      for_each_target([&](const std::string&) {
        for (const bool strict : {false, true}) {
          std::vector<float> v(n), v1(n), d(dims * n), d1(dims * n), plain(n);
          perlin::eval_points_deriv(f, p, v, d, {.threads = 2, .strict = strict});
          perlin::eval_points_deriv(f, p, v1, d1, {.threads = 1, .strict = strict});
          ASSERT_EQ(v, v1);
          ASSERT_EQ(d, d1);
          perlin::eval_points(f, p, plain, {.threads = 2, .strict = strict});
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_NEAR(plain[i], want[i], tol) << "field " << fi << " dims " << dims;
            ASSERT_NEAR(v[i], want[i], tol) << "field " << fi << " dims " << dims;
            worst_value = std::max(worst_value, std::abs(plain[i] - want[i]) / tol);
            for (std::size_t a = 0; a < dims; ++a) {
              ASSERT_NEAR(d[a * n + i], want_grad[a * n + i], gtol)
                  << "field " << fi << " dims " << dims << " axis " << a;
              worst_gradient =
                  std::max(worst_gradient, std::abs(d[a * n + i] - want_grad[a * n + i]) / gtol);
            }
          }
        }
      });
    }
  }
  std::printf("warped points: worst value error %.3f of its tolerance, gradient %.3f\n",
              worst_value, worst_gradient);
}

TEST(Points, DoubleBatchIsTheSingleCallsAndNonFiniteIsNan) {
  const perlin::improved_noise n;
  const perlin::field f;
  std::vector<double> x = {3.14, -1.5, 1e6 + 0.25}, y = {42, 2.5, 7.125}, z = {7, 0.5, -3.5};
  std::vector<double> out(3);
  perlin::eval_points(f, {.x = x, .y = y, .z = z}, out);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(out[i], n.noise3d(x[i], y[i], z[i]));
  for_each_target([&](const std::string&) {
    std::vector<float> fx = {0.5f,  std::numeric_limits<float>::quiet_NaN(),
                             0.25f, std::numeric_limits<float>::infinity(),
                             3e30f, -3e30f,
                             0.5f,  0.5f,
                             0.5f};
    std::vector<float> fy(fx.size(), 0.75f), res(fx.size());
    perlin::eval_points(f, {.x = fx, .y = fy}, res);
    EXPECT_TRUE(std::isnan(res[1]));
    EXPECT_TRUE(std::isnan(res[3]));
    EXPECT_NEAR(res[4], n.noise2d(3e30, 0.75),
                perlin::k_float_tolerance);  // huge floats are integers, reduced mod 256
    EXPECT_NEAR(res[5], n.noise2d(-3e30, 0.75), perlin::k_float_tolerance);
    EXPECT_NEAR(res[0], n.noise2d(0.5, 0.75), perlin::k_float_tolerance);
  });
}

}  // namespace
