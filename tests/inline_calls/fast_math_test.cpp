// The inline float single calls in a translation unit built with -ffast-math
// (tests/CMakeLists.txt): the header then calls the library's out-of-line path, so the bits, the
// NaN of a NaN or infinite coordinate and the rare coordinates are the library's.
#include "inline_calls/same_bits.hpp"

namespace {

TEST(InlineFloatCalls, GiveTheLibrarysBitsUnderFastMath) {
  static_assert(PERLIN_INLINE_FLOAT_CALLS == 0, "-ffast-math must take the out-of-line path");
  EXPECT_EQ(inline_calls::count_differences(), 0);
}

}  // namespace
