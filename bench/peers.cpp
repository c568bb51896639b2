// libnoise (libnoise-dev), a compiled shared library, behind a plain class so that its header
// stays in one translation unit. The header-only peers are compiled into perlin_bench.cpp.
#include "peers.hpp"

#include <libnoise/noise.h>

namespace peers {

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
