// fn2bench: perlin's bulk calls beside FastNoise2's Perlin (and FractalFBm over Perlin) in one
// process. Names are <workload>/<impl>, impl = perlin | fastnoise2; items_per_second = samples/s.
// Single thread on both sides (perlin: bulk_options{.threads = 1}; FastNoise2 is single-threaded).
//
// Extra flags (taken out before Google Benchmark parses the rest):
//   --check            print min / max / mean / rms of each implementation's output per workload
//                      (one call each) and exit, to see that both compute noise of a similar kind.
//   --perlin_max_target=NAME   perlin::set_max_target(NAME)
//   --fn2_max=NAME     cap FastNoise2's feature set: SSE2, SSE41, AVX2, AVX512
#include <FastNoise/FastNoise.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perlin/perlin.hpp"
#include "uniform_points.hpp"

#ifndef FN2BENCH_FN2_COMMIT
#define FN2BENCH_FN2_COMMIT "unknown"
#endif
#ifndef FN2BENCH_FASTSIMD_COMMIT
#define FN2BENCH_FASTSIMD_COMMIT "unknown"
#endif

namespace {

FastSIMD::FeatureSet g_fn2_max = FastSIMD::FeatureSet::Max;
constexpr int k_fn2_seed = 1337;

struct workload {
  const char* name;
  std::size_t dims;
  std::size_t n[4];  // samples along x, y, z, w (1 beyond dims)
  float step;
  int octaves;  // 1 = plain noise; >1 = fBm, lacunarity 2, gain 0.5
  /// The fBm through a 4-octave progressive domain warp (amplitude 2.5, warp frequency 1/4): the
  /// warped preset's field (perlin recipe --preset warped) and FastNoise2's
  /// DomainWarpFractalProgressive of DomainWarpGradient over the same FractalFBm.
  bool warped = false;
  std::size_t size() const { return n[0] * n[1] * n[2] * n[3]; }
};

const workload k_grids[] = {
    {"grid2d_s64", 2, {2048, 2048, 1, 1}, 1.0f / 64, 1},
    {"grid2d_s4", 2, {2048, 2048, 1, 1}, 1.0f / 4, 1},
    {"grid2d_s2", 2, {2048, 2048, 1, 1}, 1.0f / 2, 1},
    // The same steps on a 1 MB output, which stays in a core's L2 between calls: at 2048^2 (16
    // MB) perlin's coarse 2-D rows wait on the output's memory (each line is read before it is
    // written), FastNoise2's compute does not (docs/design.md, on streaming stores).
    {"grid2d_s4_512", 2, {512, 512, 1, 1}, 1.0f / 4, 1},
    {"grid2d_s2_512", 2, {512, 512, 1, 1}, 1.0f / 2, 1},
    {"grid3d_s32", 3, {128, 128, 128, 1}, 1.0f / 32, 1},
    {"grid3d_s4", 3, {128, 128, 128, 1}, 1.0f / 4, 1},
    {"grid3d_s2", 3, {128, 128, 128, 1}, 1.0f / 2, 1},
    {"grid4d_s2", 4, {32, 32, 32, 32}, 1.0f / 2, 1},
    {"grid4d_s4", 4, {32, 32, 32, 32}, 1.0f / 4, 1},
    {"grid4d_s8", 4, {32, 32, 32, 32}, 1.0f / 8, 1},
    {"grid4d_s32", 4, {32, 32, 32, 32}, 1.0f / 32, 1},
    {"fbm2d", 2, {1024, 1024, 1, 1}, 1.0f / 64, 8},
    {"grid2d_64", 2, {64, 64, 1, 1}, 1.0f / 16, 1},
    {"grid3d_16", 3, {16, 16, 16, 1}, 1.0f / 4, 1},
    {"warp2d", 2, {1024, 1024, 1, 1}, 1.0f / 64, 5, true},
};

// ---- perlin ---------------------------------------------------------------------------------

perlin::field perlin_field(const workload& w) {
  if (w.warped) {
    return perlin::make_field(perlin::spec_from_recipe(
        "perlin=1&fractal=fbm&octaves=5&normalize=true&decorrelate=true&warp=progressive&"
        "warp-amplitude=2.5&warp-frequency=0.25&warp-octaves=4"));
  }
  if (w.octaves == 1) return perlin::field();  // Ken Perlin's improved noise, aligned plane
  return {perlin::improved_noise(), perlin::fractal()
                                        .set_kind(perlin::fractal_kind::fbm)
                                        .set_octaves(w.octaves)
                                        .set_lacunarity(2)
                                        .set_persistence(0.5)};
}

perlin::grid perlin_grid(const workload& w) {
  perlin::grid g;
  g.dims = w.dims;
  g.count = {w.n[0], w.n[1], w.n[2], w.n[3]};
  g.step = {w.step, w.step, w.step, w.step};
  return g;
}

// ---- FastNoise2 -----------------------------------------------------------------------------

FastNoise::SmartNode<> fn2_node(const workload& w) {
  auto p = FastNoise::New<FastNoise::Perlin>(g_fn2_max);
  p->SetScale(1.0f);  // default feature scale is 100 (frequency 1/100); 1 => frequency 1
  if (w.octaves == 1) return p;
  auto f = FastNoise::New<FastNoise::FractalFBm>(g_fn2_max);
  f->SetSource(p);
  f->SetOctaveCount(w.octaves);
  f->SetGain(0.5f);
  f->SetLacunarity(2.0f);
  if (!w.warped) return f;
  // Warp frequency 1/4 of the field's (feature scale 4), amplitude 2.5, 4 octaves of
  // lacunarity 2 and gain 1/2, each displacing the point the previous ones produced.
  auto warp = FastNoise::New<FastNoise::DomainWarpGradient>(g_fn2_max);
  warp->SetSource(f);
  warp->SetScale(4.0f);
  warp->SetWarpAmplitude(2.5f);
  auto progressive = FastNoise::New<FastNoise::DomainWarpFractalProgressive>(g_fn2_max);
  progressive->SetSource(warp);
  progressive->SetOctaveCount(4);
  progressive->SetGain(0.5f);
  progressive->SetLacunarity(2.0f);
  return progressive;
}

void fn2_fill(const FastNoise::SmartNode<>& fn, const workload& w, float* out) {
  const int nx = int(w.n[0]), ny = int(w.n[1]), nz = int(w.n[2]), nw = int(w.n[3]);
  const float s = w.step;
  switch (w.dims) {
    case 2:
      fn->GenUniformGrid2D(out, 0, 0, nx, ny, s, s, k_fn2_seed);
      break;
    case 3:
      fn->GenUniformGrid3D(out, 0, 0, 0, nx, ny, nz, s, s, s, k_fn2_seed);
      break;
    default:
      fn->GenUniformGrid4D(out, 0, 0, 0, 0, nx, ny, nz, nw, s, s, s, s, k_fn2_seed);
      break;
  }
}

// ---- points ---------------------------------------------------------------------------------

using bench::points;
using bench::scattered;

void perlin_points(const points& p, std::vector<float>& out) {
  static const perlin::field f;
  perlin::eval_points(f, {.x = p.x, .y = p.y, .z = p.z}, out, {.threads = 1});
}

void fn2_points(const FastNoise::SmartNode<>& fn, const points& p, std::vector<float>& out) {
  fn->GenPositionArray3D(out.data(), int(out.size()), p.x.data(), p.y.data(), p.z.data(), 0, 0, 0,
                         k_fn2_seed);
}

// ---- benchmarks -----------------------------------------------------------------------------

void finish(benchmark::State& state, std::size_t samples) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(samples));
  state.counters["samples"] = double(samples);  // per iteration, for run.sh's best-of column
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

