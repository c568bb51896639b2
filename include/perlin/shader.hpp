// The same field on the GPU: GLSL, GLSL ES, HLSL or WGSL source for a field, with a stated, tested
// CPU-GPU contract (docs/gpu.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "perlin/field.hpp"
#include "perlin/field_spec.hpp"

namespace perlin {

/// The languages perlin::shader_source writes.
enum class shader_language {
  glsl,     ///< desktop GLSL, 4.00 or later for double precision (no #version line is written)
  glsl_es,  ///< GLSL ES 3.00 (WebGL2), float only; no `precise`, so fused multiply-adds may enter
  hlsl,     ///< HLSL (Direct3D, shader model 4.0 or later), float only
  wgsl,     ///< WGSL (WebGPU), float only; no `precise` either. Out parameters are pointers:
            ///< `fn perlin_field_deriv(p: vec3<f32>, gradient: ptr<function, vec3<f32>>) -> f32`
  js,       ///< JavaScript, double only (JS numbers are IEEE doubles and JS never contracts, so
            ///< the double path's bits): `function perlin_field(p_x, p_y, ...)`, a script body
            ///< for `new Function(source + "return perlin_field;")`; no derivatives, split form
            ///< or standalone program (docs/gpu.md)
};

/// One row per language: its name and what it is for (`perlin shader --lang`, the C API, npm).
struct shader_language_info {
  shader_language language;
  std::string_view name;
  std::string_view use;
};
/// Every language, in the enum's order.
[[nodiscard]] std::span<const shader_language_info> shader_languages() noexcept;
/// A language by its row's name ("glsl", "glsl-es", "hlsl", "wgsl", "js"); throws
/// perlin::invalid_argument naming `lang` and listing the names for another.
[[nodiscard]] shader_language parse_shader_language(std::string_view name);
/// "float" (false) or "double" (true): shader_options::double_precision by name; throws
/// perlin::invalid_argument naming `precision` for another.
[[nodiscard]] bool parse_shader_precision(std::string_view name);

/// The contract's bound on a float shader's distance from the double path (docs/gpu.md), where
/// every octave coordinate stays below 256: 16 x value_tolerance(f), plus for a warp of
/// amplitude A, 16 x A x gradient_tolerance(f) (the float warp moves each point by a few ulps,
/// which the field's slope turns into a value error).
[[nodiscard]] double shader_float_tolerance(const field& f) noexcept;

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
  /// Also `T perlin_field_split(ivecD cell, vecD frac)`: the field at cell + frac, frac in
  /// [0, 1), for coordinates far from the origin (the caller splits them in double:
  /// perlin::split_coordinates). Written where every octave frequency is a whole number up to
  /// 2^24, the plane is aligned and modulo periods stay up to 46340; else a comment says why.
  bool split = true;
  /// Also a complete program that fills a grid with perlin_field: sample (i, j) at
  /// perlin_origin + (i * perlin_step.x, j * perlin_step.y, 0, 0) (only x for 1-D), computed
  /// without fused multiply-adds where the language has `precise`. GLSL: a #version 430 compute
  /// shader (8 x 8 invocations) writing `perlin_values[j * perlin_size.x + i]` (std430 buffer at
  /// binding 0; uniforms perlin_origin, perlin_step, perlin_size); HLSL: the same with a
  /// RWStructuredBuffer at u0 and a cbuffer perlin_grid at b0; WGSL: the buffer at @binding(0)
  /// and a uniform perlin_grid_params {origin: vec4<f32>, step: vec2<f32>, size: vec2<u32>} at
  /// @binding(1), entry point `main`; GLSL ES 3.00 (no compute shaders): a #version 300 es
  /// fragment shader whose pixel (i, j), j from the bottom, gets the value's bits (uint) for an
  /// R32UI target.
  bool standalone = false;
};

/// A coordinate split for perlin_field_split: x = cell + frac, cell = floor(x), frac in [0, 1)
/// rounded to float (so |cell + frac - x| <= 2^-25). Throws perlin::invalid_argument for x that
/// is not finite or whose cell does not fit in a 32-bit int.
struct shader_coordinate {
  std::int32_t cell = 0;
  float frac = 0;
};
[[nodiscard]] shader_coordinate split_for_shader(double x);

/// One self-contained source that defines `perlin_field` for the field: Ken Perlin's or the
/// seeded permutation and every octave's frequency, amplitude, offsets and periods baked in as
/// constants, the base noise (improved, or value noise with its interpolation), the fractal kind,
/// normalisation, the rotated plane and the domain warp (its own permutation and periods). Every
/// global name starts with `perlin_` (and, with `standalone`, the entry point `main`); there is
/// no #version line unless `standalone`, so it pastes into any shader. Throws
/// perlin::invalid_argument (parameter "shader", "dims" or "precision") for what it cannot
/// express: the eroded fractal, periods that grow beyond 2^31 - 1 over the octaves, value noise's
/// cosine interpolation in double, double precision outside desktop GLSL and JavaScript, and float
/// precision in JavaScript.
[[nodiscard]] std::string shader_source(const field& f, const shader_options& o = {});

/// The same for the field of `spec`, with the spec's recipe as a comment on the first line (after
/// the #version line of a standalone program): what `perlin shader`, the C API, Python and
/// JavaScript write, so the same field is one recipe away in every front.
[[nodiscard]] std::string shader_source(const field_spec& spec, const shader_options& o = {});

}  // namespace perlin
