// The core alone through find_package(perlin): Ken Perlin's value and a small fBm grid.
#include <cstdio>
#include <perlin/perlin.hpp>
#include <vector>

int main() {
  const double v = perlin::improved_noise().noise3d(3.14, 42.0, 7.0);
  std::printf("%.17g\n", v);
  perlin::grid g;
  g.count = {16, 16, 1, 1};
  std::vector<float> out(g.size());
  perlin::fill_grid(perlin::field(), g, out);
  return v == 0.13691995878400012 && out[0] == 0.0f ? 0 : 1;
}
