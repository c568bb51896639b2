// libnoise's Voronoi module (noise::module::Voronoi, libnoise 1.0.0 by Jason Bevins) as an
// internal double path (issue 51 item 3): docs/noise.md, "libnoise's Voronoi", states the
// algorithm. Written from that algorithm; it contains none of libnoise's code.
//
// In short: the point is scaled by the frequency; each unit cube of the 5x5x5 cubes around the
// cube libnoise assigns to it (index (int)x where x > 0, else (int)x - 1) holds one seed point at
// the cube's corner plus (ValueNoise3D(cube, seed), ValueNoise3D(cube, seed + 1),
// ValueNoise3D(cube, seed + 2)); the nearest by squared distance (the first in
// z, y, x scan order on ties) is chosen; the value is displacement * ValueNoise3D(floor of that
// point, seed 0), plus sqrt(3) times the distance to it minus 1 when the distance is enabled.
// ValueNoise3D(x, y, z, s) = 1 - n / 2^30 with libnoise's integer hash
// n = IntValueNoise3D(x, y, z, s): m = (1619 x + 31337 y + 6971 z + 1013 s) & 0x7fffffff,
// m = (m >> 13) ^ m, n = m (m^2 60493 + 19990303) + 1376312589 in wrapping 32-bit arithmetic, as a
// signed int. libnoise's source masks that last value with & 0x7fffffff too, but the sum
// overflows int and GCC -O2 drops the mask (it may assume no signed overflow): Debian's binary
// (and other GCC builds) returns the unmasked value, so its ValueNoise3D lies in (-1, 3] and
// its seed points up to 3 cells from their cube's corner. This code reproduces the binary.
//
// Bit for bit with Debian's libnoise (libnoise-dev 1.0.0+repack, x86-64) at every input and seed
// (tests/libnoise_voronoi_test.cpp): also where libnoise's C++ is undefined (seed + 2 past
// INT_MAX, coordinates outside int's range, NaN, infinities), whose binary does what x86-64 does
// and so does this code, defined: int conversions give INT_MIN outside int's range and for NaN
// (cvttsd2si), int sums and products wrap.
#pragma once

namespace perlin::detail {

/// libnoise's noise::module::Voronoi with SetFrequency(frequency), SetSeed(seed),
/// SetDisplacement(displacement) and EnableDistance(distance), at (x, y, z): GetValue(x, y, z).
/// Thread safe. With distance off the value is displacement times a ValueNoise3D, so within
/// 3 |displacement|; with it on, sqrt(3) * d - 1 is added, d the distance to the nearest seed
/// point (the search window's 5x5x5 cubes do not always hold the true nearest one).
///
/// When `gradient` is not null it receives the derivative with respect to (x, y, z): 0 without
/// the distance, else sqrt(3) frequency (x f - s) / |x f - s| for the chosen seed point s (0 at
/// s); the value is piecewise constant apart from that term, and jumps where the chosen point
/// or its cell changes.
double libnoise_voronoi(double x, double y, double z, double frequency, int seed,
                        double displacement, bool distance, double* gradient = nullptr) noexcept;

/// libnoise's noise::ValueNoise3D(x, y, z, seed) as Debian's binary computes it:
/// 1 - IntValueNoise3D(x, y, z, seed) / 2^30, in (-1, 3] (see above).
double libnoise_value_noise3(int x, int y, int z, int seed) noexcept;

}  // namespace perlin::detail
