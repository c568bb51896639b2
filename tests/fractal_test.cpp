// Fractal sums: the fBm formula, each kind's definition, normalisation, decorrelation, tiling,
// derivatives and parameter validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

TEST(Fractal, FbmIsTheDocumentedSum) {
  const perlin::improved_noise n(77);
  perlin::fractal f;
  f.set_octaves(5).set_persistence(0.6).set_frequency(0.5).set_lacunarity(3.0);
  const double x = 1.7, y = -2.3, z = 0.9;
  double total = 0, amp = 1, freq = 0.5;
  for (int i = 0; i < 5; ++i) {
    total += n.noise3d(x * freq, y * freq, z * freq) * amp;
    amp *= 0.6;
    freq *= 3.0;
  }
  EXPECT_EQ(perlin::field(n, f)(x, y, z), total);
  f.set_normalize(true);
  EXPECT_DOUBLE_EQ(perlin::field(n, f)(x, y, z), total / (1 + 0.6 + 0.36 + 0.216 + 0.1296));
}

TEST(Fractal, KindsFollowTheirDefinitions) {
  const perlin::improved_noise n(3);
  perlin::fractal f;
  f.set_octaves(3).set_persistence(0.5);
  const double x = 4.3, y = 1.1;
  double n_i[3];
  for (int i = 0; i < 3; ++i) n_i[i] = n.noise2d(x * (1 << i), y * (1 << i));
  f.set_kind(perlin::fractal_kind::turbulence);
  EXPECT_DOUBLE_EQ(perlin::field(n, f)(x, y),
                   std::abs(n_i[0]) + 0.5 * std::abs(n_i[1]) + 0.25 * std::abs(n_i[2]));
  f.set_kind(perlin::fractal_kind::billow);
  EXPECT_DOUBLE_EQ(perlin::field(n, f)(x, y), (2 * std::abs(n_i[0]) - 1) +
                                                  0.5 * (2 * std::abs(n_i[1]) - 1) +
                                                  0.25 * (2 * std::abs(n_i[2]) - 1));
  f.set_kind(perlin::fractal_kind::ridged);
  double w = 1, total = 0, amp = 1;
  for (double v : n_i) {
    const double s = (1 - std::abs(v)) * (1 - std::abs(v)) * w;
    total += s * amp;
    w = std::clamp(2 * s, 0.0, 1.0);
    amp *= 0.5;
  }
  EXPECT_DOUBLE_EQ(perlin::field(n, f)(x, y), total);
  f.set_kind(perlin::fractal_kind::none);
  EXPECT_EQ(perlin::field(n, f)(x, y), n_i[0]);
}

/// The eroded fractal by its formula (docs/noise.md), from the base noise's own gradients:
/// sum a_i n_i / (1 + k |G_i|^2), G_i = sum_{j <= i} grad n_j at the octave's coordinates.
template <class Noise>
double eroded_by_formula(const Noise& noise, int octaves, double k, const double* x) {
  const perlin::field base(noise, perlin::fractal().set_kind(perlin::fractal_kind::none));
  double total = 0, amp = 1, freq = 0.8, g_sum[2] = {0, 0};
  for (int i = 0; i < octaves; ++i) {
    const double q[2] = {x[0] * freq, x[1] * freq};
    double g[2];
    const double n = base.eval<double>(q, g);
    g_sum[0] += g[0];
    g_sum[1] += g[1];
    total += amp * n / (1 + k * (g_sum[0] * g_sum[0] + g_sum[1] * g_sum[1]));
    amp *= 0.5;
    freq *= 2;
  }
  return total;
}

