// OpenSimplex2, OpenSimplex2S, cellular noise and libnoise's Voronoi as noise kinds of the field
// (issue 51 items 2-4): through the option table and make_field, the Java reference's golden
// values (tests/data/opensimplex2{,s}_{2,3,4}d.txt) bit for bit for every orientation and seed;
// cellular fields = detail::cellular (itself checked against a brute force in cellular_test.cpp);
// libnoise-voronoi = detail::libnoise_voronoi (checked against libnoise in
// noise_families_libnoise_test.cpp); fractals = their documented sums; gradients against
// central differences; the bounds; the refusals with their reasons; bulk grids = field::eval.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "detail/cellular.hpp"
#include "detail/libnoise_voronoi.hpp"
#include "detail/opensimplex2.hpp"
#include "detail/rotation.hpp"
#include "detail/splitmix64.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/perlin.hpp"

namespace {

using perlin::detail::os2_variant;

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

perlin::field field_of(const std::string& recipe) {
  return perlin::make_field(perlin::spec_from_recipe("perlin=1&" + recipe));
}

double uniform(perlin::detail::splitmix64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng.next() >> 11) * 0x1p-53);
}

// The Java name of each column -> the orientation that selects it.
const std::map<std::string, std::string>& orientation_of() {
  static const std::map<std::string, std::string> m = {
      {"noise2", "standard"},
      {"noise2_ImproveX", "improve-x"},
      {"noise3_ImproveXY", "improve-xy"},
      {"noise3_ImproveXZ", "improve-xz"},
      {"noise3_Fallback", "standard"},
      {"noise4_ImproveXYZ_ImproveXY", "improve-xyz-xy"},
      {"noise4_ImproveXYZ_ImproveXZ", "improve-xyz-xz"},
      {"noise4_ImproveXYZ", "improve-xyz"},
      {"noise4_ImproveXY_ImproveZW", "improve-xy-zw"},
      {"noise4_Fallback", "standard"}};
  return m;
}

struct os2_golden {
  std::vector<std::string> columns;  // Java names
  struct row {
    std::int64_t seed = 0;
    std::vector<double> p;
    std::vector<float> values;
  };
  std::vector<row> rows;
};

os2_golden read_os2(bool smooth, int dims) {
  const std::string name =
      std::string(smooth ? "opensimplex2s_" : "opensimplex2_") + std::to_string(dims) + "d.txt";
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  os2_golden g;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# Line format:", 0) == 0) {
      std::istringstream words(line.substr(line.find("seed")));
      std::string w;
      while (words >> w)
        if (w.rfind("noise", 0) == 0) g.columns.push_back(w);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string text;
    os2_golden::row r;
    fields >> text;
    r.seed = static_cast<std::int64_t>(std::strtoll(text.c_str(), nullptr, 10));
    for (int a = 0; a < dims; ++a) {
      fields >> text;
      r.p.push_back(std::strtod(text.c_str(), nullptr));
    }
    while (fields >> text) r.values.push_back(std::strtof(text.c_str(), nullptr));
    g.rows.push_back(r);
  }
  return g;
}

// The field's value equals the Java float widened to double, bit for bit. One exception, stated
// in docs/noise.md: a plain field adds its octave to 0 (fractal.cpp), so the reference's -0.0
// comes out as +0.0.
bool same_value(double got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  if (want == 0.0f) return got == 0.0 && !std::signbit(got);
  return bits(got) == bits(static_cast<double>(want));
}

