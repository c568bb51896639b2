// Simplex noise as a noise kind of the field (issue 51): the noise-kind table's row, the field's
// values against Gustavson's golden values and against detail::simplex on seeded permutations,
// the analytic derivatives against central differences, the refusals (1-D, periods),
// the bound, and the bulk calls against field::eval.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "detail/rotation.hpp"
#include "detail/simplex.hpp"
#include "detail/splitmix64.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/perlin.hpp"

namespace {

struct golden_row {
  std::vector<double> coords;
  double value = 0;
};

// tests/data/simplex_gustavson_{2,3,4}d.txt: the hex bits after the tab are authoritative.
std::vector<golden_row> read_golden(int dims) {
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/simplex_gustavson_" + std::to_string(dims) +
                   "d.txt");
  std::vector<golden_row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream bits(line.substr(line.find('\t') + 1));
    std::vector<double> v;
    std::string hex;
    while (bits >> hex) v.push_back(std::bit_cast<double>(std::stoull(hex, nullptr, 16)));
    golden_row r;
    r.value = v.back();
    v.pop_back();
    r.coords = v;
    rows.push_back(r);
  }
  return rows;
}

perlin::field simplex_field(const std::string& extra = "") {
  return perlin::make_field(perlin::spec_from_recipe("perlin=1&noise=simplex" + extra));
}

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

double simplex_at(const perlin::permutation& p, const double* x, std::size_t dims) {
  switch (dims) {
    case 2:
      return perlin::detail::simplex2(p, x[0], x[1]);
    case 3:
      return perlin::detail::simplex3(p, x[0], x[1], x[2]);
    default:
      return perlin::detail::simplex4(p, x[0], x[1], x[2], x[3]);
  }
}

}  // namespace

TEST(SimplexField, TheRowSaysWhatTheKindTakes) {
  const auto rows = perlin::detail::noise_kind_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(rows[i].kind), i);
    EXPECT_EQ(perlin::parse_noise_kind(rows[i].name), rows[i].kind);
    EXPECT_NE(std::string(perlin::option("noise").help).find(rows[i].help), std::string::npos);
  }
  const auto& row = perlin::detail::noise_kind_of(perlin::noise_kind::simplex);
  EXPECT_EQ(row.name, "simplex");
  EXPECT_EQ(row.min_dims, 2u);
  EXPECT_EQ(row.max_dims, 4u);
  EXPECT_FALSE(row.no_periods.empty());
  EXPECT_TRUE(row.no_rotated.empty());
  EXPECT_EQ(simplex_field().kind(), perlin::noise_kind::simplex);
}

// `--noise simplex` with no seed: Gustavson's SimplexNoise.noise bit for bit, through the field.
TEST(SimplexField, TheDefaultFieldIsGustavsonsCodeBitForBit) {
  const perlin::field f = simplex_field();
  for (int dims = 2; dims <= 4; ++dims) {
    const auto rows = read_golden(dims);
    ASSERT_EQ(rows.size(), 2000u);
    int mismatches = 0;
    for (const auto& r : rows) {
      const double got = f.eval(std::span<const double>(r.coords));
      if (bits(got) != bits(r.value) && ++mismatches <= 5) {
        ADD_FAILURE() << dims << "-D: " << got << " != " << r.value;
      }
    }
    EXPECT_EQ(mismatches, 0) << dims << "-D";
  }
}

// A seed replaces Ken Perlin's permutation by the lattice's seeded one (the one improved noise
// uses), and the frequency scales the coordinates: f(x) = simplex(perm(seed), x * frequency).
TEST(SimplexField, SeedAndFrequencyAreTheLatticesPermutationAndAScale) {
  const perlin::field f = simplex_field("&seed=42&frequency=0.3");
  const perlin::permutation perm(42);
  EXPECT_EQ(f.lattice().perm(), perm);
  perlin::detail::splitmix64 rng(7);
  for (int n = 0; n < 300; ++n) {
    const std::size_t dims = 2 + n % 3;
    double p[4];
    double q[4];
    for (std::size_t k = 0; k < dims; ++k) {
      p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 200 - 100;
      q[k] = p[k] * 0.3;
    }
    EXPECT_EQ(bits(f.eval(std::span<const double>(p, dims))), bits(simplex_at(perm, q, dims)));
  }
}

