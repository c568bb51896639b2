// Typed errors (include/perlin/error.hpp): every argument error says which parameter and what
// kind, and the message is "<parameter>: <what is wrong>".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

/// Runs `f`, which must throw perlin::invalid_argument; returns it.
template <class F>
perlin::invalid_argument caught(F&& f) {
  try {
    f();
  } catch (const perlin::invalid_argument& e) {
    return e;
  }
  ADD_FAILURE() << "no perlin::invalid_argument";
  return perlin::invalid_argument(perlin::error_kind::value, "none", "none");
}

void expect_error(const perlin::invalid_argument& e, perlin::error_kind kind,
                  const std::string& parameter) {
  EXPECT_EQ(e.kind(), kind) << e.what();
  EXPECT_EQ(e.parameter(), parameter) << e.what();
  EXPECT_EQ(std::string(e.what()).rfind(parameter + ": ", 0), 0u) << e.what();
}

TEST(Errors, AValueOutsideItsDomainNamesItsOption) {
  perlin::field_spec s;
  expect_error(caught([&] { s.set("octaves", "0"); }), perlin::error_kind::value, "octaves");
  expect_error(caught([&] { s.set("lacunarity", "nan"); }), perlin::error_kind::value,
               "lacunarity");
  perlin::fractal f;
  expect_error(caught([&] { f.set_octaves(33); }), perlin::error_kind::value, "octaves");
}

TEST(Errors, AWrongSizeIsASizeError) {
  perlin::grid g;
  g.count = {4, 4, 1, 1};
  std::vector<float> out(15);
  expect_error(caught([&] { perlin::fill_grid(perlin::field(), g, out); }),
               perlin::error_kind::size, "out");
  g.count = {0, 4, 1, 1};
  std::vector<float> none;
  expect_error(caught([&] { perlin::fill_grid(perlin::field(), g, none); }),
               perlin::error_kind::size, "count");
  const std::vector<double> p(5, 0.0);
  expect_error(caught([&] { (void)perlin::field().eval(p); }), perlin::error_kind::size, "point");
}

TEST(Errors, AnUnknownOptionIsItsOwnKind) {
  perlin::field_spec s;
  const auto e = caught([&] { s.set("octave", "3"); });
  expect_error(e, perlin::error_kind::unknown_option, "option");
  EXPECT_NE(std::string(e.what()).find("did you mean 'octaves'"), std::string::npos) << e.what();
  EXPECT_THROW(s.set("octave", "3"), perlin::unknown_option);
}

TEST(Errors, CopiesKeepTheParameter) {
  const perlin::invalid_argument a(perlin::error_kind::size, "count", "must be at least 1");
  const perlin::invalid_argument b = a;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(b.parameter(), "count");
  EXPECT_STREQ(b.what(), "count: must be at least 1");
  EXPECT_EQ(b.kind(), perlin::error_kind::size);
}

}  // namespace
