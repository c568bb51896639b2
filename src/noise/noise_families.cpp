// The noise families' classes (perlin/noise_families.hpp): OpenSimplex2 and OpenSimplex2S,
// cellular noise, libnoise's Voronoi, over the exact cores of src/detail/.
#include "perlin/noise_families.hpp"

#include <array>
#include <cmath>
#include <string>

#include "detail/error.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

constexpr std::array<std::string_view, 8> k_orientation_names = {
    "standard",       "improve-x",      "improve-xy",  "improve-xz",
    "improve-xyz-xy", "improve-xyz-xz", "improve-xyz", "improve-xy-zw"};

template <class E, std::size_t N>
E parse_name(std::string_view option, std::string_view name,
             const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  detail::throw_invalid(std::string(option), unknown_choice(name, names));
}

template <std::size_t N>
std::vector<std::string> names_of(const std::array<std::string_view, N>& names) {
  return {names.begin(), names.end()};
}

constexpr std::array<std::string_view, 4> k_metric_names = {
    detail::k_cellular_distance_names[0], detail::k_cellular_distance_names[1],
    detail::k_cellular_distance_names[2], detail::k_cellular_distance_names[3]};
constexpr std::array<std::string_view, 4> k_output_names = {
    detail::k_cellular_return_names[0], detail::k_cellular_return_names[1],
    detail::k_cellular_return_names[2], detail::k_cellular_return_names[3]};

static_assert(static_cast<int>(detail::cellular_distance::chebyshev) ==
              static_cast<int>(cellular_metric::chebyshev));
static_assert(static_cast<int>(detail::cellular_return::cell_value) ==
              static_cast<int>(cellular_output::cell_value));
static_assert(static_cast<int>(detail::cellular_return::f2_minus_f1) ==
              static_cast<int>(cellular_output::f2_minus_f1));

void check_no_periods(noise_kind k, const lattice& l) { detail::check_noise_periods(k, l); }

}  // namespace

std::string_view to_string(os2_orientation o) noexcept {
  return k_orientation_names[static_cast<std::size_t>(o)];
}
os2_orientation parse_os2_orientation(std::string_view name) {
  return parse_name<os2_orientation>("orientation", name, k_orientation_names);
}
std::vector<std::string> os2_orientation_names() { return names_of(k_orientation_names); }

bool os2_orientation_has(os2_orientation o, std::size_t dims) noexcept {
  return dims >= 2 && dims <= 4 && detail::os2_variant_of(o, static_cast<int>(dims)).second;
}

void check_os2_orientation(os2_orientation o, std::size_t dims) {
  if (os2_orientation_has(o, dims) || dims < 2 || dims > 4) return;
  std::string valid;
  for (std::size_t i = 0; i < k_orientation_names.size(); ++i) {
    if (os2_orientation_has(static_cast<os2_orientation>(i), dims))
      valid += (valid.empty() ? "" : ", ") + std::string(k_orientation_names[i]);
  }
  detail::throw_invalid("orientation", std::string(to_string(o)) + " does not exist in " +
                                           std::to_string(dims) + "-D (" + std::to_string(dims) +
                                           "-D: " + valid + ")");
}

namespace detail {

std::pair<os2_variant, bool> os2_variant_of(os2_orientation o, int dims) noexcept {
  using V = os2_variant;
  using O = os2_orientation;
  switch (dims) {
    case 2:
      if (o == O::standard) return {V::noise2, true};
      if (o == O::improve_x) return {V::noise2_improve_x, true};
      return {V::noise2, false};
    case 3:
      if (o == O::standard) return {V::noise3_fallback, true};
      if (o == O::improve_xy) return {V::noise3_improve_xy, true};
      if (o == O::improve_xz) return {V::noise3_improve_xz, true};
      return {V::noise3_fallback, false};
    case 4:
      switch (o) {
        case O::standard:
          return {V::noise4_fallback, true};
        case O::improve_xyz_xy:
          return {V::noise4_improve_xyz_improve_xy, true};
        case O::improve_xyz_xz:
          return {V::noise4_improve_xyz_improve_xz, true};
        case O::improve_xyz:
          return {V::noise4_improve_xyz, true};
        case O::improve_xy_zw:
          return {V::noise4_improve_xy_improve_zw, true};
        default:
          return {V::noise4_fallback, false};
      }
    default:
      return {V::noise2, false};
  }
}

}  // namespace detail

