// The render pipeline (render_pipeline.hpp).
#include "render_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

#include "detail/parallel.hpp"
#include "presets.hpp"
#include "perlin/range.hpp"

namespace perlin_render {

void prepare(const render_plan& r, frame_values& v) {
  v.values.resize(r.samples());
  v.gradient.resize(r.shaded ? 2 * r.samples() : 0);
}


/// Evaluates the field on the frame's grid, in bands (rows, or slices of a volume) so that the
/// progress bar moves; `first` keeps each band's coordinates those of the whole grid.
void render_frame(const render_plan& r, std::size_t frame, frame_values& v,
                  const std::function<void(double)>& progress) {
  v.grid = r.frame_grid(frame);
  const perlin::grid& g = v.grid;
  const std::size_t n = r.samples();
  const std::size_t axis = r.depth > 0 ? 2 : 1;  // banded along y, or z for a volume
  const std::size_t lines = g.count[axis];
  const std::size_t line_size = n / lines;
  const std::size_t band = std::max<std::size_t>(1, (std::size_t{1} << 20) / line_size);
  std::vector<float> band_gradient;
  for (std::size_t line = 0; line < lines; line += band) {
    perlin::grid part = g;
    part.count[axis] = std::min(band, lines - line);
    part.first[axis] = g.first[axis] + static_cast<std::int64_t>(line);
    const std::size_t m = part.count[axis] * line_size;
    const std::span<float> out(v.values.data() + line * line_size, m);
    if (r.shaded) {
      band_gradient.resize(g.dims * m);
      perlin::fill_grid_deriv(r.field, part, out, band_gradient, r.bulk);
      for (std::size_t k = 0; k < 2; ++k) {
        std::copy_n(band_gradient.data() + k * m, m, v.gradient.data() + k * n + line * line_size);
      }
    } else {
      perlin::fill_grid(r.field, part, out, r.bulk);
    }
    if (progress) {
      progress((static_cast<double>(frame) + static_cast<double>(line + part.count[axis]) /
                                                 static_cast<double>(lines)) /
               static_cast<double>(std::max<std::size_t>(1, r.frames)));
    }
  }
}

/// Marble and wood: the formula at each pixel's noise coordinates, on every slice.
void apply_formula(const render_plan& r, frame_values& v) {
  if (r.f == formula::plain) return;
  const std::size_t slices = std::max<std::size_t>(1, r.depth);
  for (std::size_t s = 0; s < slices; ++s) {
    for (std::size_t j = 0; j < r.height; ++j) {
      const double y = v.grid.coordinate(1, j);
      float* row = v.values.data() + (s * r.height + j) * r.width;
      for (std::size_t i = 0; i < r.width; ++i) {
        const double x = v.grid.coordinate(0, i);
        row[i] = static_cast<float>(r.f == formula::marble ? marble(r.marble_stripes, x, row[i])
                                                           : wood(x, y, row[i]));
      }
    }
  }
}

/// The bounds mapped to black and white: the plan's, or this frame's own with --stretch.
std::pair<double, double> value_bounds(const render_plan& r, const frame_values& v) {
  if (!r.stretch) return {r.lo, r.hi};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const float x : v.values) {
    lo = std::min(lo, double(x));
    hi = std::max(hi, double(x));
  }
  if (!(hi > lo)) hi = lo + 1;
  return {lo, hi};
}

/// Grey (8 or 16 bit) or colormapped (and shaded) pixels of a 2-D frame.
frame_buffer<std::uint8_t> to_pixels(const render_plan& r, const frame_values& v) {
  // Plain variables, not a structured binding: the lambdas below capture them (clang 14 cannot
  // capture bindings).
  const std::pair<double, double> bounds = value_bounds(r, v);
  const double lo = bounds.first, hi = bounds.second;
  const std::size_t n = v.values.size();
  // Each pixel on its own: the same bytes for every thread count.
  const unsigned threads = perlin::detail::thread_count(r.bulk.threads, n / 65536 + 1);
  if (r.cmap == nullptr) {
    const double scale = r.bits == 16 ? 65535.0 : 255.0;
    frame_buffer<std::uint8_t> pixels(n * static_cast<std::size_t>(r.bits / 8));
    perlin::detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const double t = perlin::to_unit(v.values[i], lo, hi);
        const auto q = static_cast<std::uint16_t>(round_half_away((r.invert ? 1 - t : t) * scale));
        if (r.bits == 16) {
          std::memcpy(pixels.data() + 2 * i, &q, 2);
        } else {
          pixels[i] = static_cast<std::uint8_t>(q);
        }
      }
    });
    return pixels;
  }
  frame_buffer<std::uint8_t> pixels(3 * n);
  perlin::detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const double t = perlin::to_unit(v.values[i], lo, hi);
      auto rgb = ramp(*r.cmap, r.invert ? 1 - t : t);
      if (r.shaded && t > 0.5) {  // land only: the sea stays flat
        const double shade = relief_shade(v.gradient[i], v.gradient[n + i]);
        for (auto& c : rgb) c = static_cast<std::uint8_t>(std::clamp(c * shade, 0.0, 255.0));
      }
      std::copy(rgb.begin(), rgb.end(), pixels.begin() + static_cast<std::ptrdiff_t>(3 * i));
    }
  });
  return pixels;
}

}  // namespace perlin_render
