// The field: a base noise with a fractal over it, and its documented range.
#include "perlin/field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "detail/error.hpp"
#include "detail/octaves.hpp"
#include "detail/rotation.hpp"
#include "detail/splitmix64.hpp"
#include "field/warp_displacement.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/graph.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/range.hpp"

namespace perlin {

const lattice& field::lattice() const noexcept {
  return std::visit([](const auto& n) -> const perlin::lattice& { return n.lattice(); }, base_);
}

using detail::k_rot;

field::field(const noise_variant& n, const perlin::fractal& f) : base_(n), fractal_(f) {
  detail::check_noise_periods(kind(), lattice());
  detail::check_noise_fractal(kind(), f.kind());
}

field& field::set_plane(perlin::plane p) {
  if (p == perlin::plane::rotated) {
    const std::string_view refused = detail::noise_kind_of(kind()).no_rotated;
    if (!refused.empty()) detail::throw_invalid("plane", std::string(refused));
    for (std::size_t k = 0; k < k_max_dims; ++k) {
      if (lattice().period(k) != 0) {
        detail::throw_invalid("plane", "a rotated plane cannot tile: remove the periods");
      }
    }
  }
  plane_ = p;
  return *this;
}

field& field::set_warp(const perlin::warp& w) {
  warp_lattice_ = detail::warp_lattice(w, lattice());
  warp_ = w;
  return *this;
}

// The field in the lattice's orientation: warp (if any), then the fractal.
template <class T>
T field::eval_unturned(std::span<const T> q, std::span<T> gradient) const {
  const auto fractal_at = [&](std::span<const T> x, std::span<T> g) {
    return std::visit([&](const auto& n) { return fractal_.sum(n, x, g); }, base_);
  };
  if (!warped() || q.empty() || q.size() > k_max_dims) return fractal_at(q, gradient);
  const std::size_t d = q.size();
  if (!gradient.empty() && gradient.size() != d) {
    detail::throw_size("gradient", "must be empty or hold one value per coordinate");
  }
  T x[4];
  std::copy(q.begin(), q.end(), x);
  T jac[16];
  const bool with_gradient = !gradient.empty();
  detail::displace<T>(warp_, warp_lattice_, base_, fractal_.frequency(), std::span<T>(x, d),
                      with_gradient ? std::span<T>(jac, d * d) : std::span<T>());
  T g[4];
  const T v =
      fractal_at(std::span<const T>(x, d), with_gradient ? std::span<T>(g, d) : std::span<T>());
  if (with_gradient) {
    // d v / d q_c = sum_r (d v / d x_r) (d x_r / d q_c)
    for (std::size_t c = 0; c < d; ++c) {
      T s = 0;
      for (std::size_t r = 0; r < d; ++r) s += g[r] * jac[r * d + c];
      gradient[c] = s;
    }
  }
  return v;
}

template <class T>
T field::eval(std::span<const T> p, std::span<T> gradient) const {
  if (graph_ != nullptr) return graph_->eval(p, gradient);
  // The commonest single call, one plain octave of improved noise in 2-D or 3-D on the aligned
  // plane, goes straight to the fractal's plain_octave (the operations, so the bits, of the
  // general route below, without its variant visit and dimension dispatch).
  if (gradient.empty() && plane_ == perlin::plane::aligned &&
      fractal_.kind() == fractal_kind::none && !warped() && (p.size() == 2 || p.size() == 3)) {
    if (const auto* n = std::get_if<improved_noise>(&base_)) {
      return p.size() == 3 ? detail::plain_octave<3, T>(fractal_, n->lattice(),
                                                        detail::improved_base<3, T>{}, p.data())
                           : detail::plain_octave<2, T>(fractal_, n->lattice(),
                                                        detail::improved_base<2, T>{}, p.data());
    }
  }
  if (!p.empty() && p.size() <= k_max_dims) {
    const auto& row = detail::noise_kind_of(kind());
    if (p.size() < row.min_dims || p.size() > row.max_dims)
      detail::check_noise_dims(kind(), p.size());
    if (row.check_dims != nullptr) row.check_dims(base_, p.size());
  }
  const auto plain = [&](std::span<const T> q, std::span<T> g) { return eval_unturned<T>(q, g); };
  if (plane_ == perlin::plane::aligned || p.size() < 2 || p.size() > 4) return plain(p, gradient);
  // Rotated: x, y, z turned (in double, then T), w as it is; the gradient turned back (R^T).
  T q[4] = {0, 0, 0, 0};
  double pd[3] = {0, 0, 0};
  for (std::size_t k = 0; k < std::min<std::size_t>(3, p.size()); ++k) pd[k] = double(p[k]);
  for (std::size_t j = 0; j < 3; ++j) q[j] = static_cast<T>(detail::rotated(pd, p.size(), j));
  const std::size_t dims = p.size() == 4 ? 4 : 3;
  if (dims == 4) q[3] = p[3];
  if (!gradient.empty() && gradient.size() != p.size()) {
    detail::throw_size("gradient", "must be empty or hold one value per coordinate");
  }
  T g[4] = {0, 0, 0, 0};
  const T v =
      plain(std::span<const T>(q, dims), gradient.empty() ? std::span<T>() : std::span<T>(g, dims));
  if (!gradient.empty()) {
    for (std::size_t k = 0; k < std::min<std::size_t>(3, p.size()); ++k) {
      double s = 0;
      for (std::size_t j = 0; j < 3; ++j) s += k_rot[k][j] * double(g[j]);
      gradient[k] = static_cast<T>(s);
    }
    if (p.size() == 4) gradient[3] = g[3];
  }
  return v;
}
template double field::eval<double>(std::span<const double>, std::span<double>) const;
template float field::eval<float>(std::span<const float>, std::span<float>) const;

std::pair<double, double> field::typical_range(std::size_t dims) const {
  const auto [lo_bound, hi_bound] = range(dims);
  constexpr int k_samples = 16384;
  detail::splitmix64 rng(0x243F6A8885A308D3ULL);  // a fixed start: the same points every time
  const double extent = 256.0 / fractal_.frequency();
  std::vector<double> values(k_samples);
  double p[4];
  for (auto& v : values) {
    for (std::size_t k = 0; k < dims; ++k)
      p[k] = static_cast<double>(rng.next() >> 11) * 0x1p-53 * extent;
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

field field::of_graph(const perlin::graph& g) {
  field f;
  f.graph_ = std::make_shared<const perlin::graph>(g);
  return f;
}

std::pair<double, double> field::range(std::size_t dims) const {
  if (graph_ != nullptr) {
    const double b = value_bound(*graph_, dims);
    return {-b, b};
  }
  const double base = detail::noise_kind_of(kind()).bound(base_, dims);
  const double b = fractal_.bound(base);
  const double sum = fractal_.normalize() ? 1.0 : fractal_.amplitude_sum();
  switch (fractal_.kind()) {
    case fractal_kind::turbulence:
    case fractal_kind::ridged:
      return {0.0, b};
    case fractal_kind::billow:
      return {-sum, b};
    case fractal_kind::none:
    case fractal_kind::fbm: {
      // A noise that is never negative, summed with amplitudes persistence^i >= 0, is not either.
      const auto nonnegative = detail::noise_kind_of(kind()).nonnegative;
      return {nonnegative != nullptr && nonnegative(base_) ? 0.0 : -b, b};
    }
    default:
      return {-b, b};
  }
}

}  // namespace perlin
