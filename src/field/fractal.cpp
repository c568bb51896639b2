// Fractal sums over the reference kernels (compiled without FMA contraction, like the noise).
#include "perlin/fractal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "detail/dims.hpp"
#include "detail/error.hpp"
#include "detail/octaves.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace {

template <class T>
T sign_of(T v) noexcept {
  return v > T(0) ? T(1) : (v < T(0) ? T(-1) : T(0));
}

template <int D, class T, class Base>
T fractal_sum(const fractal& f, const lattice& l, Base&& base, const T* x, T* grad) noexcept {
  const std::uint8_t* perm = l.perm().data();
  if (f.kind() == fractal_kind::none && grad == nullptr)
    return detail::plain_octave<D, T>(f, l, base, x);
  const int octaves = f.active_octaves();

  T total = 0;
  T weight = 1;       // ridged: weight of the next octave
  T dweight[D] = {};  // ridged: its gradient
  // Eroded: G, the sum of the octaves' gradients so far (each in its own lattice units), and
  // with derivatives J = dG/dx, the sum of f_j times their Hessians.
  const bool eroded = f.kind() == fractal_kind::eroded;
  const T erosion = static_cast<T>(f.erosion());
  T sum_g[D] = {};
  T jac[D * D] = {};
  if (grad != nullptr) std::fill(grad, grad + D, T(0));

  // The octaves' frequencies and amplitudes come from the one recurrence (in double), rounded
  // to T for the float path.
  for (detail::octave_walk o(f, l); o.index < octaves; o.next()) {
    const T freq = static_cast<T>(o.freq);
    const T amp = static_cast<T>(o.amp);
    const auto& wraps = o.wraps;
    T q[D];
    for (int k = 0; k < D; ++k) {
      q[k] = x[k] * freq;
      if (o.decorrelated()) q[k] = q[k] + static_cast<T>(o.offset(static_cast<std::size_t>(k)));
    }
    T dn[D];
    const T n = base(perm, wraps.data(), q, grad != nullptr || eroded ? dn : nullptr);
    // s: this octave's signal; ds: its gradient in the caller's coordinates.
    T s = n;
    T ds[D] = {};
    if (grad != nullptr) {
      for (int k = 0; k < D; ++k) ds[k] = dn[k] * freq;
    }
    switch (f.kind()) {
      case fractal_kind::none:
      case fractal_kind::fbm:
        break;
      case fractal_kind::turbulence:
        s = std::abs(n);
        for (int k = 0; k < D; ++k) ds[k] *= sign_of(n);
        break;
      case fractal_kind::billow:
        s = T(2) * std::abs(n) - T(1);
        for (int k = 0; k < D; ++k) ds[k] *= T(2) * sign_of(n);
        break;
      case fractal_kind::ridged: {
        const T r = static_cast<T>(f.ridged_offset()) - std::abs(n);
        const T s0 = r * r;
        s = s0 * weight;
        for (int k = 0; k < D; ++k) {
          ds[k] = T(-2) * r * sign_of(n) * ds[k] * weight + s0 * dweight[k];
        }
        const T gain = static_cast<T>(f.ridged_gain());
        const T next = s * gain;
        const bool inside = next > T(0) && next < T(1);
        weight = std::clamp(next, T(0), T(1));
        for (int k = 0; k < D; ++k) dweight[k] = inside ? gain * ds[k] : T(0);
        break;
      }
      case fractal_kind::eroded: {
        // s = n / d, d = 1 + k |G|^2; ds/dx_m = (dn/dx_m) / d - n 2k (G . dG/dx_m) / d^2.
        for (int k = 0; k < D; ++k) sum_g[k] += dn[k];
        T g2 = 0;
        for (int k = 0; k < D; ++k) g2 += sum_g[k] * sum_g[k];
        const T d = T(1) + erosion * g2;
        s = n / d;
        if (grad != nullptr) {
          T h[D * D];
          base.hessian(perm, wraps.data(), q, h);
          for (int k = 0; k < D * D; ++k) jac[k] += h[k] * freq;
          for (int m = 0; m < D; ++m) {
            T gj = 0;
            for (int k = 0; k < D; ++k) gj += sum_g[k] * jac[k * D + m];
            ds[m] = ds[m] / d - n * (T(2) * erosion * gj) / (d * d);
          }
        }
        break;
      }
    }
    total += s * amp;
    if (grad != nullptr) {
      for (int k = 0; k < D; ++k) grad[k] += ds[k] * amp;
    }
  }
  if (f.normalize()) {
    const T sum = static_cast<T>(f.amplitude_sum());
    total /= sum;
    if (grad != nullptr) {
      for (int k = 0; k < D; ++k) grad[k] /= sum;
    }
  }
  return total;
}

