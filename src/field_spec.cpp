// make_field: a field_spec (the command line's options) checked and built.
#include "perlin/field_spec.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "perlin/error.hpp"

namespace perlin {

namespace {

std::string quoted(std::string_view v) {
  return "'" + std::string(v.substr(0, 40)) + (v.size() > 40 ? "...'" : "'");
}

template <class T>
T parse_number(std::string_view option, std::string_view v, const char* what) {
  T out{};
  const char* first = v.data();
  const char* last = v.data() + v.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  if (v.empty() || ec != std::errc() || ptr != last) {
    detail::throw_invalid(std::string(option), quoted(v) + " is not " + what);
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(out)) detail::throw_invalid(std::string(option), "must be finite");
  }
  return out;
}

bool parse_flag(std::string_view option, std::string_view v) {
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  detail::throw_invalid(std::string(option), quoted(v) + " is not 1, 0, true or false");
}

}  // namespace

std::uint64_t parse_seed(std::string_view option, std::string_view value) {
  if (!value.empty() && value[0] == '-') {
    detail::throw_invalid(std::string(option), quoted(value) + " is not an integer from 0 to 18446744073709551615");
  }
  return parse_number<std::uint64_t>(option, value, "an integer from 0 to 18446744073709551615");
}

void field_spec::set(std::string_view name, std::string_view value) {
  std::string spelled(name);
  for (char& c : spelled) c = c == '_' ? '-' : c;
  const std::string_view option = spelled;
  if (option == "noise") {
    noise = value;
  } else if (option == "interp") {
    interp = value;
  } else if (option == "seed") {
    seed = parse_seed("seed", value);
  } else if (option == "period") {
    std::vector<std::int64_t> p;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = value.find(',', start);
      p.push_back(parse_number<std::int64_t>(
          "period", value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start),
          "an integer"));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    period = std::move(p);
  } else if (option == "fractal") {
    fractal = value;
  } else if (option == "octaves") {
    octaves = parse_number<int>("octaves", value, "an integer");
  } else if (option == "frequency") {
    frequency = parse_number<double>("frequency", value, "a number");
  } else if (option == "lacunarity") {
    lacunarity = parse_number<double>("lacunarity", value, "a number");
  } else if (option == "persistence" || option == "gain") {
    persistence = parse_number<double>(option, value, "a number");
  } else if (option == "normalize") {
    normalize = parse_flag(option, value);
  } else if (option == "decorrelate") {
    decorrelate = parse_flag(option, value);
  } else if (option == "plane") {
    plane = value;
  } else if (option == "warp") {
    warp = value;
  } else if (option == "warp-amplitude") {
    warp_amplitude = parse_number<double>(option, value, "a number");
  } else if (option == "warp-frequency") {
    warp_frequency = parse_number<double>(option, value, "a number");
  } else if (option == "warp-octaves") {
    warp_octaves = parse_number<int>(option, value, "an integer");
  } else if (option == "warp-seed") {
    warp_seed = parse_seed(option, value);
  } else {
    detail::throw_invalid("option", "unknown option " + quoted(name) +
                                        " (valid: noise, interp, seed, period, fractal, octaves, frequency, "
                                        "lacunarity, persistence, gain, normalize, decorrelate, plane, warp, "
                                        "warp-amplitude, warp-frequency, warp-octaves, warp-seed)");
  }
}

field make_field(const field_spec& s) {
  const noise_kind kind = parse_noise_kind(s.noise);
  const interpolation interp = parse_interpolation(s.interp);
  lattice lat = s.seed ? lattice(*s.seed) : lattice();
  if (s.period.size() > k_max_dims) {
    detail::throw_invalid("period", "at most 4 periods, got " + std::to_string(s.period.size()));
  }
  if (s.period.size() == 1) {
    lat.set_period_all(s.period[0]);
  } else {
    for (std::size_t k = 0; k < s.period.size(); ++k) lat.set_period(k, s.period[k]);
  }
  fractal f;
  f.set_kind(parse_fractal_kind(s.fractal))
      .set_octaves(s.octaves)
      .set_frequency(s.frequency)
      .set_lacunarity(s.lacunarity)
      .set_persistence(s.persistence)
      .set_normalize(s.normalize)
      .set_decorrelate(s.decorrelate);
  const perlin::plane p = parse_plane(s.plane);
  field out = kind == noise_kind::value ? field(value_noise(lat, interp), f) : field(improved_noise(lat), f);
  out.set_plane(p);
  warp w;
  w.set_kind(parse_warp_kind(s.warp))
      .set_amplitude(s.warp_amplitude)
      .set_frequency(s.warp_frequency)
      .set_octaves(s.warp_octaves)
      .set_seed(s.warp_seed);
  out.set_warp(w);
  return out;
}

}  // namespace perlin
