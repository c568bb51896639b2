// The point sets of the point workloads, shared by perlin_bench and bench/fastnoise2, so that
// every implementation in either program evaluates the same points.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

namespace bench {

struct points {
  std::vector<float> x, y, z;
};

/// 2^20 points uniform in [lo, hi)^3.
inline points uniform_points(double lo, double hi) {
  points q;
  std::mt19937_64 rng(2002);  // the sequence of mt19937_64 is fixed by the standard
  const auto uniform = [&] {
    return static_cast<float>(lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53);
  };
  const std::size_t n = std::size_t{1} << 20;
  q.x.resize(n);
  q.y.resize(n);
  q.z.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    q.x[i] = uniform();
    q.y[i] = uniform();
    q.z[i] = uniform();
  }
  return q;
}

/// The two coordinate ranges of the point workloads: mixed signs (points3d), where a floor's
/// branch is unpredictable, and one sign (points3d_pos), where it is not.
inline const points& scattered(bool positive) {
  static const points mixed = uniform_points(-1000, 1000);
  static const points pos = uniform_points(0, 256);
  return positive ? pos : mixed;
}

}  // namespace bench
