// Domain warping: the settings' checks and the displacement with its Jacobian (perlin/warp.hpp).
#include "perlin/warp.hpp"

#include <array>
#include <cmath>
#include <string>

#include "detail/error.hpp"
#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "field/warp_displacement.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/fractal.hpp"

namespace perlin {

warp& warp::set_amplitude(double a) {
  if (!std::isfinite(a)) detail::throw_invalid("warp-amplitude", "must be finite");
  if (!(a >= 0)) detail::throw_invalid("warp-amplitude", "must be >= 0");
  amplitude_ = a;
  return *this;
}

warp& warp::set_frequency(double f) {
  if (!std::isfinite(f)) detail::throw_invalid("warp-frequency", "must be finite");
  if (!(f > 0) || f > 4294967296.0)
    detail::throw_invalid("warp-frequency", "must be > 0 and at most 4294967296");
  frequency_ = f;
  return *this;
}

warp& warp::set_octaves(int n) {
  if (n < 1 || n > k_max_octaves) {
    detail::throw_invalid("warp-octaves", "must be 1 to " + std::to_string(k_max_octaves) +
                                              ", got " + std::to_string(n));
  }
  octaves_ = n;
  return *this;
}

namespace detail {

namespace {

/// o_ik on every axis: ((4 i + k + 1) h) mod 256, computed once. h has 8 fraction bits, so in
/// units of 1/256 it is an integer and the product and the reduction are exact integers: the
/// same doubles as fmod gives, without an fmod per sample in the warp loop.
constexpr auto k_warp_offsets = [] {
  std::array<std::array<std::array<double, k_max_dims>, k_max_dims>, k_max_octaves> t{};
  for (std::size_t i = 0; i < t.size(); ++i) {
    for (std::size_t k = 0; k < k_max_dims; ++k) {
      for (std::size_t a = 0; a < k_max_dims; ++a) {
        const auto h = static_cast<std::uint64_t>(k_decorrelate_offsets[a] * 256.0);
        t[i][k][a] = static_cast<double>(((4 * i + k + 1) * h) % 65536) / 256.0;
      }
    }
  }
  return t;
}();

}  // namespace

double warp_offset(int octave, std::size_t component, std::size_t axis) noexcept {
  return k_warp_offsets[static_cast<std::size_t>(octave)][component][axis];
}

namespace {

template <int D, class T, class Noise>
void displace_d(const warp& w, const lattice& l, Noise&& noise, double frequency, T* x,
                T* jac) noexcept {
  const std::uint8_t* perm = l.perm().data();
  std::array<detail::axis_wrap, k_max_dims> wraps = detail::wraps_of(l);
  T origin[D];
  for (int k = 0; k < D; ++k) origin[k] = x[k];
  if (jac != nullptr) {
    for (int r = 0; r < D; ++r) {
      for (int c = 0; c < D; ++c) jac[r * D + c] = r == c ? T(1) : T(0);
    }
  }
  const bool progressive = w.kind() == warp_kind::progressive;
  double freq = frequency * w.frequency();   // u_i = f F 2^i
  double scale = w.amplitude() / frequency;  // (A / f) a_i, in the caller's units
  for (int i = 0; i < w.active_octaves(); ++i) {
    const T* from = progressive ? x : origin;
    T disp[D];
    T m[D][D];  // d n_ik / d q_c, the noise's own gradient
    for (int k = 0; k < D; ++k) {
      T q[D];
      for (int c = 0; c < D; ++c) {
        q[c] = from[c] * static_cast<T>(freq) +
               static_cast<T>(
                   warp_offset(i, static_cast<std::size_t>(k), static_cast<std::size_t>(c)));
      }
      disp[k] = noise(perm, wraps.data(), q, jac != nullptr ? m[k] : nullptr);
    }
    const T s = static_cast<T>(scale);
    if (jac != nullptr) {
      // d disp_k / d from_c = s u_i m[k][c]; from = x (progressive: J <- (I + s u M) J) or the
      // original point (independent: J <- J + s u M).
      const T su = static_cast<T>(scale * freq);
      if (progressive) {
        T next[D * D];
        for (int r = 0; r < D; ++r) {
          for (int c = 0; c < D; ++c) {
            T acc = 0;
            for (int j = 0; j < D; ++j) acc += m[r][j] * jac[j * D + c];
            next[r * D + c] = jac[r * D + c] + su * acc;
          }
        }
        for (int e = 0; e < D * D; ++e) jac[e] = next[e];
      } else {
        for (int r = 0; r < D; ++r) {
          for (int c = 0; c < D; ++c) jac[r * D + c] += su * m[r][c];
        }
      }
    }
    for (int k = 0; k < D; ++k) x[k] += s * disp[k];
    freq *= 2;
    scale *= 0.5;
    scale_periods(wraps, 2);
  }
}

}  // namespace

template <class T>
void displace(const warp& w, const lattice& l, const field::noise_variant& base, double frequency,
              std::span<T> x, std::span<T> jacobian) noexcept {
  const auto run = [&]<int D>() {
    T* jac = jacobian.empty() ? nullptr : jacobian.data();
    std::visit(
        [&](const auto& n) {
          displace_d<D, T>(w, l, detail::base_of<D, T>(n), frequency, x.data(), jac);
        },
        base);
  };
  switch (x.size()) {
    case 1:
      run.template operator()<1>();
      break;
    case 2:
      run.template operator()<2>();
      break;
    case 3:
      run.template operator()<3>();
      break;
    case 4:
      run.template operator()<4>();
      break;
    default:
      break;
  }
}

template void displace<double>(const warp&, const lattice&, const field::noise_variant&, double,
                               std::span<double>, std::span<double>) noexcept;
template void displace<float>(const warp&, const lattice&, const field::noise_variant&, double,
                              std::span<float>, std::span<float>) noexcept;

lattice warp_lattice(const warp& w, const lattice& field_lattice) {
  lattice out = w.seed() ? lattice(*w.seed()) : lattice(field_lattice);
  for (std::size_t k = 0; k < k_max_dims; ++k) {
    const std::int64_t p = field_lattice.period(k);
    if (p == 0) {
      out.clear_period(k);
      continue;
    }
    const double scaled = static_cast<double>(p) * w.frequency();
    if (scaled != std::floor(scaled) || scaled < 1 || scaled > 2147483647.0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", scaled);
      throw_invalid("warp-frequency",
                    "the field tiles every " + std::to_string(p) + " cells along " + "xyzw"[k] +
                        "; the warp tiles with it only when " + std::to_string(p) +
                        " x warp-frequency is a whole number from 1 to 2147483647 (got " + buf +
                        ")");
    }
    out.set_period(k, static_cast<std::int64_t>(scaled));
  }
  return out;
}

}  // namespace detail

}  // namespace perlin
