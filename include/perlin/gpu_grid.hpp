// Grids on the GPU: the field's generated compute shader (perlin::shader_source with
// shader_options::standalone) run on an OpenGL 4.3 context without a display (EGL surfaceless:
// a GPU's driver, or Mesa's llvmpipe where there is no GPU). perlin::gpu, a library of its own
// (OpenGL and EGL), apart from perlin::perlin.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "perlin/field.hpp"
#include "perlin/grid.hpp"

namespace perlin {

/// An OpenGL 4.3 context through EGL (surfaceless), and the last field's compiled program.
/// One context per object; its calls may come from any thread, one at a time (a mutex holds
/// them; each call makes the context current on its thread and releases it).
class gpu_grid {
 public:
  /// Opens the context. Throws perlin::io_error saying why where none can be made (no EGL, no
  /// surfaceless platform, no OpenGL 4.3).
  gpu_grid();
  ~gpu_grid();
  gpu_grid(const gpu_grid&) = delete;
  gpu_grid& operator=(const gpu_grid&) = delete;

  /// The driver's name for the device (GL_RENDERER): "llvmpipe (LLVM 15.0.6, 256 bits)" on Mesa's
  /// software rasteriser, the GPU's name elsewhere.
  [[nodiscard]] std::string renderer() const;

  /// Fills `out` (exactly g.size() values, x fastest, as perlin::fill_grid) with `f` on `g` by the
  /// float shader: within 16 x value_tolerance(f) of the double path where every octave
  /// coordinate stays below 256 (docs/gpu.md, the contract of float shaders). Each plane of the
  /// grid (x and y; z and w fixed) is one dispatch whose first sample's point is computed in
  /// double and rounded to float; the shader adds i * step. Throws perlin::invalid_argument for
  /// what shaders cannot express (named by shader_source) and a grid that fill_grid refuses,
  /// perlin::io_error where the driver fails to compile or run the program.
  void fill(const field& f, const grid& g, std::span<float> out);

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace perlin
