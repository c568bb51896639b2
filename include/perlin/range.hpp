// The true output ranges of the noises, and the helper that maps a value to [0, 1].
#pragma once

#include <cstddef>

namespace perlin {

/// Largest value of 3-D improved noise with Ken Perlin's permutation, found by local
/// maximisation from a dense grid of starts: +1.036353811212 near (12.355, 187.519, 5.5).
inline constexpr double k_perlin_table_max_3d = 1.036353811212;
/// Smallest value of 3-D improved noise with Ken Perlin's permutation, about -1.0266.
inline constexpr double k_perlin_table_min_3d = -1.0266;

/// A bound B with |noise(p)| <= B for improved noise of `dims` dimensions (1 to 4) and every
/// permutation, so for every seed: 1-D 0.5, 2-D 1.0, 3-D 1.0364 (1.036353811212 rounded up),
/// 4-D 1.5366 (1.536582334 rounded up). Each is the maximum over the cell of the fade-weighted sum
/// in which every corner takes its most favourable gradient (docs/ranges.md); the lower bound is
/// its negative. Value noise is always within [-1, 1].
/// Throws perlin::invalid_argument for other `dims`.
[[nodiscard]] double improved_bound(std::size_t dims);

/// Maps a noise value to [0, 1] as (v + 1) / 2, the usual convention of noise snippets. Only values
/// in
/// [-1, 1] land in [0, 1]: improved 3-D noise exceeds 1 by up to 3.7% (see
/// k_perlin_table_max_3d), so the result can leave [0, 1] slightly; clamp it if that matters.
[[nodiscard]] constexpr double to_unit(double v) noexcept { return (v + 1.0) * 0.5; }

/// Maps v from [lo, hi] to [0, 1] and clamps: the mapping the renderer uses. NaN maps to 0, so
/// what the caller turns into an integer is always in [0, 1].
[[nodiscard]] constexpr double to_unit(double v, double lo, double hi) noexcept {
  const double t = (v - lo) / (hi - lo);
  return t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;
}

}  // namespace perlin
