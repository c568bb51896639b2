// `perlin render`: resolve the options to a plan, then per frame evaluate the field on the pixel
// grid (the bulk SIMD path, every core), apply the preset's formula, map to pixels, and write
// every file as a pending file that is published only when all frames are complete.
#include "render.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "noise_flags.hpp"
#include "perlin/embedded_recipe.hpp"
#include "perlin/error.hpp"
#include "perlin/gpu_grid.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
#include "perlin/range.hpp"
#include "perlin/shader.hpp"
#include "perlin/targets.hpp"
#include "perlin/tiff_writer.hpp"
#include "progress.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"
#include "usage.hpp"

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
    case file_format::raw16:
      return perlin::encode_raw16(r.width, r.height, grey16());
    case file_format::tiff:
      if (r.png)
        return perlin::encode_tiff(r.width, r.height, pages,
                                   std::span<const std::uint16_t>(grey16()), r.recipe);
      return perlin::encode_tiff(r.width, r.height, pages, std::span<const float>(v.values),
                                 r.recipe);
    case file_format::exr: {
      if (r.normals != 0)
        return perlin::encode_exr(r.width, r.height, to_normals(r, v), 3, r.recipe);
      if (r.cmap == nullptr) return perlin::encode_exr(r.width, r.height, v.values, 1, r.recipe);
      const auto rgb = to_pixels(r, v);
      std::vector<float> f(rgb.size());
      for (std::size_t i = 0; i < rgb.size(); ++i) f[i] = static_cast<float>(rgb[i]) / 255.0f;
      return perlin::encode_exr(r.width, r.height, f, 3, r.recipe);
    }
    default:
      break;
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
    return perlin::encode_png(
        r.width, r.height, pixel_format_of(r), pixels,
        {.compression = r.compression, .threads = r.bulk.threads, .recipe = r.recipe});
  }
  render_frame(r, frame, v, progress);
  apply_formula(r, v);
  encoding();
  return encode_frame(r, v);
}

/// Evaluates frame `frame` band by band into `file` (.npy, RAW or TIFF), holding one band only.
/// `system`: the GeoTIFF's CRS (looked up before the render started), or null.
void stream_frame(const render_plan& r, std::size_t frame, perlin::pending_file& file,
                  const perlin::crs* system, const std::function<void(double)>& progress) {
  std::vector<std::uint16_t> samples;  // 16-bit pixels as samples
  const auto grey16 = [&](const frame_band& b) {
    samples.resize(b.pixels.size() / 2);
    std::memcpy(samples.data(), b.pixels.data(), b.pixels.size());
    return std::span<const std::uint16_t>(samples);
  };
  switch (r.format) {
    case file_format::npy: {
      std::vector<std::size_t> shape;
      if (r.depth > 0) shape.push_back(r.depth);
      shape.push_back(r.height);
      shape.push_back(r.width);
      const auto header = perlin::npy_header(shape);
      file.write(header.data(), header.size());
      render_bands(
          r, frame,
          [&](const frame_band& b) { file.write(b.values.data(), b.values.size_bytes()); },
          progress);
      return;
    }
    case file_format::raw16:
      render_bands(
          r, frame,
          [&](const frame_band& b) {
            const auto bytes = perlin::encode_raw16(r.width, b.lines, grey16(b));
            file.write(bytes.data(), bytes.size());
          },
          progress);
      return;
    case file_format::tiff: {
      perlin::tiff_layout layout;
      layout.width = r.width;
      layout.height = r.height;
      layout.pages = std::max<std::size_t>(1, r.depth);
      layout.float32 = !r.png;
      layout.tile = r.tiff_tile;
      layout.deflate = r.tiff_deflate;
      layout.description = r.recipe;
      if (system != nullptr) {
        // The tile's (or crop's) own corner: the whole map's pixel (first[0], first[1]).
        const perlin::grid g = r.frame_grid(frame);
        layout.geo = perlin::geo_reference{
            .system = *system,
            .origin_x = r.geo_origin[0] + static_cast<double>(g.first[0]) * r.geo_pixel[0],
            .origin_y = r.geo_origin[1] - static_cast<double>(g.first[1]) * r.geo_pixel[1],
            .pixel_x = r.geo_pixel[0],
            .pixel_y = r.geo_pixel[1]};
      }
      perlin::tiff_writer writer(file, layout);
      render_bands(
          r, frame,
          [&](const frame_band& b) {
            if (r.png) {
              writer.write_rows(grey16(b));
            } else {
              writer.write_rows(b.values);
            }
          },
          progress);
      writer.finish();
      return;
    }
    default:
      throw std::logic_error("stream_frame: not a streamed format");
  }
}

/// What `perlin render` was given: the typed options, the field flags and the render settings
/// as text (applied by set_render_setting, the table's parsers, when the command runs).
struct render_command {
  render_options options;
  field_flags flags;
  option_pairs settings;
  std::string device = "cpu";
  bool write_recipe = false;  // a FILE.recipe sidecar beside each file
  bool verbose = false;       // -v: the render's recipe on standard error
};

