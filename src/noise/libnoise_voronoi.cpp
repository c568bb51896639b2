// libnoise's Voronoi module, bit for bit (src/detail/libnoise_voronoi.hpp; docs/noise.md).
#include "detail/libnoise_voronoi.hpp"

#include <cmath>
#include <cstdint>

namespace perlin::detail {

namespace {

/// libnoise's mathconsts.h SQRT_3, as its decimal literal rounds.
constexpr double k_sqrt3 = 1.7320508075688772935;

/// C++'s (int)x as Debian's x86-64 build computes it (truncation, cvttsd2si): INT_MIN where the
/// truncated value does not fit (and for NaN), where C++ leaves it undefined.
std::int32_t to_int(double x) noexcept {
  if (x > -2147483649.0 && x < 2147483648.0) return static_cast<std::int32_t>(x);
  return INT32_MIN;
}

/// int + int with two's complement wrapping (what libnoise's overflowing sums compile to).
std::int32_t add(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

/// libnoise's IntValueNoise3D as Debian's build computes it, in unsigned arithmetic (its int
/// products wrap the same way). The source ends with `& 0x7fffffff`, but its last product and sum
/// overflow int, and GCC (assuming signed overflow cannot happen, so the result of non-negative
/// operands is non-negative) drops that mask: the binary returns the whole wrapped 32-bit value,
/// negative about half the time. So ValueNoise3D lies in (-1, 3], not (-1, 1].
std::int32_t int_value_noise3(std::int32_t x, std::int32_t y, std::int32_t z,
                              std::int32_t seed) noexcept {
  std::uint32_t m = 1619u * static_cast<std::uint32_t>(x) + 31337u * static_cast<std::uint32_t>(y) +
                    6971u * static_cast<std::uint32_t>(z) +
                    1013u * static_cast<std::uint32_t>(seed);
  m &= 0x7fffffffu;
  m = (m >> 13) ^ m;
  return static_cast<std::int32_t>(m * (m * m * 60493u + 19990303u) + 1376312589u);
}

/// The cube libnoise assigns to a coordinate: (int)x for x > 0, else (int)x - 1 (so an integer
/// x <= 0 lands in the cube below it).
std::int32_t cube_of(double x) noexcept { return x > 0.0 ? to_int(x) : add(to_int(x), -1); }

}  // namespace

double libnoise_value_noise3(int x, int y, int z, int seed) noexcept {
  return 1.0 - static_cast<double>(int_value_noise3(x, y, z, seed)) / 1073741824.0;
}

double libnoise_voronoi(double x, double y, double z, double frequency, int seed,
                        double displacement, bool distance, double* gradient) noexcept {
  x *= frequency;
  y *= frequency;
  z *= frequency;
  const std::int32_t cx = cube_of(x);
  const std::int32_t cy = cube_of(y);
  const std::int32_t cz = cube_of(z);
  const std::int32_t seed_y = add(seed, 1);
  const std::int32_t seed_z = add(seed, 2);

  // The nearest seed point by squared distance, scanning z, then y, then x from -2 to +2; a later
  // point replaces the kept one only when strictly nearer. Nothing is kept while every distance
  // is at least 2^31 - 1 (or NaN): the point stays (0, 0, 0).
  double nearest = 2147483647.0;
  double px = 0.0;
  double py = 0.0;
  double pz = 0.0;
  for (std::int32_t k = -2; k <= 2; ++k) {
    const std::int32_t iz = add(cz, k);
    for (std::int32_t j = -2; j <= 2; ++j) {
      const std::int32_t iy = add(cy, j);
      for (std::int32_t i = -2; i <= 2; ++i) {
        const std::int32_t ix = add(cx, i);
        const double sx = static_cast<double>(ix) + libnoise_value_noise3(ix, iy, iz, seed);
        const double sy = static_cast<double>(iy) + libnoise_value_noise3(ix, iy, iz, seed_y);
        const double sz = static_cast<double>(iz) + libnoise_value_noise3(ix, iy, iz, seed_z);
        const double dx = sx - x;
        const double dy = sy - y;
        const double dz = sz - z;
        const double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < nearest) {
          nearest = d2;
          px = sx;
          py = sy;
          pz = sz;
        }
      }
    }
  }

  double value = 0.0;
  if (distance) {
    const double dx = px - x;
    const double dy = py - y;
    const double dz = pz - z;
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    value = d * k_sqrt3 - 1.0;
    if (gradient != nullptr) {
      // d/dx of sqrt(3) |s - x f| = sqrt(3) f (x f - s) / |s - x f|
      const double k = d > 0.0 ? k_sqrt3 * frequency / d : 0.0;
      gradient[0] = -dx * k;
      gradient[1] = -dy * k;
      gradient[2] = -dz * k;
    }
  } else if (gradient != nullptr) {
    gradient[0] = gradient[1] = gradient[2] = 0.0;
  }
  return value + displacement * libnoise_value_noise3(to_int(std::floor(px)),
                                                      to_int(std::floor(py)),
                                                      to_int(std::floor(pz)), 0);
}

}  // namespace perlin::detail
