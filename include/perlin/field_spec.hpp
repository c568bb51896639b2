// A field described by the options of the `perlin` command line, by name: the one vocabulary
// that the CLI, the Python package and the other bindings share (docs/cli.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/field.hpp"

namespace perlin {

/// Every option that describes a field, with the command line's names and defaults. Binding
/// code fills it from its own arguments and calls make_field(); every check and every error
/// message comes from the library, so they are the same in every language.
struct field_spec {
  std::string noise = "improved";   ///< improved | value
  std::string interp = "quintic";   ///< linear | cosine | cubic | quintic (value noise)
  std::optional<std::uint64_t> seed;  ///< empty: Ken Perlin's permutation
  /// Tiling periods in lattice cells, 1 to 2^31-1: empty for none, one value for every axis, or
  /// one per axis (up to 4).
  std::vector<std::int64_t> period;
  std::string fractal = "none";     ///< none | fbm | turbulence | ridged | billow
  int octaves = 1;
  double frequency = 1.0;
  double lacunarity = 2.0;
  double persistence = 0.5;         ///< also called gain
  bool normalize = false;
  bool decorrelate = false;
  std::string plane = "aligned";    ///< aligned | rotated (no streaks in 2-D; field.hpp)
  std::string warp = "none";        ///< none | basic | progressive | independent (warp.hpp)
  double warp_amplitude = 1.0;      ///< in cells of the field's first octave
  double warp_frequency = 1.0;      ///< relative to `frequency`
  int warp_octaves = 3;             ///< progressive and independent
  std::optional<std::uint64_t> warp_seed;  ///< empty: the field's permutation

  /// Sets one option from text, by its command-line name without "--" ("_" may stand for "-",
  /// as in Python and Lua: warp_amplitude) and with the command line's syntax (seed "42", period
  /// "16" or "16,8,4", octaves "6", normalize "1" or "0", gain as another name for persistence):
  /// the entry point of the C API and the bindings. Throws
  /// perlin::invalid_argument naming the option; the spec is unchanged then. Names and values
  /// of the enums and ranges are checked by make_field.
  void set(std::string_view option, std::string_view value);
};

/// Builds the field. Throws perlin::invalid_argument naming the option ("octaves: must be 1 to
/// 32, got 0", "period: at most 4 periods, got 5", "noise: unknown kind 'simplex' (valid: ...)").
[[nodiscard]] field make_field(const field_spec& spec);

}  // namespace perlin
