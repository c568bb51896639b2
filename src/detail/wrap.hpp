// Axis wraps (detail::axis_wrap, declared in perlin/lattice.hpp because lattice holds them):
// how a period reduces a lattice index before hashing.
#pragma once

#include <cstdint>

#include "perlin/lattice.hpp"

namespace perlin::detail {

/// The wrap for a period (0 = none); periods are not range checked here. Used by the lattice and
/// by the fractals, whose octave i tiles with period P * lacunarity^i.
[[nodiscard]] axis_wrap make_axis_wrap(std::uint64_t period) noexcept;

}  // namespace perlin::detail
