// The scalar reference: one generic implementation of gradient (improved) and value noise for 1
// to 4 dimensions, with analytic derivatives. The single source of truth that every other path
// is tested against (docs/exactness.md).
//
// Compiled with -ffp-contract=off (CMakeLists.txt): the double 3-D path must evaluate in the same
// order as Ken Perlin's Java code, with no fused multiply-add, to reproduce it bit for bit.
#pragma once

// -ffast-math folds std::isfinite to true (the NaN guards become undefined conversions) and
// reorders sums (the reference values no longer hold): refuse it rather than be wrong.
#if defined(__FAST_MATH__)
#error "perlin's exact paths cannot be compiled with -ffast-math (docs/exactness.md)"
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "detail/lattice_index.hpp"
#include "detail/primitives.hpp"
#include "detail/single_calls.hpp"  // improved_fast: the values of 2-D and 3-D
#include "perlin/lattice.hpp"
#include "perlin/value_noise.hpp"

namespace perlin::detail {

/// Multilinear reduction of corner values with per-axis weights, x first, in the reference order.
template <int D, class T>
inline T reduce(T* c, const T* t) noexcept {
  int n = 1 << D;
  for (int k = 0; k < D; ++k) {
    n >>= 1;
    for (std::size_t j = 0; j < static_cast<std::size_t>(n); ++j)
      c[j] = lerp(t[k], c[2 * j], c[2 * j + 1]);
  }
  return c[0];
}

/// sum_c v_c prod_k w_k(c), where axis k's weight is differentiated (once) when bit k of `mask`
/// is set: +1 or -1 by the corner's bit, else t_k or 1 - t_k. The derivatives of the
/// multilinear blend of corner values (its second derivative along one axis is 0), computed as
/// reduce() does, axis by axis: a differentiated axis takes b - a instead of the lerp.
template <int D, class T>
inline T weight_sum(const T* v, const T* t, unsigned mask) noexcept {
  T c[1 << D];
  std::copy(v, v + (1 << D), c);
  int n = 1 << D;
  for (int k = 0; k < D; ++k) {
    n >>= 1;
    const bool diff = ((mask >> k) & 1) != 0;
    for (int j = 0; j < n; ++j)
      c[j] = diff ? c[2 * j + 1] - c[2 * j] : lerp(t[k], c[2 * j], c[2 * j + 1]);
  }
  return c[0];
}

/// Partial derivatives of sum_c W_c(t) v_c where W_c = prod_k (bit_k ? t_k : 1 - t_k), times the
/// derivative dt_k of each weight, added to `out`.
template <int D, class T>
inline void weight_gradient(const T* v, const T* t, const T* dt, T* out) noexcept {
  for (int k = 0; k < D; ++k) out[k] += weight_sum<D>(v, t, 1u << k) * dt[k];
}

/// Improved gradient noise at x[0..D-1]; when `grad` is not null it receives the D partials.
template <int D, class T>
T improved(const std::uint8_t* p, const axis_wrap* wrap, const T* x, T* grad) noexcept {
  static_assert(D >= 1 && D <= 4);
  // Values alone in 2-D and 3-D (the hot single calls and fractal octaves) take the written-out
  // path; it gives the same bits.
  if constexpr (D == 2) {
    if (grad == nullptr) return improved_fast<2, T>(p, wrap, x[0], x[1]);
  } else if constexpr (D == 3) {
    if (grad == nullptr) return improved_fast<3, T>(p, wrap, x[0], x[1], x[2]);
  }
  if (!all_finite<T, D>(x)) [[unlikely]]
    return fail_nan<T, D>(grad);
  constexpr int n = 1 << D;
  axis_index idx[4] = {};
  T f[D];
  T u[D];
  for (int k = 0; k < D; ++k) {
    idx[k] = split_axis(x[k], wrap[k], f[k]);
    u[k] = fade(f[k]);
  }
  std::uint32_t h[16];
  hash_corners<D>(p, idx, h);
  T c[n];
  for (int corner = 0; corner < n; ++corner) {
    T dot;
    if constexpr (D == 4) {
      const auto& g = k_grad4[h[corner] & 31];
      dot = T(g[0]) * ((corner & 1) ? f[0] - T(1) : f[0]);
      for (int k = 1; k < 4; ++k) dot = dot + T(g[k]) * (((corner >> k) & 1) ? f[k] - T(1) : f[k]);
    } else {
      const auto& g = k_grad3[h[corner] & 15];
      dot = T(g[0]) * ((corner & 1) ? f[0] - T(1) : f[0]);
      for (int k = 1; k < D; ++k) dot = dot + T(g[k]) * (((corner >> k) & 1) ? f[k] - T(1) : f[k]);
    }
    c[corner] = dot;
  }
  if (grad != nullptr) {
    // d/dx_k = (weights interpolating the gradients' k-th components) + dfade * d/du_k.
    T gk[n];
    T dt[D];
    for (int k = 0; k < D; ++k) dt[k] = dfade(f[k]);
    for (int k = 0; k < D; ++k) {
      for (int corner = 0; corner < n; ++corner) {
        gk[corner] = T(D == 4 ? k_grad4[h[corner] & 31][k] : k_grad3[h[corner] & 15][k]);
      }
      grad[k] = reduce<D>(gk, u);
    }
    weight_gradient<D>(c, u, dt, grad);
  }
  return reduce<D>(c, u);
}

/// The blend weight of value noise and its derivative.
template <class T>
inline T interp_weight(interpolation kind, T t, T* dt) noexcept {
  constexpr T pi = T(3.14159265358979323846);
  switch (kind) {
    case interpolation::linear:
      *dt = T(1);
      return t;
    case interpolation::cosine:
      *dt = T(0.5) * pi * std::sin(pi * t);
      return T(0.5) - T(0.5) * std::cos(pi * t);
    case interpolation::cubic:
      *dt = T(6) * t * (T(1) - t);
      return t * t * (T(3) - T(2) * t);
    case interpolation::quintic:
    default:
      *dt = dfade(t);
      return fade(t);
  }
}

/// The blend weight of an axis: Ken Perlin's fade for improved noise, the chosen interpolation
/// for value noise (used where a whole field's weight is needed without its derivative).
template <class T>
inline T blend_weight(bool improved, interpolation kind, T t) noexcept {
  if (improved) return fade(t);
  T unused;
  return interp_weight(kind, t, &unused);
}

/// Value noise at x[0..D-1], in [-1, 1]; when `grad` is not null it receives the D partials.
template <int D, class T>
T value(const std::uint8_t* p, const axis_wrap* wrap, interpolation kind, const T* x,
        T* grad) noexcept {
  static_assert(D >= 1 && D <= 4);
  if (!all_finite<T, D>(x)) [[unlikely]]
    return fail_nan<T, D>(grad);
  constexpr int n = 1 << D;
  axis_index idx[4] = {};
  T s[D];
  T ds[D];
  for (int k = 0; k < D; ++k) {
    T f;
    idx[k] = split_axis(x[k], wrap[k], f);
    s[k] = interp_weight(kind, f, &ds[k]);
  }
  std::uint32_t h[16];
  hash_corners<D>(p, idx, h);
  T c[n];
  // h / 127.5 - 1 maps 0 -> -1 and 255 -> +1 exactly.
  for (int corner = 0; corner < n; ++corner) c[corner] = T(h[corner]) / T(127.5) - T(1);
  if (grad != nullptr) {
    for (int k = 0; k < D; ++k) grad[k] = 0;
    weight_gradient<D>(c, s, ds, grad);
  }
  return reduce<D>(c, s);
}

/// The second derivative of an axis's blend weight: Ken Perlin's fade for improved noise, or the
/// value-noise interpolation `kind`.
template <class T>
inline T blend_second_derivative(bool improved, interpolation kind, T t) noexcept {
  constexpr T pi = T(3.14159265358979323846);
  if (improved || kind == interpolation::quintic) return T(60) * t * (t - T(1)) * (T(2) * t - T(1));
  switch (kind) {
    case interpolation::linear:
      return T(0);
    case interpolation::cosine:
      return T(0.5) * pi * pi * std::cos(pi * t);
    case interpolation::cubic:
    default:
      return T(6) - T(12) * t;
  }
}

/// The Hessian of improved (`improved`) or value noise at x[0..D-1], row-major D x D into
/// `hess`: the second derivatives that the eroded fractal's analytic gradient needs (the value
/// and first partials come from improved() and value(), whose bits they keep). NaN coordinates
/// give NaN.
template <int D, class T>
void noise_hessian(bool improved, interpolation kind, const std::uint8_t* p, const axis_wrap* wrap,
                   const T* x, T* hess) noexcept {
  if (!all_finite<T, D>(x)) [[unlikely]] {
    std::fill(hess, hess + D * D, std::numeric_limits<T>::quiet_NaN());
    return;
  }
  constexpr int n = 1 << D;
  axis_index idx[4] = {};
  T f[D], w[D], dw[D], d2w[D];
  for (int k = 0; k < D; ++k) {
    idx[k] = split_axis(x[k], wrap[k], f[k]);
    if (improved) {
      w[k] = fade(f[k]);
      dw[k] = dfade(f[k]);
    } else {
      w[k] = interp_weight(kind, f[k], &dw[k]);
    }
    d2w[k] = blend_second_derivative(improved, kind, f[k]);
  }
  std::uint32_t h[16];
  hash_corners<D>(p, idx, h);
  // v: the corner values (improved: the dot products; value: the hashed levels); g[k]: the
  // corners' gradient components along k (improved only).
  T v[n];
  T g[D][n];
  for (int c = 0; c < n; ++c) {
    if (!improved) {
      v[c] = T(h[c]) / T(127.5) - T(1);
      continue;
    }
    T dot = 0;
    for (int k = 0; k < D; ++k) {
      g[k][c] = T(D == 4 ? k_grad4[h[c] & 31][k] : k_grad3[h[c] & 15][k]);
      dot += g[k][c] * (((c >> k) & 1) ? f[k] - T(1) : f[k]);
    }
    v[c] = dot;
  }
  for (int k = 0; k < D; ++k) {
    for (int l = k; l < D; ++l) {
      T s = 0;
      if (k == l) {
        s = d2w[k] * weight_sum<D>(v, w, 1u << k);
      } else {
        s = dw[k] * dw[l] * weight_sum<D>(v, w, (1u << k) | (1u << l));
      }
      if (improved) {
        // The corner gradients' own blend: d/dx_l of sum_c W_c g_ck, and the same with k, l
        // swapped.
        s += dw[l] * weight_sum<D>(g[k], w, 1u << l) + dw[k] * weight_sum<D>(g[l], w, 1u << k);
      }
      hess[k * D + l] = s;
      hess[l * D + k] = s;
    }
  }
}

}  // namespace perlin::detail
