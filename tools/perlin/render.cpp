// `perlin render`: resolve the options to a plan, then per frame evaluate the field on the pixel
// grid (the bulk SIMD path, every core), apply the preset's formula, map to pixels, and write
// every file as a pending file that is published only when all frames are complete.
#include "render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
#include "perlin/range.hpp"
#include "perlin/targets.hpp"
#include "progress.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

namespace {

/// What one frame computed: its grid, the values (then the formula's output), and for a relief
/// the gradient, planar with `grid.dims` planes (plane k: the derivative along axis k).
struct frame_values {
  perlin::grid grid;
  std::vector<float> values;
  std::vector<float> gradient;
};

/// Evaluates the field on the frame's grid, in bands (rows, or slices of a volume) so that the
/// progress bar moves; `first` keeps each band's coordinates those of the whole grid.
void render_frame(const render_plan& r, std::size_t frame, frame_values& v, progress& bar) {
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
      for (std::size_t k = 0; k < g.dims; ++k) {
        std::copy_n(band_gradient.data() + k * m, m, v.gradient.data() + k * n + line * line_size);
      }
    } else {
      perlin::fill_grid(r.field, part, out, r.bulk);
    }
    bar.update((static_cast<double>(frame) + static_cast<double>(line + part.count[axis]) /
                                                 static_cast<double>(lines)) /
               static_cast<double>(std::max<std::size_t>(1, r.frames)));
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
std::vector<std::uint8_t> to_pixels(const render_plan& r, const frame_values& v) {
  const auto [lo, hi] = value_bounds(r, v);
  const std::size_t n = v.values.size();
  if (r.cmap == nullptr) {
    const double scale = r.bits == 16 ? 65535.0 : 255.0;
    std::vector<std::uint8_t> pixels(n * static_cast<std::size_t>(r.bits / 8));
    for (std::size_t i = 0; i < n; ++i) {
      const auto q = static_cast<std::uint16_t>(std::lround(perlin::to_unit(v.values[i], lo, hi) * scale));
      if (r.bits == 16) {
        std::memcpy(pixels.data() + 2 * i, &q, 2);
      } else {
        pixels[i] = static_cast<std::uint8_t>(q);
      }
    }
    return pixels;
  }
  std::vector<std::uint8_t> pixels(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = perlin::to_unit(v.values[i], lo, hi);
    auto rgb = ramp(*r.cmap, t);
    if (r.shaded && t > 0.5) {  // land only: the sea stays flat
      const double shade = relief_shade(v.gradient[i], v.gradient[n + i]);
      for (auto& c : rgb) c = static_cast<std::uint8_t>(std::clamp(c * shade, 0.0, 255.0));
    }
    std::copy(rgb.begin(), rgb.end(), pixels.begin() + static_cast<std::ptrdiff_t>(3 * i));
  }
  return pixels;
}

void write_frame(const render_plan& r, const frame_values& v, perlin::pending_file& file) {
  if (!r.png) {
    std::vector<std::size_t> shape;
    if (r.depth > 0) shape.push_back(r.depth);
    shape.push_back(r.height);
    shape.push_back(r.width);
    perlin::write_npy(file, shape, v.values);
  } else {
    const auto format = r.cmap != nullptr ? perlin::pixel_format::rgb8
                        : r.bits == 16    ? perlin::pixel_format::gray16
                                          : perlin::pixel_format::gray8;
    perlin::write_png(file, r.width, r.height, format, to_pixels(r, v));
  }
  file.finish();
}

int run_render(const render_options& o, CLI::App* cmd) {
  const render_plan r =
      resolve(o, [cmd](const char* name) { return cmd->get_option(name)->count() > 0; });
  if (!r.simd.empty()) perlin::set_max_target(r.simd);
  // The output folder must accept files before the work starts.
  perlin::check_writable(r.frame_path(0));

  progress bar(!r.quiet);
  frame_values v;
  v.values.resize(r.samples());
  if (r.shaded) v.gradient.resize(r.dims * r.samples());
  // Every frame stays pending until the last one is complete: an interrupted or failed
  // animation leaves no frames behind.
  std::vector<perlin::pending_file> files;
  const std::size_t frame_count = std::max<std::size_t>(1, r.frames);
  for (std::size_t frame = 0; frame < frame_count; ++frame) {
    render_frame(r, frame, v, bar);
    apply_formula(r, v);
    files.emplace_back(r.frame_path(frame));
    write_frame(r, v, files.back());
  }
  for (auto& f : files) f.publish();
  if (r.stretch && !r.quiet) {
    std::fprintf(stderr, "perlin: note: --stretch maps each image's own min and max; tiles rendered "
                         "separately will not match at their edges\n");
  }
  return 0;
}

}  // namespace

void add_render_command(CLI::App& app, std::function<int()>& run) {
  auto opts = std::make_shared<render_options>();
  CLI::App* cmd = app.add_subcommand("render", "Render noise to a PNG image or a .npy array");
  auto& o = *opts;
  cmd->add_option("-o,--output", o.output, "Output file: .png or .npy")->required();
  cmd->add_option("--size", o.size, "Image size WxH in pixels")->capture_default_str();
  cmd->add_option("--depth", o.depth, "Render a volume of this many slices, 1 to 2147483647 (.npy only)");
  cmd->add_option("--frequency", o.frequency,
                  "Step between neighbouring pixels in noise coordinates (1/64: 64 pixels a cell)");
  cmd->add_option("--scale", o.scale, "Pixels per lattice cell (1 / frequency)");
  cmd->add_option("--origin", o.origin, "Noise coordinates X,Y[,Z[,W]] of pixel (0, 0)");
  cmd->add_option("--offset", o.offset,
                  "Pixel index of the top-left pixel, I,J[,K]: pixel (i, j) samples "
                  "origin + (I + i, J + j) * frequency, so tiles match a whole render exactly");
  std::vector<std::string> names;
  for (const auto& p : presets()) names.emplace_back(p.name);
  cmd->add_option("--preset", o.preset, "Recipe: plain, clouds, marble, wood, terrain, ridges")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  add_noise_options(*cmd, o.noise, /*with_frequency=*/false);
  cmd->add_option("--bits", o.bits, "PNG bit depth for grey images: 8 or 16")->capture_default_str();
  cmd->add_option("--colormap", o.colormap,
                  "grey, clouds, marble, wood, terrain or heat (RGB); default: the preset's");
  cmd->add_option("--range", o.range, "MIN,MAX of the values mapped to black and white");
  cmd->add_flag("--stretch", o.stretch, "Map each image's own min and max instead (tiles will not match)");
  cmd->add_flag("--tileable", o.tileable, "Make the image wrap seamlessly (adjusts the frequency)");
  cmd->add_option("--frames", o.frames, "Write N frames (1 to 1000000), FILE_0000.png ...");
  cmd->add_flag("--loop", o.loop, "Frames loop seamlessly (a circle through 4-D noise)");
  cmd->add_option("--loop-radius", o.loop_radius, "Radius of the loop's circle in noise units")
      ->capture_default_str();
  cmd->add_option("--time-step", o.time_step, "Without --loop: z step between frames (default: frequency)");
  cmd->add_option("--threads", o.threads, "Worker threads, 0 = every core")->capture_default_str();
  cmd->add_option("--simd", o.simd, "Cap the SIMD target (see 'perlin targets')");
  cmd->add_flag("--strict", o.strict, "Identical bits on every SIMD target (no fused multiply-add)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress bar or notes");
  cmd->callback([opts, cmd, &run] { run = [opts, cmd] { return run_render(*opts, cmd); }; });
}

}  // namespace perlin_cli