void check_os2_goldens(bool smooth) {
  const std::string noise = smooth ? "opensimplex2s" : "opensimplex2";
  for (int dims = 2; dims <= 4; ++dims) {
    const os2_golden g = read_os2(smooth, dims);
    ASSERT_EQ(g.rows.size(), 2000u) << noise << " " << dims;
    int checked = 0, failures = 0, negative_zeros = 0;
    for (std::size_t c = 0; c < g.columns.size(); ++c) {
      const std::string orientation = orientation_of().at(g.columns[c]);
      std::map<std::int64_t, perlin::field> fields;
      for (const auto& r : g.rows) {
        auto it = fields.find(r.seed);
        if (it == fields.end()) {
          // The Java long as the library's unsigned 64-bit seed (two's complement).
          const std::string seed = std::to_string(static_cast<std::uint64_t>(r.seed));
          it = fields
                   .emplace(r.seed, field_of("noise=" + noise + "&orientation=" + orientation +
                                             "&seed=" + seed))
                   .first;
        }
        const double got = it->second.eval(std::span<const double>(r.p));
        ++checked;
        if (r.values[c] == 0.0f && std::signbit(r.values[c])) ++negative_zeros;
        if (!same_value(got, r.values[c]) && ++failures <= 5) {
          ADD_FAILURE() << noise << " " << g.columns[c] << " seed " << r.seed << " got " << got
                        << " want " << r.values[c];
        }
      }
    }
    EXPECT_EQ(failures, 0);
    EXPECT_EQ(checked, 2000 * static_cast<int>(g.columns.size()));
    std::cout << noise << " " << dims << "-D: " << checked << " values, " << negative_zeros
              << " of them -0.0\n";
  }
}

double os2_at(bool smooth, os2_variant v, std::int64_t seed, const double* p) {
  return smooth ? perlin::detail::opensimplex2s(v, seed, p)
                : perlin::detail::opensimplex2(v, seed, p);
}

perlin::detail::cellular_params cellular_params_of(int metric, int ret, double jitter) {
  return {static_cast<perlin::detail::cellular_distance>(metric),
          static_cast<perlin::detail::cellular_return>(ret), jitter};
}

std::string cellular_recipe(int metric, int ret, double jitter) {
  std::ostringstream s;
  s.precision(17);
  s << "noise=cellular&cellular-distance=" << perlin::detail::k_cellular_distance_names[metric]
    << "&cellular-return=" << perlin::detail::k_cellular_return_names[ret]
    << "&cellular-jitter=" << jitter;
  return s.str();
}

}  // namespace

TEST(NoiseFamilies, RowsAndOptions) {
  for (const char* name : {"opensimplex2", "opensimplex2s", "cellular", "libnoise-voronoi"}) {
    const perlin::noise_kind k = perlin::parse_noise_kind(name);
    EXPECT_EQ(perlin::to_string(k), name);
    EXPECT_FALSE(perlin::detail::noise_kind_of(k).simd);  // the scalar route (route_of)
    EXPECT_FALSE(perlin::detail::noise_kind_of(k).no_eroded.empty());
  }
  EXPECT_EQ(perlin::option("orientation").default_text(), "standard");
  EXPECT_EQ(perlin::option("orientation").choices().size(), 8u);
  EXPECT_EQ(perlin::option("cellular-distance").default_text(), "euclidean");
  EXPECT_EQ(perlin::option("cellular-return").default_text(), "f1");
  EXPECT_EQ(perlin::option("cellular-jitter").default_text(), "1");
  EXPECT_EQ(perlin::option("voronoi-displacement").default_text(), "1");
  EXPECT_EQ(perlin::option("voronoi-distance").default_text(), "false");
  // Options of another kind are reported unused, with the kind they are for.
  perlin::field_spec s;
  s.set("noise", "cellular");
  const std::vector<std::string> given = {"orientation", "cellular-jitter", "voronoi-distance"};
  const auto unused = perlin::unused_options(s, given);
  ASSERT_EQ(unused.size(), 2u);
  EXPECT_NE(unused[0].find("opensimplex2"), std::string::npos) << unused[0];
  EXPECT_NE(unused[1].find("libnoise-voronoi"), std::string::npos) << unused[1];
  // A recipe round-trips the options.
  const std::string r =
      "perlin=1&noise=opensimplex2s&orientation=improve-xy-zw&cellular-jitter=0.5&voronoi-"
      "displacement=-2&voronoi-distance=true";
  EXPECT_EQ(perlin::to_recipe(perlin::spec_from_recipe(r)), r);
}

TEST(NoiseFamilies, OpenSimplex2FieldsGiveTheJavaGoldensBitForBit) { check_os2_goldens(false); }
TEST(NoiseFamilies, OpenSimplex2SFieldsGiveTheJavaGoldensBitForBit) { check_os2_goldens(true); }

