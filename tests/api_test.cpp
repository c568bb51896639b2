// What a new user types first: integer and mixed coordinates, every overload of both noises,
// calls without template arguments, grid factories and defaults that are not degenerate, the
// range a bulk call reports, and empty batches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

TEST(Api, IntegerAndMixedCoordinatesTakeTheDoublePath) {
  const perlin::improved_noise n(3);
  EXPECT_EQ(n.noise2d(1, 2), n.noise2d(1.0, 2.0));  // was ambiguous
  EXPECT_EQ(n.noise1d(std::size_t{7}), n.noise1d(7.0));
  EXPECT_EQ(n.noise3d(1, 2.5f, 3.25), n.noise3d(1.0, 2.5, 3.25));
  EXPECT_EQ(n.noise4d(1, 2, 3, 0.5), n.noise4d(1.0, 2.0, 3.0, 0.5));
  const perlin::value_noise v(3);
  EXPECT_EQ(v.noise2d(4, 5), v.noise2d(4.0, 5.0));
  EXPECT_EQ(v.noise3d(4, 5, 6), v.noise3d(4.0, 5.0, 6.0));
  // Integer points are lattice points: improved noise is 0 there, value noise its lattice value.
  EXPECT_EQ(n.noise2d(10, 20), 0.0);
  EXPECT_NE(v.noise2d(10, 20), 0.0);
}

TEST(Api, EveryOverloadOfBothNoisesAgreesWithEval) {
  const perlin::improved_noise n(9);
  const perlin::value_noise v(9, perlin::interpolation::cubic);
  const float p[4] = {0.3f, 1.7f, -2.2f, 5.1f};
  const double pd[4] = {0.3, 1.7, -2.2, 5.1};
  float g[4];
  double gd[4];
  // float
  EXPECT_EQ(n.noise1d(p[0]), n.eval(std::span<const float>(p, 1)));
  EXPECT_EQ(n.noise4d(p[0], p[1], p[2], p[3]), n.eval(std::span<const float>(p, 4)));
  EXPECT_EQ(v.noise1d(p[0]), v.eval(std::span<const float>(p, 1)));
  EXPECT_EQ(v.noise4d(p[0], p[1], p[2], p[3]), v.eval(std::span<const float>(p, 4)));
  const auto d1 = n.noise1d_deriv(p[0]);
  EXPECT_EQ(d1.value, n.eval(std::span<const float>(p, 1), std::span<float>(g, 1)));
  EXPECT_EQ(d1.gradient[0], g[0]);
  const auto d2 = n.noise2d_deriv(p[0], p[1]);
  EXPECT_EQ(d2.value, n.eval(std::span<const float>(p, 2), std::span<float>(g, 2)));
  EXPECT_EQ(d2.gradient[1], g[1]);
  const auto d4 = n.noise4d_deriv(p[0], p[1], p[2], p[3]);
  EXPECT_EQ(d4.value, n.eval(std::span<const float>(p, 4), std::span<float>(g, 4)));
  EXPECT_EQ(d4.gradient[3], g[3]);
  const auto v4 = v.noise4d_deriv(p[0], p[1], p[2], p[3]);
  EXPECT_EQ(v4.value, v.eval(std::span<const float>(p, 4), std::span<float>(g, 4)));
  EXPECT_EQ(v4.gradient[2], g[2]);
  // double
  const auto vd1 = v.noise1d_deriv(pd[0]);
  EXPECT_EQ(vd1.value, v.eval(std::span<const double>(pd, 1), std::span<double>(gd, 1)));
  EXPECT_EQ(vd1.gradient[0], gd[0]);
  const auto vd4 = v.noise4d_deriv(pd[0], pd[1], pd[2], pd[3]);
  EXPECT_EQ(vd4.value, v.eval(std::span<const double>(pd, 4), std::span<double>(gd, 4)));
  EXPECT_EQ(vd4.gradient[3], gd[3]);
  // float and double agree within the float tolerance (docs/exactness.md)
  EXPECT_NEAR(n.noise2d(p[0], p[1]), n.noise2d(double(p[0]), double(p[1])),
              perlin::k_float_tolerance);
  EXPECT_NEAR(v.noise1d(p[0]), v.noise1d(double(p[0])), perlin::k_float_tolerance);
}

TEST(Api, FieldsEvaluateWithoutTemplateArguments) {
  const perlin::field f;
  EXPECT_EQ(f(3.14, 42, 7), 0.13691995878400012);
  const double p[3] = {3.14, 42.0, 7.0};
  EXPECT_EQ(f.eval(p), 0.13691995878400012);
  const float pf[3] = {3.14f, 42.0f, 7.0f};
  EXPECT_NEAR(f.eval(pf), 0.13691995878400012, 1e-5);
}

TEST(Api, ADefaultGridIsNotTheLattice) {
  // The old default step 1 sampled only lattice points: all zeros.
  perlin::grid g;
  g.count = {64, 64, 1, 1};
  std::vector<float> out(g.size());
  (void)perlin::fill_grid(perlin::field(), g, out);
  EXPECT_GT(*std::max_element(out.begin(), out.end()), 0.1f);
  EXPECT_EQ(g.step[0], 1.0 / 64);
}