TEST(SimplexField, RefusalsSayWhy) {
  const perlin::field f = simplex_field();
  const double x[1] = {0.5};
  try {
    (void)f.eval(std::span<const double>(x, 1));
    ADD_FAILURE() << "1-D accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "noise: simplex noise takes 2 to 4 coordinates, got 1: Gustavson's simplex noise "
                 "is defined in 2-D, 3-D and 4-D only");
  }
  try {
    (void)simplex_field("&period=16");
    ADD_FAILURE() << "periods accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("period: simplex noise has no periods: the simplex "
                                          "lattice is skewed",
                                          0),
              0u)
        << e.what();
  }
  perlin::lattice tiled;
  tiled.set_period(0, 8);
  EXPECT_THROW((void)perlin::simplex_noise(tiled), perlin::invalid_argument);
  EXPECT_THROW((void)perlin::field(perlin::field::noise_variant(perlin::improved_noise(tiled)),
                                   perlin::fractal())
                   .set_plane(perlin::plane::rotated),
               perlin::invalid_argument);
  // Shaders: written (tests/gpu holds what they compute), for 2 to 4 coordinates, without the
  // split form; a 1-D shader is refused with the same reason.
  perlin::shader_options o;
  o.split = true;
  const std::string text = perlin::shader_source(f, o);
  EXPECT_NE(text.find("Gustavson's simplex noise"), std::string::npos);
  EXPECT_NE(text.find("perlin_field_split is not written for this field: simplex noise's skewed "
                      "cells are not split by axis."),
            std::string::npos);
  o.dims = 1;
  EXPECT_THROW((void)perlin::shader_source(f, o), perlin::invalid_argument);
}

// A rotated plane turns x, y, z (2-D and 3-D points become 3-D lattice points; w stays): the
// field is 3-D (or 4-D) simplex noise at the turned point.
TEST(SimplexField, ARotatedPlaneIsSimplexAtTheTurnedPoint) {
  const perlin::field f = simplex_field("&plane=rotated");
  const perlin::permutation perm;
  perlin::detail::splitmix64 rng(11);
  for (int n = 0; n < 300; ++n) {
    const std::size_t dims = 2 + n % 3;
    double p[4];
    for (std::size_t k = 0; k < dims; ++k)
      p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 50 - 25;
    double q[4] = {0, 0, 0, 0};
    for (std::size_t j = 0; j < 3; ++j) q[j] = perlin::detail::rotated(p, dims, j);
    if (dims == 4) q[3] = p[3];
    EXPECT_EQ(bits(f.eval(std::span<const double>(p, dims))),
              bits(simplex_at(perm, q, dims == 4 ? 4 : 3)));
  }
}

// The fractals are their documented sums of simplex octaves (fractal.hpp), fbm and ridged here.
TEST(SimplexField, FractalsAreTheirSumsOfSimplexOctaves) {
  const perlin::permutation perm(5);
  const perlin::field fbm = simplex_field("&seed=5&fractal=fbm&octaves=4&frequency=0.5");
  const perlin::field ridged = simplex_field("&seed=5&fractal=ridged&octaves=3");
  perlin::detail::splitmix64 rng(3);
  for (int n = 0; n < 200; ++n) {
    const std::size_t dims = 2 + n % 3;
    double p[4];
    for (std::size_t k = 0; k < dims; ++k)
      p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 40 - 20;
    double want = 0, freq = 0.5, amp = 1;
    for (int o = 0; o < 4; ++o, freq *= 2, amp *= 0.5) {
      double q[4];
      for (std::size_t k = 0; k < dims; ++k) q[k] = p[k] * freq;
      want += simplex_at(perm, q, dims) * amp;
    }
    EXPECT_EQ(bits(fbm.eval(std::span<const double>(p, dims))), bits(want));
    double r = 0, weight = 1;
    freq = 1, amp = 1;
    for (int o = 0; o < 3; ++o, freq *= 2, amp *= 0.5) {
      double q[4];
      for (std::size_t k = 0; k < dims; ++k) q[k] = p[k] * freq;
      const double t = 1.0 - std::abs(simplex_at(perm, q, dims));
      const double s = t * t * weight;
      weight = std::clamp(s * 2.0, 0.0, 1.0);
      r += s * amp;
    }
    EXPECT_EQ(bits(ridged.eval(std::span<const double>(p, dims))), bits(r));
  }
}

