// perlin_bench: four workloads, each run by perlin (single calls, bulk on one thread, bulk on
// every core) and by the peers Debian packages. Names are <workload>/<implementation>; every
// benchmark reports items_per_second = samples per second. bench/report turns a run into the
// README's table of ratios against stb_perlin.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "peers.hpp"
#include "perlin/perlin.hpp"

namespace {

struct points {
  std::vector<float> x, y, z;
};

/// 2^20 points uniform in [-1000, 1000]^3, the same for every implementation.
const points& scattered() {
  static const points p = [] {
    points q;
    std::mt19937_64 rng(2002);  // the sequence of mt19937_64 is fixed by the standard
    const auto uniform = [&] {
      return static_cast<float>(-1000.0 + 2000.0 * static_cast<double>(rng() >> 11) * 0x1p-53);
    };
    const std::size_t n = std::size_t{1} << 20;
    q.x.resize(n);
    q.y.resize(n);
    q.z.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      q.x[i] = uniform();
      q.y[i] = uniform();
      q.z[i] = uniform();
    }
    return q;
  }();
  return p;
}

struct workload {
  std::size_t nx, ny, nz;
  float step;
  int octaves;
};
constexpr workload k_grid2d{2048, 2048, 1, 1.0f / 64, 1};
constexpr workload k_grid3d{128, 128, 128, 1.0f / 32, 1};
constexpr workload k_fbm2d{1024, 1024, 1, 1.0f / 64, 8};

perlin::field field_for(const workload& w) {
  if (w.octaves == 1) return perlin::field();
  return {perlin::improved_noise(), perlin::fractal()
                                        .set_kind(perlin::fractal_kind::fbm)
                                        .set_octaves(w.octaves)
                                        .set_lacunarity(2)
                                        .set_persistence(0.5)};
}

void finish(benchmark::State& state, std::size_t samples, const std::vector<float>& out) {
  benchmark::DoNotOptimize(out.data());
  benchmark::ClobberMemory();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(samples));
}

/// A loop over the grid calling f(x, y, z) per sample, in x-fastest order.
template <class F>
void grid_loop(benchmark::State& state, const workload& w, F&& f) {
  std::vector<float> out(w.nx * w.ny * w.nz);
  for (auto _ : state) {
    std::size_t i = 0;
    for (std::size_t k = 0; k < w.nz; ++k) {
      for (std::size_t j = 0; j < w.ny; ++j) {
        for (std::size_t c = 0; c < w.nx; ++c) {
          out[i++] = f(static_cast<float>(c) * w.step, static_cast<float>(j) * w.step,
                       static_cast<float>(k) * w.step);
        }
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

void grid_bulk(benchmark::State& state, const workload& w, unsigned threads) {
  const perlin::field f = field_for(w);
  perlin::grid g;
  g.dims = w.nz == 1 ? 2 : 3;
  g.count = {w.nx, w.ny, w.nz, 1};
  g.step = {w.step, w.step, w.step, 1};
  std::vector<float> out(g.size());
  for (auto _ : state) {
    perlin::fill_grid(f, g, out, {.threads = threads});
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

void register_grid(const std::string& name, const workload& w) {
  const bool fbm = w.octaves > 1;
  const bool three = w.nz > 1;
  benchmark::RegisterBenchmark((name + "/perlin_scalar").c_str(), [w, fbm, three](benchmark::State& s) {
    const perlin::improved_noise n;
    perlin::fractal fr;
    fr.set_kind(perlin::fractal_kind::fbm).set_octaves(w.octaves);
    if (fbm) {
      grid_loop(s, w, [&](float x, float y, float) { return static_cast<float>(fr.eval2d(n, x, y)); });
    } else if (three) {
      grid_loop(s, w, [&](float x, float y, float z) { return n.noise3d(x, y, z); });
    } else {
      grid_loop(s, w, [&](float x, float y, float) { return n.noise2d(x, y); });
    }
  });
  benchmark::RegisterBenchmark((name + "/perlin").c_str(),
                               [w](benchmark::State& s) { grid_bulk(s, w, 1); });
  benchmark::RegisterBenchmark((name + "/perlin_mt").c_str(),
                               [w](benchmark::State& s) { grid_bulk(s, w, 0); })
      ->UseRealTime();
  benchmark::RegisterBenchmark((name + "/stb_perlin").c_str(), [w, fbm](benchmark::State& s) {
    if (fbm) {
      grid_loop(s, w, [&](float x, float y, float) {
        return peers::stb_fbm3(x, y, 0.0f, 2.0f, 0.5f, w.octaves);
      });
    } else {
      grid_loop(s, w, [](float x, float y, float z) { return peers::stb_noise3(x, y, z); });
    }
  });
  benchmark::RegisterBenchmark((name + "/libnoise").c_str(), [w](benchmark::State& s) {
    const peers::libnoise_perlin m(w.octaves);
    grid_loop(s, w, [&](float x, float y, float z) { return static_cast<float>(m.get(x, y, z)); });
  });
  benchmark::RegisterBenchmark((name + "/glm").c_str(), [w, three](benchmark::State& s) {
    grid_loop(s, w, [&](float x, float y, float z) {
      float total = 0, amp = 1, freq = 1;
      for (int o = 0; o < w.octaves; ++o) {
        total += amp * (three ? peers::glm_noise3(x * freq, y * freq, z * freq)
                              : peers::glm_noise2(x * freq, y * freq));
        amp *= 0.5f;
        freq *= 2.0f;
      }
      return total;
    });
  });
}

template <class F>
void points_loop(benchmark::State& state, F&& f) {
  const points& p = scattered();
  std::vector<float> out(p.x.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = f(p.x[i], p.y[i], p.z[i]);
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

void points_bulk(benchmark::State& state, unsigned threads) {
  const points& p = scattered();
  const perlin::field f;
  std::vector<float> out(p.x.size());
  for (auto _ : state) {
    perlin::eval_points(f, {.x = p.x, .y = p.y, .z = p.z}, out, {.threads = threads});
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

void register_points() {
  benchmark::RegisterBenchmark("points3d/perlin_scalar", [](benchmark::State& s) {
    const perlin::improved_noise n;
    points_loop(s, [&](float x, float y, float z) { return n.noise3d(x, y, z); });
  });
  benchmark::RegisterBenchmark("points3d/perlin", [](benchmark::State& s) { points_bulk(s, 1); });
  benchmark::RegisterBenchmark("points3d/perlin_mt", [](benchmark::State& s) { points_bulk(s, 0); })
      ->UseRealTime();
  benchmark::RegisterBenchmark("points3d/stb_perlin", [](benchmark::State& s) {
    points_loop(s, [](float x, float y, float z) { return peers::stb_noise3(x, y, z); });
  });
  benchmark::RegisterBenchmark("points3d/libnoise", [](benchmark::State& s) {
    const peers::libnoise_perlin m(1);
    points_loop(s, [&](float x, float y, float z) { return static_cast<float>(m.get(x, y, z)); });
  });
  benchmark::RegisterBenchmark("points3d/glm", [](benchmark::State& s) {
    points_loop(s, [](float x, float y, float z) { return peers::glm_noise3(x, y, z); });
  });
}

}  // namespace

int main(int argc, char** argv) {
  register_points();
  register_grid("grid2d", k_grid2d);
  register_grid("grid3d", k_grid3d);
  register_grid("fbm2d", k_fbm2d);
  benchmark::AddCustomContext("perlin_simd_target", perlin::active_target());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
