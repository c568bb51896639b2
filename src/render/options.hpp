// The noise and fractal options of `perlin eval` and `perlin render` as text, their parsers, and
// how they build a perlin::field (through perlin::field_spec).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "perlin/field.hpp"

namespace perlin_render {

/// A usage error found after parsing (a bad combination or value): exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct noise_options {
  std::string noise = "improved";
  std::string interp = "quintic";
  std::string seed;  // decimal 0 to 2^64-1; empty: Ken Perlin's table
  std::string period;  // "P" or "P,P[,P[,P]]"
  std::string fractal = "none";
  int octaves = 1;
  double frequency = 1.0;
  double lacunarity = 2.0;
  double persistence = 0.5;
  bool normalize = false;
  bool decorrelate = false;
  std::string plane = "aligned";
  std::string warp = "none";
  double warp_amplitude = 1.0;
  double warp_frequency = 1.0;
  int warp_octaves = 3;
  std::string warp_seed;  // decimal 0 to 2^64-1; empty: the field's permutation
};

/// The noise options that change nothing with these settings (fractal options without a
/// fractal, --interp on improved noise, warp options without a warp ...), as warnings for the
/// user. `given` tells whether an option ("--octaves") was on the command line.
[[nodiscard]] std::vector<std::string> unused_noise_options(const noise_options& o,
                                                            const std::function<bool(const char*)>& given);

/// Parses a comma-separated list of 1 to `max` numbers for `option`; throws usage_error.
[[nodiscard]] std::vector<double> parse_list(const std::string& text, const std::string& option,
                                             std::size_t min, std::size_t max);

/// Parses --period: one integer, or a comma-separated list of 1 to 4; throws usage_error (the
/// range 1 to 2^31-1 is checked by the library).
[[nodiscard]] std::vector<std::int64_t> parse_periods(const std::string& text);

/// Builds the field; a perlin::invalid_argument from the library names the bad option.
[[nodiscard]] perlin::field make_field(const noise_options& o);

}  // namespace perlin_render