// The analytic gradient (and the Hessian the eroded fractal's derivatives use) against central
// differences of the value (of the gradient), for plain noise, fractals, warps and a rotated
// plane; and asking for the gradient leaves the value's bits as they are.
TEST(SimplexField, DerivativesMatchCentralDifferences) {
  const double h = 1e-6;
  for (const std::string extra :
       {"", "&seed=9", "&fractal=fbm&octaves=3", "&fractal=eroded&octaves=3&erosion=0.5",
        "&fractal=billow&octaves=2", "&warp=basic&warp-amplitude=0.5", "&plane=rotated",
        "&warp=progressive&fractal=fbm&octaves=2"}) {
    const perlin::field f = simplex_field(extra);
    perlin::detail::splitmix64 rng(17);
    for (int n = 0; n < 150; ++n) {
      const std::size_t dims = 2 + n % 3;
      double p[4];
      for (std::size_t k = 0; k < dims; ++k)
        p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 20 - 10;
      double g[4];
      const double v = f.eval(std::span<const double>(p, dims), std::span<double>(g, dims));
      EXPECT_EQ(bits(v), bits(f.eval(std::span<const double>(p, dims)))) << extra;
      for (std::size_t k = 0; k < dims; ++k) {
        double a[4], b[4];
        std::copy(p, p + dims, a);
        std::copy(p, p + dims, b);
        a[k] += h;
        b[k] -= h;
        const double fd =
            (f.eval(std::span<const double>(a, dims)) - f.eval(std::span<const double>(b, dims))) /
            (2 * h);
        // billow's |n| has a kink where n = 0: skip points next to it.
        if (extra.find("billow") != std::string::npos && std::abs(fd - g[k]) > 1e-4) continue;
        EXPECT_NEAR(g[k], fd, 1e-5 * (1 + std::abs(fd)))
            << extra << " dims " << dims << " axis " << k;
      }
    }
  }
  // The Hessian of the kernels.
  const perlin::permutation perm(3);
  perlin::detail::splitmix64 rng(23);
  for (int n = 0; n < 300; ++n) {
    const int dims = 2 + n % 3;
    double p[4];
    for (int k = 0; k < dims; ++k) p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 20 - 10;
    double hess[16];
    (void)perlin::detail::simplex(dims, perm.data(), p, nullptr, hess);
    for (int b = 0; b < dims; ++b) {
      double a1[4], a2[4], g1[4], g2[4];
      std::copy(p, p + dims, a1);
      std::copy(p, p + dims, a2);
      a1[b] += h;
      a2[b] -= h;
      (void)perlin::detail::simplex(dims, perm.data(), a1, g1, nullptr);
      (void)perlin::detail::simplex(dims, perm.data(), a2, g2, nullptr);
      for (int a = 0; a < dims; ++a) {
        const double fd = (g1[a] - g2[a]) / (2 * h);
        EXPECT_NEAR(hess[a * dims + b], fd, 1e-4 * (1 + std::abs(fd)));
      }
    }
  }
}