TEST(NoiseFamilies, RefusalsSayWhy) {
  const auto message = [](const std::string& recipe, const std::vector<double>& p = {1, 2}) {
    try {
      const perlin::field f = field_of(recipe);
      (void)f.eval(std::span<const double>(p));
    } catch (const perlin::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(message("noise=opensimplex2&period=4").find("period"), std::string::npos);
  EXPECT_NE(message("noise=opensimplex2s&plane=rotated").find("--orientation"), std::string::npos);
  EXPECT_NE(message("noise=opensimplex2&orientation=improve-x", {1, 2, 3})
                .find("improve-x does not exist in 3-D (3-D: standard, improve-xy, improve-xz)"),
            std::string::npos);
  EXPECT_NE(message("noise=opensimplex2&orientation=improve-xy", {1, 2})
                .find("2-D: standard, "
                      "improve-x"),
            std::string::npos);
  EXPECT_NE(message("noise=opensimplex2", {1}).find("2-D, 3-D and 4-D"), std::string::npos);
  for (const char* kind : {"opensimplex2", "opensimplex2s", "cellular", "libnoise-voronoi"}) {
    EXPECT_NE(message(std::string("noise=") + kind + "&fractal=eroded").find("Hessian"),
              std::string::npos)
        << kind;
  }
  EXPECT_NE(message("noise=libnoise-voronoi&seed=2147483648").find("0 to 2147483647"),
            std::string::npos);
  EXPECT_EQ(message("noise=libnoise-voronoi&seed=2147483647"), "(no error)");
  EXPECT_NE(message("noise=libnoise-voronoi&period=8").find("period"), std::string::npos);
  EXPECT_NE(message("noise=libnoise-voronoi", {1, 2, 3, 4}).find("3-D"), std::string::npos);
  EXPECT_NE(message("noise=libnoise-voronoi&voronoi-displacement=inf").find("finite"),
            std::string::npos);
  EXPECT_THROW(field_of("noise=cellular&cellular-jitter=1.5"), perlin::invalid_argument);
  EXPECT_THROW(field_of("noise=cellular&cellular-return=f3"), perlin::invalid_argument);
  EXPECT_THROW(field_of("noise=opensimplex2&orientation=improve-q"), perlin::invalid_argument);
  EXPECT_THROW((void)perlin::shader_source(field_of("noise=cellular")), perlin::invalid_argument);
}

TEST(NoiseFamilies, CellularFieldsAreTheCoreOnTheSeededLattice) {
  perlin::detail::splitmix64 rng(5);
  for (int metric = 0; metric < 4; ++metric)
    for (int ret = 0; ret < 4; ++ret)
      for (const double jitter : {1.0, 0.35}) {
        for (const std::string extra : {"", "&seed=77", "&seed=3&period=4,5,6,7"}) {
          const perlin::field f = field_of(cellular_recipe(metric, ret, jitter) + extra);
          const auto params = cellular_params_of(metric, ret, jitter);
          for (int n = 0; n < 40; ++n) {
            const int dims = 1 + n % 4;
            double p[4];
            for (int k = 0; k < dims; ++k) p[k] = uniform(rng, -40, 40);
            const double want = perlin::detail::cellular(f.lattice(), params, p, dims, nullptr);
            EXPECT_EQ(bits(f.eval(std::span<const double>(p, dims))), bits(want)) << extra;
          }
        }
      }
  // The lattice is the seed's (improved noise's permutation for that seed) with the periods.
  const perlin::field f = field_of("noise=cellular&seed=3&period=4,5");
  EXPECT_EQ(f.lattice(), perlin::lattice(3).set_period(0, 4).set_period(1, 5));
  // Periods tile: the value repeats a period away (dyadic points, so p + P is exact and has the
  // same fraction).
  for (int n = 0; n < 50; ++n) {
    const double p[2] = {std::round(uniform(rng, -9, 9) * 64) / 64,
                         std::round(uniform(rng, -9, 9) * 64) / 64};
    EXPECT_EQ(bits(f(p[0], p[1])), bits(f(p[0] + 4, p[1] - 5)));
    EXPECT_EQ(bits(f(p[0], p[1])), bits(f(p[0] - 8, p[1] + 10)));
  }
}

TEST(NoiseFamilies, ARotatedCellularPlaneIsTheCoreAtTheTurnedPoint) {
  const perlin::field f = field_of("noise=cellular&cellular-return=f2-f1&plane=rotated&seed=9");
  const auto params = cellular_params_of(0, 2, 1.0);
  perlin::detail::splitmix64 rng(12);
  for (int n = 0; n < 200; ++n) {
    const std::size_t dims = 2 + n % 3;
    double p[4];
    for (std::size_t k = 0; k < dims; ++k) p[k] = uniform(rng, -25, 25);
    double q[4] = {0, 0, 0, 0};
    for (std::size_t j = 0; j < 3; ++j) q[j] = perlin::detail::rotated(p, dims, j);
    if (dims == 4) q[3] = p[3];
    EXPECT_EQ(bits(f.eval(std::span<const double>(p, dims))),
              bits(perlin::detail::cellular(f.lattice(), params, q, dims == 4 ? 4 : 3, nullptr)));
  }
}

TEST(NoiseFamilies, LibnoiseVoronoiFieldsAreTheCoreAtTheFieldsFrequency) {
  perlin::detail::splitmix64 rng(8);
  for (const std::string extra :
       {"", "&seed=12345&frequency=2.5", "&seed=2147483647&voronoi-displacement=-0.75",
        "&voronoi-distance=true&frequency=0.3"}) {
    const perlin::field f = field_of("noise=libnoise-voronoi" + extra);
    const perlin::field_spec s =
        perlin::spec_from_recipe("perlin=1&noise=libnoise-voronoi" + extra);
    for (int n = 0; n < 300; ++n) {
      const int dims = 1 + n % 3;
      double p[3] = {0, 0, 0};
      for (int k = 0; k < dims; ++k) p[k] = uniform(rng, -60, 60);
      const double want = perlin::detail::libnoise_voronoi(
          p[0], p[1], p[2], s.frequency, static_cast<int>(s.seed.value_or(0)),
          s.voronoi_displacement, s.voronoi_distance);
      EXPECT_EQ(bits(f.eval(std::span<const double>(p, dims))), bits(want)) << extra;
    }
  }
}

TEST(NoiseFamilies, FractalsAreTheirSumsOfOctaves) {
  perlin::detail::splitmix64 rng(21);
  // n(q): the base noise at an octave's point, from the cores.
  struct kind {
    std::string recipe;
    int dims;
    std::function<double(const double*)> n;
  };
  const perlin::lattice l7(7);
  const std::vector<kind> kinds = {
      {"noise=opensimplex2&seed=18446744073709551615&orientation=improve-xy", 3,
       [](const double* q) { return os2_at(false, os2_variant::noise3_improve_xy, -1, q); }},
      {"noise=opensimplex2s&seed=5", 2,
       [](const double* q) { return os2_at(true, os2_variant::noise2, 5, q); }},
      {"noise=opensimplex2s&orientation=improve-xy-zw", 4,
       [](const double* q) {
         return os2_at(true, os2_variant::noise4_improve_xy_improve_zw, 0, q);
       }},
      {"noise=cellular&seed=7&cellular-return=f2", 2,
       [&](const double* q) {
         return perlin::detail::cellular(l7, cellular_params_of(0, 1, 1.0), q, 2, nullptr);
       }},
      {"noise=libnoise-voronoi&seed=7&voronoi-distance=true", 3, [](const double* q) {
         return perlin::detail::libnoise_voronoi(q[0], q[1], q[2], 1.0, 7, 1.0, true);
       }}};
  for (const auto& k : kinds) {
    for (const std::string fractal : {"fbm", "ridged"}) {
      const std::string recipe = k.recipe + "&fractal=" + fractal +
                                 "&octaves=4&frequency=0.7&lacunarity=2.1&persistence=0.45";
      const perlin::field f = field_of(recipe);
      for (int n = 0; n < 100; ++n) {
        double x[4];
        for (int a = 0; a < k.dims; ++a) x[a] = uniform(rng, -30, 30);
        double total = 0, freq = 0.7, amp = 1, weight = 1;
        for (int i = 0; i < 4; ++i) {
          double q[4];
          for (int a = 0; a < k.dims; ++a) q[a] = x[a] * freq;
          const double v = k.n(q);
          double s = v;
          if (fractal == "ridged") {
            const double r = 1.0 - std::abs(v);
            s = r * r * weight;
            weight = std::clamp(s * 2.0, 0.0, 1.0);
          }
          total += s * amp;
          amp *= 0.45;
          freq *= 2.1;
        }
        EXPECT_EQ(bits(f.eval(std::span<const double>(x, k.dims))), bits(total)) << recipe;
      }
    }
  }
}

TEST(NoiseFamilies, DerivativesMatchCentralDifferences) {
  // OpenSimplex2's float values wobble by ~3e-6 between neighbouring points and jump a little on
  // some boundaries (opensimplex2.hpp); cellular noise and libnoise's Voronoi have kinks and
  // jumps where the nearest point changes: up to 2% of the points (those near a jump or kink) may
  // be off (measured: at most 1.1%). Ridged fractals are left out: their kinks at n = 0 put ~3%
  // of the points within h of one, whatever the noise.
  struct setting {
    std::string recipe;
    double h, tolerance;
  };
  const std::vector<setting> settings = {
      {"noise=opensimplex2&seed=3", 1e-3, 5e-3},
      {"noise=opensimplex2s&fractal=fbm&octaves=3&seed=4", 1e-3, 1e-2},
      // 2-D OpenSimplex2S has no jumps: the warp's chain rule is held tightly.
      {"noise=opensimplex2s&orientation=improve-x&warp=basic&warp-amplitude=0.3", 1e-3, 5e-3},
      {"noise=opensimplex2&orientation=improve-xz&fractal=fbm&octaves=2", 1e-3, 1e-2},
      {"noise=cellular&seed=2", 1e-6, 1e-5},
      {"noise=cellular&cellular-distance=manhattan&cellular-return=f2-f1&fractal=fbm&octaves=2",
       1e-6, 1e-5},
      {"noise=cellular&cellular-distance=euclidean-squared&cellular-return=f2&plane=rotated", 1e-6,
       1e-5},
      {"noise=libnoise-voronoi&voronoi-distance=true&frequency=1.3&seed=4", 1e-6, 1e-5},
      {"noise=libnoise-voronoi&fractal=turbulence&octaves=2", 1e-6, 1e-5}};
  perlin::detail::splitmix64 rng(31);
  for (const auto& s : settings) {
    const perlin::field f = field_of(s.recipe);
    const std::size_t lo = s.recipe.find("libnoise") != std::string::npos   ? 1
                           : s.recipe.find("cellular") != std::string::npos ? 1
                                                                            : 2;
    const std::size_t hi = s.recipe.find("libnoise") != std::string::npos ? 3 : 4;
    int points = 0, off = 0;
    for (std::size_t dims = std::max<std::size_t>(lo, 2); dims <= hi; ++dims) {
      if (s.recipe.find("improve-xz") != std::string::npos && dims != 3) continue;
      if (s.recipe.find("improve-x&") != std::string::npos && dims != 2) continue;
      for (int n = 0; n < 300; ++n) {
        double p[4], g[4];
        for (std::size_t k = 0; k < dims; ++k) p[k] = uniform(rng, -20, 20);
        (void)f.eval(std::span<const double>(p, dims), std::span<double>(g, dims));
        ++points;
        bool good = true;
        for (std::size_t k = 0; k < dims; ++k) {
          double a[4], b[4];
          std::copy(p, p + dims, a);
          std::copy(p, p + dims, b);
          a[k] += s.h;
          b[k] -= s.h;
          const double d = (f.eval(std::span<const double>(a, dims)) -
                            f.eval(std::span<const double>(b, dims))) /
                           (2 * s.h);
          if (!(std::abs(d - g[k]) <= s.tolerance + 1e-3 * std::abs(g[k]))) good = false;
        }
        if (!good) ++off;
      }
    }
    EXPECT_LE(off, points / 50) << s.recipe << ": " << off << " of " << points;
    std::cout << s.recipe << ": " << off << " of " << points << " points off\n";
  }
}

TEST(NoiseFamilies, TheBoundsHold) {
  perlin::detail::splitmix64 rng(41);
  for (const std::string recipe :
       {"noise=opensimplex2&seed=1", "noise=opensimplex2s&orientation=improve-x",
        "noise=opensimplex2s&fractal=fbm&octaves=3", "noise=cellular",
        "noise=cellular&cellular-return=f2&cellular-distance=manhattan",
        "noise=cellular&cellular-return=cell-value&fractal=ridged&octaves=2",
        "noise=cellular&cellular-return=f2-f1&cellular-distance=chebyshev&cellular-jitter=0.5",
        "noise=libnoise-voronoi&seed=99", "noise=libnoise-voronoi&voronoi-distance=true",
        "noise=libnoise-voronoi&voronoi-displacement=-2&fractal=billow&octaves=3"}) {
    const perlin::field f = field_of(recipe);
    const std::size_t lo = recipe.find("cellular") != std::string::npos ? 1 : 2;
    const std::size_t hi = recipe.find("libnoise") != std::string::npos ? 3 : 4;
    for (std::size_t dims = lo; dims <= hi; ++dims) {
      if (recipe.find("improve-x") != std::string::npos && dims != 2) continue;
      const auto [a, b] = f.range(dims);
      double worst_lo = INFINITY, worst_hi = -INFINITY;
      for (int n = 0; n < 20000; ++n) {
        double p[4];
        for (std::size_t k = 0; k < dims; ++k) p[k] = uniform(rng, -500, 500);
        const double v = f.eval(std::span<const double>(p, dims));
        worst_lo = std::min(worst_lo, v);
        worst_hi = std::max(worst_hi, v);
      }
      EXPECT_GE(worst_lo, a) << recipe << " " << dims;
      EXPECT_LE(worst_hi, b) << recipe << " " << dims;
    }
  }
}

TEST(NoiseFamilies, RangesUseTheSettingsBounds) {
  // Cellular distances are >= 0: a plain or fBm field's range starts at 0, and its upper end is
  // cellular_bound of the settings (times the amplitudes' sum).
  const auto params = cellular_params_of(2, 1, 0.5);  // manhattan, f2
  const perlin::field plain =
      field_of("noise=cellular&cellular-distance=manhattan&cellular-return=f2&cellular-jitter=0.5");
  EXPECT_EQ(plain.range(3), std::make_pair(0.0, perlin::detail::cellular_bound(params, 3)));
  const perlin::field fbm = field_of(
      "noise=cellular&cellular-distance=manhattan&cellular-return=f2&cellular-jitter=0.5&fractal="
      "fbm&octaves=3");
  EXPECT_EQ(fbm.range(2).first, 0.0);
  EXPECT_EQ(fbm.range(2).second, perlin::detail::cellular_bound(params, 2) * 1.75);
  // The cell value lies in [-1, 1]; billow and OpenSimplex2 stay symmetric or as documented.
  EXPECT_EQ(field_of("noise=cellular&cellular-return=cell-value").range(2),
            std::make_pair(-1.0, 1.0));
  EXPECT_EQ(field_of("noise=opensimplex2").range(2), std::make_pair(-(1 + 1e-5), 1 + 1e-5));
  EXPECT_EQ(
      field_of("noise=libnoise-voronoi&voronoi-displacement=-2&voronoi-distance=true").range(3),
      std::make_pair(-14.0, 14.0));
}

TEST(NoiseFamilies, BulkCallsAreFieldEval) {
  for (const std::string recipe :
       {"noise=opensimplex2s&orientation=improve-xy&seed=6", "noise=cellular&fractal=fbm&octaves=2",
        "noise=libnoise-voronoi&voronoi-distance=true"}) {
    const perlin::field f = field_of(recipe);
    const std::size_t dims = 3;
    perlin::grid g;
    g.dims = dims;
    g.count = {11, 7, 3, 1};
    g.origin = {-3.25, 1.5, 0.125, 0};
    g.step = {0.37, 0.21, 0.5, 1};
    std::vector<double> out(g.size());
    std::vector<double> outd(g.size());
    std::vector<double> grad(g.size() * dims);
    (void)perlin::fill_grid(f, g, std::span<double>(out));
    (void)perlin::fill_grid_deriv(f, g, std::span<double>(outd), std::span<double>(grad));
    std::size_t i = 0;
    for (std::size_t k = 0; k < g.count[2]; ++k)
      for (std::size_t j = 0; j < g.count[1]; ++j)
        for (std::size_t n = 0; n < g.count[0]; ++n, ++i) {
          const double p[3] = {g.coordinate(0, n), g.coordinate(1, j), g.coordinate(2, k)};
          const double want = f.eval(std::span<const double>(p, dims));
          EXPECT_EQ(bits(out[i]), bits(want)) << recipe;
          EXPECT_EQ(bits(outd[i]), bits(want)) << recipe;
        }
  }
}
