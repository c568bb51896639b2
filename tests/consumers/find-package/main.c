/* The C API through find_package(perlin COMPONENTS c) and perlin::c. */
#include <perlin/perlin.h>
#include <stdio.h>

int main(void) {
  const double p[3] = {3.14, 42, 7};
  perlin_field* f = perlin_field_new();
  const double v = perlin_field_eval(f, 3, p);
  perlin_field_free(f);
  printf("%.17g\n", v);
  return v == 0.13691995878400012 ? 0 : 1;
}
