// docs/gpu.md, the contract's third item: what a driver that fuses multiply-adds (ignoring
// `precise`, as GLSL ES and WGSL allow anyway) does to the shaders' values, measured by emulating
// it on the CPU. This file alone is compiled with -mfma -ffp-contract=fast (tests/CMakeLists.txt;
// scripts/check_layout exempts it): the library's own noise templates (detail/reference.hpp) and
// the shader's octave loop, in float and double, fused wherever GCC can, against the library's
// exact double path. Skipped on a CPU without FMA.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

#include "detail/reference.hpp"
#include "perlin/perlin.hpp"

namespace {

/// a * b - c, which contraction computes exactly: not zero when this file is really fused.
[[gnu::noinline]] double fused_probe(double a, double b, double c) { return a * b - c; }

/// The shader's loop for an aligned, undecorrelated fractal of kind none or fBm without
/// periods (shader_emitter::emit_octave_loop, src/shader/emitter.cpp): q = x * freq,
/// n = noise(q), total = total + n * amp, in T.
template <class T>
T fbm(const perlin::field& f, const double* p, std::size_t dims) {
  const auto& fr = f.fractal();
  const auto& l = f.lattice();
  const auto* perm = l.perm().data();
  const auto* wraps = perlin::detail::wraps_of(l).data();
  T total = 0;
  double freq = fr.frequency(), amp = 1;
  for (int o = 0; o < fr.active_octaves(); ++o) {
    T q[4];
    for (std::size_t k = 0; k < dims; ++k) q[k] = static_cast<T>(p[k]) * static_cast<T>(freq);
    const T n = dims == 2 ? perlin::detail::improved<2, T>(perm, wraps, q, nullptr)
                          : perlin::detail::improved<3, T>(perm, wraps, q, nullptr);
    total = total + n * static_cast<T>(amp);
    freq *= fr.lacunarity();
    amp *= fr.persistence();
  }
  return total;
}

TEST(GpuContract, ContractedMultiplyAddsStayWithinTheFloatBound) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "this CPU has no FMA to emulate a driver";
  // 1 + 2^-27 squared minus 1 is 2^-26 + 2^-54: the product alone rounds the 2^-54 away.
  volatile double a = 1 + std::ldexp(1.0, -27), one = 1;  // not folded at compile time
  ASSERT_NE(fused_probe(a, a, one) - std::ldexp(1.0, -26), 0.0)
      << "this file is not compiled with contraction: it would measure nothing";
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-30, 30);
  const std::pair<const char*, std::size_t> fields[] = {
      {"perlin=1", 3},
      {"perlin=1&seed=42&fractal=fbm&octaves=8", 3},
      {"perlin=1&fractal=fbm&octaves=6&persistence=0.6", 2}};
  for (const auto& [recipe, dims] : fields) {
    SCOPED_TRACE(recipe);
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    double top = f.fractal().frequency();
    for (int k = 1; k < f.fractal().active_octaves(); ++k) top *= f.fractal().lacunarity();
    const double shrink = std::min(1.0, 250.0 / (30.0 * top));  // octave coordinates below 256
    double worst_float = 0, worst_double = 0;
    std::size_t double_differ = 0;
    constexpr std::size_t n = 100000;
    for (std::size_t i = 0; i < n; ++i) {
      double p[3];
      for (std::size_t k = 0; k < dims; ++k) p[k] = static_cast<float>(u(rng) * shrink);
      const double exact = f.eval<double>(std::span<const double>(p, dims));
      const double d = fbm<double>(f, p, dims);
      worst_double = std::max(worst_double, std::abs(d - exact));
      double_differ += d != exact;
      worst_float = std::max(worst_float, std::abs(double(fbm<float>(f, p, dims)) - exact));
    }
    const double tol = perlin::value_tolerance(f);
    EXPECT_LE(worst_float, 16 * tol);
    EXPECT_LE(worst_double, 1e-9 * tol);  // 2e-15 times the amplitude sum
    std::printf(
        "contracted %s: float %.3g x value_tolerance; double off by %.3g (%zu/%zu values "
        "differ from the exact path)\n",
        recipe, worst_float / tol, worst_double, double_differ, n);
  }
}

}  // namespace
