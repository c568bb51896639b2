// libnoise's Voronoi module (src/detail/libnoise_voronoi.hpp) against Debian's libnoise
// (libnoise-dev, noise::module::Voronoi), bit for bit, at 10^4 random points for each
// frequency, seed, displacement and distance setting.
#include "detail/libnoise_voronoi.hpp"

#include <gtest/gtest.h>
#include <libnoise/noise.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "detail/splitmix64.hpp"

namespace {

using perlin::detail::libnoise_voronoi;

double uniform(perlin::detail::splitmix64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng.next() >> 11) * 0x1p-53);
}

// Compares 10^4 points of [-range, range]^3 (a tenth of them on integers, where libnoise's cube
// rule differs from floor) for one setting; stops at the first 5 differences.
void compare(double frequency, int seed, double displacement, bool distance, double range,
             std::uint64_t rng_seed) {
  noise::module::Voronoi ref;
  ref.SetFrequency(frequency);
  ref.SetSeed(seed);
  ref.SetDisplacement(displacement);
  ref.EnableDistance(distance);
  perlin::detail::splitmix64 rng(rng_seed);
  int failures = 0;
  for (int i = 0; i < 10000 && failures < 5; ++i) {
    std::array<double, 3> x{};
    for (double& c : x) c = uniform(rng, -range, range);
    if (i % 10 == 0) {
      for (double& c : x) c = std::round(c);
    }
    const double want = ref.GetValue(x[0], x[1], x[2]);
    const double got = libnoise_voronoi(x[0], x[1], x[2], frequency, seed, displacement, distance);
    if (std::bit_cast<std::uint64_t>(got) != std::bit_cast<std::uint64_t>(want)) {
      ++failures;
      ADD_FAILURE() << "frequency " << frequency << " seed " << seed << " displacement "
                    << displacement << " distance " << distance << " at (" << x[0] << ", " << x[1]
                    << ", " << x[2] << "): " << got << ", libnoise " << want;
    }
  }
}

TEST(LibnoiseVoronoi, DefaultsMatchLibnoise) {
  // libnoise's defaults: frequency 1, seed 0, displacement 1, distance off.
  compare(1.0, 0, 1.0, false, 100.0, 1);
  compare(1.0, 0, 1.0, true, 100.0, 2);
}

TEST(LibnoiseVoronoi, FrequenciesSeedsDisplacementsAndDistanceMatchLibnoise) {
  const std::array<double, 5> frequencies = {1.0, 0.37, 2.5, 1e-3, 17.0};
  const std::array<int, 6> seeds = {0, 1, 12345, 1 << 30, 2147483645, 2147483647};
  const std::array<double, 4> displacements = {1.0, 0.0, -2.75, 0.125};
  std::uint64_t n = 10;
  for (const double f : frequencies) {
    for (const int s : seeds) {
      for (const double d : displacements) {
        for (const bool dist : {false, true}) compare(f, s, d, dist, 1000.0, ++n);
      }
    }
  }
}

TEST(LibnoiseVoronoi, LargeCoordinatesMatchLibnoise) {
  // Up to 2^30 after the frequency: inside int's range, libnoise is defined there.
  compare(1.0, 7, 1.0, true, 1073741824.0, 100);
  compare(3.0, 8, 1.0, true, 300000000.0, 101);
}

// Where libnoise's C++ is undefined (int conversions out of range, NaN, infinities, overflowing
// sums), Debian's binary does what x86-64 does: the port gives its bits there too.
TEST(LibnoiseVoronoi, OutsideIntsRangeMatchesDebiansBinary) {
  const std::array<double, 15> values = {
      3e9, -3e9,     2147483646.5, 2147483647.5, -2147483648.5, -2147483649.5, 1e19,         -1e300,
      NAN, INFINITY, -INFINITY,    0.0,          -0.0,          2147483645.0,  -2147483646.0};
  for (const double x : values) {
    for (const double y : values) {
      for (const double z : {0.25, -7.5, 3e9}) {
        for (const bool distance : {false, true}) {
          noise::module::Voronoi ref;
          ref.SetSeed(3);
          ref.EnableDistance(distance);
          const double want = ref.GetValue(x, y, z);
          const double got = libnoise_voronoi(x, y, z, 1.0, 3, 1.0, distance);
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
              << x << " " << y << " " << z << " " << distance;
        }
      }
    }
  }
}

TEST(LibnoiseVoronoi, ValueNoiseMatchesLibnoise) {
  perlin::detail::splitmix64 rng(200);
  for (int i = 0; i < 100000; ++i) {
    const auto x = static_cast<int>(static_cast<std::uint32_t>(rng.next()));
    const auto y = static_cast<int>(static_cast<std::uint32_t>(rng.next()));
    const auto z = static_cast<int>(static_cast<std::uint32_t>(rng.next()));
    const auto s = static_cast<int>(rng.below(2147483648ULL));
    ASSERT_EQ(perlin::detail::libnoise_value_noise3(x, y, z, s), noise::ValueNoise3D(x, y, z, s))
        << x << " " << y << " " << z << " " << s;
  }
}

}  // namespace
