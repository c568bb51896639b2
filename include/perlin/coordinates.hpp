// Coordinates of any arithmetic type for the single calls: integers (pixel and voxel indices) and
// mixed types go to the double path, so that noise2d(1, 2) or noise3d(i, j, 0.5) just work.
#pragma once

#include <type_traits>

namespace perlin {

/// Arithmetic coordinates that are neither all float nor all double (those have overloads of
/// their own); they are converted to double.
template <class... C>
concept other_coordinates = (std::is_arithmetic_v<C> && ...) &&
                            !((std::is_same_v<C, float> && ...) || (std::is_same_v<C, double> && ...));

}  // namespace perlin
