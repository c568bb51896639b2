// libFuzzer: a differential test of the bulk paths. The input chooses a field (noise, seed,
// periods, fractal), a grid or a point batch, a SIMD target and strict mode; every float value
// must lie within the documented tolerance of the double scalar path (grid.hpp), and the double
// grid must equal the single calls bit for bit.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

/// Reads the input a byte at a time; zeros once it runs out.
struct bytes {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t u8() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::uint32_t u32() {
    return u8() | u8() << 8 | u8() << 16 | static_cast<std::uint32_t>(u8()) << 24;
  }
  /// A double in [-range, range) with fine fractions.
  double coord(double range) { return (static_cast<double>(u32()) / 4294967296.0 * 2 - 1) * range; }
};

perlin::field make_field(bytes& in) {
  const std::uint8_t kind = in.u8();
  perlin::lattice lat(in.u32());
  for (std::size_t a = 0; a < 4; ++a) {
    const std::uint8_t p = in.u8();
    if (p & 0x80) lat.set_period(a, 1 + (p & 0x7F));  // periods 1 to 128, powers of two or not
  }
  perlin::fractal f;
  f.set_kind(static_cast<perlin::fractal_kind>(in.u8() % 5))
      .set_octaves(1 + in.u8() % 5)
      .set_frequency(0.05 + in.u8() / 64.0)
      .set_lacunarity((in.u8() & 1) ? 2.0 + in.u8() % 3 : 1.5 + in.u8() / 128.0)
      .set_persistence(in.u8() / 255.0)
      .set_normalize(in.u8() & 1)
      .set_decorrelate(in.u8() & 1);
  if (kind & 1) {
    return {perlin::value_noise(lat, static_cast<perlin::interpolation>(in.u8() % 4)), f};
  }
  return {perlin::improved_noise(lat), f};
}

void fail(const char* what, double got, double want) {
  std::fprintf(stderr, "%s: %.9g instead of %.9g (target %s)\n", what, got, want,
               perlin::active_target().c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bytes in{data, size};
  const perlin::field f = make_field(in);
  const auto targets = perlin::available_targets();
  perlin::set_max_target(targets[in.u8() % targets.size()]);
  const bool strict = in.u8() & 1;
  const double tol = 2e-6 * f.fractal().amplitude_sum();
  if (in.u8() & 1) {
    perlin::grid g;
    g.dims = 1 + in.u8() % 4;
    for (std::size_t a = 0; a < 4; ++a) {
      g.count[a] = 1 + in.u8() % (a == 0 ? 70 : 4);
      g.origin[a] = in.coord(1 << 20);
      g.step[a] = in.coord(4);
      if (g.step[a] == 0) g.step[a] = 0.015625;  // grids refuse a step of 0 (checked elsewhere)
      g.first[a] = static_cast<std::int8_t>(in.u8());
    }
    const std::size_t n = g.size();
    std::vector<float> out(n);
    std::vector<double> exact(n);
    perlin::fill_grid(f, g, out, {.threads = 1 + in.u8() % 3u, .strict = strict});
    perlin::fill_grid(f, g, exact);
    for (std::size_t i = 0; i < n; ++i) {
      double p[4];
      std::size_t rem = i;
      for (std::size_t a = 0; a < g.dims; ++a) {
        p[a] = g.coordinate(a, rem % g.count[a]);
        rem /= g.count[a];
      }
      const double want = f.eval<double>(std::span<const double>(p, g.dims));
      // Coordinates beyond 2^20 carry fewer fraction bits than the tolerance assumes.
      bool small = true;
      for (std::size_t a = 0; a < g.dims; ++a)
        small &= std::abs(p[a] * f.fractal().frequency()) < 1 << 20;
      if (!(exact[i] == want || (std::isnan(exact[i]) && std::isnan(want))))
        fail("double grid", exact[i], want);
      if (small && !(std::abs(out[i] - want) <= tol)) fail("float grid", out[i], want);
    }
  } else {
    const std::size_t dims = 1 + in.u8() % 3;
    const std::size_t n = 1 + in.u8() % 80;
    std::vector<float> axes[3];
    for (std::size_t a = 0; a < dims; ++a) {
      for (std::size_t i = 0; i < n; ++i) axes[a].push_back(static_cast<float>(in.coord(1 << 12)));
    }
    perlin::point_set<float> ps;
    ps.x = axes[0];
    if (dims >= 2) ps.y = axes[1];
    if (dims >= 3) ps.z = axes[2];
    std::vector<float> out(n);
    perlin::eval_points(f, ps, out, {.threads = 1, .strict = strict});
    for (std::size_t i = 0; i < n; ++i) {
      double p[3];
      for (std::size_t a = 0; a < dims; ++a) p[a] = axes[a][i];
      const double want = f.eval<double>(std::span<const double>(p, dims));
      if (!(std::abs(out[i] - want) <= tol)) fail("points", out[i], want);
    }
  }
  return 0;
}
