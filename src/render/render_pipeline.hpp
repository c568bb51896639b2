// The render pipeline of `perlin render` and perlin.render(): evaluate a frame on its pixel grid,
// apply the preset's formula, map to pixels. No files here (the CLI writes them).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "render_plan.hpp"

namespace perlin_render {

/// What one frame computed: its grid, the values (then the formula's output), and for a relief
/// the gradient, planar with `grid.dims` planes (plane k: the derivative along axis k).
struct frame_values {
  perlin::grid grid;
  std::vector<float> values;
  std::vector<float> gradient;
};

/// Sizes `v`'s buffers for the plan.
void prepare(const render_plan& r, frame_values& v);
/// Evaluates the field on frame `frame`'s grid, in bands of rows (or slices of a volume);
/// `progress`, when set, is told the fraction of the whole render done.
void render_frame(const render_plan& r, std::size_t frame, frame_values& v,
                  const std::function<void(double)>& progress = {});
/// Marble and wood: the formula at each pixel's noise coordinates, on every slice.
void apply_formula(const render_plan& r, frame_values& v);
/// The bounds mapped to black and white: the plan's, or this frame's own with --stretch.
std::pair<double, double> value_bounds(const render_plan& r, const frame_values& v);
/// Grey (8 or 16 bit, host-endian 16-bit samples) or colormapped (and shaded) RGB pixels of a
/// 2-D frame, rows top to bottom.
std::vector<std::uint8_t> to_pixels(const render_plan& r, const frame_values& v);

}  // namespace perlin_render
