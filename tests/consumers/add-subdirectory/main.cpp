// Without exceptions: values are right, and a bad argument reaches the error handler (which
// here prints the message and exits 0, so the test can check it).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "perlin/perlin.hpp"

int main() {
  perlin::set_error_handler([](const char* message) {
    std::printf("handler: %s\n", message);
    std::exit(0);
  });
  const perlin::improved_noise n;
  if (n.noise3d(3.14, 42.0, 7.0) != 0.13691995878400012) return 1;
  perlin::grid g;
  g.count = {64, 64, 1, 1};
  std::vector<float> out(g.size());
  perlin::fill_grid(perlin::field(), g, out, {.threads = 2});
  perlin::fractal f;
  f.set_octaves(0);  // must not return
  return 2;
}
