// `perlin render`: resolve the options to a plan, then per frame evaluate the field on the pixel
// grid (the bulk SIMD path, every core), apply the preset's formula, map to pixels, and write
// every file as a pending file that is published only when all frames are complete.
#include "render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <signal.h>

#include "perlin/error.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
#include "perlin/range.hpp"
#include "perlin/targets.hpp"
#include "progress.hpp"
#include "noise_flags.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

using namespace perlin_render;

namespace {

/// Blocks SIGINT and SIGTERM for its lifetime (the calling thread: the only one by then).
class signals_held {
 public:
  signals_held() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~signals_held() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  signals_held(const signals_held&) = delete;
  signals_held& operator=(const signals_held&) = delete;

 private:
  sigset_t old_{};
};

}  // namespace

namespace {

/// The PNG pixel format of the plan's pixels.
perlin::pixel_format png_format(const render_plan& r) {
  return r.cmap != nullptr ? perlin::pixel_format::rgb8
         : r.bits == 16    ? perlin::pixel_format::gray16
                           : perlin::pixel_format::gray8;
}

/// The bytes of the frame's file other than a PNG: .npy, RAW, TIFF or EXR.
std::vector<std::uint8_t> encode_frame(const render_plan& r, const frame_values& v) {
  const std::size_t pages = std::max<std::size_t>(1, r.depth);
  const auto grey16 = [&] {  // the 16-bit grey mapping, as the PNG's samples
    const auto bytes = to_pixels(r, v);
    std::vector<std::uint16_t> s(bytes.size() / 2);
    std::memcpy(s.data(), bytes.data(), bytes.size());
    return s;
  };
  switch (r.format) {
    case file_format::raw16: return perlin::encode_raw16(r.width, r.height, grey16());
    case file_format::tiff:
      if (r.png) return perlin::encode_tiff(r.width, r.height, pages, std::span<const std::uint16_t>(grey16()));
      return perlin::encode_tiff(r.width, r.height, pages, std::span<const float>(v.values));
    case file_format::exr: {
      if (r.cmap == nullptr) return perlin::encode_exr(r.width, r.height, v.values, 1);
      const auto rgb = to_pixels(r, v);
      std::vector<float> f(rgb.size());
      for (std::size_t i = 0; i < rgb.size(); ++i) f[i] = static_cast<float>(rgb[i]) / 255.0f;
      return perlin::encode_exr(r.width, r.height, f, 3);
    }
    default: break;
  }
  std::vector<std::size_t> shape;
  if (r.depth > 0) shape.push_back(r.depth);
  shape.push_back(r.height);
  shape.push_back(r.width);
  return perlin::encode_npy(shape, v.values);
}

/// Evaluates frame `frame` and returns its file's bytes: a PNG from its pixels (render_pixels:
/// band by band where it can), or encode_frame's file from its values. `progress` is told the
/// fraction of the render evaluated, `encoding` when the encoding starts.
std::vector<std::uint8_t> frame_file(const render_plan& r, std::size_t frame, frame_values& v,
                                     const std::function<void(double)>& progress,
                                     const std::function<void()>& encoding) {
  if (r.format == file_format::png) {
    const auto pixels = render_pixels(r, frame, v, progress);
    encoding();
    return perlin::encode_png(r.width, r.height, png_format(r), pixels,
                              {.compression = r.compression, .threads = r.bulk.threads});
  }
  render_frame(r, frame, v, progress);
  apply_formula(r, v);
  encoding();
  return encode_frame(r, v);
}

int run_render(const render_options& o, CLI::App* cmd) {
  const render_plan r =
      resolve(o, [cmd](const char* name) { return cmd->get_option(name)->count() > 0; });
  if (!r.quiet) {
    for (const auto& w : r.warnings) std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
  }
  if (!r.simd.empty()) perlin::set_max_target(r.simd);
  progress bar(!r.quiet);
  frame_values v;
  if (r.to_stdout) {
    // -o -: the file's bytes on standard output (main checks the last flush).
    const auto bytes = frame_file(r, 0, v, [&bar](double f) { bar.update(f); }, [] {});
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
      throw perlin::io_error(std::string("cannot write to standard output: ") + std::strerror(errno));
    }
    return 0;
  }
  // The output folder must accept files before the work starts.
  perlin::check_writable(r.frame_path(0));
  // Each frame's share of the bar: evaluating 0-70%, encoding 70-95%, writing 95-100% (PNG; a
  // .npy is mostly writing).
  const double frames = static_cast<double>(std::max<std::size_t>(1, r.frames));
  const double eval_share = r.png ? 0.7 : 0.8, encode_share = r.png ? 0.25 : 0.05;
  // Every frame stays pending until the last one is complete: an interrupted or failed
  // animation leaves no frames behind.
  std::vector<perlin::pending_file> files;
  const std::size_t frame_count = std::max<std::size_t>(1, r.frames);
  if (r.animated) {
    // One APNG: each frame compressed as it comes, one pending file at the end.
    perlin::apng_writer apng(r.width, r.height, png_format(r), r.fps,
                             {.compression = r.compression, .threads = r.bulk.threads});
    for (std::size_t frame = 0; frame < frame_count; ++frame) {
      const double base = static_cast<double>(frame) / frames;
      const auto pixels = render_pixels(r, frame, v, [&](double f) {
        bar.update(base + (f * frames - static_cast<double>(frame)) * eval_share / frames, "evaluating");
      });
      bar.update(base + eval_share / frames, "encoding");
      apng.add_frame(pixels);
    }
    perlin::pending_file file(r.output);
    const auto bytes = apng.finish();
    bar.update(0.99, "writing");
    file.write(bytes.data(), bytes.size());
    file.publish();
    return 0;
  }
  for (std::size_t frame = 0; frame < frame_count; ++frame) {
    const double base = static_cast<double>(frame) / frames;
    const auto bytes = frame_file(
        r, frame, v,
        [&](double f) {
          bar.update(base + (f * frames - static_cast<double>(frame)) * eval_share / frames, "evaluating");
        },
        [&] { bar.update(base + eval_share / frames, "encoding"); });
    files.emplace_back(r.frame_path(frame));
    bar.update(base + (eval_share + encode_share) / frames, "writing");
    files.back().write(bytes.data(), bytes.size());
    files.back().finish();
  }
  {
    // SIGINT and SIGTERM wait while the frames are published, so that an interruption leaves all
    // of them or none (the handler then finds nothing pending and exits 130 or 143). SIGKILL
    // cannot wait.
    const signals_held held;
    for (auto& f : files) f.publish();
  }
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
  cmd->add_option("-o,--output", o.output,
                  "Output file: .png, .npy, .r16/.raw (16-bit RAW), .tif/.tiff (float32), .exr (float32), "
                  "or - for standard output")->required();
  cmd->add_option("--format", o.format, "png, npy, raw, tiff or exr (default: from the extension; png for -)");
  cmd->add_option("--compression", o.compression, "PNG compression, 0 (none) to 9 (smallest); 1 is fast")
      ->capture_default_str();
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
  add_noise_options(*cmd, o.noise, /*with_frequency=*/false, /*preset_defaults=*/true);
  cmd->add_option("--bits", o.bits, "PNG bit depth for grey images: 8 or 16")->capture_default_str();
  cmd->add_option("--colormap", o.colormap,
                  "grey, clouds, marble, wood, terrain or heat (RGB), or stops T:#RRGGBB,... "
                  "(0:#1a3d6b,0.45:#e8d9a0,1:#ffffff); default: the preset's");
  cmd->add_option("--range", o.range,
                  "MIN,MAX of the values mapped to black and white, or 'bound' (the true bound); "
                  "default: the field's typical range");
  cmd->add_flag("--invert", o.invert, "Map high values to the start of the colormap (black for grey)");
  cmd->add_flag("--stretch", o.stretch, "Map each image's own min and max instead (tiles will not match)");
  cmd->add_flag("--tileable", o.tileable, "Make the image wrap seamlessly (adjusts the frequency)");
  cmd->add_option("--frames", o.frames, "Write N frames (1 to 1000000), FILE_0000.png ...");
  cmd->add_flag("--loop", o.loop, "Frames loop seamlessly (a circle through 4-D noise)");
  cmd->add_flag("--animated", o.animated, "With --frames: one animated PNG (APNG) instead of numbered files");
  cmd->add_option("--fps", o.fps, "Frames a second of --animated")->capture_default_str();
  cmd->add_option("--loop-radius", o.loop_radius,
                  "Radius of the loop's circle in noise units (default: frames x frequency / pi, "
                  "2 pixel steps a frame)");
  cmd->add_option("--time-step", o.time_step, "Without --loop: z step between frames (default: frequency)");
  cmd->add_option("--threads", o.threads, "Worker threads, 0 = every core")->capture_default_str();
  cmd->add_option("--simd", o.simd, "Cap the SIMD target (see 'perlin targets')");
  cmd->add_flag("--strict", o.strict, "Identical bits on every SIMD target (no fused multiply-add)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress bar or notes");
  cmd->callback([opts, cmd, &run] { run = [opts, cmd] { return run_render(*opts, cmd); }; });
}

}  // namespace perlin_cli
