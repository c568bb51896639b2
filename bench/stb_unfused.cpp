// stb_perlin's noise3 compiled with -ffp-contract=off (bench/CMakeLists.txt): no fused
// multiply-adds, the rule perlin's float paths keep so that they give the same bits on every
// machine and every compiler's flags. perlin_bench runs it beside stb_perlin as its users compile
// it (-O3 -march=native, contracted into FMAs), so that the report shows how much of stb's
// single-call speed is the contraction (#23). The functions are renamed: perlin_bench.cpp holds
// the contracted copy under stb's own names.
#include <cstddef>

#include "peers.hpp"

#define stb_perlin_noise3 unfused_stb_perlin_noise3
#define stb_perlin_noise3_internal unfused_stb_perlin_noise3_internal
#define stb_perlin_noise3_seed unfused_stb_perlin_noise3_seed
#define stb_perlin_ridge_noise3 unfused_stb_perlin_ridge_noise3
#define stb_perlin_fbm_noise3 unfused_stb_perlin_fbm_noise3
#define stb_perlin_turbulence_noise3 unfused_stb_perlin_turbulence_noise3
#define stb_perlin_noise3_wrap_nonpow2 unfused_stb_perlin_noise3_wrap_nonpow2
#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>

void peers::stb_unfused_noise3(const float* x, const float* y, const float* z, float* out,
                               std::size_t n) {
  // The whole loop here, so that the calls inline as they do in perlin_bench.cpp's loops.
  for (std::size_t i = 0; i < n; ++i) out[i] = stb_perlin_noise3(x[i], y[i], z[i], 0, 0, 0);
}
