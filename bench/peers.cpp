// Wrappers around stb_perlin (libstb-dev), libnoise (libnoise-dev) and glm (libglm-dev).
#include "peers.hpp"

#define STB_PERLIN_IMPLEMENTATION
#include <stb/stb_perlin.h>

#include <glm/gtc/noise.hpp>
#include <libnoise/noise.h>

namespace peers {

float stb_noise3(float x, float y, float z) { return stb_perlin_noise3(x, y, z, 0, 0, 0); }
float stb_fbm3(float x, float y, float z, float lacunarity, float gain, int octaves) {
  return stb_perlin_fbm_noise3(x, y, z, lacunarity, gain, octaves);
}
float glm_noise2(float x, float y) { return glm::perlin(glm::vec2(x, y)); }
float glm_noise3(float x, float y, float z) { return glm::perlin(glm::vec3(x, y, z)); }

libnoise_perlin::libnoise_perlin(int octaves) : module_(new noise::module::Perlin) {
  auto* m = static_cast<noise::module::Perlin*>(module_);
  m->SetOctaveCount(octaves);
  m->SetFrequency(1.0);
  m->SetLacunarity(2.0);
  m->SetPersistence(0.5);
}
libnoise_perlin::~libnoise_perlin() { delete static_cast<noise::module::Perlin*>(module_); }
double libnoise_perlin::get(double x, double y, double z) const {
  return static_cast<noise::module::Perlin*>(module_)->GetValue(x, y, z);
}

}  // namespace peers
