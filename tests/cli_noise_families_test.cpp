// `perlin eval --noise opensimplex2|opensimplex2s --orientation ...` prints KdotJPG's Java
// reference values (tests/data/opensimplex2{,s}_{2,3,4}d.txt) bit for bit, every orientation and
// seed; cellular and libnoise-voronoi through the CLI; the refusals with their reasons.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/perlin.hpp"

namespace {

using perlin_test::run_perlin;

std::string fmt17(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

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

// One golden file's points as the CLI reads them (the Java decimals; finite, within
// perlin eval's |x| <= 2^52) and per column, per seed, the expected lines.
struct golden {
  std::vector<std::string> columns;
  // seed text -> (input lines, expected output per column)
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> by_seed;
  int rows = 0;
};

golden read_golden(bool smooth, int dims) {
  const std::string name =
      std::string(smooth ? "opensimplex2s_" : "opensimplex2_") + std::to_string(dims) + "d.txt";
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  golden g;
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
    std::string seed, text, input;
    fields >> seed;
    bool usable = true;
    for (int a = 0; a < dims; ++a) {
      fields >> text;
      const double x = std::strtod(text.c_str(), nullptr);
      if (!std::isfinite(x) || std::abs(x) > 0x1p52) usable = false;
      input += (a ? " " : "") + text;
    }
    if (!usable) continue;
    auto& [inputs, expected] = g.by_seed[seed];
    expected.resize(g.columns.size());
    inputs += input + "\n";
    for (std::size_t c = 0; c < g.columns.size(); ++c) {
      fields >> text;
      // The Java float widened to double; a plain field adds its octave to 0, so -0.0 prints 0
      // (docs/noise.md).
      const float v = std::strtof(text.c_str(), nullptr);
      expected[c] += fmt17(v == 0.0f ? 0.0 : static_cast<double>(v)) + "\n";
    }
    ++g.rows;
  }
  return g;
}

}  // namespace

TEST(CliNoiseFamilies, OpenSimplex2GivesTheJavaReferencesValues) {
  for (const bool smooth : {false, true}) {
    const std::string noise = smooth ? "opensimplex2s" : "opensimplex2";
    for (int dims = 2; dims <= 4; ++dims) {
      const golden g = read_golden(smooth, dims);
      EXPECT_GE(g.rows, 1900) << noise << " " << dims;  // all but the non-finite and huge points
      ASSERT_EQ(g.by_seed.size(), 5u);
      for (std::size_t c = 0; c < g.columns.size(); ++c) {
        for (const auto& [seed, lines] : g.by_seed) {
          // The Java long as the library's 64-bit seed (two's complement).
          const std::string seed64 = std::to_string(
              static_cast<std::uint64_t>(static_cast<std::int64_t>(std::stoll(seed))));
          const std::string args = "eval --noise " + noise + " --orientation " +
                                   orientation_of().at(g.columns[c]) + " --seed " + seed64 +
                                   " --dims " + std::to_string(dims);
          const auto r = run_perlin(args, lines.first);
          EXPECT_EQ(r.status, 0) << args << ": " << r.err;
          // A NaN's sign carries no meaning (Java prints NaN): "-nan" reads as "nan".
          std::string out = r.out;
          for (std::size_t at; (at = out.find("-nan")) != std::string::npos;) out.erase(at, 1);
          EXPECT_EQ(out, lines.second[c]) << args << " (" << g.columns[c] << ")";
        }
      }
    }
  }
}

TEST(CliNoiseFamilies, CellularAndVoronoiAreTheLibrarysFields) {
  const std::string points = "0.25 7.5\n-3.125 2\n100.75 -42.5\n";
  for (const std::string options :
       {"--noise cellular --cellular-distance manhattan --cellular-return f2-f1 --seed 9",
        "--noise cellular --cellular-return cell-value --cellular-jitter 0.5 --period 4",
        "--noise libnoise-voronoi --seed 77 --voronoi-distance --frequency 2.5",
        "--noise opensimplex2 --fractal fbm --octaves 3"}) {
    const auto r = run_perlin("eval " + options, points);
    ASSERT_EQ(r.status, 0) << options << ": " << r.err;
    // The same field through the option table.
    perlin::field_spec s;
    std::istringstream words(options);
    std::string name, value;
    std::vector<std::string> items;
    for (std::string w; words >> w;) items.push_back(w);
    for (std::size_t i = 0; i < items.size(); ++i) {
      name = items[i].substr(2);
      const bool flag = i + 1 == items.size() || items[i + 1].rfind("--", 0) == 0;
      s.set(name, flag ? "true" : items[++i]);
    }
    const perlin::field f = perlin::make_field(s);
    std::string expected;
    std::istringstream in(points);
    for (double x, y; in >> x >> y;) expected += fmt17(f(x, y)) + "\n";
    EXPECT_EQ(r.out, expected) << options;
  }
}

TEST(CliNoiseFamilies, RefusalsSayWhy) {
  const auto refused = [](const std::string& args, const std::string& input,
                          const std::string& reason) {
    const auto r = run_perlin("eval " + args, input);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_NE(r.err.find(reason), std::string::npos) << args << ": " << r.err;
  };
  refused("--noise opensimplex2 --orientation improve-x", "1 2 3\n",
          "orientation: improve-x does not exist in 3-D (3-D: standard, improve-xy, improve-xz)");
  refused("--noise opensimplex2s --period 8", "1 2\n",
          "period: opensimplex2s noise has no periods");
  refused("--noise opensimplex2 --plane rotated", "1 2\n", "--orientation");
  refused("--noise cellular --fractal eroded", "1 2\n", "Hessian");
  refused("--noise libnoise-voronoi --seed 2147483648", "1 2\n", "0 to 2147483647");
  refused("--noise cellular --cellular-jitter 2", "1 2\n", "cellular-jitter");
  const auto r = run_perlin("eval --noise cellular --orientation improve-x", "1 2\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("--orientation has no effect on this noise"), std::string::npos) << r.err;
}
