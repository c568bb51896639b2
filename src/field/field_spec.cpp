// make_field: a field_spec (the option table's options) checked and built. Setting options by
// name is the option table's (option_table.cpp).
#include "perlin/field_spec.hpp"

#include <cstdio>
#include <limits>
#include <string>

#include "detail/error.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// One rule for every front: the coordinates a field can be asked for are |x| <= 2^52 (what
/// `perlin eval` accepts, and what a render's pixel grid may reach), and no octave of the warp or
/// of the fractal may take such a coordinate, displaced by the warp, beyond the largest double:
/// there the field would be NaN. Refused with the option that completes the overflow.
void check_domain(const field& f, const field_spec& s) {
  constexpr double k_coordinates = k_max_coordinate;
  constexpr double k_limit = std::numeric_limits<double>::max() / 4;
  const fractal& fr = f.fractal();
  // The warp moves a point by at most (A / f) sum_i a_i |n_i| <= 4 A / f per axis (|n| <= 2).
  const double reach =
      f.warped() ? k_coordinates + 4 * f.warp().amplitude() / fr.frequency() : k_coordinates;
  if (!(reach <= k_limit)) {
    detail::throw_invalid("warp-amplitude", "the warped coordinates overflow (amplitude " +
                                                num(f.warp().amplitude()) + " cells at frequency " +
                                                num(fr.frequency()) + ")");
  }
  if (f.warped()) {
    double u = fr.frequency() * f.warp().frequency();
    for (int i = 0; i < f.warp().active_octaves(); ++i, u *= 2) {
      if (!(reach * u <= k_limit)) {
        // Name what makes it overflow: the displacement, or the warp's frequencies alone.
        const char* option = k_coordinates * u <= k_limit ? "warp-amplitude"
                             : s.warp_frequency != 1.0    ? "warp-frequency"
                                                          : "frequency";
        detail::throw_invalid(
            option, "warp octave " + std::to_string(i) + " would sample coordinates up to " +
                        num(reach) + " at " + num(u) +
                        " cells a unit, beyond the largest double (warp amplitude " +
                        num(f.warp().amplitude()) + ")");
      }
    }
  }
  double freq = fr.frequency();
  for (int i = 0; i < fr.active_octaves(); ++i, freq *= fr.lacunarity()) {
    if (!(reach * freq <= k_limit)) {
      detail::throw_invalid(k_coordinates * freq <= k_limit ? "warp-amplitude"
                            : i == 0                        ? "frequency"
                                                            : "lacunarity",
                            "octave " + std::to_string(i) + " would sample coordinates up to " +
                                num(reach) + " at frequency " + num(freq) +
                                ", beyond the largest double (frequency " + num(fr.frequency()) +
                                ", lacunarity " + num(fr.lacunarity()) + ", " +
                                std::to_string(fr.active_octaves()) + " octaves)");
    }
  }
}

}  // namespace

field make_field(const field_spec& s) {
  const noise_kind kind = parse_noise_kind(s.noise);
  (void)parse_interpolation(s.interp);  // checked for every kind, before the others (row.make)
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
      .set_ridged_gain(s.ridged_gain)
      .set_erosion(s.erosion);
  const perlin::plane p = parse_plane(s.plane);
  const detail::noise_kind_row& row = detail::noise_kind_of(kind);
  detail::check_noise_periods(kind, lat);
  field out(row.make(lat, s), f);
  out.set_plane(p);
  warp w;
  w.set_kind(parse_warp_kind(s.warp))
      .set_amplitude(s.warp_amplitude)
      .set_frequency(s.warp_frequency)
      .set_octaves(s.warp_octaves)
      .set_seed(s.warp_seed);
  out.set_warp(w);
  check_domain(out, s);
  return out;
}

}  // namespace perlin
