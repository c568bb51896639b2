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
  /// float shader, within shader_float_tolerance(f) of the double path (docs/gpu.md). Each plane
  /// of the grid (x and y; z and w fixed) is one dispatch (or more, per 16 MB). Where the field
  /// has the split form (perlin_field_split: the aligned plane, whole octave frequencies, no warp,
  /// not eroded, periods up to 46340) each dispatch's first point is split into an integer cell and
  /// a float fraction in double, and the shader adds i * step to the fraction: the bound holds at
  /// any distance from the origin, for coordinates up to 2^30 in magnitude. Otherwise the plain
  /// program's float coordinates lose their fraction far out, so a grid is refused
  /// (perlin::invalid_argument, "grid", naming the limit) where its farthest corner, plus a warp's
  /// amplitude, is more than 1024 x value_tolerance(f) / gradient_tolerance(f) from the origin
  /// (39.7 for fBm of 5 octaves, 102 for the noise alone). Throws perlin::invalid_argument for what
  /// shaders cannot express (named by shader_source) and a grid that fill_grid refuses,
  /// perlin::io_error where the driver fails to compile or run the program.
  void fill(const field& f, const grid& g, std::span<float> out);

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace perlin
