// The check both inline-call test files run, each compiled with its own flags (fused multiply-adds;
// -ffast-math): improved_noise::noise2d/noise3d(float), inline in this translation unit, against
// the library's float path (eval, out of line, built with -ffp-contract=off), bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "perlin/grid.hpp"  // k_float_tolerance
#include "perlin/improved_noise.hpp"

namespace inline_calls {

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Counts the points where the inline calls differ from eval, and where they are farther than
/// docs/exactness.md's float tolerance from the double path (coordinates below 256): one-sign and
/// mixed-sign ranges, Ken Perlin's table and a seed, power-of-two and other periods, and the rare
/// coordinates that take the written-out path (2^31 and beyond, infinities, NaN), and lattice
/// points, signed zeros and tiny negatives (a floor that rounds the fraction up to 1).
inline int count_differences() {
  std::vector<perlin::improved_noise> noises = {perlin::improved_noise(),
                                                perlin::improved_noise(7)};
  for (const std::int64_t period : {4, 5, 256}) {
    perlin::improved_noise n(3);
    n.lattice().set_period_all(period);
    noises.push_back(n);
  }
  std::mt19937 rng(20261202);
  const float ranges[][2] = {{0.f, 256.f}, {-1000.f, 1000.f}, {-3.f, 3.f}, {-1e7f, 1e7f}};
  const float rare[] = {2147483648.f, -2147483904.f, 1e20f, std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()};
  const float edges[] = {-0.0f, 0.0f, -1.0f, 1.0f, -255.0f, 255.5f, -1e-30f, 1e-30f};
  int differ = 0;
  for (const auto& n : noises) {
    for (const auto& r : ranges) {
      std::uniform_real_distribution<float> d(r[0], r[1]);
      for (int i = 0; i < 20000; ++i) {
        float p[3] = {d(rng), d(rng), d(rng)};
        if (i % 1000 == 0) p[i / 1000 % 3] = rare[i / 3000 % 5];
        if (i % 1000 == 500) {  // where the floor's rounding matters: zeros, integers, -tiny
          for (int k = 0; k < 3; ++k) p[k] = edges[(i / 1000 + k * 3) % 8];
        }
        const float v3 = n.noise3d(p[0], p[1], p[2]);
        const float v2 = n.noise2d(p[0], p[1]);
        const float e3 = n.eval(std::span<const float>(p, 3));
        const float e2 = n.eval(std::span<const float>(p, 2));
        const bool nan3 = std::isnan(e3), nan2 = std::isnan(e2);
        if (nan3 ? !std::isnan(v3) : !same_bits(v3, e3)) {
          if (++differ <= 5)
            ADD_FAILURE() << p[0] << ' ' << p[1] << ' ' << p[2] << ": " << v3 << " vs " << e3;
        }
        if (nan2 ? !std::isnan(v2) : !same_bits(v2, e2)) {
          if (++differ <= 5) ADD_FAILURE() << p[0] << ' ' << p[1] << ": " << v2 << " vs " << e2;
        }
        if (std::abs(p[0]) < 256 && std::abs(p[1]) < 256 && std::abs(p[2]) < 256) {
          const double d3 = n.noise3d(double(p[0]), double(p[1]), double(p[2]));
          const double d2 = n.noise2d(double(p[0]), double(p[1]));
          if (!(std::abs(v3 - d3) <= perlin::k_float_tolerance &&
                std::abs(v2 - d2) <= perlin::k_float_tolerance)) {
            if (++differ <= 5)
              ADD_FAILURE() << p[0] << ' ' << p[1] << ' ' << p[2] << ": " << v3
                            << " vs the double path's " << d3;
          }
        }
      }
    }
  }
  return differ;
}

}  // namespace inline_calls
