// Recipes: recipes that round-trip, canonical and strict text, and the golden file of recipes
// with values that every later version must read to the same bits (every front reads it too:
// tests/python, tests/c, tests/csharp, tests/lua, tests/js). The option table's own tests are in
// option_table_test.cpp.
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

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

}  // namespace

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
    const double p[4] = {0.3 + i, -1.7 * i, 2.25, -0.5};
    // A 3-D point, or where OpenSimplex2's orientation has no 3-D function, a 2-D or 4-D one.
    std::size_t dims = 3;
    if (spec.noise.rfind("opensimplex2", 0) == 0) {
      const auto o = perlin::parse_os2_orientation(spec.orientation);
      if (!perlin::os2_orientation_has(o, 3)) dims = perlin::os2_orientation_has(o, 2) ? 2 : 4;
    }
    EXPECT_EQ(bits(a.eval(std::span<const double>(p, dims))),
              bits(b.eval(std::span<const double>(p, dims))));
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
