// Prints Ken Perlin's tutorial value through the installed package; exits 1 if it is wrong.
#include <cstdio>

#include <perlin/perlin.hpp>

int main() {
  const double v = perlin::improved_noise().noise3d(3.14, 42.0, 7.0);
  std::printf("%.17g\n", v);
  return v == 0.13691995878400012 ? 0 : 1;
}
