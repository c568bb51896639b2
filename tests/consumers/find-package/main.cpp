// Prints Ken Perlin's tutorial value and writes a PNG through the installed package; exits 1
// if anything is wrong.
#include <cstdio>
#include <perlin/image_io.hpp>
#include <perlin/perlin.hpp>

int main() {
  const double v = perlin::improved_noise().noise3d(3.14, 42.0, 7.0);
  std::printf("%.17g\n", v);
  // perlin::image links too (libspng comes through the package's dependencies).
  const std::uint8_t pixel[1] = {128};
  perlin::write_png("consumer.png", 1, 1, perlin::pixel_format::gray8, pixel);
  return v == 0.13691995878400012 && perlin::read_png("consumer.png").width == 1 ? 0 : 1;
}
