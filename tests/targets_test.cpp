// The SIMD targets' self-check (docs/design.md): every target this machine runs passes it, and it
// catches a kernel that is off by more than the tolerance. The CLI's `perlin targets` is in
// cli_targets_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bulk/self_check.hpp"
#include "detail/kernel_registry.hpp"
#include "perlin/perlin.hpp"

namespace {

TEST(Targets, EveryTargetHerePassesItsSelfCheck) {
  const auto report = perlin::target_report();
  ASSERT_FALSE(report.empty());
  std::vector<std::string> passed;
  for (const auto& t : report) {
    EXPECT_TRUE(t.passed) << t.name << ": " << t.failure;
    if (t.passed) passed.push_back(t.name);
  }
  EXPECT_EQ(passed, perlin::available_targets());
  const std::string last = passed.back();
  EXPECT_TRUE(last == "SCALAR" || last == "EMU128") << last;
}

TEST(Targets, TheSelfCheckCatchesAKernelThatIsOffByMoreThanTheTolerance) {
  // A target whose grid kernel is wrong by 1e-5 in one sample of 1-D rows, or whose point
  // kernel is wrong in its last (partial) vector, must fail.
  static const perlin::detail::kernels* real = &perlin::detail::active_kernels();
  const perlin::detail::kernels bad_grid = {[](const perlin::detail::grid_plan& g, std::size_t b,
                                               std::size_t e, float* out, float* lo, float* hi) {
                                              real->fill_rows(g, b, e, out, lo, hi);
                                              if (g.dims == 1 && !g.strict) out[5] += 1e-5f;
                                            },
                                            real->eval_points,
                                            real->eval_points_d,
                                            real->min_max,
                                            real->fill_rows_exact,
                                            real->gather_below_width,
                                            real->axis_fractions};
  EXPECT_NE(perlin::detail::self_check(bad_grid).find("grid"), std::string::npos);
  const perlin::detail::kernels bad_points = {
      real->fill_rows,
      [](const perlin::detail::points_plan& p, std::size_t b, std::size_t e, float* out) {
        real->eval_points(p, b, e, out);
        out[e - b - 1] = -out[e - b - 1];
      },
      real->eval_points_d,
      real->min_max,
      real->fill_rows_exact,
      real->gather_below_width,
      real->axis_fractions};
  EXPECT_NE(perlin::detail::self_check(bad_points).find("points"), std::string::npos);
  // A gradient kernel whose y partial is off by a little more than the tolerance in 2-D.
  const perlin::detail::kernels bad_gradient = {
      real->fill_rows,
      real->eval_points,
      [](const perlin::detail::points_plan& p, const double* const* c, std::size_t n, float* out,
         float* const* grad) {
        real->eval_points_d(p, c, n, out, grad);
        if (grad != nullptr && p.dims == 2) grad[1][n / 2] *= 1.001f;
      },
      real->min_max,
      real->fill_rows_exact,
      real->gather_below_width,
      real->axis_fractions};
  EXPECT_NE(perlin::detail::self_check(bad_gradient).find("sample gradients"), std::string::npos)
      << perlin::detail::self_check(bad_gradient);
  // Axis tables whose fraction is off by one ulp in one sample of a line, in the last vector.
  perlin::detail::kernels bad_axes = *real;
  bad_axes.axis_fractions = [](const perlin::detail::axis_line& a, std::size_t n, double* fl,
                               double* f, double* t) {
    real->axis_fractions(a, n, fl, f, t);
    f[n - 1] = std::nextafter(f[n - 1], 2.0);
  };
  EXPECT_NE(perlin::detail::self_check(bad_axes).find("axis tables"), std::string::npos);
  EXPECT_EQ(perlin::detail::self_check(*real), "");
}

}  // namespace
