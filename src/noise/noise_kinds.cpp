// The noise kinds, one row each (detail/noise_kinds.hpp says what a row holds and what adding a
// kind touches).
#include "detail/noise_kinds.hpp"

#include <array>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"
#include "perlin/range.hpp"

namespace perlin {

simplex_noise::simplex_noise(const perlin::lattice& l) : lattice_(l) {
  detail::check_noise_periods(noise_kind::simplex, l);
}

double simplex_noise::noise2d(double x, double y) const noexcept {
  return detail::simplex2(lattice_.perm(), x, y);
}
double simplex_noise::noise3d(double x, double y, double z) const noexcept {
  return detail::simplex3(lattice_.perm(), x, y, z);
}
double simplex_noise::noise4d(double x, double y, double z, double w) const noexcept {
  return detail::simplex4(lattice_.perm(), x, y, z, w);
}

namespace detail {

namespace {

double value_bound(std::size_t) { return 1.0; }

// Gustavson's stated range [-1, 1]. The largest |value| a search found on Ken Perlin's
// permutation is below it in every dimension (0.99789 in 2-D, 0.97872 in 3-D, 0.99171 in 4-D:
// simplex.hpp); a seeded permutation puts other gradients side by side, so the bound is the
// stated one, not the searched maxima (tests/noise_kinds_test.cpp searches seeded fields too).
double simplex_bound(std::size_t) { return 1.0; }

field::noise_variant make_improved(const lattice& l, const field_spec&) {
  return improved_noise(l);
}
field::noise_variant make_value(const lattice& l, const field_spec& s) {
  return value_noise(l, parse_interpolation(s.interp));
}
field::noise_variant make_simplex(const lattice& l, const field_spec&) { return simplex_noise(l); }

const std::array<noise_kind_row, 3> k_rows = {{
    {.kind = noise_kind::improved,
     .name = "improved",
     .help = "improved (Ken Perlin 2002)",
     .bound = improved_bound,
     .make = make_improved,
     .simd = true,
     .shader = true},
    {.kind = noise_kind::value,
     .name = "value",
     .help = "value",
     .bound = value_bound,
     .make = make_value,
     .simd = true,
     .shader = true},
    {.kind = noise_kind::simplex,
     .name = "simplex",
     .help = "simplex (Stefan Gustavson's 2012 code, 2-D to 4-D)",
     .min_dims = 2,
     .max_dims = 4,
     .dims_reason = "Gustavson's simplex noise is defined in 2-D, 3-D and 4-D only",
     .no_periods = "the simplex lattice is skewed, so it does not tile on the square grid of "
                   "periods (remove --period)",
     .bound = simplex_bound,
     .make = make_simplex,
     .no_shader = "simplex noise has no shader emitter yet (the CPU paths compute it)"},
}};

}  // namespace

const noise_kind_row& noise_kind_of(noise_kind k) noexcept {
  return k_rows[static_cast<std::size_t>(k)];
}

std::span<const noise_kind_row> noise_kind_rows() noexcept { return k_rows; }

void check_noise_dims(noise_kind k, std::size_t dims) {
  const noise_kind_row& r = noise_kind_of(k);
  if (dims >= r.min_dims && dims <= r.max_dims) return;
  throw_invalid("noise", std::string(r.name) + " noise takes " + std::to_string(r.min_dims) +
                             " to " + std::to_string(r.max_dims) + " coordinates, got " +
                             std::to_string(dims) + ": " + std::string(r.dims_reason));
}

void check_noise_periods(noise_kind k, const lattice& l) {
  const noise_kind_row& r = noise_kind_of(k);
  if (r.no_periods.empty()) return;
  for (std::size_t a = 0; a < k_max_dims; ++a) {
    if (l.period(a) != 0) {
      throw_invalid("period",
                    std::string(r.name) + " noise has no periods: " + std::string(r.no_periods));
    }
  }
}

}  // namespace detail

// The rows are in the order of the enum and of field::noise_variant's alternatives.
static_assert(std::is_same_v<std::variant_alternative_t<0, field::noise_variant>, improved_noise>);
static_assert(std::is_same_v<std::variant_alternative_t<1, field::noise_variant>, value_noise>);
static_assert(std::is_same_v<std::variant_alternative_t<2, field::noise_variant>, simplex_noise>);
static_assert(std::variant_size_v<field::noise_variant> == 3);

}  // namespace perlin
