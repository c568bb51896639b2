// Configure-time probe (CMakeLists.txt): GCC 12.2 at -O2 drops a double -> float -> double round
// trip of a short array (its SLP vectorizer turns the two conversions into a copy), so a float
// path would return unrounded doubles. Exits 0 when the compiler keeps the rounding.
#include <cstdio>

__attribute__((noinline)) void round_trip(const double* p, double* out) {
  float f[2] = {static_cast<float>(p[0]), static_cast<float>(p[1])};
  out[0] = f[0];
  out[1] = f[1];
}

int main() {
  const double p[2] = {0.74076407550580825, 13.115118491182685};
  double out[2];
  round_trip(p, out);
  const bool kept = out[0] == static_cast<double>(static_cast<float>(p[0])) &&
                    out[1] == static_cast<double>(static_cast<float>(p[1]));
  if (!kept) std::printf("the float rounding was dropped\n");
  return kept ? 0 : 1;
}
