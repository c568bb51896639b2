// The permutation table (Ken Perlin's, or seeded) and the tiling periods.
#include "perlin/lattice.hpp"

#include <string>

#include "detail/error.hpp"
#include "detail/splitmix64.hpp"
#include "detail/wrap.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace {

// Ken Perlin, "Improving Noise", SIGGRAPH 2002: the permutation of his reference implementation.
constexpr std::array<std::uint8_t, 256> k_perlin_table = {
    151, 160, 137, 91,  90,  15,  131, 13,  201, 95,  96,  53,  194, 233, 7,   225, 140, 36,  103,
    30,  69,  142, 8,   99,  37,  240, 21,  10,  23,  190, 6,   148, 247, 120, 234, 75,  0,   26,
    197, 62,  94,  252, 219, 203, 117, 35,  11,  32,  57,  177, 33,  88,  237, 149, 56,  87,  174,
    20,  125, 136, 171, 168, 68,  175, 74,  165, 71,  134, 139, 48,  27,  166, 77,  146, 158, 231,
    83,  111, 229, 122, 60,  211, 133, 230, 220, 105, 92,  41,  55,  46,  245, 40,  244, 102, 143,
    54,  65,  25,  63,  161, 1,   216, 80,  73,  209, 76,  132, 187, 208, 89,  18,  169, 200, 196,
    135, 130, 116, 188, 159, 86,  164, 100, 109, 198, 173, 186, 3,   64,  52,  217, 226, 250, 124,
    123, 5,   202, 38,  147, 118, 126, 255, 82,  85,  212, 207, 206, 59,  227, 47,  16,  58,  17,
    182, 189, 28,  42,  223, 183, 170, 213, 119, 248, 152, 2,   44,  154, 163, 70,  221, 153, 101,
    155, 167, 43,  172, 9,   129, 22,  39,  253, 19,  98,  108, 110, 79,  113, 224, 232, 178, 185,
    112, 104, 218, 246, 97,  228, 251, 34,  242, 193, 238, 210, 144, 12,  191, 179, 162, 241, 81,
    51,  145, 235, 249, 14,  239, 107, 49,  192, 214, 31,  181, 199, 106, 157, 184, 84,  204, 176,
    115, 121, 50,  45,  127, 4,   150, 254, 138, 236, 205, 93,  222, 114, 67,  29,  24,  72,  243,
    141, 128, 195, 78,  66,  215, 61,  156, 180};

}  // namespace

permutation::permutation() noexcept {
  for (std::size_t i = 0; i < 256; ++i) p_[i] = p_[i + 256] = k_perlin_table[i];
}

permutation::permutation(std::uint64_t seed) noexcept : seed_(seed) {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t i = 0; i < 256; ++i) t[i] = static_cast<std::uint8_t>(i);
  detail::splitmix64 rng(seed);
  // Fisher-Yates, from the last element down: swap t[i] with t[j], j uniform in [0, i].
  for (std::size_t i = 255; i > 0; --i) {
    const auto j = static_cast<std::size_t>(rng.below(i + 1));
    std::swap(t[i], t[j]);
  }
  for (std::size_t i = 0; i < 256; ++i) p_[i] = p_[i + 256] = t[i];
}

detail::axis_wrap detail::make_axis_wrap(std::uint64_t period) noexcept {
  axis_wrap w;
  w.period = period;
  if (period == 0) return w;  // mask 255: the table's own period
  if ((period & (period - 1)) == 0) {
    w.mask = period >= 256 ? 255u : static_cast<std::uint32_t>(period - 1);
  } else {
    w.mask = 0;
    w.modulo = true;
  }
  return w;
}

namespace {
void check_axis(std::size_t axis) {
  if (axis >= k_max_dims) {
    detail::throw_invalid("axis", "must be 0 to 3, got " + std::to_string(axis));
  }
}
}  // namespace

lattice& lattice::set_period(std::size_t axis, std::int64_t period) {
  check_axis(axis);
  if (period < 1 || period > k_max_period) {
    detail::throw_invalid("period",
                          "must be an integer from 1 to 2147483647, got " + std::to_string(period));
  }
  wrap_[axis] = detail::make_axis_wrap(static_cast<std::uint64_t>(period));
  return *this;
}

lattice& lattice::set_period_all(std::int64_t period) {
  for (std::size_t k = 0; k < k_max_dims; ++k) set_period(k, period);
  return *this;
}

lattice& lattice::clear_period(std::size_t axis) {
  check_axis(axis);
  wrap_[axis] = detail::axis_wrap{};
  return *this;
}

std::int64_t lattice::period(std::size_t axis) const {
  check_axis(axis);
  return static_cast<std::int64_t>(wrap_[axis].period);
}

}  // namespace perlin
