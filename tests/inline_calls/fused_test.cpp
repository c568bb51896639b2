// The inline float single calls in a translation unit that fuses multiply-adds (-mfma
// -ffp-contract=fast, tests/CMakeLists.txt; GCC's default contraction in gnu++ modes): the same
// bits as the library's float path, because every product that feeds a sum is kept unfused
// (perlin/detail/improved_float_call.hpp). Skipped on a CPU without FMA.
#include <cmath>

#include "inline_calls/same_bits.hpp"

namespace {

/// a * b - c, which contraction computes exactly: not zero when this file is really fused.
[[gnu::noinline]] float fused_probe(float a, float b, float c) { return a * b - c; }

TEST(InlineFloatCalls, GiveTheLibrarysBitsWhereTheCallerFuses) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "this CPU has no FMA";
  volatile float a = 1.0f + std::ldexp(1.0f, -12);
  volatile float aa = a * a;  // rounded: 1 + 2^-11 (the exact square has 2^-24 more)
  ASSERT_NE(fused_probe(a, a, aa), 0.0f) << "this file is not compiled with contraction";
  EXPECT_EQ(inline_calls::count_differences(), 0);
}

}  // namespace