/// --device gpu: the values from the field's compute shader on the machine's OpenGL 4.3 (a GPU, or
/// Mesa's llvmpipe), through perlin::gpu_grid; the returned device must outlive the render.
std::unique_ptr<perlin::gpu_grid> attach_gpu(render_plan& r) {
#ifdef PERLIN_HAVE_GPU
  if (r.with_gradient()) {
    throw usage_error(
        "--device gpu renders values: a shaded relief or a normal map needs the field's gradient, "
        "which --device cpu computes");
  }
  if (r.sphere_radius > 0)
    throw usage_error("--device gpu renders planes: use --device cpu for --projection");
  try {  // what shaders cannot express, named before the work starts
    (void)perlin::shader_source(r.field, {.dims = r.dims, .derivatives = false, .split = false});
  } catch (const perlin::invalid_argument& e) {
    throw usage_error(std::string("--device gpu: ") + e.what());
  }
  auto gpu = std::make_unique<perlin::gpu_grid>();
  r.device = [g = gpu.get(), f = &r.field](const perlin::grid& part, std::span<float> out) {
    g->fill(*f, part, out);
  };
  return gpu;
#else
  (void)r;
  throw perlin::io_error(
      "--device gpu: this perlin was built without OpenGL and EGL (libgl-dev, libegl-dev)");
#endif
}

int run_render(const render_command& c, CLI::App* cmd) {
  render_options o = c.options;
  o.field = c.flags.given;
  o.recipe = c.flags.recipe;
  for (const auto& [name, value] : c.settings) set_render_setting(o, name, value);
  if (cmd->get_option("--compression")->count() > 0) o.given.emplace_back("compression");
  render_plan r = resolve(o);
  if (!r.quiet) {
    for (const auto& w : r.warnings) std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
  }
  if (c.verbose) std::fprintf(stderr, "perlin: recipe: %s\n", r.recipe.c_str());
  if (c.write_recipe && r.to_stdout)
    throw usage_error("--write-recipe writes FILE.recipe beside the output: give -o FILE");
  // The sidecar of the file just added to `set`, published with it (--write-recipe).
  const auto add_sidecar = [&](std::vector<perlin::pending_file>& set) {
    if (!c.write_recipe) return;
    const std::string text = r.recipe + "\n";
    set.emplace_back(perlin::recipe_sidecar(set.back().target()));
    set.back().write(text.data(), text.size());
    set.back().finish();
  };
  std::unique_ptr<perlin::gpu_grid> gpu;
  if (c.device == "gpu") {
    gpu = attach_gpu(r);
    if (!r.quiet) {
      std::fprintf(stderr,
                   "perlin: drawn on the GPU by %s (float shader, within %.3g of the double "
                   "path: docs/gpu.md)\n",
                   gpu->renderer().c_str(), perlin::shader_float_tolerance(r.field));
    }
  }
  if (!r.simd.empty()) perlin::set_max_target(r.simd);
  progress bar(!r.quiet);
  frame_values v;
  if (r.to_stdout) {
    // -o -: the file's bytes on standard output (main checks the last flush).
    const auto bytes = frame_file(
        r, 0, v, [&bar](double f) { bar.update(f); }, [] {});
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
      throw perlin::io_error(std::string("cannot write to standard output: ") +
                             std::strerror(errno));
    }
    return 0;
  }
  // Every output folder must accept files (tiles and frames may name several), and the CRS must
  // exist, before the work starts.
  {
    // A placeholder in the folder part (-o 'col{x}/row{y}.png') names several folders; else one.
    const bool one_folder =
        std::filesystem::path(r.output).parent_path().string().find('{') == std::string::npos;
    std::unordered_set<std::string> folders;
    for (std::size_t k = 0; k < (one_folder ? 1 : r.files()); ++k) {
      const std::string path = r.frame_path(k);
      if (folders.insert(std::filesystem::path(path).parent_path().string()).second)
        perlin::check_writable(path);
    }
  }
  std::optional<perlin::crs> system;
  if (!r.crs.empty()) {
    try {
      system = perlin::parse_crs(r.crs, "--crs");
    } catch (const perlin::invalid_argument& e) {
      throw usage_error(e.what());
    }
  }
  // Each frame's share of the bar: evaluating 0-70%, encoding 70-95%, writing 95-100% (PNG; a
  // .npy is mostly writing).
  const double frames = static_cast<double>(r.files());
  const double eval_share = r.png ? 0.7 : 0.8, encode_share = r.png ? 0.25 : 0.05;
  // Every frame stays pending until the last one is complete: an interrupted or failed
  // animation leaves no frames behind.
  std::vector<perlin::pending_file> files;
  const std::size_t frame_count = r.files();
  if (r.animated) {
    // One APNG: each frame compressed as it comes, one pending file at the end.
    perlin::apng_writer apng(
        r.width, r.height, pixel_format_of(r), r.fps,
        {.compression = r.compression, .threads = r.bulk.threads, .recipe = r.recipe});
    for (std::size_t frame = 0; frame < frame_count; ++frame) {
      const double base = static_cast<double>(frame) / frames;
      const auto pixels = render_pixels(r, frame, v, [&](double f) {
        bar.update(base + (f * frames - static_cast<double>(frame)) * eval_share / frames,
                   "evaluating");
      });
      bar.update(base + eval_share / frames, "encoding");
      apng.add_frame(pixels);
    }
    const auto bytes = apng.finish();
    bar.update(0.99, "writing");
    files.emplace_back(r.output);
    files.back().write(bytes.data(), bytes.size());
    files.back().finish();
    add_sidecar(files);
    const signals_held held;
    for (auto& f : files) f.publish();  // the picture, then its sidecar
    return 0;
  }
  for (std::size_t frame = 0; frame < frame_count; ++frame) {
    const double base = static_cast<double>(frame) / frames;
    if (r.streamed) {
      files.emplace_back(r.frame_path(frame));
      stream_frame(r, frame, files.back(), system ? &*system : nullptr, [&](double f) {
        bar.update(base + (f * frames - static_cast<double>(frame)) * 0.95 / frames, "evaluating");
      });
      bar.update(base + 0.95 / frames, "writing");
      files.back().finish();
      add_sidecar(files);
      continue;
    }
    const auto bytes = frame_file(
        r, frame, v,
        [&](double f) {
          bar.update(base + (f * frames - static_cast<double>(frame)) * eval_share / frames,
                     "evaluating");
        },
        [&] { bar.update(base + eval_share / frames, "encoding"); });
    files.emplace_back(r.frame_path(frame));
    bar.update(base + (eval_share + encode_share) / frames, "writing");
    files.back().write(bytes.data(), bytes.size());
    files.back().finish();
    add_sidecar(files);
  }
  {
    // SIGINT and SIGTERM wait while the frames are published, so that an interruption leaves all
    // of them or none (the handler then finds nothing pending and exits 130 or 143). SIGKILL
    // cannot wait: publish_together swaps in a folder holding the whole new set where it can.
    const signals_held held;
    if (frame_count == 1) {
      for (auto& f : files) f.publish();  // one file, then its sidecar: no set to swap in
    } else {
      perlin::publish_together(files);
    }
  }
  if (r.stretch && !r.quiet) {
    std::fprintf(stderr,
                 "perlin: note: --stretch maps each image's own min and max; tiles rendered "
                 "separately will not match at their edges\n");
  }
  return 0;
}

}  // namespace

