// Domain warping: values against the formula of warp.hpp written out here with the public noise
// calls, derivatives against central differences, tiling, bounds, bulk paths and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perlin/field_spec.hpp"
#include "perlin/grid.hpp"
#include "perlin/perlin.hpp"

// Cases are written with designated initialisers naming only what differs from the defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

struct warp_case {
  std::string warp;
  std::string noise = "improved";
  std::string fractal = "fbm";
  int octaves = 3;
  double frequency = 1.0;
  double amplitude = 1.0;
  double warp_frequency = 1.0;
  int warp_octaves = 3;
  std::optional<std::uint64_t> seed = 7;
  std::optional<std::uint64_t> warp_seed;
  std::vector<std::int64_t> period;
};

perlin::field_spec spec_of(const warp_case& c, bool warped = true) {
  perlin::field_spec s;
  s.noise = c.noise;
  s.interp = "cubic";
  s.fractal = c.fractal;
  s.octaves = c.octaves;
  s.frequency = c.frequency;
  s.seed = c.seed;
  s.period = c.period;
  if (warped) {
    s.warp = c.warp;
    s.warp_amplitude = c.amplitude;
    s.warp_frequency = c.warp_frequency;
    s.warp_octaves = c.warp_octaves;
    s.warp_seed = c.warp_seed;
  }
  return s;
}

/// The base noise n over the warp lattice of octave i, at q: a field with no fractal at
/// frequency 1 over a lattice built from warp.hpp's words (seed, periods P x F x 2^i).
double warp_noise(const warp_case& c, int octave, const std::vector<double>& q) {
  perlin::field_spec s;
  s.noise = c.noise;
  s.interp = "cubic";
  s.seed = c.warp_seed ? c.warp_seed : c.seed;
  for (std::int64_t p : c.period) {
    s.period.push_back(static_cast<std::int64_t>(static_cast<double>(p) * c.warp_frequency)
                       << octave);
  }
  return perlin::make_field(s).eval(std::span<const double>(q));
}

/// warp.hpp's formula, step by step.
double oracle(const warp_case& c, std::vector<double> p) {
  constexpr double h[4] = {101.6171875, 67.4140625, 43.7265625, 29.2421875};
  const std::size_t d = p.size();
  const std::vector<double> origin = p;
  const int n = c.warp == "basic" ? 1 : c.warp_octaves;
  for (int i = 0; i < n; ++i) {
    const double u = c.frequency * c.warp_frequency * std::ldexp(1.0, i);
    const double a = std::ldexp(1.0, -i);
    const std::vector<double>& from = c.warp == "progressive" ? p : origin;
    std::vector<double> disp(d);
    for (std::size_t k = 0; k < d; ++k) {
      std::vector<double> q(d);
      for (std::size_t ax = 0; ax < d; ++ax) {
        q[ax] = from[ax] * u + std::fmod((4.0 * i + static_cast<double>(k) + 1.0) * h[ax], 256.0);
      }
      disp[k] = warp_noise(c, i, q);
    }
    for (std::size_t k = 0; k < d; ++k) p[k] += c.amplitude / c.frequency * a * disp[k];
  }
  return perlin::make_field(spec_of(c, false)).eval(std::span<const double>(p));
}

std::vector<double> point(std::size_t d, int i) {
  std::vector<double> p(d);
  for (std::size_t k = 0; k < d; ++k)
    p[k] = 0.37 * i + 1.91 * static_cast<double>(k) - 3.3 + 0.013 * i * i;
  return p;
}

std::vector<warp_case> cases() {
  std::vector<warp_case> out;
  for (const char* w : {"basic", "progressive", "independent"}) {
    out.push_back({.warp = w});
    out.push_back(
        {.warp = w, .noise = "value", .fractal = "none", .amplitude = 2.5, .warp_octaves = 2});
    out.push_back({.warp = w,
                   .fractal = "ridged",
                   .octaves = 4,
                   .frequency = 0.37,
                   .amplitude = 0.8,
                   .warp_frequency = 0.5,
                   .warp_octaves = 4,
                   .seed = std::nullopt,
                   .warp_seed = 99});
    out.push_back({.warp = w, .frequency = 2, .warp_frequency = 1.5, .period = {8, 4, 6, 2}});
  }
  return out;
}

