// The names of the library's enums: one table per enum, and one parser that lists the valid
// names in its message. The CLI's valid lists come from the same tables.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "detail/error.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/field.hpp"
#include "perlin/option_table.hpp"

namespace perlin {

namespace {

template <class E, std::size_t N>
using table = std::array<std::pair<E, std::string_view>, N>;

constexpr table<interpolation, 4> k_interpolations = {{{interpolation::linear, "linear"},
                                                       {interpolation::cosine, "cosine"},
                                                       {interpolation::cubic, "cubic"},
                                                       {interpolation::quintic, "quintic"}}};
constexpr table<fractal_kind, 6> k_fractal_kinds = {{{fractal_kind::none, "none"},
                                                     {fractal_kind::fbm, "fbm"},
                                                     {fractal_kind::turbulence, "turbulence"},
                                                     {fractal_kind::ridged, "ridged"},
                                                     {fractal_kind::billow, "billow"},
                                                     {fractal_kind::eroded, "eroded"}}};
constexpr table<plane, 2> k_planes = {{{plane::aligned, "aligned"}, {plane::rotated, "rotated"}}};
constexpr table<warp_kind, 4> k_warp_kinds = {{{warp_kind::none, "none"},
                                               {warp_kind::basic, "basic"},
                                               {warp_kind::progressive, "progressive"},
                                               {warp_kind::independent, "independent"}}};

template <class E, std::size_t N>
std::string_view name_of(const table<E, N>& t, E e) noexcept {
  for (const auto& [value, name] : t) {
    if (value == e) return name;
  }
  return "?";
}

template <class E, std::size_t N>
std::vector<std::string> names_of(const table<E, N>& t) {
  std::vector<std::string> out;
  for (const auto& entry : t) out.emplace_back(entry.second);
  return out;
}

template <class E, std::size_t N>
E parse(const table<E, N>& t, std::string_view name, const char* parameter, const char* noun) {
  std::vector<std::string_view> valid;
  for (const auto& [value, n] : t) {
    if (n == name) return value;
    valid.push_back(n);
  }
  detail::throw_invalid(parameter, unknown_choice(name, valid, noun));
}

}  // namespace

std::string_view to_string(interpolation i) noexcept { return name_of(k_interpolations, i); }
std::string_view to_string(fractal_kind k) noexcept { return name_of(k_fractal_kinds, k); }
// The noise kinds' names are their rows' (src/noise/noise_kinds.cpp).
std::string_view to_string(noise_kind k) noexcept { return detail::noise_kind_of(k).name; }
std::string_view to_string(plane p) noexcept { return name_of(k_planes, p); }
plane parse_plane(std::string_view name) { return parse(k_planes, name, "plane", "plane"); }
std::vector<std::string> plane_names() { return names_of(k_planes); }
std::string_view to_string(warp_kind k) noexcept { return name_of(k_warp_kinds, k); }
warp_kind parse_warp_kind(std::string_view name) {
  return parse(k_warp_kinds, name, "warp", "kind");
}
std::vector<std::string> warp_kind_names() { return names_of(k_warp_kinds); }

interpolation parse_interpolation(std::string_view name) {
  return parse(k_interpolations, name, "interpolation", "name");
}
fractal_kind parse_fractal_kind(std::string_view name) {
  return parse(k_fractal_kinds, name, "fractal", "kind");
}
noise_kind parse_noise_kind(std::string_view name) {
  std::vector<std::string_view> valid;
  for (const auto& row : detail::noise_kind_rows()) {
    if (row.name == name) return row.kind;
    valid.push_back(row.name);
  }
  detail::throw_invalid("noise", unknown_choice(name, valid, "kind"));
}

std::vector<std::string> interpolation_names() { return names_of(k_interpolations); }
std::vector<std::string> fractal_kind_names() { return names_of(k_fractal_kinds); }
std::vector<std::string> noise_kind_names() {
  std::vector<std::string> out;
  for (const auto& row : detail::noise_kind_rows()) out.emplace_back(row.name);
  return out;
}

}  // namespace perlin