void add_render_command(CLI::App& app, std::function<int()>& run) {
  auto command = std::make_shared<render_command>();
  CLI::App* cmd = app.add_subcommand(
      "render",
      "Render noise to an image, a heightmap or an array: PNG, .npy, 16-bit RAW, TIFF or OpenEXR");
  auto& o = command->options;
  cmd->add_option(
         "-o,--output", o.output,
         "Output file: .png, .npy, .r16/.raw (16-bit RAW), .tif/.tiff (float32), .exr (float32), "
         "or - for standard output")
      ->required();
  cmd->add_option("--format", o.format,
                  "png, npy, raw, tiff or exr (default: from the extension; png for -)");
  cmd->add_option("--compression", o.compression,
                  "PNG compression, 0 (none) to 9 (smallest); 1 is fast")
      ->capture_default_str();
  // The render settings (render_settings(): also the server's query and perlin.render's
  // keywords), as text for the table's parsers.
  for (const render_setting& s : render_settings()) {
    const std::string name(s.name);
    auto record = [command, name](std::string text) {
      auto& g = command->settings;
      g.erase(std::remove_if(g.begin(), g.end(), [&](const auto& p) { return p.first == name; }),
              g.end());
      g.emplace_back(name, std::move(text));
    };
    if (s.is_flag()) {
      cmd->add_flag_function(
          "--" + name + ",!--no-" + name,
          [record](std::int64_t n) { record(n > 0 ? "true" : "false"); }, std::string(s.help));
    } else {
      // The help with the default from the row (render_options' initialiser).
      cmd->add_option_function<std::string>(
          "--" + name, [record](const std::string& v) { record(v); }, s.help_with_default());
    }
  }
  add_field_options(*cmd, command->flags, /*preset_defaults=*/true);
  cmd->add_option("--threads", o.threads, "Worker threads, 0 = every core")->capture_default_str();
  cmd->add_option("--simd", o.simd, "Cap the SIMD target (see 'perlin targets')");
  cmd->add_option(
         "--device", command->device,
         "cpu (the library's SIMD paths), or gpu: the field's float compute shader on "
         "this machine's OpenGL 4.3 (a GPU, or Mesa's llvmpipe), values only (docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  cmd->add_flag("--strict", o.strict,
                "Identical bits on every SIMD target (no fused multiply-add)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress bar or notes");
  cmd->add_flag("-v,--verbose", command->verbose,
                "Print the render's recipe (the one its PNG, TIFF or EXR carries) to standard "
                "error");
  cmd->add_flag("--write-recipe", command->write_recipe,
                "Write the render's recipe beside each file as FILE.recipe (for .npy and RAW, "
                "which have no room for it; perlin recipe --from FILE reads it)");
  cmd->callback(
      [command, cmd, &run] { run = [command, cmd] { return run_render(*command, cmd); }; });
}

}  // namespace perlin_cli
