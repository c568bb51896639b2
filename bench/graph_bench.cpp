// perlin_graph_bench: a terrain-like graph's grid against the sum of its sources' grids (issue 52
// item 5: a graph's grid takes at most the sum of its sources' grid times plus 10%). The graph: a
// continent field (fBm, 3 octaves, low frequency) selects between ridged mountains (6 octaves)
// and fBm hills (6 octaves) with a soft edge, through a monotone curve and a smooth terrace.
// Each benchmark fills a 1024x1024 grid at step 1/64 on one thread (bulk_options threads = 1);
// run it pinned (taskset -c 1). `sources` fills the three fields' grids one after another.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <span>
#include <vector>

#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/grid.hpp"

namespace {

constexpr const char* k_terrain =
    "perlin=2&out=t&c=field&c.fractal=fbm&c.octaves=3&c.frequency=0.25&c.seed=1&"
    "m=field&m.fractal=ridged&m.octaves=6&m.seed=2&h=field&h.fractal=fbm&h.octaves=6&h.seed=3&"
    "s=select&s.in=h,m,c&s.lower=0&s.upper=2&s.falloff=0.15&"
    "k=curve&k.in=s&k.points=-1:-1,-0.2:-0.5,0.3:0.2,0.7:0.8,1.2:1&"
    "t=terrace&t.in=k&t.points=-1,-0.4,0,0.3,0.6,1&t.mode=smooth";

const perlin::graph& terrain() {
  static const perlin::graph g = perlin::graph::from_text(k_terrain);
  return g;
}

perlin::grid bench_grid() { return perlin::grid::plane(1024, 1024, 1.0 / 64); }

perlin::bulk_options one_thread() {
  perlin::bulk_options o;
  o.threads = 1;
  return o;
}

std::vector<perlin::field> sources() {
  std::vector<perlin::field> out;
  for (const auto& n : terrain().nodes()) {
    if (n.kind != "field") continue;
    perlin::field_spec s;
    for (const auto& [name, value] : n.parameters) s.set(name, value);
    out.push_back(perlin::make_field(s));
  }
  return out;
}

template <class T>
void graph_grid(benchmark::State& state) {
  const perlin::grid g = bench_grid();
  std::vector<T> out(g.size());
  for (auto _ : state) {
    perlin::fill_grid(terrain(), g, std::span<T>(out), one_thread());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.size()));
}

template <class T>
void sources_grid(benchmark::State& state) {
  const perlin::grid g = bench_grid();
  const auto fields = sources();
  std::vector<T> out(g.size());
  for (auto _ : state) {
    for (const auto& f : fields) {
      perlin::fill_grid(f, g, std::span<T>(out), one_thread());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.size()));
}

void graph_grid_deriv(benchmark::State& state) {
  const perlin::grid g = bench_grid();
  std::vector<float> out(g.size()), grad(2 * g.size());
  for (auto _ : state) {
    perlin::fill_grid_deriv(terrain(), g, std::span<float>(out), std::span<float>(grad),
                            one_thread());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.size()));
}

void sources_grid_deriv(benchmark::State& state) {
  const perlin::grid g = bench_grid();
  const auto fields = sources();
  std::vector<float> out(g.size()), grad(2 * g.size());
  for (auto _ : state) {
    for (const auto& f : fields) {
      perlin::fill_grid_deriv(f, g, std::span<float>(out), std::span<float>(grad), one_thread());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.size()));
}

BENCHMARK(graph_grid<float>)->Name("terrain1024/graph")->Unit(benchmark::kMillisecond);
BENCHMARK(sources_grid<float>)->Name("terrain1024/sources")->Unit(benchmark::kMillisecond);
BENCHMARK(graph_grid<double>)->Name("terrain1024_double/graph")->Unit(benchmark::kMillisecond);
BENCHMARK(sources_grid<double>)->Name("terrain1024_double/sources")->Unit(benchmark::kMillisecond);
BENCHMARK(graph_grid_deriv)->Name("terrain1024_deriv/graph")->Unit(benchmark::kMillisecond);
BENCHMARK(sources_grid_deriv)->Name("terrain1024_deriv/sources")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
