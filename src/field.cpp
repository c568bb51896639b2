// The field: a base noise with a fractal over it, and its documented range.
#include "perlin/field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/range.hpp"

namespace perlin {

const lattice& field::lattice() const noexcept {
  return std::visit([](const auto& n) -> const perlin::lattice& { return n.lattice(); }, base_);
}

template <class T>
T field::eval(std::span<const T> p, std::span<T> gradient) const {
  return std::visit([&](const auto& n) { return fractal_.eval(n, p, gradient); }, base_);
}
template double field::eval<double>(std::span<const double>, std::span<double>) const;
template float field::eval<float>(std::span<const float>, std::span<float>) const;

std::pair<double, double> field::typical_range(std::size_t dims) const {
  const auto [lo_bound, hi_bound] = range(dims);
  constexpr int k_samples = 16384;
  std::uint64_t state = 0x243F6A8885A308D3ULL;  // SplitMix64 (docs/seeding.md), fixed start
  const auto next = [&state] {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  const double extent = 256.0 / fractal_.frequency();
  std::vector<double> values(k_samples);
  double p[4];
  for (auto& v : values) {
    for (std::size_t k = 0; k < dims; ++k) p[k] = static_cast<double>(next() >> 11) * 0x1p-53 * extent;
    v = eval<double>(std::span<const double>(p, dims));
  }
  // The 0.2% and 99.8% quantiles: about 1 sample in 250 lies beyond each and is clamped.
  const std::size_t tail = k_samples / 500;
  std::nth_element(values.begin(), values.begin() + tail, values.end());
  double lo = values[tail];
  std::nth_element(values.begin(), values.end() - 1 - tail, values.end());
  double hi = values[k_samples - 1 - tail];
  lo = std::floor(lo * 1024) / 1024;
  hi = std::ceil(hi * 1024) / 1024;
  if (!(hi > lo)) hi = lo + 1.0 / 1024;
  return {std::max(lo, lo_bound), std::min(hi, hi_bound)};
}

std::pair<double, double> field::range(std::size_t dims) const {
  const double base = kind() == noise_kind::improved ? improved_bound(dims) : 1.0;
  const double b = fractal_.bound(base);
  const double sum = fractal_.normalize() ? 1.0 : fractal_.amplitude_sum();
  switch (fractal_.kind()) {
    case fractal_kind::turbulence:
    case fractal_kind::ridged: return {0.0, b};
    case fractal_kind::billow: return {-sum, b};
    default: return {-b, b};
  }
}

}  // namespace perlin
