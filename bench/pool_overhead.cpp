// pool_overhead: what the thread runner (src/runtime/parallel.hpp) costs a call, apart from any
// noise. A job of two chunks of fixed arithmetic (about 30 us each on a 2.7 GHz Zen 5) run on
// one thread and on two: the ideal two-thread time is half the one-thread time, and the rest is
// the pool's (waking or reaching a worker, the lock, the hand-back). Calls follow one another, as
// a render's bands and a game's frames do, so the workers are found polling.
#include <benchmark/benchmark.h>

#include <cstddef>

#include "runtime/parallel.hpp"

namespace {

/// A dependent chain of multiply-adds: fixed work that no compiler removes or shortens.
double chain(std::size_t steps) {
  double a = 1;
  for (std::size_t i = 0; i < steps; ++i) a = a * 1.0000001 + 1e-9;
  return a;
}

void pool_job(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  constexpr std::size_t k_steps = 20000;  // per chunk
  double sink[2] = {0, 0};
  for (auto _ : state) {
    perlin::detail::parallel_for(2, threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) sink[k] = chain(k_steps);
    });
    benchmark::DoNotOptimize(sink);
  }
  state.SetItemsProcessed(state.iterations() * 2);  // chunks
}

BENCHMARK(pool_job)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
