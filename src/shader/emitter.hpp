// The text of shader_source (shader.hpp): a class that writes one field's shader, one member
// function per concern (shader/emitter.cpp), over the writer that spells each language
// (shader/writer.hpp) and the constants computed as data (shader/tables.hpp).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>

#include "perlin/field.hpp"
#include "perlin/shader.hpp"
#include "shader/tables.hpp"
#include "shader/writer.hpp"

namespace perlin::detail {

/// Writes the source of one field for one set of options: the scalar path's operations, in its
/// order, so that the double shader gives the C++ double path's values (docs/gpu.md).
///
/// emit() writes, in order: the prelude (the #version line of a standalone program, the comment
/// line, GLSL ES's precision), the constant tables (every row of shader_tables), the blend
/// functions (fade, lerp, the interpolation's weight and its derivative), the noise functions
/// (emit_noise: value, derivatives, split form; the warp lattice's own), then the field
/// functions (emit_field: perlin_field and perlin_field_deriv, with emit_warp inside;
/// emit_split: perlin_field_split) and the standalone program's main.
///
/// Extension point: each kind of function in the shader is one member here. A new graph node
/// kind is ONE more member, `void emit_<kind>(form)`, that writes its function `perlin_<kind>`
/// (a value, and with form::deriv its partials into an out parameter, as emit_noise does)
/// through `w_` only (the writer spells every type, declaration, loop, choice and table; never
/// spell a language here), reading its constants from `tables_` (a per-octave constant is one
/// more row that make_shader_tables computes), and ONE call of it in emit(), before the
/// functions that call it. Every global name starts with `perlin_`.
class shader_emitter {
 public:
  /// Checks the options against the field: throws perlin::invalid_argument (parameter "dims",
  /// "shader" or "precision") for what the shader cannot express (shader.hpp).
  shader_emitter(const field& f, const shader_options& o);

  /// The whole source.
  [[nodiscard]] std::string emit();

 private:
  /// The function a member writes: the value, the value and its partials, or the value of the
  /// split coordinates cell + frac.
  enum class form { value, deriv, split };

  void emit_prelude();
  void emit_tables();
  void emit_blend();
  void emit_blend_derivative();
  [[nodiscard]] std::string mirrored_series(std::initializer_list<double> c);

  void emit_noise(form fm, const std::string& pre = "perlin_");
  void emit_noise_cells(const std::string& pre);
  void emit_noise_split_cells();
  void emit_noise_hashes(const std::string& pre);
  void emit_noise_corners();
  void emit_noise_partials();
  void emit_noise_blend(const std::string& from, const std::string& d);
  void emit_noise_value(bool deriv);
  /// JavaScript's perlin_noise (form::value): the same operations with every loop written out
  /// and each array entry a local (V8 optimises straight-line code over locals far better).
  void emit_noise_flat(const std::string& pre);

  /// Simplex noise (detail/simplex.hpp): perlin_noise and perlin_noise_deriv of L-D simplex
  /// noise, the same signatures as emit_noise's, so the fractal and the warp call either.
  void emit_simplex(form fm, const std::string& pre = "perlin_");
  void emit_simplex_corner(bool deriv);
  /// Its output scale: 70, 32, 27 for L = 2, 3, 4.
  [[nodiscard]] double simplex_scale() const { return L_ == 2 ? 70.0 : L_ == 3 ? 32.0 : 27.0; }

  void emit_warp(bool deriv);
  void emit_warp_jacobian(bool progressive);

  void emit_field(form fm);
  void emit_split() { emit_field(form::split); }
  void emit_field_head(form fm);
  void emit_octave_loop(form fm);
  void emit_fractal_step(bool deriv);
  void emit_field_tail(bool deriv);
  void emit_gradient_out();
  [[nodiscard]] std::string spread(const std::string& v, const std::string& zero) const;
  /// With the derivatives: a loop over the lattice axes around `body`.
  void each_axis(bool deriv, const std::string& body);
  [[nodiscard]] std::string mod_p(const std::string& x) const;

  const field& f_;
  const shader_options& o_;
  bool improved_;
  bool simplex_;
  interpolation interp_;
  bool eroded_;
  shader_writer w_;
  shader_tables tables_;
  std::string T_, I_;                           ///< the real and int types
  std::size_t L_;                               ///< the lattice's dimensions
  std::string Ls_;                              ///< L_ as text
  std::string corners_;                         ///< 2^L
  std::string weight_ = "perlin_fade(f[k])";    ///< an axis's blend weight of f[k]
  std::string dweight_ = "perlin_dfade(f[k])";  ///< its derivative
};

}  // namespace perlin::detail
