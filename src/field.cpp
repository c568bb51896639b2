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

double improved_bound(std::size_t dims) {
  switch (dims) {
    case 1: return 0.5;
    case 2: return 1.0;
    case 3: return 1.0364;
    case 4: return 1.5366;
    default: detail::throw_invalid("dims", "must be 1 to 4, got " + std::to_string(dims));
  }
}

std::string_view to_string(noise_kind k) noexcept {
  return k == noise_kind::improved ? "improved" : "value";
}

noise_kind parse_noise_kind(std::string_view name) {
  if (name == "improved") return noise_kind::improved;
  if (name == "value") return noise_kind::value;
  detail::throw_invalid("noise", "unknown kind '" + std::string(name) + "' (valid: improved, value)");
}

}  // namespace perlin
