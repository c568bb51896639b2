// The displacement of a domain warp (perlin/warp.hpp), for field::eval.
#pragma once

#include <span>
#include <variant>

#include "perlin/field.hpp"
#include "perlin/lattice.hpp"
#include "perlin/warp.hpp"

namespace perlin::detail {

/// Replaces x (1 to 4 coordinates, D = x.size()) by the warped point of `w` (warp.hpp's formula)
/// over `warp_lattice` with `base`'s kind of noise, for a field of frequency `frequency`. When
/// `jacobian` is not empty (D x D, row-major) it receives d x'_r / d x_c.
template <class T>
void displace(const warp& w, const lattice& warp_lattice, const field::noise_variant& base,
              double frequency, std::span<T> x, std::span<T> jacobian) noexcept;

/// o_ik of warp.hpp's formula: the offset of octave `octave`'s component `component` along
/// `axis` ((4 i + k + 1) h_axis mod 256).
[[nodiscard]] double warp_offset(int octave, std::size_t component, std::size_t axis) noexcept;

/// The warp lattice for a field whose lattice is `field_lattice`: `w`'s own permutation (or the
/// field's) with period P x frequency where the field has period P. Throws
/// perlin::invalid_argument ("warp-frequency: ...") when such a period is not a whole number.
[[nodiscard]] lattice warp_lattice(const warp& w, const lattice& field_lattice);

}  // namespace perlin::detail