TEST(Fractal, ErodedIsTheDocumentedFormula) {
  const perlin::improved_noise n(12);
  const perlin::value_noise v(12, perlin::interpolation::cubic);
  perlin::fractal f;
  f.set_kind(perlin::fractal_kind::eroded).set_octaves(6).set_frequency(0.8).set_erosion(2.5);
  perlin::fractal fbm = f;
  fbm.set_kind(perlin::fractal_kind::fbm);
  int damped = 0;
  for (double t = 0.11; t < 9; t += 0.41) {
    const double p[2] = {t, 2.7 - 0.6 * t};
    const double e = perlin::field(n, f).eval<double>(p);
    EXPECT_DOUBLE_EQ(e, eroded_by_formula(n, 6, 2.5, p)) << t;
    EXPECT_DOUBLE_EQ(perlin::field(v, f).eval<double>(p), eroded_by_formula(v, 6, 2.5, p)) << t;
    // The damping only shrinks the octaves: |eroded| stays within the fBm's bound, and differs
    // from fBm wherever a slope is (almost everywhere).
    damped += e != perlin::field(n, fbm).eval<double>(p) ? 1 : 0;
  }
  EXPECT_GT(damped, 15);
  // Erosion 0 is fBm, bit for bit.
  f.set_erosion(0);
  for (double t = 0.11; t < 9; t += 0.41) {
    const double p[3] = {t, 2.7 - 0.6 * t, 0.3 * t};
    EXPECT_EQ(perlin::field(n, f).eval<double>(p), perlin::field(n, fbm).eval<double>(p));
  }
  EXPECT_THROW(f.set_erosion(-1), perlin::invalid_argument);
  EXPECT_THROW(f.set_erosion(std::nan("")), perlin::invalid_argument);
  EXPECT_THROW(f.set_erosion(1e4), perlin::invalid_argument);
  EXPECT_EQ(perlin::parse_fractal_kind("eroded"), perlin::fractal_kind::eroded);
}

TEST(Fractal, ErodedDerivativesMatchCentralDifferencesInEveryDimension) {
  // The damping's derivative needs every octave's Hessian: checked in 1 to 4 dimensions, for
  // improved noise and for value noise with each smooth interpolation, with periods.
  for (const auto interp : {perlin::interpolation::cubic, perlin::interpolation::cosine,
                            perlin::interpolation::quintic}) {
    perlin::improved_noise n(5);
    n.lattice().set_period_all(7);
    const perlin::value_noise v(5, interp);
    perlin::fractal f;
    f.set_kind(perlin::fractal_kind::eroded).set_octaves(4).set_frequency(0.6).set_erosion(0.7);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      for (double t = 0.13; t < 5; t += 0.53) {
        const double p[4] = {t, 1.3 * t + 0.21, 0.43 - t, 0.7 * t - 1.1};
        for (const bool improved : {true, false}) {
          const perlin::field fld = improved ? perlin::field(n, f) : perlin::field(v, f);
          double g[4];
          const double val = fld.eval<double>(std::span<const double>(p, dims), {g, dims});
          EXPECT_EQ(val, fld.eval<double>(std::span<const double>(p, dims)));
          const double h = 1e-6;
          for (std::size_t k = 0; k < dims; ++k) {
            double a[4] = {p[0], p[1], p[2], p[3]}, b[4] = {p[0], p[1], p[2], p[3]};
            a[k] -= h;
            b[k] += h;
            const double num = (fld.eval<double>(std::span<const double>(b, dims)) -
                                fld.eval<double>(std::span<const double>(a, dims))) /
                               (2 * h);
            EXPECT_NEAR(g[k], num, 1e-5)
                << "dims " << dims << " t=" << t << " k=" << k
                << (improved ? " improved" : " value") << perlin::to_string(interp);
          }
        }
      }
    }
  }
}

TEST(Fractal, DecorrelationMovesOctavesOffTheLattice) {
  const perlin::improved_noise n;
  perlin::fractal f;
  f.set_octaves(6);
  EXPECT_EQ(perlin::field(n, f)(0.0, 0.0, 0.0), 0.0);  // every octave vanishes at the origin
  f.set_decorrelate(true);
  EXPECT_NE(perlin::field(n, f)(0.0, 0.0, 0.0), 0.0);
  perlin::fractal one;
  one.set_decorrelate(true);
  EXPECT_EQ(perlin::field(n, one)(0.3, 0.2, 0.1),
            n.noise3d(0.3, 0.2, 0.1));  // octave 0 is not shifted
}

