// make_field: a field_spec (the option table's options) checked and built. Setting options by
// name is the option table's (option_table.cpp).
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
      .set_decorrelate(s.decorrelate)
      .set_ridged_offset(s.ridged_offset)
      .set_ridged_gain(s.ridged_gain);
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
