// KdotJPG's OpenSimplex2 and OpenSimplex2S (src/detail/opensimplex2.hpp) against the values of
// the Java reference (tests/data/opensimplex2{,s}_{2,3,4}d.txt, made by that code), bit for bit;
// the analytic gradient against central differences; the output bounds.
#include "detail/opensimplex2.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "detail/splitmix64.hpp"

namespace {

using perlin::detail::os2_dims;
using perlin::detail::os2_java_name;
using perlin::detail::os2_variant;

constexpr os2_variant k_variants_2d[] = {os2_variant::noise2, os2_variant::noise2_improve_x};
constexpr os2_variant k_variants_3d[] = {
    os2_variant::noise3_improve_xy, os2_variant::noise3_improve_xz, os2_variant::noise3_fallback};
constexpr os2_variant k_variants_4d[] = {
    os2_variant::noise4_improve_xyz_improve_xy, os2_variant::noise4_improve_xyz_improve_xz,
    os2_variant::noise4_improve_xyz, os2_variant::noise4_improve_xy_improve_zw,
    os2_variant::noise4_fallback};

std::vector<os2_variant> variants_of(int dims) {
  switch (dims) {
    case 2:
      return {std::begin(k_variants_2d), std::end(k_variants_2d)};
    case 3:
      return {std::begin(k_variants_3d), std::end(k_variants_3d)};
    default:
      return {std::begin(k_variants_4d), std::end(k_variants_4d)};
  }
}

float noise(bool smooth, os2_variant v, std::int64_t seed, const double* p) {
  return smooth ? perlin::detail::opensimplex2s(v, seed, p)
                : perlin::detail::opensimplex2(v, seed, p);
}

// The golden file's variant columns, from its "# Line format: seed x y ... names" line.
std::vector<std::string> header_names(const std::string& line) {
  std::istringstream in(line.substr(line.find("seed")));
  std::vector<std::string> names;
  std::string word;
  while (in >> word)
    if (word.rfind("noise", 0) == 0) names.push_back(word);
  return names;
}

// Reads "seed x y [z [w]] v1 v2 ..." (one value per variant of the dimension, in the header's
// order) and checks every value bit for bit (NaN: any NaN). Returns the number of values checked.
int check_golden_file(bool smooth, int dims) {
  const std::string name =
      std::string(smooth ? "opensimplex2s_" : "opensimplex2_") + std::to_string(dims) + "d.txt";
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  const std::vector<os2_variant> variants = variants_of(dims);
  int checked = 0;
  int failures = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# Line format:", 0) == 0) {
      const std::vector<std::string> names = header_names(line);
      EXPECT_EQ(names.size(), variants.size()) << name << ": " << line;
      for (std::size_t i = 0; i < std::min(names.size(), variants.size()); ++i)
        EXPECT_EQ(names[i], os2_java_name(variants[i])) << name;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string seed_text;
    fields >> seed_text;
    const auto seed = static_cast<std::int64_t>(std::strtoll(seed_text.c_str(), nullptr, 10));
    double p[4] = {};
    std::string text;
    for (int a = 0; a < dims; ++a) {
      fields >> text;
      p[a] = std::strtod(text.c_str(), nullptr);
    }
    for (const os2_variant v : variants) {
      if (!(fields >> text)) {
        ADD_FAILURE() << name << ": too few values in " << line;
        break;
      }
      const float expected = std::strtof(text.c_str(), nullptr);
      const float got = noise(smooth, v, seed, p);
      ++checked;
      const bool same = std::isnan(expected) ? std::isnan(got)
                                             : std::bit_cast<std::uint32_t>(got) ==
                                                   std::bit_cast<std::uint32_t>(expected);
      if (!same && ++failures <= 10) {
        ADD_FAILURE() << name << " " << os2_java_name(v) << " seed " << seed_text << " at " << line
                      << ": got " << static_cast<double>(got) << ", want "
                      << static_cast<double>(expected);
      }
    }
  }
  EXPECT_EQ(failures, 0) << name;
  return checked;
}

TEST(OpenSimplex2Golden, FastMatchesTheJavaReferenceBitForBit) {
  // 2,000 points per function: 2 functions in 2-D, 3 in 3-D, 5 in 4-D.
  EXPECT_EQ(check_golden_file(false, 2), 2 * 2000);
  EXPECT_EQ(check_golden_file(false, 3), 3 * 2000);
  EXPECT_EQ(check_golden_file(false, 4), 5 * 2000);
}

TEST(OpenSimplex2Golden, SmoothMatchesTheJavaReferenceBitForBit) {
  EXPECT_EQ(check_golden_file(true, 2), 2 * 2000);
  EXPECT_EQ(check_golden_file(true, 3), 3 * 2000);
  EXPECT_EQ(check_golden_file(true, 4), 5 * 2000);
}

