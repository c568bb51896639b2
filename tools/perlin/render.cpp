// `perlin render`: resolve the options to a plan, then per frame evaluate the field on the pixel
// grid (the bulk SIMD path, every core), apply the preset's formula, map to pixels, and write
// every file as a pending file that is published only when all frames are complete.
#include "render.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "formats/writer.hpp"
#include "noise_flags.hpp"
#include "perlin/embedded_recipe.hpp"
#include "perlin/error.hpp"
#include "perlin/gpu_grid.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
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

/// The render's files, each pending until all are complete: an interrupted or failed animation
/// leaves no frames behind. A FILE.recipe sidecar follows each with --write-recipe.
class render_output {
 public:
  render_output(const render_plan& r, bool write_recipe) : r_(r), write_recipe_(write_recipe) {}
  /// The next file, at `path`.
  perlin::pending_file& add(const std::string& path) { return files_.emplace_back(path); }
  /// The last file added is complete: its sidecar follows it.
  void finish() {
    files_.back().finish();
    if (!write_recipe_) return;
    const std::string text = r_.recipe + "\n";
    files_.emplace_back(perlin::recipe_sidecar(files_.back().target()));
    files_.back().write(text.data(), text.size());
    files_.back().finish();
  }
  /// Publishes them all. SIGINT and SIGTERM wait while they are published, so that an
  /// interruption leaves all of them or none (the handler then finds nothing pending and exits
  /// 130 or 143). SIGKILL cannot wait: publish_together swaps in a folder holding the whole new
  /// set where it can.
  void publish(bool one_file) {
    const signals_held held;
    if (one_file) {
      for (auto& f : files_) f.publish();  // one file, then its sidecar: no set to swap in
    } else {
      perlin::publish_together(files_);
    }
  }

 private:
  const render_plan& r_;
  bool write_recipe_;
  std::vector<perlin::pending_file> files_;
};

/// The plan of the command's options, its warnings and (-v) its recipe printed.
render_plan plan_of(const render_command& c, CLI::App* cmd) {
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
  return r;
}

/// Every output folder must accept files (tiles and frames may name several), and the CRS must
/// exist, before the work starts; returns the CRS (GeoTIFF) or nothing.
std::optional<perlin::crs> check_before_work(const render_plan& r) {
  // A placeholder in the folder part (-o 'col{x}/row{y}.png') names several folders; else one.
  const bool one_folder =
      std::filesystem::path(r.output).parent_path().string().find('{') == std::string::npos;
  std::unordered_set<std::string> folders;
  for (std::size_t k = 0; k < (one_folder ? 1 : r.files()); ++k) {
    const std::string path = r.frame_path(k);
    if (folders.insert(std::filesystem::path(path).parent_path().string()).second)
      perlin::check_writable(path);
  }
  if (r.crs.empty()) return std::nullopt;
  try {
    return perlin::parse_crs(r.crs, "--crs");
  } catch (const perlin::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

/// -o -: the file's bytes on standard output (main checks the last flush).
void write_to_stdout(const render_plan& r, const format_writer& writer, progress& bar) {
  frame_values v;
  const auto bytes = writer.file(
      r, 0, v, [&bar](double f) { bar.update(f); }, [] {});
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
    throw perlin::io_error(std::string("cannot write to standard output: ") + std::strerror(errno));
  }
}

/// Each frame's share of the bar: evaluating 0-70%, encoding 70-95%, writing 95-100% (PNG; a
/// .npy is mostly writing).
struct frame_shares {
  double frames, eval, encode;
  explicit frame_shares(const render_plan& r)
      : frames(static_cast<double>(r.files())),
        eval(r.png ? 0.7 : 0.8),
        encode(r.png ? 0.25 : 0.05) {}
  [[nodiscard]] double base(std::size_t frame) const { return static_cast<double>(frame) / frames; }
  /// The bar at fraction f of the whole render's evaluation, within frame `frame`'s `share`.
  [[nodiscard]] double at(std::size_t frame, double f, double share) const {
    return base(frame) + (f * frames - static_cast<double>(frame)) * share / frames;
  }
};

/// --animated: one file of every frame (an APNG), published at the end.
void write_animation(const render_plan& r, const format_writer& writer, render_output& out,
                     progress& bar) {
  const frame_shares share(r);
  frame_values v;
  const auto bytes = writer.animation(
      r, v,
      [&](std::size_t frame, double f) {
        bar.update(share.at(frame, f, share.eval), "evaluating");
      },
      [&](std::size_t frame) {
        bar.update(share.base(frame) + share.eval / share.frames, "encoding");
      });
  bar.update(0.99, "writing");
  out.add(r.output).write(bytes.data(), bytes.size());
  out.finish();
  out.publish(true);  // the picture, then its sidecar
}

/// Every file of the render (frames, tiles, faces, or the one image), each written band by band
/// where the format streams, else made in memory.
void write_files(const render_plan& r, const format_writer& writer, const perlin::crs* system,
                 render_output& out, progress& bar) {
  const frame_shares share(r);
  frame_values v;
  for (std::size_t frame = 0; frame < r.files(); ++frame) {
    const double base = share.base(frame);
    if (r.streamed) {
      writer.stream(r, frame, out.add(r.frame_path(frame)), system,
                    [&](double f) { bar.update(share.at(frame, f, 0.95), "evaluating"); });
      bar.update(base + 0.95 / share.frames, "writing");
      out.finish();
      continue;
    }
    const auto bytes = writer.file(
        r, frame, v, [&](double f) { bar.update(share.at(frame, f, share.eval), "evaluating"); },
        [&] { bar.update(base + share.eval / share.frames, "encoding"); });
    auto& file = out.add(r.frame_path(frame));
    bar.update(base + (share.eval + share.encode) / share.frames, "writing");
    file.write(bytes.data(), bytes.size());
    out.finish();
  }
  out.publish(r.files() == 1);
}

int run_render(const render_command& c, CLI::App* cmd) {
  render_plan r = plan_of(c, cmd);
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
  const format_writer& writer = writer_of(r.format);
  if (r.to_stdout) {
    write_to_stdout(r, writer, bar);
    return 0;
  }
  const std::optional<perlin::crs> system = check_before_work(r);
  render_output out(r, c.write_recipe);
  if (r.animated) {
    write_animation(r, writer, out, bar);
    return 0;
  }
  write_files(r, writer, system ? &*system : nullptr, out, bar);
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
  // The formats as their rows (src/render/formats.cpp) list them.
  std::vector<std::string> titles;
  for (const auto& f : formats()) titles.emplace_back(f.title);
  CLI::App* cmd = app.add_subcommand(
      "render", "Render noise to an image, a heightmap or an array: " + join_or(titles));
  auto& o = command->options;
  cmd->add_option("-o,--output", o.output,
                  "Output file: " + format_output_help() + ", or - for standard output")
      ->required();
  cmd->add_option("--format", o.format,
                  format_names_text() + " (default: from the extension; png for -)");
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