void check_finite(const char* name, double v) {
  if (!std::isfinite(v)) detail::throw_invalid(name, "must be finite");
}

}  // namespace

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Refuses settings whose octave frequencies or amplitudes overflow a double: such a field would
/// evaluate to NaN or infinity everywhere past some octave. `changed` names the parameter being
/// set, so that the message names it first; the others are named too.
void check_growth(const char* changed, int octaves, double frequency, double lacunarity,
                  double persistence) {
  double freq = frequency, amp = 1, sum = 0;
  for (int i = 0; i < octaves; ++i) {
    sum += amp;
    if (!std::isfinite(freq)) {
      detail::throw_invalid(changed, "the frequency of octave " + std::to_string(i) +
                                         ", frequency x lacunarity^" + std::to_string(i) +
                                         ", overflows (frequency " + number(frequency) +
                                         ", lacunarity " + number(lacunarity) + ", " +
                                         std::to_string(octaves) + " octaves)");
    }
    // A quarter of the largest double leaves room for the fractal bound (docs/ranges.md).
    if (!(sum <= std::numeric_limits<double>::max() / 4)) {
      detail::throw_invalid(changed,
                            "the sum of the amplitudes persistence^i overflows (persistence " +
                                number(persistence) + ", " + std::to_string(octaves) + " octaves)");
    }
    freq *= lacunarity;
    amp *= persistence;
  }
}

}  // namespace

fractal& fractal::set_octaves(int n) {
  if (n < 1 || n > k_max_octaves) {
    detail::throw_invalid(
        "octaves", "must be 1 to " + std::to_string(k_max_octaves) + ", got " + std::to_string(n));
  }
  check_growth("octaves", n, frequency_, lacunarity_, persistence_);
  octaves_ = n;
  return *this;
}

fractal& fractal::set_frequency(double f) {
  check_finite("frequency", f);
  if (!(f > 0)) detail::throw_invalid("frequency", "must be > 0");
  check_growth("frequency", octaves_, f, lacunarity_, persistence_);
  frequency_ = f;
  return *this;
}

fractal& fractal::set_lacunarity(double l) {
  check_finite("lacunarity", l);
  if (!(l > 0)) detail::throw_invalid("lacunarity", "must be > 0");
  check_growth("lacunarity", octaves_, frequency_, l, persistence_);
  lacunarity_ = l;
  return *this;
}

fractal& fractal::set_persistence(double p) {
  check_finite("persistence", p);
  if (!(p >= 0)) detail::throw_invalid("persistence", "must be >= 0");
  check_growth("persistence", octaves_, frequency_, lacunarity_, p);
  persistence_ = p;
  return *this;
}

fractal& fractal::set_ridged_offset(double offset) {
  check_finite("ridged-offset", offset);
  if (!(offset >= 0 && offset <= k_max_ridged_offset)) {
    detail::throw_invalid(
        "ridged-offset", "must be 0 to " + number(k_max_ridged_offset) + ", got " + number(offset));
  }
  ridged_offset_ = offset;
  return *this;
}

