// What the tests of the bulk calls share (grid_test, points_test, bulk_test): each SIMD target
// this machine runs in turn, the float paths' tolerance, and a set of fields of every kind.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace bulk_cases {

/// Runs `body` once per available target, with the cap set to it; restores the default after.
template <class F>
void for_each_target(F&& body) {
  const auto targets = perlin::available_targets();
  ASSERT_FALSE(targets.empty());
  for (const auto& t : targets) {
    perlin::set_max_target(t);
    ASSERT_EQ(perlin::active_target(), t);
    SCOPED_TRACE("target " + t);
    body(t);
  }
  perlin::set_max_target("");
}

/// Tolerance of the float bulk paths against the double scalar path (grid.hpp).
inline double tolerance(const perlin::field& f) { return perlin::value_tolerance(f); }

inline std::vector<perlin::field> fields() {
  std::vector<perlin::field> out;
  out.emplace_back();  // Ken Perlin's noise
  perlin::improved_noise seeded(5);
  seeded.lattice().set_period(0, 3).set_period(1, 16).set_period(2, 7).set_period(3, 5);
  out.emplace_back(seeded, perlin::fractal()
                               .set_kind(perlin::fractal_kind::fbm)
                               .set_octaves(5)
                               .set_frequency(0.7)
                               .set_decorrelate(true));
  out.emplace_back(perlin::improved_noise(8), perlin::fractal()
                                                  .set_kind(perlin::fractal_kind::ridged)
                                                  .set_octaves(4)
                                                  .set_lacunarity(2.5)
                                                  .set_persistence(0.6)
                                                  .set_normalize(true));
  out.emplace_back(perlin::improved_noise(),
                   perlin::fractal().set_kind(perlin::fractal_kind::turbulence).set_octaves(3));
  // The eroded fractal: float grids' values on the sample kernel, everything else scalar.
  out.emplace_back(perlin::improved_noise(3), perlin::fractal()
                                                  .set_kind(perlin::fractal_kind::eroded)
                                                  .set_octaves(4)
                                                  .set_erosion(1.5)
                                                  .set_decorrelate(true));
  for (const auto interp : {perlin::interpolation::linear, perlin::interpolation::cosine,
                            perlin::interpolation::cubic, perlin::interpolation::quintic}) {
    perlin::value_noise v(11, interp);
    v.lattice().set_period_all(9);
    out.emplace_back(v, perlin::fractal().set_kind(perlin::fractal_kind::billow).set_octaves(2));
  }
  return out;
}

}  // namespace bulk_cases
