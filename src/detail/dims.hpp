// Runs a dimension-templated callable for a point of 1 to 4 coordinates: the one place where a
// runtime point size becomes a compile-time dimension (and where bad sizes are rejected).
#pragma once

#include <span>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/lattice.hpp"

namespace perlin::detail {

/// Calls f.template operator()<D>(coordinates, gradient or nullptr) with D = p.size().
/// Throws perlin::invalid_argument unless 1 <= p.size() <= 4 and `gradient` is empty or as long.
template <class T, class F>
T dispatch_dims(std::span<const T> p, std::span<T> gradient, F&& f) {
  if (p.empty() || p.size() > k_max_dims) {
    throw_size("point", "must have 1 to 4 coordinates, got " + std::to_string(p.size()));
  }
  if (!gradient.empty() && gradient.size() != p.size()) {
    throw_size("gradient", "must be empty or hold one value per coordinate");
  }
  T* g = gradient.empty() ? nullptr : gradient.data();
  switch (p.size()) {
    case 1:
      return f.template operator()<1>(p.data(), g);
    case 2:
      return f.template operator()<2>(p.data(), g);
    case 3:
      return f.template operator()<3>(p.data(), g);
    default:
      return f.template operator()<4>(p.data(), g);
  }
}

}  // namespace perlin::detail
