// Ken Perlin's improved gradient noise (2002) in 1 to 4 dimensions, in double and float.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "perlin/coordinates.hpp"
#include "perlin/detail/improved_float_call.hpp"
#include "perlin/lattice.hpp"

namespace perlin {

/// A noise value together with its analytic gradient (d/dx, d/dy, ...).
template <class T, std::size_t D>
struct with_gradient {
  T value;
  std::array<T, D> gradient;
};

/// Ken Perlin's improved noise.
///
/// - 3-D is the 2002 reference algorithm. With the default lattice (his permutation, no periods)
///   the double path reproduces his Java code bit for bit (docs/exactness.md).
/// - 1-D and 2-D are the slices y = 0 and z = 0 of the 3-D noise: noise2d(x, y) == noise3d(x, y,
/// 0).
/// - 4-D hashes one level deeper and uses the 32 gradients with one zero and three components of
///   +-1 (docs/noise.md).
/// - The lattice index is floor(x) in 64-bit integers: any coordinate up to 2^52 in magnitude is
///   valid; larger finite ones are integers, where the noise is 0. A NaN or infinite coordinate
///   gives NaN.
/// - Range (docs/ranges.md): 1-D [-0.5, 0.5], 2-D [-1, 1], 3-D [-1.0364, 1.0364] (with Ken
///   Perlin's table about [-1.0266, +1.0364]), 4-D [-1.5366, 1.5366], for any seed: see
///   perlin::improved_bound.
/// - Integer or mixed coordinates (noise2d(i, j)) take the double path. Integer points are on the
///   lattice, where improved noise is 0: scale pixel indices by a frequency (say 1/64) first.
/// Evaluation is const and thread safe; the object is a small value (about 600 bytes).
class improved_noise : public detail::other_coordinate_calls<improved_noise> {
 public:
  /// Ken Perlin's permutation, no periods.
  improved_noise() noexcept = default;
  /// The permutation of `seed` (docs/seeding.md).
  explicit improved_noise(std::uint64_t seed) noexcept : lattice_(seed) {}
  explicit improved_noise(const perlin::lattice& l) noexcept : lattice_(l) {}

  /// The lattice (permutation and periods), mutable so that periods can be set on it.
  [[nodiscard]] perlin::lattice& lattice() noexcept { return lattice_; }
  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }

  [[nodiscard]] double noise1d(double x) const noexcept;
  [[nodiscard]] double noise2d(double x, double y) const noexcept;
  [[nodiscard]] double noise3d(double x, double y, double z) const noexcept;
  [[nodiscard]] double noise4d(double x, double y, double z, double w) const noexcept;
  [[nodiscard]] float noise1d(float x) const noexcept;
  /// 2-D and 3-D in float are inline (perlin/detail/improved_float_call.hpp): the same bits as
  /// the library's own float path whatever the caller's flags.
  [[nodiscard]] float noise2d(float x, float y) const noexcept;
  [[nodiscard]] float noise3d(float x, float y, float z) const noexcept;
  [[nodiscard]] float noise4d(float x, float y, float z, float w) const noexcept;

  /// Value and analytic gradient. The value has the same bits as the plain call.
  [[nodiscard]] with_gradient<double, 1> noise1d_deriv(double x) const noexcept;
  [[nodiscard]] with_gradient<double, 2> noise2d_deriv(double x, double y) const noexcept;
  [[nodiscard]] with_gradient<double, 3> noise3d_deriv(double x, double y, double z) const noexcept;
  [[nodiscard]] with_gradient<double, 4> noise4d_deriv(double x, double y, double z,
                                                       double w) const noexcept;
  [[nodiscard]] with_gradient<float, 1> noise1d_deriv(float x) const noexcept;
  [[nodiscard]] with_gradient<float, 2> noise2d_deriv(float x, float y) const noexcept;
  [[nodiscard]] with_gradient<float, 3> noise3d_deriv(float x, float y, float z) const noexcept;
  [[nodiscard]] with_gradient<float, 4> noise4d_deriv(float x, float y, float z,
                                                      float w) const noexcept;

  /// Integer and mixed coordinates (noise2d(i, j)): the double path.
  using detail::other_coordinate_calls<improved_noise>::noise1d;
  using detail::other_coordinate_calls<improved_noise>::noise2d;
  using detail::other_coordinate_calls<improved_noise>::noise3d;
  using detail::other_coordinate_calls<improved_noise>::noise4d;

  /// Any dimension from the size of `p` (1 to 4); `gradient`, when not empty, receives the
  /// p.size() partial derivatives. Throws perlin::invalid_argument for other sizes.
  [[nodiscard]] double eval(std::span<const double> p, std::span<double> gradient = {}) const;
  [[nodiscard]] float eval(std::span<const float> p, std::span<float> gradient = {}) const;

  friend bool operator==(const improved_noise&, const improved_noise&) = default;

 private:
  perlin::lattice lattice_;
};

// Inline where the lanes are (the loop of a caller's calls keeps the table and the masks in
// registers); else, and in -ffast-math translation units, the library's out-of-line function.
// Both give the same bits.
[[gnu::always_inline]] inline float improved_noise::noise2d(float x, float y) const noexcept {
  return detail::improved_float_call<2>(lattice_, x, y, 0.f);
}
[[gnu::always_inline]] inline float improved_noise::noise3d(float x, float y,
                                                            float z) const noexcept {
  return detail::improved_float_call<3>(lattice_, x, y, z);
}

}  // namespace perlin
