// The AVX-512 targets' kernels (AVX3 and AVX3_DL), in a translation unit of their own so that
// they compile in parallel with the others: simd/kernels.cc with PERLIN_KERNELS_AVX512.
#define PERLIN_KERNELS_AVX512
#include "simd/kernels.cc"  // NOLINT(bugprone-suspicious-include)