fractal& fractal::set_erosion(double k) {
  check_finite("erosion", k);
  if (!(k >= 0 && k <= k_max_erosion)) {
    detail::throw_invalid("erosion",
                          "must be 0 to " + number(k_max_erosion) + ", got " + number(k));
  }
  erosion_ = k;
  return *this;
}

fractal& fractal::set_ridged_gain(double gain) {
  check_finite("ridged-gain", gain);
  if (!(gain >= 0 && gain <= k_max_ridged_gain)) {
    detail::throw_invalid("ridged-gain",
                          "must be 0 to " + number(k_max_ridged_gain) + ", got " + number(gain));
  }
  ridged_gain_ = gain;
  return *this;
}

double fractal::amplitude_sum() const noexcept {
  double sum = 0;
  double amp = 1;
  for (int i = 0; i < active_octaves(); ++i) {
    sum += amp;
    amp *= persistence_;
  }
  return sum;
}

double fractal::bound(double base) const noexcept {
  const double sum = amplitude_sum();
  double b = 0;
  switch (kind_) {
    case fractal_kind::none:
      b = base;
      break;
    case fractal_kind::fbm:
    case fractal_kind::turbulence:
    case fractal_kind::eroded:  // |n_i / (1 + k |G_i|^2)| <= |n_i|
      b = base * sum;
      break;
    case fractal_kind::billow:
      b = std::max(1.0, 2 * base - 1) * sum;
      break;
    case fractal_kind::ridged: {  // (offset - |n|)^2 w with |n| <= base and 0 <= w <= 1
      const double lo = base - ridged_offset_;
      b = std::max(ridged_offset_ * ridged_offset_, lo * lo) * sum;
      break;
    }
  }
  return normalize_ ? b / sum : b;
}

template <class Noise, class T>
T fractal::sum(const Noise& noise, std::span<const T> p, std::span<T> gradient) const {
  return detail::dispatch_dims(p, gradient, [&]<int D>(const T* x, T* g) {
    return fractal_sum<D, T>(*this, noise.lattice(), detail::base_of<D, T>(noise), x, g);
  });
}

template double fractal::sum<improved_noise, double>(const improved_noise&, std::span<const double>,
                                                     std::span<double>) const;
template float fractal::sum<improved_noise, float>(const improved_noise&, std::span<const float>,
                                                   std::span<float>) const;
template double fractal::sum<value_noise, double>(const value_noise&, std::span<const double>,
                                                  std::span<double>) const;
template float fractal::sum<value_noise, float>(const value_noise&, std::span<const float>,
                                                std::span<float>) const;
template double fractal::sum<simplex_noise, double>(const simplex_noise&, std::span<const double>,
                                                    std::span<double>) const;
template float fractal::sum<simplex_noise, float>(const simplex_noise&, std::span<const float>,
                                                  std::span<float>) const;
template double fractal::sum<opensimplex2_noise, double>(const opensimplex2_noise&,
                                                         std::span<const double>,
                                                         std::span<double>) const;
template float fractal::sum<opensimplex2_noise, float>(const opensimplex2_noise&,
                                                       std::span<const float>,
                                                       std::span<float>) const;
template double fractal::sum<opensimplex2s_noise, double>(const opensimplex2s_noise&,
                                                          std::span<const double>,
                                                          std::span<double>) const;
template float fractal::sum<opensimplex2s_noise, float>(const opensimplex2s_noise&,
                                                        std::span<const float>,
                                                        std::span<float>) const;
template double fractal::sum<cellular_noise, double>(const cellular_noise&, std::span<const double>,
                                                     std::span<double>) const;
template float fractal::sum<cellular_noise, float>(const cellular_noise&, std::span<const float>,
                                                   std::span<float>) const;
template double fractal::sum<libnoise_voronoi_noise, double>(const libnoise_voronoi_noise&,
                                                             std::span<const double>,
                                                             std::span<double>) const;
template float fractal::sum<libnoise_voronoi_noise, float>(const libnoise_voronoi_noise&,
                                                           std::span<const float>,
                                                           std::span<float>) const;

}  // namespace perlin
