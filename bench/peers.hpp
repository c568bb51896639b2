// libnoise, measured beside perlin, behind a plain class (peers.cpp). The header-only peers
// (stb_perlin, glm) are compiled into perlin_bench.cpp so that they inline.
#pragma once

namespace peers {

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
