// perlin_render_bench: `perlin render`'s evaluation of each preset, as the CLI runs it for a PNG
// (render_pixels: the field on the frame's pixel grid, the preset's formula, the pixels; not the
// PNG's compression or the file), on one thread and on the automatic count (every core for a
// frame this large: the render decides the thread count for the whole frame, not per band).
// ns per pixel; `--render_size=N` sets the frame's side (8192 by default).
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

void render_preset(benchmark::State& state, std::string preset) {
  perlin_render::render_options o;
  o.preset = preset;
  o.size = g_size + "x" + g_size;
  o.quiet = true;
  o.output = "render_bench.png";  // the format only: render_pixels writes no file
  o.threads = static_cast<unsigned>(state.range(0));
  const perlin_render::render_plan r = perlin_render::resolve(o);
  perlin_render::frame_values v;
  for (auto _ : state) {
    auto pixels = perlin_render::render_pixels(r, 0, v);
    benchmark::DoNotOptimize(pixels.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(r.samples()));
  state.counters["cpus"] = perlin::detail::usable_cpus();
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
  for (const auto& p : perlin_render::presets()) {
    benchmark::RegisterBenchmark(("render/" + std::string(p.name)).c_str(), render_preset,
                                 std::string(p.name))
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