TEST(OpenSimplex2Variants, DimensionsAndNames) {
  for (int dims = 2; dims <= 4; ++dims)
    for (const os2_variant v : variants_of(dims)) EXPECT_EQ(os2_dims(v), dims);
  EXPECT_STREQ(os2_java_name(os2_variant::noise4_improve_xy_improve_zw),
               "noise4_ImproveXY_ImproveZW");
}

double unit(perlin::detail::splitmix64& rng) {
  return static_cast<double>(rng.next() >> 11) * 0x1p-53;
}

// The analytic gradient against central differences of the float value. The float code rounds
// its offsets to float (2^-24 of a unit cell) and multiplies them by normalised gradients of up
// to ~100, so the value itself wobbles by up to ~3e-6 between neighbouring points (measured);
// a difference quotient with step h = 1e-3 carries up to ~3e-3 of that, plus the truncation
// error h^2 |f'''| / 6 (~1e-4). The test allows 5e-3 + 1e-3 |g| per component. The reference is
// not continuous everywhere: the fast 3-D and 4-D and the smooth 3-D functions jump a little
// (4e-5 to 3e-4 seen) on some boundaries of their choice of lattice points, the Java values too.
// So a component counts only where the quotients with h and h/2 agree to the same tolerance (no
// jump within h of p); at most 1% of them may be skipped (0.4% seen).
TEST(OpenSimplex2Gradient, MatchesCentralDifferences) {
  perlin::detail::splitmix64 rng(0x05E2'0051);
  const double h = 1e-3;
  for (const bool smooth : {false, true}) {
    for (int dims = 2; dims <= 4; ++dims) {
      for (const os2_variant v : variants_of(dims)) {
        const std::string what =
            std::string(smooth ? "OpenSimplex2S." : "OpenSimplex2.") + os2_java_name(v);
        int compared = 0;
        int skipped = 0;
        for (int n = 0; n < 2000; ++n) {
          const auto seed = static_cast<std::int64_t>(rng.next());
          double p[4] = {};
          for (int a = 0; a < dims; ++a) p[a] = (unit(rng) - 0.5) * 200.0;
          double g[4] = {};
          const float value = smooth ? perlin::detail::opensimplex2s_gradient(v, seed, p, g)
                                     : perlin::detail::opensimplex2_gradient(v, seed, p, g);
          ASSERT_EQ(std::bit_cast<std::uint32_t>(value),
                    std::bit_cast<std::uint32_t>(noise(smooth, v, seed, p)));
          for (int a = 0; a < dims; ++a) {
            auto quotient = [&](double step) {
              double hi[4], lo[4];
              std::copy(p, p + 4, hi);
              std::copy(p, p + 4, lo);
              hi[a] += step;
              lo[a] -= step;
              return (static_cast<double>(noise(smooth, v, seed, hi)) -
                      static_cast<double>(noise(smooth, v, seed, lo))) /
                     (hi[a] - lo[a]);
            };
            const double tolerance = 5e-3 + 1e-3 * std::abs(g[a]);
            const double cd = quotient(h);
            if (std::abs(cd - quotient(h / 2)) > tolerance) {
              ++skipped;
              continue;
            }
            ++compared;
            EXPECT_LE(std::abs(cd - g[a]), tolerance)
                << what << " axis " << a << " seed " << seed << " p " << p[0] << " " << p[1] << " "
                << p[2] << " " << p[3] << ": analytic " << g[a] << ", central difference " << cd;
          }
        }
        EXPECT_LE(skipped, (compared + skipped) / 100) << what;
        RecordProperty(what + "_skipped", skipped);
      }
    }
  }
}

// The bounds of src/detail/opensimplex2.hpp hold at 10^5 random points per family and variant
// (spread over the 4-D variants) and are reached to within 10% by the same points.
TEST(OpenSimplex2Bound, RandomPointsStayInsideTheDocumentedBound) {
  perlin::detail::splitmix64 rng(0x05E2'B0D0);
  for (const bool smooth : {false, true}) {
    for (int dims = 2; dims <= 4; ++dims) {
      const double bound = smooth ? perlin::detail::k_opensimplex2s_bound[dims - 2]
                                  : perlin::detail::k_opensimplex2_bound[dims - 2];
      const std::vector<os2_variant> variants = variants_of(dims);
      double largest = 0;
      for (int n = 0; n < 100000; ++n) {
        const os2_variant v = variants[static_cast<std::size_t>(n) % variants.size()];
        const auto seed = static_cast<std::int64_t>(rng.next());
        double p[4];
        for (int a = 0; a < dims; ++a) p[a] = (unit(rng) - 0.5) * 2000.0;
        const double value = std::abs(static_cast<double>(noise(smooth, v, seed, p)));
        largest = std::max(largest, value);
        ASSERT_LE(value, bound) << (smooth ? "OpenSimplex2S." : "OpenSimplex2.") << os2_java_name(v)
                                << " seed " << seed;
      }
      EXPECT_GT(largest, 0.9 * bound) << (smooth ? "smooth " : "fast ") << dims << "-D";
    }
  }
}

}  // namespace