/// Registers a benchmark with a "min" statistic beside Google Benchmark's mean, median, stddev
/// and cv: the best repetition, robust to other processes on a shared machine.
template <class F>
void reg(const std::string& name, F&& f) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<F>(f))->ComputeStatistics("min", min_of);
}

void register_all() {
  for (const workload& w : k_grids) {
    const std::string name = w.name;
    reg(name + "/perlin", [w](benchmark::State& s) {
      const perlin::field f = perlin_field(w);
      const perlin::grid g = perlin_grid(w);
      std::vector<float> out(g.size());
      for (auto _ : s) {
        perlin::fill_grid(f, g, std::span<float>(out), {.threads = 1});
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      finish(s, out.size());
    });
    reg(name + "/fastnoise2", [w](benchmark::State& s) {
      const auto fn = fn2_node(w);
      std::vector<float> out(w.size());
      for (auto _ : s) {
        fn2_fill(fn, w, out.data());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      finish(s, out.size());
    });
  }
  for (const bool positive : {false, true}) {
    const std::string name = positive ? "points3d_pos" : "points3d";
    reg(name + "/perlin", [positive](benchmark::State& s) {
      const points& p = scattered(positive);
      std::vector<float> out(p.x.size());
      for (auto _ : s) {
        perlin_points(p, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      finish(s, out.size());
    });
    reg(name + "/fastnoise2", [positive](benchmark::State& s) {
      const points& p = scattered(positive);
      const workload one{"", 3, {1, 1, 1, 1}, 1, 1};
      const auto fn = fn2_node(one);
      std::vector<float> out(p.x.size());
      for (auto _ : s) {
        fn2_points(fn, p, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      finish(s, out.size());
    });
  }
}

// ---- --check --------------------------------------------------------------------------------

struct stats {
  double min = INFINITY, max = -INFINITY, mean = 0, rms = 0;
};
stats stats_of(const std::vector<float>& v) {
  stats s;
  double sum = 0, sq = 0;
  for (float x : v) {
    s.min = std::min(s.min, double(x));
    s.max = std::max(s.max, double(x));
    sum += x;
    sq += double(x) * x;
  }
  s.mean = sum / double(v.size());
  s.rms = std::sqrt(sq / double(v.size()));
  return s;
}
void print_row(const std::string& name, const char* impl, const stats& s) {
  std::printf("%-14s %-11s min %+.4f  max %+.4f  mean %+.4f  rms %.4f\n", name.c_str(), impl, s.min,
              s.max, s.mean, s.rms);
}
int check() {
  for (const workload& w : k_grids) {
    std::vector<float> a(w.size()), b(w.size());
    perlin::fill_grid(perlin_field(w), perlin_grid(w), std::span<float>(a), {.threads = 1});
    fn2_fill(fn2_node(w), w, b.data());
    print_row(w.name, "perlin", stats_of(a));
    print_row(w.name, "fastnoise2", stats_of(b));
  }
  for (const bool positive : {false, true}) {
    const points& p = scattered(positive);
    std::vector<float> a(p.x.size()), b(p.x.size());
    perlin_points(p, a);
    const workload one{"", 3, {1, 1, 1, 1}, 1, 1};
    fn2_points(fn2_node(one), p, b);
    print_row(positive ? "points3d_pos" : "points3d", "perlin", stats_of(a));
    print_row(positive ? "points3d_pos" : "points3d", "fastnoise2", stats_of(b));
  }
  return 0;
}

FastSIMD::FeatureSet parse_fn2(std::string_view n) {
  if (n == "SSE2") return FastSIMD::FeatureSet::SSE2;
  if (n == "SSE41") return FastSIMD::FeatureSet::SSE41;
  if (n == "AVX2") return FastSIMD::FeatureSet::AVX2;
  if (n == "AVX512") return FastSIMD::FeatureSet::AVX512;
  throw std::runtime_error("unknown FastNoise2 feature set: " + std::string(n));
}

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view cap_flag = "--perlin_max_target=";
  constexpr std::string_view fn2_flag = "--fn2_max=";
  bool do_check = false;
  int kept = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a.substr(0, cap_flag.size()) == cap_flag) {
        perlin::set_max_target(a.substr(cap_flag.size()));
      } else if (a.substr(0, fn2_flag.size()) == fn2_flag) {
        g_fn2_max = parse_fn2(a.substr(fn2_flag.size()));
      } else if (a == "--check") {
        do_check = true;
      } else {
        argv[kept++] = argv[i];
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fn2bench: %s\n", e.what());
    return 1;
  }
  argc = kept;

  const auto probe = FastNoise::New<FastNoise::Perlin>(g_fn2_max);
  const std::string fn2_cpu = FastSIMD::GetFeatureSetString(FastSIMD::DetectCpuMaxFeatureSet());
  const std::string fn2_active = FastSIMD::GetFeatureSetString(probe->GetActiveFeatureSet());
  const std::string perlin_target = perlin::active_target();
  std::fprintf(stderr,
               "fn2bench: FastNoise2 %s (commit %s), FastSIMD commit %s\n"
               "fn2bench: FastSIMD CPU max feature set %s, FastNoise2 Perlin node active %s\n"
               "fn2bench: perlin active target %s\n",
               FASTNOISE2_VERSION, FN2BENCH_FN2_COMMIT, FN2BENCH_FASTSIMD_COMMIT, fn2_cpu.c_str(),
               fn2_active.c_str(), perlin_target.c_str());
  if (do_check) return check();

  register_all();
  benchmark::AddCustomContext("perlin_simd_target", perlin_target);
  benchmark::AddCustomContext("fastnoise2_version", FASTNOISE2_VERSION);
  benchmark::AddCustomContext("fastnoise2_commit", FN2BENCH_FN2_COMMIT);
  benchmark::AddCustomContext("fastsimd_commit", FN2BENCH_FASTSIMD_COMMIT);
  benchmark::AddCustomContext("fastsimd_cpu_max", fn2_cpu);
  benchmark::AddCustomContext("fastnoise2_active", fn2_active);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
