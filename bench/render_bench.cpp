// perlin_render_bench: `perlin render`'s evaluation of each preset, as the CLI runs it for a PNG
// (render_pixels: the field on the frame's pixel grid, the preset's formula, the pixels; not the
// PNG's compression or the file), on one thread and on the automatic count (every core for a
// frame this large: the render decides the thread count for the whole frame, not per band).
// ns per pixel, and ns per noise octave a pixel evaluates (the fractal's octaves, plus a warp's
// octaves times the axes it displaces, times 1 + the axes for a gradient: a relief, a normal
// map, eroded fBm), so presets of different depth compare (issue 53: no preset more than 3x the
// plain preset's cost per octave). Beside the presets: eroded terrain, a planet (equirect) and a
// normal map. `--render_size=N` sets the frame's side (8192 by default; a planet is N x N/2).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "presets.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"
#include "runtime/parallel.hpp"

namespace {

std::string g_size = "8192";

/// A workload: a preset and the settings that make it what the gallery shows.
struct workload {
  std::string name, preset;
  perlin_render::option_pairs field;     // field options over the preset's
  perlin_render::option_pairs settings;  // render settings
  bool half_height = false;              // a planet's equirectangular 2:1
};

std::vector<workload> workloads() {
  std::vector<workload> out;
  for (const auto& p : perlin_render::presets()) out.push_back({p.name, p.name, {}, {}});
  out.push_back({"eroded-terrain", "terrain", {{"fractal", "eroded"}}, {}});
  out.push_back({"planet", "terrain", {}, {{"projection", "equirect"}, {"radius", "2"}}, true});
  out.push_back({"normal-map", "terrain", {}, {{"normals", "opengl"}}});
  return out;
}

/// Noise octaves a pixel evaluates (see the top).
double octaves_per_pixel(const perlin_render::render_plan& r) {
  const auto& f = r.field;
  const double axes = r.sphere_radius > 0 ? 3 : static_cast<double>(r.dims);
  const double values = f.fractal().active_octaves() + f.warp().active_octaves() * axes;
  const bool gradient = r.with_gradient() || f.fractal().kind() == perlin::fractal_kind::eroded;
  return values * (gradient ? 1 + axes : 1);
}

void render_preset(benchmark::State& state, const workload& w) {
  perlin_render::render_options o;
  o.preset = w.preset;
  perlin_render::set_render_setting(
      o, "size", g_size + "x" + (w.half_height ? std::to_string(std::stoul(g_size) / 2) : g_size));
  o.quiet = true;
  o.output = "render_bench.png";  // the format only: render_pixels writes no file
  o.threads = static_cast<unsigned>(state.range(0));
  o.field = w.field;
  for (const auto& [name, value] : w.settings) perlin_render::set_render_setting(o, name, value);
  const perlin_render::render_plan r = perlin_render::resolve(o);
  perlin_render::frame_values v;
  for (auto _ : state) {
    auto pixels = perlin_render::render_pixels(r, 0, v);
    benchmark::DoNotOptimize(pixels.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(r.samples()));
  state.counters["cpus"] = perlin::detail::usable_cpus();
  const double pixels = static_cast<double>(state.iterations()) * static_cast<double>(r.samples());
  state.counters["octaves"] = octaves_per_pixel(r);
  // Seconds per octave a pixel evaluates (printed with its SI prefix: "2.7n" is 2.7 ns).
  state.counters["s_per_octave"] = benchmark::Counter(
      pixels * octaves_per_pixel(r), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--render_size=")) {
      g_size = std::string(a.substr(14));
      continue;
    }
    args.push_back(argv[i]);
  }
  for (const workload& w : workloads()) {
    benchmark::RegisterBenchmark(("render/" + w.name).c_str(), render_preset, w)
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(0)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
