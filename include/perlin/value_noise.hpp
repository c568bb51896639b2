// Value noise: random values on the lattice, interpolated, in 1 to 4 dimensions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/improved_noise.hpp"
#include "perlin/lattice.hpp"

namespace perlin {

/// How value noise blends the lattice values along each axis, t in [0, 1].
enum class interpolation {
  linear,   ///< t: continuous, but its gradient jumps at cell walls
  cosine,   ///< (1 - cos(pi t)) / 2
  cubic,    ///< 3t^2 - 2t^3 (smoothstep): continuous first derivative
  quintic,  ///< 6t^5 - 15t^4 + 10t^3 (Perlin's fade): continuous second derivative
};

/// The name used by the CLI and docs ("linear", "cosine", "cubic", "quintic").
[[nodiscard]] std::string_view to_string(interpolation i) noexcept;
/// Parses a name; throws perlin::invalid_argument listing the valid names.
[[nodiscard]] interpolation parse_interpolation(std::string_view name);
/// Every name, in declaration order.
[[nodiscard]] std::vector<std::string> interpolation_names();

/// Value noise. The value at lattice point (i, j, k[, l]) is h / 127.5 - 1, where h is the same
/// hash byte that improved noise uses to pick its gradient (p[p[p[i]+j]+k], one level deeper in
/// 4-D; 1-D and 2-D take the missing indices as 0). The range is exactly [-1, 1]; the noise takes
/// its lattice values at integer points. Same seeds and periods as improved_noise.
/// Evaluation is const and thread safe; the object is a small value.
class value_noise : public detail::other_coordinate_calls<value_noise> {
 public:
  value_noise() noexcept = default;
  explicit value_noise(std::uint64_t seed, interpolation interp = interpolation::quintic) noexcept
      : lattice_(seed), interp_(interp) {}
  explicit value_noise(const perlin::lattice& l,
                       interpolation interp = interpolation::quintic) noexcept
      : lattice_(l), interp_(interp) {}

  [[nodiscard]] perlin::lattice& lattice() noexcept { return lattice_; }
  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }
  [[nodiscard]] interpolation interp() const noexcept { return interp_; }
  value_noise& set_interp(interpolation i) noexcept {
    interp_ = i;
    return *this;
  }

  [[nodiscard]] double noise1d(double x) const noexcept;
  [[nodiscard]] double noise2d(double x, double y) const noexcept;
  [[nodiscard]] double noise3d(double x, double y, double z) const noexcept;
  [[nodiscard]] double noise4d(double x, double y, double z, double w) const noexcept;
  [[nodiscard]] float noise1d(float x) const noexcept;
  [[nodiscard]] float noise2d(float x, float y) const noexcept;
  [[nodiscard]] float noise3d(float x, float y, float z) const noexcept;
  [[nodiscard]] float noise4d(float x, float y, float z, float w) const noexcept;

  /// Value and analytic gradient (for linear interpolation, the one-sided gradient of the cell
  /// that contains the point).
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
  using detail::other_coordinate_calls<value_noise>::noise1d;
  using detail::other_coordinate_calls<value_noise>::noise2d;
  using detail::other_coordinate_calls<value_noise>::noise3d;
  using detail::other_coordinate_calls<value_noise>::noise4d;

  /// Any dimension from the size of `p` (1 to 4), as improved_noise::eval.
  [[nodiscard]] double eval(std::span<const double> p, std::span<double> gradient = {}) const;
  [[nodiscard]] float eval(std::span<const float> p, std::span<float> gradient = {}) const;

  friend bool operator==(const value_noise&, const value_noise&) = default;

 private:
  perlin::lattice lattice_;
  interpolation interp_ = interpolation::quintic;
};

}  // namespace perlin