TEST(Api, FactoriesSetDimsAndCounts) {
  const auto l = perlin::grid::line(100, 0.1, 2.5);
  EXPECT_EQ(l.dims, 1u);
  EXPECT_EQ(l.size(), 100u);
  EXPECT_EQ(l.coordinate(0, 3), 2.5 + 3 * 0.1);
  const auto p = perlin::grid::plane(30, 20);
  EXPECT_EQ(p.dims, 2u);
  EXPECT_EQ(p.size(), 600u);
  const auto v = perlin::grid::volume(8, 4, 2, 0.25, 1, 2, 3);
  EXPECT_EQ(v.dims, 3u);
  EXPECT_EQ(v.size(), 64u);
  EXPECT_EQ(v.coordinate(2, 1), 3.25);
  std::vector<float> out(v.size());
  (void)perlin::fill_grid(perlin::field(), v, out);  // dims and counts agree: no size error
}

TEST(Api, BulkCallsReportTheRangeTheyWrote) {
  perlin::field f(perlin::improved_noise(2), perlin::fractal().set_octaves(4));
  for (const unsigned threads : {1u, 3u}) {
    const auto g = perlin::grid::plane(9000, 5, 0.01);  // two bands of columns
    std::vector<float> out(g.size());
    const auto r = perlin::fill_grid(f, g, out, {.threads = threads});
    EXPECT_EQ(r.min, *std::min_element(out.begin(), out.end()));
    EXPECT_EQ(r.max, *std::max_element(out.begin(), out.end()));
    std::vector<double> outd(g.size());
    const auto rd = perlin::fill_grid(f, g, outd, {.threads = threads});
    EXPECT_EQ(rd.min, *std::min_element(outd.begin(), outd.end()));
    EXPECT_EQ(rd.max, *std::max_element(outd.begin(), outd.end()));
  }
  perlin::field huge(perlin::improved_noise(),
                     perlin::fractal().set_kind(perlin::fractal_kind::none));
  huge.fractal().set_frequency(1e300);
  auto g = perlin::grid::plane(4, 4, 1, 1e10, 1e10);
  std::vector<float> nan(g.size());
  const auto r = perlin::fill_grid(huge, g, nan);  // every sample NaN
  EXPECT_EQ(r.min, std::numeric_limits<float>::infinity());
  EXPECT_EQ(r.max, -std::numeric_limits<float>::infinity());
}

TEST(Api, AnEmptyBatchIsValid) {
  std::vector<float> none;
  EXPECT_NO_THROW(perlin::eval_points(perlin::field(), perlin::point_set<float>{}, none));
  std::vector<double> none_d;
  EXPECT_NO_THROW(perlin::eval_points(perlin::field(), perlin::point_set<double>{}, none_d));
}

TEST(Api, ARotatedPlaneIsTheDocumentedRotation) {
  perlin::field f;
  f.set_plane(perlin::plane::rotated);
  const perlin::improved_noise n;
  const double r2 = std::sqrt(0.5), r6 = 1 / std::sqrt(6.0), r3 = 1 / std::sqrt(3.0);
  for (const auto& [x, y, z] :
       {std::tuple{0.3, 0.7, 0.0}, {-5.25, 12.5, 3.0}, {100.1, -0.2, -7.7}}) {
    const double q[3] = {x * r2 + y * r6 + z * r3, -x * r2 + y * r6 + z * r3, -2 * y * r6 + z * r3};
    EXPECT_NEAR(f(x, y, z), n.noise3d(q[0], q[1], q[2]), 1e-12);
    if (z == 0) {
      EXPECT_NEAR(f(x, y), n.noise3d(q[0], q[1], q[2]), 1e-12);  // 2-D: the same plane
    }
  }
  EXPECT_EQ(f(0.37), n.noise1d(0.37));  // 1-D points are not turned
  perlin::improved_noise tiled;
  tiled.lattice().set_period_all(8);
  perlin::field p(tiled, perlin::fractal().set_kind(perlin::fractal_kind::none));
  EXPECT_THROW(p.set_plane(perlin::plane::rotated), perlin::invalid_argument);
  perlin::field_spec spec;
  spec.set("plane", "rotated");
  EXPECT_EQ(perlin::make_field(spec).plane(), perlin::plane::rotated);
  EXPECT_THROW(spec.set("plane", "tilted"), perlin::invalid_argument);
  spec.plane = "tilted";  // set directly: make_field still refuses it
  EXPECT_THROW((void)perlin::make_field(spec), perlin::invalid_argument);
}

TEST(Api, EnumNamesComeFromOneTable) {
  EXPECT_EQ(perlin::fractal_kind_names(),
            (std::vector<std::string>{"none", "fbm", "turbulence", "ridged", "billow", "eroded"}));
  for (const auto& name : perlin::interpolation_names()) {
    EXPECT_EQ(perlin::to_string(perlin::parse_interpolation(name)), name);
  }
  try {
    (void)perlin::parse_noise_kind("gabor");
    ADD_FAILURE();
  } catch (const perlin::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "noise: unknown kind 'gabor' (valid: improved, value, simplex, opensimplex2, "
                 "opensimplex2s, cellular, libnoise-voronoi)");
  }
}

}  // namespace

namespace {

TEST(Field, DefaultIsKenPerlinsNoise) {
  const perlin::field f;
  const double p[3] = {3.14, 42.0, 7.0};
  EXPECT_EQ(f.eval<double>(p), 0.13691995878400012);
  EXPECT_EQ(f.kind(), perlin::noise_kind::improved);
  const float pf[3] = {3.14f, 42.0f, 7.0f};
  EXPECT_NEAR(f.eval<float>(pf), 0.13691995878400012, 1e-5);
}

}  // namespace