TEST(Fractal, TilesWithIntegerLacunarity) {
  perlin::improved_noise n(9);
  n.lattice().set_period_all(5);
  perlin::value_noise v(9);
  v.lattice().set_period_all(5);
  for (const auto kind :
       {perlin::fractal_kind::fbm, perlin::fractal_kind::turbulence, perlin::fractal_kind::ridged,
        perlin::fractal_kind::billow, perlin::fractal_kind::eroded}) {
    perlin::fractal f;
    f.set_kind(kind).set_octaves(6).set_frequency(0.25).set_lacunarity(3).set_decorrelate(true);
    // The field repeats every P / frequency = 20 units.
    for (double x = -3.0; x < 3.0; x += 0.375) {
      EXPECT_EQ(perlin::field(n, f)(x + 20.0, 1.5 - 40.0), perlin::field(n, f)(x, 1.5)) << x;
      EXPECT_EQ(perlin::field(v, f)(x, 0.5 + 20.0, 2.25), perlin::field(v, f)(x, 0.5, 2.25)) << x;
    }
  }
}

TEST(Fractal, DerivativesMatchCentralDifferences) {
  const perlin::improved_noise n(21);
  const perlin::value_noise v(21, perlin::interpolation::quintic);
  for (const auto kind :
       {perlin::fractal_kind::fbm, perlin::fractal_kind::turbulence, perlin::fractal_kind::ridged,
        perlin::fractal_kind::billow, perlin::fractal_kind::eroded}) {
    perlin::fractal f;
    f.set_kind(kind).set_octaves(4).set_frequency(0.7).set_normalize(true);
    for (double t = 0.05; t < 6; t += 0.37) {
      const double p[3] = {t, 1.3 * t + 0.2, 0.4 - t};
      double g[3];
      const double val = perlin::field(n, f).eval<double>(p, g);
      double gv[3];
      (void)perlin::field(v, f).eval<double>(p, gv);
      EXPECT_EQ(val, perlin::field(n, f)(p[0], p[1], p[2]));
      const double h = 1e-6;
      for (int k = 0; k < 3; ++k) {
        double a[3] = {p[0], p[1], p[2]}, b[3] = {p[0], p[1], p[2]};
        a[k] -= h;
        b[k] += h;
        const double num =
            (perlin::field(n, f).eval<double>(b) - perlin::field(n, f).eval<double>(a)) / (2 * h);
        const double numv =
            (perlin::field(v, f).eval<double>(b) - perlin::field(v, f).eval<double>(a)) / (2 * h);
        // fBm is smooth: 1e-6 (its octaves reach frequency 5.6, whose third derivatives are
        // 175 times the base noise's). |n| and clamp have kinks, where central differences
        // straddle them; away from them the analytic gradient is exact: 1e-4.
        // Eroded is smooth too, but its damping adds the octaves' second derivatives: 1e-5.
        const double tol = kind == perlin::fractal_kind::fbm      ? 1e-6
                           : kind == perlin::fractal_kind::eroded ? 1e-5
                                                                  : 1e-4;
        EXPECT_NEAR(g[k], num, tol) << perlin::to_string(kind) << " t=" << t << " k=" << k;
        EXPECT_NEAR(gv[k], numv, tol) << perlin::to_string(kind) << " t=" << t << " k=" << k;
      }
    }
  }
}

TEST(Fractal, BoundsHoldOnSamples) {
  const perlin::improved_noise n(4);
  for (const auto kind :
       {perlin::fractal_kind::fbm, perlin::fractal_kind::turbulence, perlin::fractal_kind::ridged,
        perlin::fractal_kind::billow, perlin::fractal_kind::eroded}) {
    perlin::field fld(n, perlin::fractal().set_kind(kind).set_octaves(5));
    const auto [lo, hi] = fld.range(2);
    for (double x = -20; x < 20; x += 0.173) {
      for (double y = -5; y < 5; y += 0.31) {
        const double p[2] = {x, y};
        const double v = fld.eval<double>(p);
        EXPECT_GE(v, lo);
        EXPECT_LE(v, hi);
      }
    }
  }
}

