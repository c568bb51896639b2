// The number text of the option table without std::to_chars/from_chars for doubles (the
// WebAssembly build's libc++ lacks them): the portable versions give the standard's results, so
// recipes and messages are the same text in every build.
#include "runtime/text.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <system_error>

#include "gtest/gtest.h"

namespace {

std::string standard_text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

TEST(PortableNumberText, ShortestTextIsStdToChars) {
  const double special[] = {0.0,
                            -0.0,
                            1.0,
                            100.0,
                            1e20,
                            1e21,
                            1e22,
                            1e23,
                            0.1,
                            0.3,
                            1e-5,
                            1e-4,
                            1.5e-7,
                            0.015625,
                            123456.0,
                            1234567.0,
                            12345678901234567.0,
                            9007199254740993.0,
                            5e-324,
                            2.2250738585072014e-308,
                            std::numeric_limits<double>::max(),
                            -1.7976931348623157e308,
                            3.14,
                            42.0,
                            1e100,
                            65536.0,
                            0.5,
                            2.5,
                            1e15,
                            1e16,
                            1e17};
  for (const double v : special)
    EXPECT_EQ(perlin::detail::portable_shortest_text(v), standard_text(v)) << v;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> small(-1000, 1000);
  for (int i = 0; i < 30000; ++i) {
    double v = std::bit_cast<double>(rng());  // any bit pattern
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(perlin::detail::portable_shortest_text(v), standard_text(v)) << v;
    v = small(rng);  // option values users type
    ASSERT_EQ(perlin::detail::portable_shortest_text(v), standard_text(v)) << v;
    v = std::round(v * 64) / 64;
    ASSERT_EQ(perlin::detail::portable_shortest_text(v), standard_text(v)) << v;
  }
}

TEST(PortableNumberText, ParsingIsStdFromChars) {
  const char* texts[] = {"1",
                         "-2",
                         "0.5",
                         ".5",
                         "5.",
                         "1e3",
                         "1E-3",
                         "1e",
                         "1e+",
                         "1e+5x",
                         "-",
                         "",
                         ".",
                         "-.",
                         "inf",
                         "-Inf",
                         "INFINITY",
                         "infinit",
                         "nan",
                         "NaN",
                         "1e400",
                         "-1e400",
                         "1e-400",
                         "4e-320",
                         "0x10",
                         "+1",
                         " 1",
                         "1.5e3x",
                         "00012",
                         "1..2",
                         "e5",
                         "123456789012345678901234567890",
                         "0.1000000000000000055511151231257827",
                         "2.2250738585072011e-308",
                         "1.7976931348623158e308",
                         "9007199254740993"};
  for (const char* t : texts) {
    const char* last = t + std::strlen(t);
    double a = -7, b = -7;
    const auto ra = std::from_chars(t, last, a, std::chars_format::general);
    const auto rb = perlin::detail::portable_number_from_chars(t, last, b);
    EXPECT_EQ(ra.ptr - t, rb.ptr - t) << t;
    EXPECT_EQ(ra.ec, rb.ec) << t;
    if (ra.ec == std::errc()) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << t;
    }
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (!std::isfinite(v)) continue;
    const std::string t = standard_text(v);
    double b = 0;
    const auto rb = perlin::detail::portable_number_from_chars(t.data(), t.data() + t.size(), b);
    ASSERT_EQ(rb.ec, std::errc()) << t;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(b), std::bit_cast<std::uint64_t>(v)) << t;
  }
}

}  // namespace
