// The option table and recipes: one parser per type, recipes that round-trip, the golden file of
// recipes with values that every later version must read to the same bits (every front reads it
// too: tests/python, tests/c, tests/csharp, tests/lua), and the ridged offset and gain against
// their documented formula.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"
#include "recipe_cases.hpp"

namespace {

std::string message_of(const char* name, const char* value) {
  perlin::field_spec s;
  try {
    s.set(name, value);
  } catch (const perlin::invalid_argument& e) {
    return e.what();
  }
  return "accepted " + s.get(name);
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

}  // namespace

TEST(OptionTable, OneParserPerTypeForEveryFront) {
  // Integers: decimal with an optional sign, nothing else.
  EXPECT_EQ(message_of("octaves", "+4"), "accepted 4");
  EXPECT_EQ(message_of("octaves", "0x4"), "octaves: '0x4' is not an integer");
  EXPECT_EQ(message_of("octaves", "1e1"), "octaves: '1e1' is not an integer");
  EXPECT_EQ(message_of("octaves", " 4"), "octaves: ' 4' is not an integer");
  EXPECT_EQ(message_of("octaves", "4 "), "octaves: '4 ' is not an integer");
  EXPECT_EQ(message_of("octaves", "+-4"), "octaves: '+-4' is not an integer");
  EXPECT_EQ(message_of("octaves", "99999999999999999999"),
            "octaves: '99999999999999999999' is out of range");
  EXPECT_EQ(message_of("octaves", "40"), "octaves: must be 1 to 32, got 40");
  // Seeds: 0 to 2^64-1, with the same sign rule.
  EXPECT_EQ(message_of("seed", "+42"), "accepted 42");
  EXPECT_EQ(message_of("seed", "18446744073709551615"), "accepted 18446744073709551615");
  EXPECT_EQ(message_of("seed", "18446744073709551616"),
            "seed: '18446744073709551616' is not an integer from 0 to 18446744073709551615");
  EXPECT_EQ(message_of("seed", "0x2a"),
            "seed: '0x2a' is not an integer from 0 to 18446744073709551615");
  EXPECT_EQ(message_of("seed", "-1"),
            "seed: '-1' is not an integer from 0 to 18446744073709551615");
  // Numbers: decimal or scientific, finite.
  EXPECT_EQ(message_of("frequency", "1e3"), "accepted 1000");
  EXPECT_EQ(message_of("frequency", "+0.5"), "accepted 0.5");
  EXPECT_EQ(message_of("frequency", "0x1p3"), "frequency: '0x1p3' is not a number");
  EXPECT_EQ(message_of("frequency", " 1"), "frequency: ' 1' is not a number");
  EXPECT_EQ(message_of("frequency", "inf"), "frequency: must be finite, got 'inf'");
  EXPECT_EQ(message_of("frequency", "1e999"), "frequency: must be finite, got '1e999'");
  EXPECT_EQ(message_of("frequency", "0"), "frequency: must be > 0, got 0");
  EXPECT_EQ(message_of("persistence", "-0.5"), "persistence: must be >= 0, got -0.5");
  EXPECT_EQ(message_of("gain", "0.25"), "accepted 0.25");
  // Flags, choices, periods.
  EXPECT_EQ(message_of("normalize", "1"), "accepted true");
  EXPECT_EQ(message_of("normalize", "yes"), "normalize: 'yes' is not 1, 0, true or false");
  EXPECT_EQ(message_of("fractal", "pink"),
            "fractal: unknown value 'pink' (valid: none, fbm, turbulence, ridged, billow, eroded)");
  EXPECT_EQ(message_of("period", "+16,8"), "accepted 16,8");
  EXPECT_EQ(message_of("period", "16,,8"), "period: '16,,8' has an empty item");
  EXPECT_EQ(message_of("period", "0"), "period: must be 1 to 2147483647, got 0");
  EXPECT_EQ(message_of("period", "1,2,3,4,5"), "period: at most 4 periods, got 5");
  // Messages never carry control bytes or invalid UTF-8.
  EXPECT_EQ(message_of("octaves", "\x1b[2J\xff"), "octaves: '\\x1b[2J\\xff' is not an integer");
}

TEST(OptionTable, UnknownNamesSuggestTheClosest) {
  try {
    perlin::field_spec s;
    s.set("octave", "3");
    FAIL() << "accepted";
  } catch (const perlin::unknown_option& e) {
    EXPECT_STREQ(e.what(), "option: unknown option 'octave' (did you mean 'octaves'?)");
  }
  try {
    perlin::field_spec s;
    s.set("zzz", "3");
    FAIL() << "accepted";
  } catch (const perlin::unknown_option& e) {
    EXPECT_NE(std::string(e.what()).find("(valid: noise, interp, seed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(perlin::find_option("warp_amplitude"), perlin::find_option("warp-amplitude"));
  EXPECT_EQ(perlin::find_option("gain"), perlin::find_option("persistence"));
}

TEST(OptionTable, EveryRowIsComplete) {
  // The defaults are field_spec's; each row's default parses back to itself; the ranges hold
  // the default; every choice's default is one of its choices.
  for (const auto& row : perlin::field_options()) {
    SCOPED_TRACE(std::string(row.name));
    EXPECT_FALSE(row.help.empty());
    perlin::field_spec s;
    if (!row.default_text().empty()) {
      row.set(s, row.default_text());
      EXPECT_TRUE(s == perlin::field_spec{});
    }
    if (row.choices != nullptr) {
      const auto c = row.choices();
      EXPECT_NE(std::find(c.begin(), c.end(), row.default_text()), c.end());
    }
    if (row.used != nullptr) {
      EXPECT_FALSE(row.unused_reason.empty());
    }
  }
  // The JSON lists every row with at least name, type, default and help.
  const std::string json = perlin::options_json();
  for (const auto& row : perlin::field_options()) {
    EXPECT_NE(json.find("{\"name\": \"" + std::string(row.name) + "\", "), std::string::npos)
        << row.name;
  }
}

TEST(Recipes, RoundTripToTheSameTextAndBits) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 400; ++i) {
    const perlin::field_spec spec = recipe_cases::random_spec(rng);
    const std::string text = perlin::to_recipe(spec);
    SCOPED_TRACE(text);
    const perlin::field_spec back = perlin::spec_from_recipe(text);
    EXPECT_TRUE(back == spec);
    EXPECT_EQ(perlin::to_recipe(back), text);
    const perlin::field a = perlin::make_field(spec), b = perlin::make_field(back);
    const double p[3] = {0.3 + i, -1.7 * i, 2.25};
    EXPECT_EQ(bits(a.eval(std::span<const double>(p, 3))),
              bits(b.eval(std::span<const double>(p, 3))));
  }
}

TEST(Recipes, AreCanonicalAndStrict) {
  perlin::field_spec s;
  EXPECT_EQ(perlin::to_recipe(s), "perlin=1");
  s.set("gain", "0.25");
  s.set("fractal", "fbm");
  s.set("frequency", "1e20");
  EXPECT_EQ(perlin::to_recipe(s), "perlin=1&fractal=fbm&frequency=1e20&persistence=0.25");
  // Pairs may be separated by white space, carry a leading "?", be percent-encoded.
  EXPECT_TRUE(perlin::spec_from_recipe("?perlin=1 fractal=fbm\t frequency=1e%2B20&gain=0.25") == s);
  const auto bad = [](const char* text) {
    try {
      (void)perlin::spec_from_recipe(text);
    } catch (const perlin::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(bad(""), "recipe: empty (a recipe starts with perlin=1)");
  EXPECT_EQ(bad("fractal=fbm"), "recipe: must start with perlin=1, got 'fractal=fbm'");
  EXPECT_EQ(bad("perlin=2&fractal=fbm"), "recipe: unknown version '2' (this library reads 1 to 1)");
  EXPECT_EQ(bad("perlin=1&fractal"), "recipe: 'fractal' is not name=value");
  EXPECT_EQ(bad("perlin=1&octaves=3&octaves=4"), "recipe: 'octaves' is given twice");
  EXPECT_EQ(bad("perlin=1&gain=0.3&persistence=0.3"), "recipe: 'persistence' is given twice");
  EXPECT_EQ(bad("perlin=1&octaves=%zz"), "recipe: '%zz' has a bad %-escape");
  EXPECT_EQ(bad("perlin=1&octave=3"), "option: unknown option 'octave' (did you mean 'octaves'?)");
  // A render setting is skipped by a field reader (handed back below); any other name is refused,
  // with the nearest name of both vocabularies, or both lists.
  EXPECT_EQ(bad("perlin=1&size=64x64"), "accepted");
  EXPECT_EQ(bad("perlin=1&stpe=0.5"), "option: unknown option 'stpe' (did you mean 'step'?)");
  EXPECT_EQ(
      bad("perlin=1&zzzzzz=1").rfind("option: unknown option 'zzzzzz' (valid: noise, interp", 0),
      0u);
  EXPECT_EQ(bad("perlin=1&octaves=0"), "octaves: must be 1 to 32, got 0");
  // Render settings are handed back when the caller takes them.
  std::vector<std::pair<std::string, std::string>> others;
  const auto spec = perlin::spec_from_recipe(
      "perlin=1&size=64x32&octaves=3&colormap=0:%23000000,1:%23ffffff", &others);
  EXPECT_EQ(spec.octaves, 3);
  ASSERT_EQ(others.size(), 2u);
  EXPECT_EQ(others[1].second, "0:#000000,1:#ffffff");
}

// The golden file: recipes written by this version with the values of their fields at points.
// Every later version must read each recipe to the same bits and write it back unchanged.
// Regenerate only when adding cases: PERLIN_WRITE_RECIPES=tests/data/recipes.txt.
TEST(Recipes, TheGoldenFileReadsToTheSameBits) {
  const std::string path = std::string(PERLIN_TEST_DATA) + "/recipes.txt";
  if (const char* out = std::getenv("PERLIN_WRITE_RECIPES")) {
    std::ofstream f(out);
    f << recipe_cases::golden_text();
    GTEST_SKIP() << "wrote " << out;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  std::size_t checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto c = recipe_cases::parse_line(line);
    SCOPED_TRACE(line);
    const perlin::field_spec spec = perlin::spec_from_recipe(c.recipe);
    EXPECT_EQ(perlin::to_recipe(spec), c.recipe);
    const perlin::field f = perlin::make_field(spec);
    EXPECT_EQ(bits(f.eval(std::span<const double>(c.point.data(), c.point.size()))), bits(c.value));
    ++checked;
  }
  EXPECT_GE(checked, 120u);
  // The file holds what this version generates: the same recipes from the same options.
  std::ifstream again(path);
  std::stringstream whole;
  whole << again.rdbuf();
  EXPECT_EQ(whole.str(), recipe_cases::golden_text());
}

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

TEST(Grid, StepsAndCoordinatesFollowTheOneRule) {
  const perlin::field f;
  std::vector<float> out(8);
  perlin::grid g = perlin::grid::plane(4, 2, 0.0);
  EXPECT_THROW((void)perlin::fill_grid(f, g, out), perlin::invalid_argument);
  g = perlin::grid::plane(4, 2, 1.0 / 64, 1e300, 0);
  try {
    (void)perlin::fill_grid(f, g, out);
    FAIL() << "accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond 2^52"), std::string::npos) << e.what();
  }
  g = perlin::grid::plane(4, 2, -1.0 / 64, 4503599627370496.0, 0);  // a negative step, at the edge
  EXPECT_NO_THROW((void)perlin::fill_grid(f, g, out));
}
