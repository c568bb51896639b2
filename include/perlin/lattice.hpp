// The integer lattice shared by every noise: the seeded permutation table and the tiling periods.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace perlin {

/// Largest tiling period accepted on one axis: 2^31 - 1.
inline constexpr std::int64_t k_max_period = 2147483647;

/// Number of axes the library supports (1-D to 4-D).
inline constexpr std::size_t k_max_dims = 4;
/// The coordinates every front accepts: |x| <= 2^52 (past it doubles are integers, lattice
/// points, where the noise says nothing). eval refuses points beyond it, renders and grids
/// samples beyond it, and make_field fields whose octaves would overflow within it.
inline constexpr double k_max_coordinate = 4503599627370496.0;  // 2^52

/// A permutation of 0..255, stored twice (512 bytes) so that `p[p[x] + y]` never needs a wrap.
///
/// The default is Ken Perlin's own table from "Improving Noise" (SIGGRAPH 2002). A 64-bit seed
/// builds another one with the algorithm specified in docs/seeding.md (SplitMix64 feeding an
/// unbiased Fisher-Yates shuffle), which gives the same table on every platform.
/// A small value type: copying it copies 512 bytes. Thread safe for concurrent reads.
class permutation {
 public:
  /// Ken Perlin's reference permutation.
  permutation() noexcept;
  /// The permutation built from `seed` (docs/seeding.md). Every seed, 0 included, is valid.
  explicit permutation(std::uint64_t seed) noexcept;

  /// Entry `i` of the doubled table, 0 <= i < 512; the value is in [0, 255].
  [[nodiscard]] std::uint8_t operator[](std::size_t i) const noexcept { return p_[i]; }
  /// The doubled table, 512 entries.
  [[nodiscard]] const std::uint8_t* data() const noexcept { return p_.data(); }
  /// The seed it was built from; empty for Ken Perlin's table.
  [[nodiscard]] std::optional<std::uint64_t> seed() const noexcept { return seed_; }

  friend bool operator==(const permutation&, const permutation&) = default;

 private:
  std::array<std::uint8_t, 512> p_{};
  std::optional<std::uint64_t> seed_;
};

class lattice;

namespace detail {
/// How one axis wraps: the lattice index is reduced modulo `period` before hashing.
/// `period == 0` means no period of its own (the table itself repeats every 256 cells).
/// The library's internal representation (src/detail/wrap.hpp reads it), declared here only
/// because lattice holds it.
struct axis_wrap {
  std::uint64_t period = 0;
  /// Non-zero when the reduction is a bit mask: `(i & mask)` gives the hashed index.
  /// 255 for no period and for power-of-two periods >= 256; P-1 for smaller powers of two.
  std::uint32_t mask = 255;
  /// True when the mask cannot express the period and a modulo is needed.
  bool modulo = false;

  friend bool operator==(const axis_wrap&, const axis_wrap&) = default;
};
const std::array<axis_wrap, k_max_dims>& wraps_of(const lattice& l) noexcept;
}  // namespace detail

/// The lattice of a noise: its permutation and its tiling period per axis.
/// A small value type (about 600 bytes), cheap to copy, thread safe for concurrent reads.
class lattice {
 public:
  /// Ken Perlin's permutation, no periods.
  lattice() noexcept = default;
  /// The permutation of `seed`, no periods.
  explicit lattice(std::uint64_t seed) noexcept : perm_(seed) {}

  /// Makes the noise repeat every `period` lattice cells along `axis` (0 = x ... 3 = w):
  /// noise(x + k*period) == noise(x) exactly whenever both coordinates are exact doubles.
  /// Throws perlin::invalid_argument unless axis < 4 and 1 <= period <= 2^31 - 1.
  lattice& set_period(std::size_t axis, std::int64_t period);
  /// The same period on every axis.
  lattice& set_period_all(std::int64_t period);
  /// Removes the period of `axis` (the field then repeats every 256 cells, as Ken Perlin's does).
  lattice& clear_period(std::size_t axis);
  /// The period of `axis`, 0 when none is set.
  [[nodiscard]] std::int64_t period(std::size_t axis) const;

  [[nodiscard]] const permutation& perm() const noexcept { return perm_; }

  friend bool operator==(const lattice&, const lattice&) = default;

 private:
  friend const std::array<detail::axis_wrap, k_max_dims>& detail::wraps_of(const lattice&) noexcept;
  permutation perm_;
  std::array<detail::axis_wrap, k_max_dims> wrap_{};
};

namespace detail {
/// The wraps of the lattice's axes (the library's kernels read them).
inline const std::array<axis_wrap, k_max_dims>& wraps_of(const lattice& l) noexcept {
  return l.wrap_;
}
}  // namespace detail

}  // namespace perlin
