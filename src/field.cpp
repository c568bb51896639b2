// The field: a base noise with a fractal over it, and its documented range.
#include "perlin/field.hpp"

#include <string>

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
