// The option table (docs/options.md): one parser per type for every front, unknown names with the
// closest suggestion, and every row complete. The CLI's side is in cli_options_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "perlin/perlin.hpp"

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
