// `--noise libnoise-voronoi` through the option table and make_field against Debian's libnoise
// (noise::module::Voronoi), bit for bit: the field's frequency is libnoise's SetFrequency, its
// seed SetSeed, --voronoi-displacement and --voronoi-distance the module's; fewer than 3
// coordinates are completed with 0; fBm over it is the sum of Voronoi modules at each octave's
// frequency.
#include <gtest/gtest.h>
#include <libnoise/noise.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "detail/splitmix64.hpp"
#include "perlin/perlin.hpp"

namespace {

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

double uniform(perlin::detail::splitmix64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng.next() >> 11) * 0x1p-53);
}

std::string text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

TEST(LibnoiseVoronoiField, IsLibnoisesVoronoiModuleBitForBit) {
  perlin::detail::splitmix64 rng(2026);
  int checked = 0;
  for (const double frequency : {1.0, 0.37, 2.5, 13.0})
    for (const int seed : {0, 1, 4242, 2147483647})
      for (const double displacement : {1.0, 0.25, -3.5})
        for (const bool distance : {false, true}) {
          const std::string recipe =
              "perlin=1&noise=libnoise-voronoi&frequency=" + text(frequency) +
              "&seed=" + std::to_string(seed) + "&voronoi-displacement=" + text(displacement) +
              "&voronoi-distance=" + (distance ? "true" : "false");
          const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
          noise::module::Voronoi ref;
          ref.SetFrequency(frequency);
          ref.SetSeed(seed);
          ref.SetDisplacement(displacement);
          ref.EnableDistance(distance);
          int failures = 0;
          for (int n = 0; n < 300 && failures < 5; ++n) {
            const std::size_t dims = 1 + static_cast<std::size_t>(n % 3);
            double p[3] = {0, 0, 0};
            for (std::size_t k = 0; k < dims; ++k) p[k] = uniform(rng, -200, 200);
            if (n % 10 == 0)
              for (double& c : p) c = std::round(c);
            const double want = ref.GetValue(p[0], p[1], p[2]);
            const double got = f.eval(std::span<const double>(p, dims));
            ++checked;
            if (bits(got) != bits(want)) {
              ++failures;
              ADD_FAILURE() << recipe << " at " << p[0] << " " << p[1] << " " << p[2] << ": got "
                            << got << ", libnoise " << want;
            }
          }
        }
  EXPECT_EQ(checked, 4 * 4 * 3 * 2 * 300);
}

TEST(LibnoiseVoronoiField, FbmIsTheSumOfVoronoiModulesAtTheOctavesFrequencies) {
  const perlin::field f = perlin::make_field(perlin::spec_from_recipe(
      "perlin=1&noise=libnoise-voronoi&seed=31&voronoi-distance=true&fractal=fbm&octaves=3&"
      "frequency=0.8&lacunarity=2&persistence=0.5"));
  perlin::detail::splitmix64 rng(7);
  for (int n = 0; n < 500; ++n) {
    const double p[3] = {uniform(rng, -50, 50), uniform(rng, -50, 50), uniform(rng, -50, 50)};
    double total = 0, freq = 0.8, amp = 1;
    for (int i = 0; i < 3; ++i) {
      noise::module::Voronoi v;
      v.SetFrequency(freq);
      v.SetSeed(31);
      v.EnableDistance(true);
      total += v.GetValue(p[0], p[1], p[2]) * amp;
      freq *= 2;
      amp *= 0.5;
    }
    EXPECT_EQ(bits(f.eval(std::span<const double>(p, 3))), bits(total));
  }
}