TEST(Fractal, ParametersAreValidatedWhereSet) {
  perlin::fractal f;
  const auto names = [](auto&& fn, const std::string& name) {
    try {
      fn();
      ADD_FAILURE() << name << " accepted a bad value";
    } catch (const perlin::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(name, 0), 0u) << e.what();
    }
  };
  names([&] { f.set_octaves(0); }, "octaves");
  names([&] { f.set_octaves(perlin::k_max_octaves + 1); }, "octaves");
  names([&] { f.set_frequency(0.0); }, "frequency");
  names([&] { f.set_frequency(NAN); }, "frequency");
  names([&] { f.set_lacunarity(INFINITY); }, "lacunarity");
  names([&] { f.set_lacunarity(-2); }, "lacunarity");
  names([&] { f.set_persistence(NAN); }, "persistence");
  names([&] { f.set_persistence(-0.5); }, "persistence");
  names([] { (void)perlin::parse_fractal_kind("pink"); }, "fractal");
  names([] { (void)perlin::parse_noise_kind("gabor"); }, "noise");
  EXPECT_NO_THROW(f.set_octaves(perlin::k_max_octaves));
  EXPECT_EQ(f.octaves(), perlin::k_max_octaves);
  // A rejected value leaves the previous one in place.
  EXPECT_EQ(f.frequency(), 1.0);
}

TEST(Fractal, OverflowingOctavesAreRefusedByTheSetterThatCompletesThem) {
  const auto refused = [](auto&& fn, const std::string& name, const std::string& also) {
    try {
      fn();
      ADD_FAILURE() << name << " accepted an overflowing fractal";
    } catch (const perlin::invalid_argument& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(name + ": ", 0), 0u) << m;
      EXPECT_NE(m.find(also), std::string::npos) << m;
    }
  };
  // The cases: eval --fractal ridged --octaves 32 --lacunarity 1e300, and
  // render --persistence 1e308 --octaves 32 (NaN or black images before).
  perlin::fractal f;
  f.set_kind(perlin::fractal_kind::ridged).set_octaves(32);
  refused([&] { f.set_lacunarity(1e300); }, "lacunarity", "32 octaves");
  refused([&] { f.set_persistence(1e308); }, "persistence", "32 octaves");
  refused([&] { f.set_frequency(1e300); }, "frequency", "lacunarity 2");
  EXPECT_EQ(f.lacunarity(), 2.0);
  EXPECT_EQ(f.persistence(), 0.5);
  // The same settings in the other order: the octave count completes them.
  perlin::fractal g;
  g.set_lacunarity(1e300);  // one octave: fine
  refused([&] { g.set_octaves(3); }, "octaves", "lacunarity 1e+300");
  EXPECT_EQ(g.octaves(), 1);
  // Large but finite settings stay allowed, and evaluate to finite values.
  perlin::fractal h;
  h.set_octaves(32).set_lacunarity(1e9).set_persistence(1e9);
  const double p[2] = {0.3, 0.7};
  EXPECT_TRUE(std::isfinite(perlin::field(perlin::improved_noise(), h).eval<double>(p)));
}

}  // namespace

namespace {

TEST(Fractal, TheDeprecatedCallsStillGiveTheFieldsBits) {
  // fractal::eval, eval2d and eval3d are deprecated in favour of perlin::field; code written
  // against them keeps its values.
  perlin::fractal f;
  f.set_octaves(5);
  const perlin::improved_noise n(9);
  const perlin::field fld(n, f);
  const double p[3] = {0.3, -2.7, 11.25};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(f.eval2d(n, p[0], p[1]), fld(p[0], p[1]));
  EXPECT_EQ(f.eval3d(n, p[0], p[1], p[2]), fld(p[0], p[1], p[2]));
  EXPECT_EQ((f.eval<perlin::improved_noise, double>(n, p)), fld.eval<double>(p));
#pragma GCC diagnostic pop
}

}  // namespace