TEST(Warp, ValuesFollowTheDocumentedFormulaBitForBit) {
  int checked = 0;
  for (const warp_case& c : cases()) {
    const perlin::field f = perlin::make_field(spec_of(c));
    for (std::size_t d = 1; d <= 4; ++d) {
      for (int i = 0; i < 12; ++i) {
        const std::vector<double> p = point(d, i);
        const double want = oracle(c, p);
        ASSERT_EQ(f.eval(std::span<const double>(p)), want)
            << c.warp << " " << c.noise << " d=" << d << " i=" << i;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 12 * 4 * 12);
}

TEST(Warp, MovesThePoints) {
  // The warp must change values (a warp that did nothing would pass the formula test only if
  // the oracle did nothing too): most points differ from the unwarped field.
  for (const warp_case& c : cases()) {
    const perlin::field f = perlin::make_field(spec_of(c));
    const perlin::field plain = perlin::make_field(spec_of(c, false));
    int differ = 0;
    for (int i = 0; i < 50; ++i) {
      const std::vector<double> p = point(2, i);
      differ += f.eval(std::span<const double>(p)) != plain.eval(std::span<const double>(p));
    }
    EXPECT_GE(differ, 45) << c.warp;
  }
}

TEST(Warp, ZeroAmplitudeIsTheUnwarpedFieldAndBasicHasOneOctave) {
  for (const char* w : {"basic", "progressive", "independent"}) {
    warp_case c{.warp = w, .amplitude = 0};
    const perlin::field f = perlin::make_field(spec_of(c));
    const perlin::field plain = perlin::make_field(spec_of(c, false));
    for (int i = 0; i < 20; ++i) {
      const auto p = point(3, i);
      EXPECT_EQ(f.eval(std::span<const double>(p)), plain.eval(std::span<const double>(p)));
    }
  }
  const perlin::field one = perlin::make_field(spec_of({.warp = "basic", .warp_octaves = 1}));
  const perlin::field five = perlin::make_field(spec_of({.warp = "basic", .warp_octaves = 5}));
  const perlin::field prog =
      perlin::make_field(spec_of({.warp = "progressive", .warp_octaves = 1}));
  for (int i = 0; i < 20; ++i) {
    const auto p = point(2, i);
    EXPECT_EQ(one.eval(std::span<const double>(p)), five.eval(std::span<const double>(p)));
    EXPECT_EQ(one.eval(std::span<const double>(p)), prog.eval(std::span<const double>(p)));
  }
}

TEST(Warp, DerivativesMatchCentralDifferences) {
  // Smooth fractals only (ridged and turbulence have kinks where the difference quotient lies).
  double worst = 0;
  for (const warp_case& base : cases()) {
    warp_case c = base;
    if (c.fractal == "ridged") c.fractal = "fbm";
    for (const char* noise : {"improved", "value"}) {
      c.noise = noise;
      const perlin::field f = perlin::make_field(spec_of(c));
      for (std::size_t d = 1; d <= 4; ++d) {
        for (int i = 0; i < 10; ++i) {
          const std::vector<double> p = point(d, i);
          std::vector<double> g(d);
          const double v = f.eval(std::span<const double>(p), std::span<double>(g));
          EXPECT_EQ(v, f.eval(std::span<const double>(p)));
          for (std::size_t k = 0; k < d; ++k) {
            const double eps = 1e-6;
            std::vector<double> a = p, b = p;
            a[k] += eps;
            b[k] -= eps;
            const double fd =
                (f.eval(std::span<const double>(a)) - f.eval(std::span<const double>(b))) /
                (a[k] - b[k]);
            const double err = std::abs(fd - g[k]) / std::max(1.0, std::abs(g[k]));
            worst = std::max(worst, err);
            EXPECT_LT(err, 1e-5) << c.warp << " " << noise << " d=" << d << " i=" << i << " k=" << k
                                 << ": analytic " << g[k] << ", difference " << fd;
          }
        }
      }
    }
  }
  RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(Warp, FloatPathFollowsTheDoublePath) {
  for (const warp_case& c : cases()) {
    const perlin::field f = perlin::make_field(spec_of(c));
    for (int i = 0; i < 20; ++i) {
      const std::vector<double> p = point(3, i);
      const std::vector<float> pf(p.begin(), p.end());
      std::vector<double> pd(pf.begin(), pf.end());  // the same point, exactly
      EXPECT_NEAR(f.eval(std::span<const float>(pf)), f.eval(std::span<const double>(pd)), 2e-4)
          << c.warp;
    }
  }
}

TEST(Warp, WarpedFieldsTile) {
  // Period 8 on x, 4 on y at frequency 2: the field repeats every 4 in x and 2 in y. Points on
  // a dyadic grid keep every product exact; the displaced points are rounded once each, so the
  // values agree to rounding (measured: a few ulps), far from the unwarped difference.
  for (const char* w : {"basic", "progressive", "independent"}) {
    for (double wf : {0.5, 1.0, 3.0}) {
      warp_case c{
          .warp = w, .frequency = 2, .amplitude = 1.5, .warp_frequency = wf, .period = {8, 4}};
      const perlin::field f = perlin::make_field(spec_of(c));
      c.period = {};
      const perlin::field loose = perlin::make_field(spec_of(c));
      double worst = 0, loose_diff = 0;
      for (int i = 0; i < 64; ++i) {
        const double x = i / 16.0 - 1.5, y = (i % 7) / 8.0 + 0.25;
        const double v = f(x, y);
        worst = std::max({worst, std::abs(v - f(x + 4, y)), std::abs(v - f(x, y + 2)),
                          std::abs(v - f(x - 8, y - 6))});
        loose_diff = std::max(loose_diff, std::abs(loose(x, y) - loose(x + 4, y)));
      }
      EXPECT_LT(worst, 1e-12) << w << " warp-frequency " << wf;
      EXPECT_GT(loose_diff, 0.05) << "without periods the field must not repeat";
    }
  }
}

TEST(Warp, RangeStaysABound) {
  for (const warp_case& c : cases()) {
    for (const char* fr : {"fbm", "ridged", "turbulence", "billow", "none"}) {
      warp_case w = c;
      w.fractal = fr;
      w.amplitude = 4;
      const perlin::field f = perlin::make_field(spec_of(w));
      for (std::size_t d = 1; d <= 4; ++d) {
        const auto [lo, hi] = f.range(d);
        if (d == 2) {
          const auto [tlo, thi] = f.typical_range(d);
          EXPECT_LE(lo, tlo);
          EXPECT_GE(hi, thi);
        }
        for (int i = 0; i < 200; ++i) {
          const auto p = point(d, i);
          const double v = f.eval(std::span<const double>(p));
          EXPECT_TRUE(v >= lo && v <= hi) << v << " outside [" << lo << ", " << hi << "]";
        }
      }
    }
  }
}

TEST(Warp, BulkCallsAreTheDoublePathWithinTheFloatTolerance) {
  // Grids: the warp kernel where it covers the field (docs/design.md "Routes"), within
  // value_tolerance of the double path (tests/grid_test.cpp and points_test.cpp hold every
  // target and the gradients); point batches the same.
  for (const warp_case& c : cases()) {
    const perlin::field f = perlin::make_field(spec_of(c));
    const auto g = perlin::grid::plane(37, 21, 0.05, -1.3, 0.7);
    std::vector<float> out(g.size());
    std::vector<float> one(g.size());
    perlin::fill_grid(f, g, std::span<float>(out), {.threads = 2});
    perlin::fill_grid(f, g, std::span<float>(one), {.threads = 1});
    EXPECT_EQ(out, one);
    for (std::size_t j = 0; j < 21; ++j) {
      for (std::size_t i = 0; i < 37; ++i) {
        const double x = -1.3 + 0.05 * static_cast<double>(i),
                     y = 0.7 + 0.05 * static_cast<double>(j);
        ASSERT_NEAR(out[j * 37 + i], f(x, y), perlin::value_tolerance(f)) << c.warp;
      }
    }
    std::vector<float> xs = {0.5f, -3.25f, 17.125f}, ys = {1.5f, 2.0f, -0.75f}, vals(3);
    perlin::eval_points(f, perlin::point_set<float>{.x = xs, .y = ys}, std::span<float>(vals));
    for (std::size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(vals[i], f(double(xs[i]), double(ys[i])), perlin::value_tolerance(f));
  }
}

TEST(Warp, BadSettingsAreRefusedByName) {
  const auto message = [](const std::string& option, const std::string& value) -> std::string {
    perlin::field_spec s;
    s.set("warp", "basic");
    try {
      s.set(option, value);
      (void)perlin::make_field(s);
    } catch (const perlin::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(message("warp-octaves", "0"), "warp-octaves: must be 1 to 32, got 0");
  EXPECT_EQ(message("warp-octaves", "33"), "warp-octaves: must be 1 to 32, got 33");
  EXPECT_EQ(message("warp-amplitude", "-1"), "warp-amplitude: must be >= 0, got -1");
  EXPECT_EQ(message("warp-amplitude", "nan"), "warp-amplitude: must be finite, got 'nan'");
  EXPECT_EQ(message("warp_amplitude", "inf"), "warp-amplitude: must be finite, got 'inf'");
  EXPECT_EQ(message("warp-frequency", "0"),
            "warp-frequency: must be > 0 and at most 4294967296, got 0");
  EXPECT_EQ(message("warp-frequency", "x"), "warp-frequency: 'x' is not a number");
  EXPECT_EQ(message("warp", "swirl"),
            "warp: unknown value 'swirl' (valid: none, basic, progressive, independent)");
  EXPECT_EQ(message("warp-seed", "-3"),
            "warp-seed: '-3' is not an integer from 0 to 18446744073709551615");
  EXPECT_EQ(message("warp_seed", "12"), "accepted");

  perlin::field_spec s;
  s.period = {16, 5};
  s.warp = "progressive";
  s.warp_frequency = 0.5;
  try {
    (void)perlin::make_field(s);
    FAIL() << "a warp that cannot tile was accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "warp-frequency: the field tiles every 5 cells along y; the warp tiles with it only "
              "when 5 x "
              "warp-frequency is a whole number from 1 to 2147483647 (got 2.5)");
  }
  s.warp_frequency = 0.2;  // 16 x 0.2 = 3.2000000000000002
  EXPECT_THROW((void)perlin::make_field(s), perlin::invalid_argument);
  s.warp_frequency = 3;
  EXPECT_NO_THROW((void)perlin::make_field(s));
}

TEST(Warp, NonFinitePointsGiveNaN) {
  const perlin::field f = perlin::make_field(spec_of({.warp = "progressive"}));
  EXPECT_TRUE(std::isnan(f(std::nan(""), 1.0)));
  EXPECT_TRUE(std::isnan(f(1e300, 1.0)) || std::isfinite(f(1e300, 1.0)));  // no crash, no UB
}

}  // namespace
