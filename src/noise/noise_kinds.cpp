// The noise kinds, one row each (noise/noise_kinds.hpp says what a row holds and what adding a
// kind touches).
#include "noise/noise_kinds.hpp"

#include <array>
#include <cmath>
#include <string>
#include <type_traits>

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

double improved_bound_of(const field::noise_variant&, std::size_t dims) {
  return improved_bound(dims);
}
double value_bound(const field::noise_variant&, std::size_t) { return 1.0; }

// The largest |value| over every permutation, rounded up (docs/ranges.md): each corner's kernel
// times the best of its gradient set's dot products, maximised by a search, is 0.99788935 (2-D),
// 0.97871640 (3-D), 0.99171065 (4-D), the maxima the search on Ken Perlin's table found too
// (simplex.hpp), inside Gustavson's stated [-1, 1].
double simplex_bound(const field::noise_variant&, std::size_t dims) {
  return dims == 2 ? 0.9979 : dims == 3 ? 0.9788 : 0.9918;
}

// OpenSimplex2: the largest |value| a search found is 1 + 1.9e-6 (opensimplex2.hpp, by
// dimension and family); the working bound 1 + 1e-5 leaves room for what the search missed.
double opensimplex2_bound(const field::noise_variant&, std::size_t) { return 1.0 + 1e-5; }

double cellular_bound_of(const field::noise_variant& n, std::size_t dims) {
  return std::get<cellular_noise>(n).bound(dims);
}
bool cellular_nonnegative(const field::noise_variant& n) {
  return std::get<cellular_noise>(n).output() != cellular_output::cell_value;  // distances >= 0
}

// |displacement| x ValueNoise3D's (-1, 3], plus sqrt(3) d - 1 with the distance: the nearest seed
// point is no farther than the own cube's, whose offsets lie in (-1, 3] per axis from a corner
// within 1 of the point, so d < 3 sqrt(3) and sqrt(3) d - 1 < 8 (and >= -1).
double libnoise_voronoi_bound(const field::noise_variant& n, std::size_t) {
  const auto& v = std::get<libnoise_voronoi_noise>(n);
  return 3.0 * std::abs(v.displacement()) + (v.distance() ? 8.0 : 0.0);
}

std::int64_t java_seed(const field_spec& s) {
  return s.seed ? static_cast<std::int64_t>(*s.seed) : 0;  // two's complement
}
field::noise_variant make_opensimplex2(const lattice& l, const field_spec& s) {
  return opensimplex2_noise(java_seed(s), parse_os2_orientation(s.orientation), l);
}
field::noise_variant make_opensimplex2s(const lattice& l, const field_spec& s) {
  return opensimplex2s_noise(java_seed(s), parse_os2_orientation(s.orientation), l);
}
field::noise_variant make_cellular(const lattice& l, const field_spec& s) {
  return cellular_noise(l, parse_cellular_metric(s.cellular_distance),
                        parse_cellular_output(s.cellular_return), s.cellular_jitter);
}
field::noise_variant make_libnoise_voronoi(const lattice& l, const field_spec& s) {
  return libnoise_voronoi_noise(java_seed(s), s.voronoi_displacement, s.voronoi_distance, l);
}

void check_orientation(const field::noise_variant& n, std::size_t dims) {
  std::visit(
      [&](const auto& noise) {
        using N = std::decay_t<decltype(noise)>;
        if constexpr (std::is_same_v<N, opensimplex2_noise> ||
                      std::is_same_v<N, opensimplex2s_noise>) {
          check_os2_orientation(noise.orientation(), dims);
        }
      },
      n);
}

constexpr std::string_view k_os2_no_periods =
    "OpenSimplex2's lattice is skewed and hashed by its seed, so it does not tile on the square "
    "grid of periods (remove --period)";
constexpr std::string_view k_os2_no_rotated =
    "OpenSimplex2 turns its lattice itself: choose --orientation instead (improve-xy or "
    "improve-xz in 3-D, improve-xyz-xy, improve-xyz-xz, improve-xyz or improve-xy-zw in 4-D)";
constexpr std::string_view k_os2_dims =
    "KdotJPG's OpenSimplex2 is defined in 2-D, 3-D and 4-D only";
constexpr std::string_view k_no_hessian_os2 =
    "the eroded fractal needs the noise's Hessian, which OpenSimplex2 does not have here (use "
    "fbm, turbulence, ridged or billow)";
