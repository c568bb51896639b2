// libnoise, measured beside perlin, behind a plain class (peers.cpp), and stb_perlin without
// contraction (stb_unfused.cpp). The header-only peers (stb_perlin, glm) are compiled into
// perlin_bench.cpp so that they inline.
#pragma once

#include <cstddef>

namespace peers {

/// out[i] = stb_perlin_noise3(x[i], y[i], z[i]) for i < n, stb compiled with -ffp-contract=off.
void stb_unfused_noise3(const float* x, const float* y, const float* z, float* out, std::size_t n);

/// libnoise's Perlin module (its own gradient noise, not Ken Perlin's 2002 one).
class libnoise_perlin {
 public:
  explicit libnoise_perlin(int octaves);
  ~libnoise_perlin();
  libnoise_perlin(const libnoise_perlin&) = delete;
  libnoise_perlin& operator=(const libnoise_perlin&) = delete;
  double get(double x, double y, double z) const;

 private:
  void* module_;
};
}  // namespace peers
