// A field described by the options of the option table (option_table.hpp), by name: the one
// vocabulary that the CLI, the Python package, the C API and the other bindings share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/field.hpp"

namespace perlin {

/// Every option that describes a field, with the option table's names and defaults (the
/// defaults are written here only; the table reads them). Binding code fills it through set()
/// and calls make_field(); every check and every error message comes from the library, so they
/// are the same in every language.
struct field_spec {
  std::string noise = "improved";               ///< a noise kind's name (noise_kind_names())
  std::string interp = "quintic";               ///< linear | cosine | cubic | quintic (value noise)
  std::string orientation = "standard";         ///< OpenSimplex2's (noise_families.hpp)
  std::string cellular_distance = "euclidean";  ///< cellular noise's metric
  std::string cellular_return = "f1";           ///< f1 | f2 | f2-f1 | cell-value
  double cellular_jitter = 1.0;                 ///< cellular noise: 0 to 1
  double voronoi_displacement = 1.0;            ///< libnoise-voronoi: SetDisplacement
  bool voronoi_distance = false;                ///< libnoise-voronoi: EnableDistance
  std::optional<std::uint64_t> seed;            ///< empty: Ken Perlin's permutation
  /// Tiling periods in lattice cells, 1 to 2^31-1: empty for none, one value for every axis, or
  /// one per axis (up to 4).
  std::vector<std::int64_t> period;
  std::string fractal = "none";  ///< none | fbm | turbulence | ridged | billow | eroded
  int octaves = 1;
  double frequency = 1.0;
  double lacunarity = 2.0;
  double persistence = 0.5;  ///< also called gain
  bool normalize = false;
  bool decorrelate = false;
  double ridged_offset = 1.0;              ///< ridged: s_i = (offset - |n_i|)^2 w_i
  double ridged_gain = 2.0;                ///< ridged: w_{i+1} = clamp(gain s_i, 0, 1)
  double erosion = 1.0;                    ///< eroded: a_i n_i / (1 + erosion |G_i|^2)
  std::string plane = "aligned";           ///< aligned | rotated (no streaks in 2-D; field.hpp)
  std::string warp = "none";               ///< none | basic | progressive | independent (warp.hpp)
  double warp_amplitude = 1.0;             ///< in cells of the field's first octave
  double warp_frequency = 1.0;             ///< relative to `frequency`
  int warp_octaves = 3;                    ///< progressive and independent
  std::optional<std::uint64_t> warp_seed;  ///< empty: the field's permutation

  /// Sets one option from text, by its name in the option table (option_table.hpp; "_" may stand
  /// for "-", as in Python and Lua: warp_amplitude) with the table's syntax (seed "42", period
  /// "16" or "16,8,4", octaves "6", normalize "1" or "0", gain as another name for persistence):
  /// the entry point of the C API and the bindings. Throws perlin::unknown_option for a name
  /// not in the table, perlin::invalid_argument naming the option for a bad value (its type,
  /// range or choices); the spec is unchanged then.
  void set(std::string_view option, std::string_view value);
  /// The option's value as the table's canonical text (option_info::get).
  [[nodiscard]] std::string get(std::string_view option) const;

  friend bool operator==(const field_spec&, const field_spec&) = default;
};

/// Builds the field. Throws perlin::invalid_argument naming the option ("octaves: must be 1 to
/// 32, got 0", "period: at most 4 periods, got 5", "noise: unknown kind 'simplex' (valid: ...)").
[[nodiscard]] field make_field(const field_spec& spec);

}  // namespace perlin
