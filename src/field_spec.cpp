// make_field: a field_spec (the command line's options) checked and built.
#include "perlin/field_spec.hpp"

#include <string>

#include "perlin/error.hpp"

namespace perlin {

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
  if (kind == noise_kind::value) return {value_noise(lat, interp), f};
  return {improved_noise(lat), f};
}

}  // namespace perlin
