// The shading languages perlin::shader_source writes (shader.hpp): the one place that knows how
// GLSL, GLSL ES, HLSL, WGSL and JavaScript spell a type, a declaration, a loop, a choice, a
// function and a constant table. The emitter (shader/emitter.cpp) states the field's operations
// once, through this writer, so every language performs them in the same order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "perlin/shader.hpp"

namespace perlin::detail {

/// A function parameter: a scalar or vector (n == 0) or an array of n; `out`: written by the
/// callee (GLSL/HLSL `out`, WGSL a pointer in the function address space).
struct shader_param {
  std::string type;
  std::string name;
  std::size_t n = 0;
  bool out = false;
};

class shader_writer {
 public:
  shader_writer(shader_language lang, bool double_precision)
      : lang_(lang), dbl_(double_precision) {}

  [[nodiscard]] shader_language language() const { return lang_; }
  [[nodiscard]] bool wgsl() const { return lang_ == shader_language::wgsl; }
  [[nodiscard]] bool hlsl() const { return lang_ == shader_language::hlsl; }
  [[nodiscard]] bool es() const { return lang_ == shader_language::glsl_es; }
  /// JavaScript: every number a double, ints kept in doubles or Int32Array entries; each local
  /// array is a typed array made once at the top level (one per function and name: no function
  /// calls itself, so none is in use twice), so a call allocates nothing.
  [[nodiscard]] bool js() const { return lang_ == shader_language::js; }

  /// The real type (float, double; f32), the int type (int; i32) and vectors of n (n == 1: the
  /// scalar).
  [[nodiscard]] std::string real() const;
  [[nodiscard]] std::string integer() const { return wgsl() ? "i32" : "int"; }
  [[nodiscard]] std::string vec(std::size_t n) const;
  [[nodiscard]] std::string ivec(std::size_t n) const;

  /// A literal that parses back to exactly v (17 significant digits for double, 9 for float).
  [[nodiscard]] std::string lit(double v) const;
  /// `type(expr)`: a conversion to the real or int type.
  [[nodiscard]] std::string to_real(const std::string& expr) const;
  [[nodiscard]] std::string to_int(const std::string& expr) const;
  /// `cond ? a : b` (WGSL: select(b, a, cond), which evaluates both).
  [[nodiscard]] std::string choose(const std::string& cond, const std::string& a,
                                   const std::string& b) const;
  /// Component k (x, y, z, w) of a vector argument: `v.x`, in JavaScript the argument `v_x`.
  [[nodiscard]] std::string component(const std::string& v, std::size_t k) const;
  /// A lattice index modulo the int P, in [0, P): `int_mod`, the int index's (the emitter's
  /// overflow-free form), except in JavaScript, which reduces the double floor `fl` itself
  /// (exact for every fl, as the library's 64-bit index and fmod; a 32-bit index would not be
  /// beyond 2^31).
  [[nodiscard]] std::string floor_mod(const std::string& int_mod, const std::string& fl,
                                      const std::string& P) const;
  /// The right operand of a shift (WGSL shifts by u32).
  [[nodiscard]] std::string shift(const std::string& amount) const;
  /// The value behind an out parameter, and the argument that passes a local as one.
  [[nodiscard]] std::string deref(const std::string& param) const;
  [[nodiscard]] std::string ref(const std::string& local) const;

  /// A local `name` of `type` set to `init`; `exact`: no fused multiply-adds may enter it (GLSL
  /// and HLSL `precise`; GLSL ES 3.00 and WGSL have no such qualifier).
  [[nodiscard]] std::string decl(const std::string& type, const std::string& name,
                                 const std::string& init, bool exact = false) const;
  /// Local arrays of n, uninitialised, or one set to `init`.
  [[nodiscard]] std::string arrays(const std::string& type, const std::vector<std::string>& names,
                                   std::size_t n) const;
  [[nodiscard]] std::string array(const std::string& type, const std::string& name, std::size_t n,
                                  const std::string& init) const;
  /// The value of an array of 4 of `type` (the right-hand side of an initialisation).
  [[nodiscard]] std::string array4(const std::string& type, const std::string& body) const;
  /// `for (k = from; k < bound; ++k) {` with k an int.
  [[nodiscard]] std::string loop(const std::string& k, const std::string& bound,
                                 const std::string& from = "0") const;
  /// The same loop around one statement (`body`, which may start with a line break and indent).
  [[nodiscard]] std::string loop_over(const std::string& k, const std::string& bound,
                                      const std::string& from, const std::string& body) const;
  /// A function's first line, up to its opening brace.
  [[nodiscard]] std::string function(const std::string& result, const std::string& name,
                                     const std::vector<shader_param>& params) const;
  /// A global constant table.
  [[nodiscard]] std::string const_array(const std::string& type, const std::string& name,
                                        std::size_t n, const std::string& body) const;

  /// `T name(T t)` returning `expr` of t, computed without fused multiply-adds.
  void function_of_t(const std::string& name, const std::string& expr);
  void line(const std::string& s) { out_ += s + "\n"; }
  /// The source; JavaScript's ends with its scratch arrays and the helpers (floor, abs, sign,
  /// clamp as GLSL's) the text calls.
  [[nodiscard]] std::string text() const;

 private:
  [[nodiscard]] std::string array_type(const std::string& type, std::size_t n) const;
  [[nodiscard]] std::string param(const shader_param& p) const;
  /// JavaScript: the name of a new top-level typed array of n `type`s (declared in text()).
  [[nodiscard]] std::string scratch(const std::string& type, std::size_t n) const;

  shader_language lang_;
  bool dbl_;
  std::string out_;
  mutable std::string scratch_;  ///< JavaScript's scratch arrays' declarations
  mutable std::size_t scratch_n_ = 0;
};

}  // namespace perlin::detail
