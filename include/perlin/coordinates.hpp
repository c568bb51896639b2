// Coordinates of any arithmetic type for the single calls: integers (pixel and voxel indices) and
// mixed types go to the double path, so that noise2d(1, 2) or noise3d(i, j, 0.5) just work.
#pragma once

#include <type_traits>

namespace perlin {

/// Arithmetic coordinates that are neither all float nor all double (those have overloads of
/// their own); they are converted to double.
template <class... C>
concept other_coordinates = (std::is_arithmetic_v<C> && ...) &&
                            !((std::is_same_v<C, float> && ...) ||
                              (std::is_same_v<C, double> && ...));

namespace detail {
/// The integer and mixed coordinate overloads of a noise class (improved_noise, value_noise),
/// written once: each converts to double and calls the class's own double overload. The class
/// brings them in with `using`, since its own overloads would hide them.
template <class Noise>
struct other_coordinate_calls {
  template <class X>
  requires other_coordinates<X>
  [[nodiscard]] double noise1d(X x) const noexcept { return self().noise1d(double(x)); }

  friend bool operator==(const other_coordinate_calls&, const other_coordinate_calls&) = default;
  template <class X, class Y>
  requires other_coordinates<X, Y>
  [[nodiscard]] double noise2d(X x, Y y) const noexcept {
    return self().noise2d(double(x), double(y));
  }
  template <class X, class Y, class Z>
  requires other_coordinates<X, Y, Z>
  [[nodiscard]] double noise3d(X x, Y y, Z z) const noexcept {
    return self().noise3d(double(x), double(y), double(z));
  }
  template <class X, class Y, class Z, class W>
  requires other_coordinates<X, Y, Z, W>
  [[nodiscard]] double noise4d(X x, Y y, Z z, W w) const noexcept {
    return self().noise4d(double(x), double(y), double(z), double(w));
  }

 private:
  const Noise& self() const noexcept { return static_cast<const Noise&>(*this); }
};
}  // namespace detail

}  // namespace perlin
