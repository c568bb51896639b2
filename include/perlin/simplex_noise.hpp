// Stefan Gustavson's simplex noise (his SimplexNoise.java, 2012-03-09) in 2 to 4 dimensions.
#pragma once

#include <cstdint>

#include "perlin/lattice.hpp"

namespace perlin {

/// Simplex noise as in Stefan Gustavson's speed-improved SimplexNoise.java ("Version
/// 2012-03-09", public domain; Ken Perlin's simplex noise of 2001, whose patent has expired):
/// skewed simplex cells, the 12 cube-edge gradients (2-D reads their x and y), the 32 gradients
/// of 4-D, kernels (0.5 - r^2)^4 (2-D) and (0.6 - r^2)^4 (3-D, 4-D), output scales 70, 32, 27.
///
/// - On Ken Perlin's permutation (the default lattice) the double values are the Java code's,
///   bit for bit (tests/data/simplex_gustavson_{2,3,4}d.txt); a seeded lattice replaces the
///   permutation (the same one improved noise uses for that seed).
/// - 2 to 4 coordinates: Gustavson's code has no 1-D simplex noise.
/// - No periods: the simplex lattice is skewed, so its cells do not line up with the square
///   grid; a period along x and y would cut simplices. A lattice with periods is refused.
/// - Range: Gustavson's [-1, 1] (docs/noise.md gives the largest values found by a search:
///   0.99789 in 2-D, 0.97872 in 3-D, 0.99171 in 4-D).
/// Evaluation is const and thread safe; the object is a small value.
class simplex_noise {
 public:
  /// Ken Perlin's permutation.
  simplex_noise() noexcept = default;
  /// The permutation of `seed` (docs/seeding.md).
  explicit simplex_noise(std::uint64_t seed) noexcept : lattice_(seed) {}
  /// The lattice's permutation. Throws perlin::invalid_argument (parameter "period") when the
  /// lattice has periods.
  explicit simplex_noise(const perlin::lattice& l);

  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }

  [[nodiscard]] double noise2d(double x, double y) const noexcept;
  [[nodiscard]] double noise3d(double x, double y, double z) const noexcept;
  [[nodiscard]] double noise4d(double x, double y, double z, double w) const noexcept;

  friend bool operator==(const simplex_noise&, const simplex_noise&) = default;

 private:
  perlin::lattice lattice_;
};

}  // namespace perlin
