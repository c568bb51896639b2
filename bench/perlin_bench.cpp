// perlin_bench: the workloads, each run by perlin (single calls, bulk on one thread, bulk on
// every core) and by the peers Debian packages. Names are <workload>/<implementation>; every
// benchmark reports items_per_second = samples per second. bench/report turns a run into the
// README's table of ratios against stb_perlin (or perlin's single calls where stb has no such
// workload).
//
// Fair peers: this file is compiled with -O3 -march=native (bench/CMakeLists.txt), and the
// header-only peers (stb_perlin, glm) are compiled into it, so their calls inline into the
// loops as they do in their users' builds for speed. perlin is the library as installed:
// portable code with run-time SIMD dispatch, single calls out of line. libnoise is Debian's
// shared library.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "peers.hpp"
#include "perlin/perlin.hpp"
#include "uniform_points.hpp"

#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>

#include <glm/gtc/noise.hpp>

namespace {

namespace inlined {
float stb_noise3(float x, float y, float z) { return stb_perlin_noise3(x, y, z, 0, 0, 0); }
float stb_fbm3(float x, float y, float z, float lacunarity, float gain, int octaves) {
  return stb_perlin_fbm_noise3(x, y, z, lacunarity, gain, octaves);
}
float glm_noise2(float x, float y) { return glm::perlin(glm::vec2(x, y)); }
float glm_noise3(float x, float y, float z) { return glm::perlin(glm::vec3(x, y, z)); }
float glm_noise4(float x, float y, float z, float w) { return glm::perlin(glm::vec4(x, y, z, w)); }
}  // namespace inlined
using namespace inlined;

using bench::points;
using bench::scattered;

struct workload {
  std::size_t dims;
  std::size_t n[4];  // samples along x, y, z, w (1 past dims)
  float step;
  int octaves;
  std::size_t size() const { return n[0] * n[1] * n[2] * n[3]; }
};
constexpr workload k_grid2d{2, {2048, 2048, 1, 1}, 1.0f / 64, 1};
constexpr workload k_grid3d{3, {128, 128, 128, 1}, 1.0f / 32, 1};
constexpr workload k_fbm2d{2, {1024, 1024, 1, 1}, 1.0f / 64, 8};
constexpr workload k_grid4d{4, {32, 32, 32, 32}, 1.0f / 8, 1};

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

/// A loop over the grid calling f(x, y, z, w) per sample, in x-fastest order.
template <class F>
void grid_loop(benchmark::State& state, const workload& w, F&& f) {
  std::vector<float> out(w.size());
  for (auto _ : state) {
    std::size_t i = 0;
    for (std::size_t l = 0; l < w.n[3]; ++l) {
      for (std::size_t k = 0; k < w.n[2]; ++k) {
        for (std::size_t j = 0; j < w.n[1]; ++j) {
          for (std::size_t c = 0; c < w.n[0]; ++c) {
            out[i++] = f(static_cast<float>(c) * w.step, static_cast<float>(j) * w.step,
                         static_cast<float>(k) * w.step, static_cast<float>(l) * w.step);
          }
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
  g.dims = w.dims;
  g.count = {w.n[0], w.n[1], w.n[2], w.n[3]};
  g.step = {w.step, w.step, w.step, w.step};
  std::vector<float> out(g.size());
  for (auto _ : state) {
    perlin::fill_grid(f, g, out, {.threads = threads});
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

/// The workload `name` by perlin's single calls, its bulk call on one thread and on every core,
/// and the peers that have it (stb_perlin and libnoise up to 3-D, glm up to 4-D).
/// Two threads, on any machine: one call on two threads (perlin_t2) and its ceiling here, two
/// one-thread calls at once, each with its own output (perlin_2x1: Google Benchmark runs the
/// body on two threads and counts both threads' samples). Where the ceiling is below 2x one
/// thread, the two CPUs share what the workload waits for (the host's caches and memory), not
/// work the library splits badly; bench/report prints both ratios.
template <class F>
void register_two_threads(const std::string& name, F bulk) {
  benchmark::RegisterBenchmark((name + "/perlin_t2").c_str(), [bulk](benchmark::State& s) {
    bulk(s, 2);
  })->UseRealTime();
  benchmark::RegisterBenchmark((name + "/perlin_2x1").c_str(),
                               [bulk](benchmark::State& s) { bulk(s, 1); })
      ->Threads(2)
      ->UseRealTime();
}

void register_grid(const std::string& name, const workload& w) {
  const bool fbm = w.octaves > 1;
  benchmark::RegisterBenchmark((name + "/perlin_scalar").c_str(), [w, fbm](benchmark::State& s) {
    const perlin::improved_noise n;
    perlin::fractal fr;
    fr.set_kind(perlin::fractal_kind::fbm).set_octaves(w.octaves);
    if (fbm) {
      grid_loop(s, w, [&](float x, float y, float, float) {
        return static_cast<float>(perlin::field(n, fr)(x, y));
      });
    } else if (w.dims == 4) {
      grid_loop(s, w, [&](float x, float y, float z, float t) { return n.noise4d(x, y, z, t); });
    } else if (w.dims == 3) {
      grid_loop(s, w, [&](float x, float y, float z, float) { return n.noise3d(x, y, z); });
    } else {
      grid_loop(s, w, [&](float x, float y, float, float) { return n.noise2d(x, y); });
    }
  });
  benchmark::RegisterBenchmark((name + "/perlin").c_str(),
                               [w](benchmark::State& s) { grid_bulk(s, w, 1); });
  benchmark::RegisterBenchmark((name + "/perlin_mt").c_str(), [w](benchmark::State& s) {
    grid_bulk(s, w, 0);
  })->UseRealTime();
  if (w.size() >= (std::size_t{1} << 18)) {  // below, the automatic count is one thread
    register_two_threads(name,
                         [w](benchmark::State& s, unsigned threads) { grid_bulk(s, w, threads); });
  }
  if (w.dims <= 3) {
    benchmark::RegisterBenchmark((name + "/stb_perlin").c_str(), [w, fbm](benchmark::State& s) {
      if (fbm) {
        grid_loop(s, w, [&](float x, float y, float, float) {
          return stb_fbm3(x, y, 0.0f, 2.0f, 0.5f, w.octaves);
        });
      } else {
        grid_loop(s, w, [](float x, float y, float z, float) { return stb_noise3(x, y, z); });
      }
    });
    benchmark::RegisterBenchmark((name + "/libnoise").c_str(), [w](benchmark::State& s) {
      const peers::libnoise_perlin m(w.octaves);
      grid_loop(s, w, [&](float x, float y, float z, float) {
        return static_cast<float>(m.get(x, y, z));
      });
    });
  }
  benchmark::RegisterBenchmark((name + "/glm").c_str(), [w](benchmark::State& s) {
    grid_loop(s, w, [&](float x, float y, float z, float t) {
      float total = 0, amp = 1, freq = 1;
      for (int o = 0; o < w.octaves; ++o) {
        const float n = w.dims == 4   ? glm_noise4(x * freq, y * freq, z * freq, t * freq)
                        : w.dims == 3 ? glm_noise3(x * freq, y * freq, z * freq)
                                      : glm_noise2(x * freq, y * freq);
        total += amp * n;
        amp *= 0.5f;
        freq *= 2.0f;
      }
      return total;
    });
  });
}

/// Every grid workload: the classic ones, coarse steps (one to four samples per cell, as games
/// sample), 4-D at four steps, and small grids (chunks), where a call's fixed cost shows.
void register_grids() {
  register_grid("grid2d", k_grid2d);
  register_grid("grid2d_s4", {2, {2048, 2048, 1, 1}, 1.0f / 4, 1});
  register_grid("grid2d_s2", {2, {2048, 2048, 1, 1}, 1.0f / 2, 1});
  register_grid("grid3d", k_grid3d);
  register_grid("grid3d_s4", {3, {128, 128, 128, 1}, 1.0f / 4, 1});
  register_grid("grid3d_s2", {3, {128, 128, 128, 1}, 1.0f / 2, 1});
  register_grid("fbm2d", k_fbm2d);
  register_grid("grid4d", k_grid4d);
  register_grid("grid4d_s2", {4, {32, 32, 32, 32}, 1.0f / 2, 1});
  register_grid("grid4d_s4", {4, {32, 32, 32, 32}, 1.0f / 4, 1});
  register_grid("grid4d_s32", {4, {32, 32, 32, 32}, 1.0f / 32, 1});
  // small2d's large counterpart: the same step, 256 times the samples (bench/report's ratio).
  register_grid("grid2d_s16", {2, {1024, 1024, 1, 1}, 1.0f / 16, 1});
  register_grid("small2d", {2, {64, 64, 1, 1}, 1.0f / 16, 1});
  register_grid("small3d", {3, {16, 16, 16, 1}, 1.0f / 4, 1});
}

template <class F>
void points_loop(benchmark::State& state, bool positive, F&& f) {
  const points& p = scattered(positive);
  std::vector<float> out(p.x.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = f(p.x[i], p.y[i], p.z[i]);
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

void points_bulk(benchmark::State& state, bool positive, unsigned threads) {
  const points& p = scattered(positive);
  const perlin::field f;
  std::vector<float> out(p.x.size());
  for (auto _ : state) {
    perlin::eval_points(f, {.x = p.x, .y = p.y, .z = p.z}, out, {.threads = threads});
    benchmark::DoNotOptimize(out.data());
  }
  finish(state, out.size(), out);
}

/// points3d: 2^20 points in [-1000, 1000)^3; points3d_pos: in [0, 256)^3.
void register_points() {
  for (const bool positive : {false, true}) {
    const std::string name = positive ? "points3d_pos" : "points3d";
    benchmark::RegisterBenchmark(
        (name + "/perlin_scalar").c_str(), [positive](benchmark::State& s) {
          const perlin::improved_noise n;
          points_loop(s, positive, [&](float x, float y, float z) { return n.noise3d(x, y, z); });
        });
    benchmark::RegisterBenchmark((name + "/perlin").c_str(),
                                 [positive](benchmark::State& s) { points_bulk(s, positive, 1); });
    benchmark::RegisterBenchmark((name + "/perlin_mt").c_str(), [positive](benchmark::State& s) {
      points_bulk(s, positive, 0);
    })->UseRealTime();
    register_two_threads(name, [positive](benchmark::State& s, unsigned threads) {
      points_bulk(s, positive, threads);
    });
    benchmark::RegisterBenchmark((name + "/stb_perlin").c_str(), [positive](benchmark::State& s) {
      points_loop(s, positive, [](float x, float y, float z) { return stb_noise3(x, y, z); });
    });
    benchmark::RegisterBenchmark((name + "/stb_unfused").c_str(), [positive](benchmark::State& s) {
      const points& p = scattered(positive);
      std::vector<float> out(p.x.size());
      for (auto _ : s) {
        peers::stb_unfused_noise3(p.x.data(), p.y.data(), p.z.data(), out.data(), out.size());
      }
      finish(s, out.size(), out);
    });
    benchmark::RegisterBenchmark((name + "/libnoise").c_str(), [positive](benchmark::State& s) {
      const peers::libnoise_perlin m(1);
      points_loop(s, positive,
                  [&](float x, float y, float z) { return static_cast<float>(m.get(x, y, z)); });
    });
    benchmark::RegisterBenchmark((name + "/glm").c_str(), [positive](benchmark::State& s) {
      points_loop(s, positive, [](float x, float y, float z) { return glm_noise3(x, y, z); });
    });
  }
}

/// A plain perlin grid of `dims` axes of `n` samples with step `step`.
perlin::grid cube(std::size_t dims, std::size_t n, double step) {
  perlin::grid g;
  g.dims = dims;
  for (std::size_t k = 0; k < 4; ++k) {
    g.count[k] = k < dims ? n : 1;
    g.step[k] = step;
  }
  return g;
}

/// The eroded fractal, 8 octaves (the terrain preset's count), on a 1024x1024 map at step 1/64:
/// eroded2d beside fbm2d's 8 octaves. perlin_scalar is the double path per sample, rounded: what
/// the bulk calls did before the sample kernel took it (docs/design.md "Routes").
void register_eroded() {
  constexpr std::size_t n2 = 1024;
  constexpr double step2 = 1.0 / 64;
  static const perlin::field f = perlin::make_field(
      perlin::spec_from_recipe("perlin=1&fractal=eroded&octaves=8&normalize=true"));
  benchmark::RegisterBenchmark("eroded2d/perlin_scalar", [](benchmark::State& s) {
    std::vector<float> out(n2 * n2);
    for (auto _ : s) {
      for (std::size_t j = 0; j < n2; ++j) {
        for (std::size_t i = 0; i < n2; ++i) {
          out[j * n2 + i] = static_cast<float>(f(double(i) * step2, double(j) * step2));
        }
      }
      benchmark::DoNotOptimize(out.data());
    }
    finish(s, n2 * n2, out);
  });
  for (const unsigned threads : {1u, 0u}) {
    auto* b = benchmark::RegisterBenchmark(threads == 1 ? "eroded2d/perlin" : "eroded2d/perlin_mt",
                                           [threads](benchmark::State& s) {
                                             const perlin::grid g = cube(2, n2, step2);
                                             std::vector<float> out(g.size());
                                             for (auto _ : s) {
                                               perlin::fill_grid(f, g, out, {.threads = threads});
                                               benchmark::DoNotOptimize(out.data());
                                             }
                                             finish(s, g.size(), out);
                                           });
    if (threads == 0) b->UseRealTime();
  }
}

/// The warped preset's field (perlin recipe --preset warped: 5-octave fBm through a 4-octave
/// progressive warp), on a 1024x1024 map at step 1/64: warp2d (values) and warp2d_deriv (values
/// and gradients). perlin_scalar is the double path per sample, rounded: what the bulk calls did
/// before the warp kernel (docs/design.md "Routes").
void register_warps() {
  constexpr std::size_t n2 = 1024;
  constexpr double step2 = 1.0 / 64;
  static const perlin::field f = perlin::make_field(perlin::spec_from_recipe(
      "perlin=1&fractal=fbm&octaves=5&normalize=true&decorrelate=true&warp=progressive&"
      "warp-amplitude=2.5&warp-frequency=0.25&warp-octaves=4"));
  benchmark::RegisterBenchmark("warp2d/perlin_scalar", [](benchmark::State& s) {
    std::vector<float> out(n2 * n2);
    for (auto _ : s) {
      for (std::size_t j = 0; j < n2; ++j) {
        for (std::size_t i = 0; i < n2; ++i) {
          out[j * n2 + i] = static_cast<float>(f(double(i) * step2, double(j) * step2));
        }
      }
      benchmark::DoNotOptimize(out.data());
    }
    finish(s, n2 * n2, out);
  });
  for (const bool deriv : {false, true}) {
    for (const unsigned threads : {1u, 0u}) {
      const std::string name = std::string(deriv ? "warp2d_deriv" : "warp2d") +
                               (threads == 1 ? "/perlin" : "/perlin_mt");
      auto* b = benchmark::RegisterBenchmark(name.c_str(), [threads, deriv](benchmark::State& s) {
        const perlin::grid g = cube(2, n2, step2);
        std::vector<float> out(g.size()), grad(deriv ? 2 * g.size() : 0);
        for (auto _ : s) {
          if (deriv) {
            perlin::fill_grid_deriv(f, g, out, grad, {.threads = threads});
          } else {
            perlin::fill_grid(f, g, out, {.threads = threads});
          }
          benchmark::DoNotOptimize(out.data());
        }
        finish(s, g.size(), out);
      });
      if (threads == 0) b->UseRealTime();
    }
  }
}

/// The workloads that ran on the scalar path before: the gradient of a 2-D map (shaded relief)
/// and double grids. Rows: perlin's single calls, its bulk call
/// on one thread and on every core, and the peers that have the workload.
void register_scalar_era() {
  constexpr std::size_t n2 = 1024;
  constexpr double step2 = 1.0 / 64;
  // grid2d_deriv: value and gradient of improved noise over a 1024x1024 map.
  benchmark::RegisterBenchmark("grid2d_deriv/perlin_scalar", [](benchmark::State& s) {
    const perlin::improved_noise n;
    std::vector<float> out(n2 * n2 * 3);
    for (auto _ : s) {
      for (std::size_t j = 0; j < n2; ++j) {
        for (std::size_t i = 0; i < n2; ++i) {
          const auto d = n.noise2d_deriv(static_cast<float>(i) * float(step2),
                                         static_cast<float>(j) * float(step2));
          const std::size_t at = j * n2 + i;
          out[at] = d.value;
          out[n2 * n2 + at] = d.gradient[0];
          out[2 * n2 * n2 + at] = d.gradient[1];
        }
      }
      benchmark::DoNotOptimize(out.data());
    }
    finish(s, n2 * n2, out);
  });
  for (const unsigned threads : {1u, 0u}) {
    auto* b = benchmark::RegisterBenchmark(
        threads == 1 ? "grid2d_deriv/perlin" : "grid2d_deriv/perlin_mt",
        [threads](benchmark::State& s) {
          const perlin::field f;
          const perlin::grid g = cube(2, n2, step2);
          std::vector<float> out(g.size()), grad(2 * g.size());
          for (auto _ : s) {
            perlin::fill_grid_deriv(f, g, out, grad, {.threads = threads});
            benchmark::DoNotOptimize(grad.data());
          }
          finish(s, g.size(), out);
        });
    if (threads == 0) b->UseRealTime();
  }
  // grid2d_double: improved noise in double precision over a 1024x1024 map.
  benchmark::RegisterBenchmark("grid2d_double/perlin_scalar", [](benchmark::State& s) {
    const perlin::improved_noise n;
    std::vector<double> out(n2 * n2);
    for (auto _ : s) {
      for (std::size_t j = 0; j < n2; ++j)
        for (std::size_t i = 0; i < n2; ++i)
          out[j * n2 + i] = n.noise2d(double(i) * step2, double(j) * step2);
      benchmark::DoNotOptimize(out.data());
    }
    s.SetItemsProcessed(static_cast<std::int64_t>(s.iterations()) *
                        static_cast<std::int64_t>(out.size()));
  });
  benchmark::RegisterBenchmark("grid2d_double/libnoise", [](benchmark::State& s) {
    const peers::libnoise_perlin m(1);
    std::vector<double> out(n2 * n2);
    for (auto _ : s) {
      for (std::size_t j = 0; j < n2; ++j)
        for (std::size_t i = 0; i < n2; ++i)
          out[j * n2 + i] = m.get(double(i) * step2, double(j) * step2, 0);
      benchmark::DoNotOptimize(out.data());
    }
    s.SetItemsProcessed(static_cast<std::int64_t>(s.iterations()) *
                        static_cast<std::int64_t>(out.size()));
  });
  for (const unsigned threads : {1u, 0u}) {
    auto* b = benchmark::RegisterBenchmark(
        threads == 1 ? "grid2d_double/perlin" : "grid2d_double/perlin_mt",
        [threads](benchmark::State& s) {
          const perlin::field f;
          const perlin::grid g = cube(2, n2, step2);
          std::vector<double> out(g.size());
          for (auto _ : s) {
            perlin::fill_grid(f, g, std::span<double>(out), {.threads = threads});
            benchmark::DoNotOptimize(out.data());
          }
          s.SetItemsProcessed(static_cast<std::int64_t>(s.iterations()) *
                              static_cast<std::int64_t>(out.size()));
        });
    if (threads == 0) b->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  // --perlin_max_target=NAME caps the SIMD target (perlin::set_max_target), to compare targets
  // on one machine; taken out before Google Benchmark reads the rest.
  constexpr std::string_view cap_flag = "--perlin_max_target=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.substr(0, cap_flag.size()) == cap_flag) {
      try {
        perlin::set_max_target(a.substr(cap_flag.size()));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "perlin_bench: %s\n", e.what());
        return 1;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  register_points();
  register_grids();
  register_scalar_era();
  register_warps();
  register_eroded();
  benchmark::AddCustomContext("perlin_simd_target", perlin::active_target());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