template <bool Smooth>
basic_opensimplex2<Smooth>::basic_opensimplex2(std::int64_t seed, os2_orientation o,
                                               const perlin::lattice& l)
    : lattice_(l), seed_(seed), orientation_(o) {
  check_no_periods(Smooth ? noise_kind::opensimplex2s : noise_kind::opensimplex2, l);
}

template <bool Smooth>
double basic_opensimplex2<Smooth>::noise(std::span<const double> p) const {
  detail::check_noise_dims(Smooth ? noise_kind::opensimplex2s : noise_kind::opensimplex2, p.size());
  check_os2_orientation(orientation_, p.size());
  const auto [v, valid] = detail::os2_variant_of(orientation_, static_cast<int>(p.size()));
  (void)valid;
  return Smooth ? detail::opensimplex2s(v, seed_, p.data())
                : detail::opensimplex2(v, seed_, p.data());
}

template class basic_opensimplex2<false>;
template class basic_opensimplex2<true>;

std::vector<std::string> cellular_metric_names() { return names_of(k_metric_names); }
std::vector<std::string> cellular_output_names() { return names_of(k_output_names); }
cellular_metric parse_cellular_metric(std::string_view name) {
  return parse_name<cellular_metric>("cellular-distance", name, k_metric_names);
}
cellular_output parse_cellular_output(std::string_view name) {
  return parse_name<cellular_output>("cellular-return", name, k_output_names);
}

cellular_noise::cellular_noise(const perlin::lattice& l, cellular_metric m, cellular_output r,
                               double jitter)
    : lattice_(l), metric_(m), output_(r), jitter_(jitter) {
  if (!(jitter >= 0.0 && jitter <= 1.0)) {
    detail::throw_invalid("cellular-jitter", "must be 0 to 1, got " + detail::number_text(jitter));
  }
}

double cellular_noise::noise(std::span<const double> p) const {
  detail::check_noise_dims(noise_kind::cellular, p.size());
  const detail::cellular_params c{static_cast<detail::cellular_distance>(metric_),
                                  static_cast<detail::cellular_return>(output_), jitter_};
  return detail::cellular(lattice_, c, p.data(), static_cast<int>(p.size()), nullptr);
}

double cellular_noise::bound(std::size_t dims) const noexcept {
  const detail::cellular_params c{static_cast<detail::cellular_distance>(metric_),
                                  static_cast<detail::cellular_return>(output_), jitter_};
  return detail::cellular_bound(c, static_cast<int>(dims));
}

libnoise_voronoi_noise::libnoise_voronoi_noise(std::int64_t seed, double displacement,
                                               bool distance, const perlin::lattice& l)
    : lattice_(l), displacement_(displacement), distance_(distance) {
  if (seed < 0 || seed > 2147483647) {
    detail::throw_invalid("seed",
                          "libnoise-voronoi takes libnoise's int seed, 0 to 2147483647, got " +
                              std::to_string(static_cast<std::uint64_t>(seed)));
  }
  if (!std::isfinite(displacement)) {
    detail::throw_invalid("voronoi-displacement", "must be finite");
  }
  seed_ = static_cast<int>(seed);
  check_no_periods(noise_kind::libnoise_voronoi, l);
}

double libnoise_voronoi_noise::noise(std::span<const double> p) const {
  detail::check_noise_dims(noise_kind::libnoise_voronoi, p.size());
  double x[3] = {0, 0, 0};
  for (std::size_t k = 0; k < p.size(); ++k) x[k] = p[k];
  return detail::libnoise_voronoi(x[0], x[1], x[2], 1.0, seed_, displacement_, distance_);
}

}  // namespace perlin
