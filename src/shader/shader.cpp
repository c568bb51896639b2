// Shader code for a field (shader.hpp): the entry points, the language and precision names, the
// split coordinates and the float tolerance. The text itself is shader/emitter.cpp's, with the
// constants of shader/tables.cpp.
#include "perlin/shader.hpp"

#include <cmath>
#include <string>

#include "detail/error.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"
#include "shader/emitter.hpp"

namespace perlin {

shader_coordinate split_for_shader(double x) {
  const double cell = std::floor(x);
  if (!(cell >= -2147483648.0 && cell <= 2147483647.0))
    detail::throw_invalid("x", "the cell of a split coordinate is a 32-bit int");
  shader_coordinate s{static_cast<std::int32_t>(cell), static_cast<float>(x - cell)};
  if (s.frac >= 1.0f) {  // rounded up to 1: the next cell's 0
    if (s.cell == 2147483647)
      detail::throw_invalid("x", "the cell of a split coordinate is a 32-bit int");
    ++s.cell;
    s.frac = 0.0f;
  }
  return s;
}

bool parse_shader_precision(std::string_view name) {
  if (name == "double") return true;
  if (name != "float") {
    std::string what = "'";  // appended: GCC 12 at -O3 warns falsely (-Wrestrict) otherwise
    what += name;
    what += "' is not float or double";
    detail::throw_invalid("precision", what);
  }
  return false;
}

double shader_float_tolerance(const field& f) noexcept {
  double bound = value_tolerance(f);
  if (f.warped()) bound += f.warp().amplitude() * gradient_tolerance(f);
  return 16 * bound;
}

std::span<const shader_language_info> shader_languages() noexcept {
  static constexpr shader_language_info k_rows[] = {
      {shader_language::glsl, "glsl", "desktop OpenGL 4.3 / Vulkan GLSL"},
      {shader_language::glsl_es, "glsl-es", "GLSL ES 3.00 (WebGL2)"},
      {shader_language::hlsl, "hlsl", "HLSL (Direct3D, Unity, Unreal)"},
      {shader_language::wgsl, "wgsl", "WGSL (WebGPU)"},
      {shader_language::js, "js", "JavaScript, double only (the npm package's single calls)"},
  };
  return k_rows;
}

shader_language parse_shader_language(std::string_view name) {
  std::string names;
  for (const auto& row : shader_languages()) {
    if (row.name == name) return row.language;
    names += (names.empty() ? "" : ", ") + std::string(row.name);
  }
  std::string what = "'";  // appended: GCC 12 at -O3 warns falsely (-Wrestrict) on "'" + string
  what += name;
  what += "' is not one of: " + names;
  detail::throw_invalid("lang", what);
}

std::string shader_source(const field& f, const shader_options& o) {
  if (f.graph() != nullptr) {
    detail::throw_invalid("field",
                          "a graph has no shader yet (issue 52: node emitters); "
                          "render it on the CPU");
  }
  if (o.language != shader_language::js) return detail::shader_emitter(f, o).emit();
  // JavaScript: the value function only, in double (the language has no other numbers).
  if (!o.double_precision)
    detail::throw_invalid("precision", "JavaScript is written in double precision only");
  if (o.standalone) detail::throw_invalid("shader", "JavaScript has no standalone program");
  if (f.kind() != noise_kind::improved && f.kind() != noise_kind::value) {
    // Simplex noise's shader keeps its cells in 32-bit ints, which part from the library's
    // values beyond 2^31 (tests/js): JavaScript calls stay on the module there.
    detail::throw_invalid("shader", "JavaScript is written for improved and value noise only");
  }
  shader_options js = o;
  js.derivatives = false;
  js.split = false;
  return detail::shader_emitter(f, js).emit();
}

std::string shader_source(const field_spec& spec, const shader_options& o) {
  const std::string src = shader_source(make_field(spec), o);
  // The recipe first, or after a #version line, which must open a GLSL ES program.
  const std::string recipe = "// recipe: " + to_recipe(spec) + "\n";
  const std::size_t at = src.rfind("#version", 0) == 0 ? src.find('\n') + 1 : 0;
  return src.substr(0, at) + recipe + src.substr(at);
}

}  // namespace perlin