namespace {

TEST(Fractal, RidgedOffsetAndGainFollowTheDocumentedFormula) {
  // s_i = (offset - |n_i|)^2 w_i, w_0 = 1, w_{i+1} = clamp(gain s_i, 0, 1), sum a_i s_i: written
  // out here on Ken Perlin's noise at the octave frequencies 2^i, against the library.
  const perlin::improved_noise n;
  for (const double offset : {1.0, 0.7, 1.3}) {
    for (const double gain : {2.0, 0.5, 3.5}) {
      perlin::fractal f;
      f.set_kind(perlin::fractal_kind::ridged)
          .set_octaves(5)
          .set_ridged_offset(offset)
          .set_ridged_gain(gain);
      const perlin::field field(n, f);
      for (int k = 0; k < 50; ++k) {
        const double x = 0.37 * k - 3.1, y = 1.9 - 0.23 * k, z = 0.11 * k;
        double total = 0, w = 1, amp = 1, freq = 1;
        for (int i = 0; i < 5; ++i) {
          const double r = offset - std::abs(n.noise3d(x * freq, y * freq, z * freq));
          const double s = r * r * w;
          total += s * amp;
          w = std::clamp(s * gain, 0.0, 1.0);
          amp *= 0.5;
          freq *= 2;
        }
        EXPECT_EQ(field(x, y, z), total) << offset << " " << gain << " " << k;
      }
    }
  }
  perlin::fractal f;
  EXPECT_THROW(f.set_ridged_offset(-1), perlin::invalid_argument);
  EXPECT_THROW(f.set_ridged_gain(17), perlin::invalid_argument);
  EXPECT_THROW(f.set_ridged_gain(NAN), perlin::invalid_argument);
  // The bound holds the field: max(offset^2, (base - offset)^2) sum a_i.
  f.set_kind(perlin::fractal_kind::ridged).set_octaves(4).set_ridged_offset(0.2).set_ridged_gain(8);
  const perlin::field field(n, f);
  const auto [lo, hi] = field.range(3);
  for (int k = 0; k < 2000; ++k) {
    const double v = field(0.173 * k, 0.071 * k - 5, 0.031 * k);
    EXPECT_GE(v, lo);
    EXPECT_LE(v, hi);
  }
}

TEST(Fractal, RidgedOffsetAndGainOnTheSimdPathsStayWithinTolerance) {
  perlin::field_spec s;
  s.set("fractal", "ridged");
  s.set("octaves", "5");
  s.set("ridged-offset", "0.8");
  s.set("ridged-gain", "3");
  const perlin::field f = perlin::make_field(s);
  perlin::grid g = perlin::grid::plane(67, 13, 1.0 / 7);
  g.origin = {-2.5, 1.25, 0, 0};
  std::vector<float> v(g.size());
  (void)perlin::fill_grid(f, g, v, {.threads = 1});
  std::vector<float> vd(g.size()), d(g.size() * 2);
  (void)perlin::fill_grid_deriv(f, g, vd, d, {.threads = 1});
  const double tol = perlin::value_tolerance(f) * 4;  // the values reach (offset + 1)^2 here
  std::vector<float> px(g.size()), py(g.size()), pts(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double x = g.origin[0] + static_cast<double>(i % 67) * g.step[0];
    const double y = g.origin[1] + static_cast<double>(i / 67) * g.step[1];
    px[i] = static_cast<float>(x);
    py[i] = static_cast<float>(y);
    EXPECT_NEAR(v[i], f(x, y), tol) << i;
    EXPECT_NEAR(vd[i], f(x, y), tol) << i;
  }
  perlin::point_set<float> ps;
  ps.x = px;
  ps.y = py;
  perlin::eval_points(f, ps, std::span<float>(pts), {.threads = 1});
  for (std::size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(pts[i], f(double(px[i]), double(py[i])), tol) << i;
}

}  // namespace
