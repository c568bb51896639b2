// The constants a field's shader bakes in (shader_source, shader.hpp), as data: the permutation,
// the gradients or value levels, and per octave the frequency, amplitude, offsets and wraps, the
// domain warp's and the split form's (shader/tables.cpp). The emitter (shader/emitter.hpp) writes
// each row as one global constant table and reads the sizes it loops over from here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "perlin/field.hpp"

namespace perlin::detail {

/// One global constant table: `ints` (the int type) or `reals` (the real type), by `integer`;
/// `own_line`: its entries start on the line after the opening (the long tables).
struct shader_table {
  std::string name;
  bool integer = true;
  std::vector<int> ints;
  std::vector<double> reals;
  bool own_line = false;
};

/// Everything the shader of a field reads as data, computed by the scalar path's own octave walk
/// (detail/octaves.hpp), so that the double shader gives the C++ double path's values.
struct shader_tables {
  /// The rotated plane (detail::rotated) turns the caller's first three axes, for 2-D and up.
  bool rotated = false;
  /// L: the lattice's dimensions, the caller's `dims` or 3 for a rotated 2-D plane.
  std::size_t lattice_dims = 3;
  int octaves = 0;
  int warp_octaves = 0;  ///< 0: no domain warp
  /// Why perlin_field_split cannot be written for the field, or empty when it can.
  std::string no_split;
  /// perlin_field_split is asked for and can be written: its tables are among the rows.
  bool split = false;
  /// In the order the shader declares them.
  std::vector<shader_table> rows;
};

/// The tables of `f` for a function of `dims` coordinates (1 to 4); `split`: with the split
/// form's tables where it can be written. Throws perlin::invalid_argument (parameter "shader") for
/// a modulo period beyond 2^31 - 1, naming the octave.
[[nodiscard]] shader_tables make_shader_tables(const field& f, std::size_t dims, bool split);

}  // namespace perlin::detail