constexpr std::string_view k_no_shader_family =
    "this noise has no shader emitter yet (the CPU paths compute it)";

field::noise_variant make_improved(const lattice& l, const field_spec&) {
  return improved_noise(l);
}
field::noise_variant make_value(const lattice& l, const field_spec& s) {
  return value_noise(l, parse_interpolation(s.interp));
}
field::noise_variant make_simplex(const lattice& l, const field_spec&) { return simplex_noise(l); }

const std::array<noise_kind_row, 7> k_rows = {{
    {.kind = noise_kind::improved,
     .name = "improved",
     .help = "improved (Ken Perlin 2002)",
     .bound = improved_bound_of,
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
     .shader = true},
    {.kind = noise_kind::opensimplex2,
     .name = "opensimplex2",
     .help = "opensimplex2 (KdotJPG's OpenSimplex2, 2-D to 4-D, --orientation)",
     .min_dims = 2,
     .max_dims = 4,
     .dims_reason = k_os2_dims,
     .no_periods = k_os2_no_periods,
     .no_rotated = k_os2_no_rotated,
     .bound = opensimplex2_bound,
     .no_eroded = k_no_hessian_os2,
     .check_dims = check_orientation,
     .make = make_opensimplex2,
     .no_shader = k_no_shader_family},
    {.kind = noise_kind::opensimplex2s,
     .name = "opensimplex2s",
     .help = "opensimplex2s (KdotJPG's OpenSimplex2S, smooth)",
     .min_dims = 2,
     .max_dims = 4,
     .dims_reason = k_os2_dims,
     .no_periods = k_os2_no_periods,
     .no_rotated = k_os2_no_rotated,
     .bound = opensimplex2_bound,
     .no_eroded = k_no_hessian_os2,
     .check_dims = check_orientation,
     .make = make_opensimplex2s,
     .no_shader = k_no_shader_family},
    {.kind = noise_kind::cellular,
     .name = "cellular",
     .help = "cellular (Worley, 1-D to 4-D, --cellular-distance, --cellular-return)",
     .bound = cellular_bound_of,
     .nonnegative = cellular_nonnegative,
     .no_eroded = "the eroded fractal needs the noise's Hessian, which cellular noise does not "
                  "have here (use fbm, turbulence, ridged or billow)",
     .make = make_cellular,
     .no_shader = k_no_shader_family},
    {.kind = noise_kind::libnoise_voronoi,
     .name = "libnoise-voronoi",
     .help = "libnoise-voronoi (libnoise's Voronoi module, 1-D to 3-D)",
     .min_dims = 1,
     .max_dims = 3,
     .dims_reason = "libnoise's Voronoi module is 3-D (fewer coordinates are completed with 0)",
     .no_periods = "libnoise's Voronoi module has no periods (remove --period)",
     .bound = libnoise_voronoi_bound,
     .no_eroded = "the eroded fractal needs the noise's Hessian, which libnoise's Voronoi module "
                  "does not have (use fbm, turbulence, ridged or billow)",
     .make = make_libnoise_voronoi,
     .no_shader = k_no_shader_family},
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

void check_noise_fractal(noise_kind k, fractal_kind f) {
  const noise_kind_row& r = noise_kind_of(k);
  if (f != fractal_kind::eroded || r.no_eroded.empty()) return;
  throw_invalid("fractal", "eroded does not apply to " + std::string(r.name) +
                               " noise: " + std::string(r.no_eroded));
}

}  // namespace detail

// The rows are in the order of the enum and of field::noise_variant's alternatives.
static_assert(std::is_same_v<std::variant_alternative_t<0, field::noise_variant>, improved_noise>);
static_assert(std::is_same_v<std::variant_alternative_t<1, field::noise_variant>, value_noise>);
static_assert(std::is_same_v<std::variant_alternative_t<2, field::noise_variant>, simplex_noise>);
static_assert(
    std::is_same_v<std::variant_alternative_t<3, field::noise_variant>, opensimplex2_noise>);
static_assert(
    std::is_same_v<std::variant_alternative_t<4, field::noise_variant>, opensimplex2s_noise>);
static_assert(std::is_same_v<std::variant_alternative_t<5, field::noise_variant>, cellular_noise>);
static_assert(
    std::is_same_v<std::variant_alternative_t<6, field::noise_variant>, libnoise_voronoi_noise>);
static_assert(std::variant_size_v<field::noise_variant> == 7);

}  // namespace perlin