// The bound the ranges use: the largest |value| over every permutation found by a search
// (docs/ranges.md), rounded up; the maxima found on Ken Perlin's table (simplex.hpp, at their
// points in Simplex.SearchedMaximaAtTheirPoints) lie within 1e-4 below it, and 2 x 10^5 random
// points per dimension on each of 5 seeded permutations stay inside it. Fractal ranges follow.
TEST(SimplexField, TheBoundHoldsOnSeededPermutations) {
  const auto bound = [](std::size_t d) {
    return perlin::detail::noise_kind_of(perlin::noise_kind::simplex).bound({}, d);
  };
  const double searched[5] = {0, 0, 0.99788935415490965, 0.97871639636224339, 0.99171064574968304};
  for (std::size_t d = 2; d <= 4; ++d) {
    EXPECT_GE(bound(d), searched[d]);
    EXPECT_LT(bound(d) - searched[d], 1e-4);
  }
  double worst[5] = {0, 0, 0, 0, 0};
  for (const std::uint64_t seed : {1ULL, 2ULL, 42ULL, 0xFFFFFFFFFFFFFFFFULL, 1234567ULL}) {
    const perlin::permutation perm(seed);
    perlin::detail::splitmix64 rng(seed ^ 0x5157);
    for (int n = 0; n < 200000; ++n) {
      double p[4];
      for (double& c : p) c = static_cast<double>(rng.next() >> 11) * 0x1p-53 * 512 - 256;
      for (std::size_t d = 2; d <= 4; ++d) {
        worst[d] = std::max(worst[d], std::abs(simplex_at(perm, p, d)));
      }
    }
  }
  for (std::size_t d = 2; d <= 4; ++d) {
    EXPECT_LE(worst[d], bound(d));
    std::cout << d << "-D: max |value| on 5 seeds " << worst[d] << "\n";
  }
  const perlin::field f = simplex_field("&fractal=fbm&octaves=3");
  EXPECT_EQ(f.range(2), (std::pair<double, double>(-0.9979 * 1.75, 0.9979 * 1.75)));
  const auto [lo, hi] = f.typical_range(3);
  EXPECT_GE(lo, -0.9788 * 1.75);
  EXPECT_LE(hi, 0.9788 * 1.75);
}

// The bulk calls take the scalar route: the grid and point values are field::eval's.
TEST(SimplexField, BulkCallsAreFieldEval) {
  for (const std::string extra : {"", "&fractal=fbm&octaves=3&seed=4", "&plane=rotated"}) {
    const perlin::field f = simplex_field(extra);
    for (std::size_t dims = 2; dims <= 4; ++dims) {
      perlin::grid g;
      g.dims = dims;
      g.count = {13, 7, dims > 2 ? 3u : 1u, dims > 3 ? 2u : 1u};
      g.origin = {-3.25, 1.5, 0.125, -2};
      g.step = {0.37, 0.21, 0.5, 0.75};
      std::vector<double> out(g.size());
      std::vector<float> outf(g.size());
      std::vector<double> grad(g.size() * dims);
      std::vector<double> outd(g.size());
      (void)perlin::fill_grid(f, g, std::span<double>(out));
      (void)perlin::fill_grid(f, g, std::span<float>(outf));
      (void)perlin::fill_grid_deriv(f, g, std::span<double>(outd), std::span<double>(grad));
      std::size_t i = 0;
      for (std::size_t l = 0; l < g.count[3]; ++l)
        for (std::size_t k = 0; k < g.count[2]; ++k)
          for (std::size_t j = 0; j < g.count[1]; ++j)
            for (std::size_t n = 0; n < g.count[0]; ++n, ++i) {
              const double p[4] = {g.coordinate(0, n), g.coordinate(1, j), g.coordinate(2, k),
                                   g.coordinate(3, l)};
              const double want = f.eval(std::span<const double>(p, dims));
              EXPECT_EQ(bits(out[i]), bits(want)) << extra << " " << dims;
              EXPECT_EQ(bits(outd[i]), bits(want));
              EXPECT_NEAR(outf[i], want, perlin::value_tolerance(f));
            }
    }
    perlin::grid line = perlin::grid::line(5, 0.5);
    std::vector<double> out(5);
    EXPECT_THROW((void)perlin::fill_grid(f, line, std::span<double>(out)),
                 perlin::invalid_argument);
  }
}
