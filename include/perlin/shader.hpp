// The same field on the GPU: GLSL source for a field, with a stated, tested CPU-GPU contract
// (docs/gpu.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "perlin/field.hpp"

namespace perlin {

/// The languages perlin::shader_source writes.
enum class shader_language {
  glsl,     ///< desktop GLSL, 4.00 or later for double precision (no #version line is written)
  glsl_es,  ///< GLSL ES 3.00 (WebGL2), float only; no `precise`, so fused multiply-adds may enter
  hlsl,     ///< HLSL (Direct3D, shader model 4.0 or later), float only
};

/// "glsl", "glsl-es", "hlsl"; parse_shader_language throws perlin::invalid_argument naming
/// `lang` for another.
[[nodiscard]] shader_language parse_shader_language(std::string_view name);

struct shader_options {
  shader_language language = shader_language::glsl;
  /// double: `double perlin_field(dvecD p)`, bit for bit the C++ double path on a conforming
  /// implementation (Mesa's llvmpipe in the tests); float: `float perlin_field(vecD p)`, within
  /// value_tolerance(field) of the double path for coordinates below 256 in magnitude.
  bool double_precision = false;
  /// The coordinates the function takes, 1 to 4 (a float/double argument for 1).
  std::size_t dims = 3;
  /// Also `T perlin_field_deriv(vecD p, out vecD gradient)`: the value (perlin_field's bits)
  /// and its D analytic partials (an out parameter: GLSL has no vec5 for 4-D).
  bool derivatives = true;
};

/// One self-contained source that defines `perlin_field` for the field: Ken Perlin's or the
/// seeded permutation and every octave's frequency, amplitude, offsets and periods baked in as
/// constants, the fractal kind, normalisation and the rotated plane. Every global name starts
/// with `perlin_`; there is no #version line, so it pastes into any shader. Throws
/// perlin::invalid_argument (parameter "shader") for what it cannot express yet: value noise,
/// domain warps, and periods that grow beyond 2^52 over the octaves.
[[nodiscard]] std::string shader_source(const field& f, const shader_options& o = {});

}  // namespace perlin
