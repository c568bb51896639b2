// The peers measured beside perlin, behind plain functions so that their headers (and warnings)
// stay in one translation unit.
#pragma once

namespace peers {
float stb_noise3(float x, float y, float z);
float stb_fbm3(float x, float y, float z, float lacunarity, float gain, int octaves);
float glm_noise2(float x, float y);
float glm_noise3(float x, float y, float z);

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
