// fn2graph: the terrain graph of bench/graph_bench.cpp beside a FastNoise2 node tree of the same
// shape, 1024x1024 at step 1/64, one thread (perlin: bulk_options threads = 1; FastNoise2 is
// single-threaded). FastNoise2's tree: FractalFBm (3 octaves, feature scale 4) fading between
// FractalFBm (6) and FractalRidged (6) over Perlin with a Hermite Fade, a Remap in place of the
// curve (FastNoise2 has no curve node: Auburn/FastNoise2#120) and a Terrace of 6 steps with
// smoothness. Same node count and shape; not the same values. Build and run: FastNoise2's
// install prefix as for fn2bench (bench/fastnoise2/run), target fn2graph, pinned (taskset -c 1).
#include <FastNoise/FastNoise.h>
#include <benchmark/benchmark.h>

#include <span>
#include <vector>

#include "perlin/graph.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/grid.hpp"

namespace {

constexpr int k_n = 1024;
constexpr float k_step = 1.0f / 64;

constexpr const char* k_terrain =
    "perlin=2&out=t&c=field&c.fractal=fbm&c.octaves=3&c.frequency=0.25&c.seed=1&"
    "m=field&m.fractal=ridged&m.octaves=6&m.seed=2&h=field&h.fractal=fbm&h.octaves=6&h.seed=3&"
    "s=select&s.in=h,m,c&s.lower=0&s.upper=2&s.falloff=0.15&"
    "k=curve&k.in=s&k.points=-1:-1,-0.2:-0.5,0.3:0.2,0.7:0.8,1.2:1&"
    "t=terrace&t.in=k&t.points=-1,-0.4,0,0.3,0.6,1&t.mode=smooth";

FastNoise::SmartNode<> fn2_tree() {
  const auto perlin = [](float scale) {
    auto p = FastNoise::New<FastNoise::Perlin>();
    p->SetScale(scale);
    return p;
  };
  auto continent = FastNoise::New<FastNoise::FractalFBm>();
  continent->SetSource(perlin(4.0f));
  continent->SetOctaveCount(3);
  auto mountains = FastNoise::New<FastNoise::FractalRidged>();
  mountains->SetSource(perlin(1.0f));
  mountains->SetOctaveCount(6);
  auto hills = FastNoise::New<FastNoise::FractalFBm>();
  hills->SetSource(perlin(1.0f));
  hills->SetOctaveCount(6);
  auto fade = FastNoise::New<FastNoise::Fade>();
  fade->SetA(hills);
  fade->SetB(mountains);
  fade->SetFade(continent);
  fade->SetFadeMin(-0.15f);
  fade->SetFadeMax(0.15f);
  fade->SetInterpolation(FastNoise::Fade::Interpolation::Hermite);
  auto remap = FastNoise::New<FastNoise::Remap>();
  remap->SetSource(fade);
  remap->SetFromMin(-1.0f);
  remap->SetFromMax(1.0f);
  auto terrace = FastNoise::New<FastNoise::Terrace>();
  terrace->SetSource(remap);
  terrace->SetStepCount(6.0f);
  terrace->SetSmoothness(0.5f);
  return terrace;
}

void fastnoise2(benchmark::State& state) {
  const auto tree = fn2_tree();
  std::vector<float> out(std::size_t{k_n} * k_n);
  for (auto _ : state) {
    tree->GenUniformGrid2D(out.data(), 0, 0, k_n, k_n, k_step, k_step, 1337);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * k_n * k_n);
}

void perlin_graph(benchmark::State& state) {
  const perlin::graph g = perlin::graph::from_text(k_terrain);
  const perlin::grid grid = perlin::grid::plane(k_n, k_n, 1.0 / 64);
  std::vector<float> out(grid.size());
  perlin::bulk_options o;
  o.threads = 1;
  for (auto _ : state) {
    perlin::fill_grid(g, grid, std::span<float>(out), o);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * k_n * k_n);
}

BENCHMARK(fastnoise2)->Name("terrain1024/fastnoise2")->Unit(benchmark::kMillisecond);
BENCHMARK(perlin_graph)->Name("terrain1024/perlin")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
