// The C API from C++: its float grid has the same bits as the C++ fill_grid, its double path
// the same bits as field::eval, for a seeded fBm set by option names.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "perlin/perlin.h"
#include "perlin/perlin.hpp"

namespace {

TEST(CApi, TheSameBitsAsTheCppLibrary) {
  perlin_field* f = perlin_field_new();
  ASSERT_NE(f, nullptr);
  for (const auto& [k, v] : {std::pair{"seed", "42"},
                             {"fractal", "fbm"},
                             {"octaves", "6"},
                             {"persistence", "0.6"},
                             {"decorrelate", "1"},
                             {"period", "32"}}) {
    ASSERT_EQ(perlin_field_set(f, k, v), PERLIN_OK) << k << ": " << perlin_last_error();
  }
  perlin::field_spec spec;
  spec.seed = 42;
  spec.fractal = "fbm";
  spec.octaves = 6;
  spec.persistence = 0.6;
  spec.decorrelate = true;
  spec.period = {32};
  const perlin::field cpp = perlin::make_field(spec);
  for (const std::size_t dims : {1u, 2u, 3u, 4u}) {
    perlin::grid g;
    g.dims = dims;
    g.count = {97, 5, 3, 2};
    g.origin = {-2.5, 1.25, 0.5, 3.0};
    g.step = {0.07, 0.11, 0.13, 0.17};
    std::vector<float> want(g.size()), got(g.size());
    (void)perlin::fill_grid(cpp, g, want);
    ASSERT_EQ(perlin_fill_grid(f, static_cast<int>(dims), g.count.data(), g.origin.data(),
                               g.step.data(), got.data(), got.size(), 0),
              PERLIN_OK);
    EXPECT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0) << dims;
    const double p[4] = {0.3, 0.7, 1.9, -4.2};
    EXPECT_EQ(perlin_field_eval(f, static_cast<int>(dims), p),
              cpp.eval(std::span<const double>(p, dims)));
  }
  perlin_field_free(f);
}

}  // namespace
