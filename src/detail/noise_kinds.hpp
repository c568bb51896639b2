// The noise kinds as rows of one table (src/noise/noise_kinds.cpp): what the option table, the
// field, the bulk routes, the ranges and the shader emitter ask about a base noise.
//
// A kind is three things, each in one place:
//   1. its class (improved_noise, value_noise, simplex_noise, ...): one alternative of
//      field::noise_variant (include/perlin/field.hpp), in the order of enum noise_kind;
//   2. its kernel for the octave loops: one overload of base_of<D, T>(const Noise&) below, an
//      object with `T operator()(perm, wraps, q, dq)` (the value, and the analytic gradient into
//      dq when not null) and `void hessian(perm, wraps, q, h)` (the eroded fractal's
//      derivatives). The fractal sum (fractal.cpp), the warp (warp.cpp) and the plain double
//      grids (grid.cpp) reach every kind through it, with D and T fixed at compile time;
//   3. its row in noise_kinds.cpp: name, help, dimensions, whether periods and --plane rotated
//      apply (else the reason they are refused), its bound, how make_field builds it from a
//      field_spec, whether the SIMD kernels and the shader emitter cover it.
// Adding a kind: its class and header, the enum value and variant alternative (field.hpp), its
// base_of overload (here), its row, fractal.cpp's two explicit instantiations of fractal::sum,
// and the golden tests; every front then offers it through the `noise` option.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "detail/simplex.hpp"
#include "perlin/field.hpp"
#include "perlin/field_spec.hpp"

namespace perlin::detail {

/// One noise kind.
struct noise_kind_row {
  noise_kind kind = noise_kind::improved;
  std::string_view name = {};  ///< the `noise` option's value
  std::string_view help =
      {};  ///< a phrase for the option's help: "simplex (Gustavson 2012, 2-D to 4-D)"
  std::size_t min_dims = 1, max_dims = 4;  ///< the coordinates a point may have
  std::string_view dims_reason = {};       ///< why the other dimensions are refused
  std::string_view no_periods = {};  ///< empty: the lattice's periods tile it; else why refused
  std::string_view no_rotated = {};  ///< empty: --plane rotated applies; else why refused
  /// |noise| <= bound(dims) at every point, for every seed (docs/ranges.md, docs/noise.md).
  double (*bound)(std::size_t dims) = nullptr;
  /// The noise of a lattice and the spec's kind-specific options (make_field).
  field::noise_variant (*make)(const lattice& l, const field_spec& s) = nullptr;
  /// The SIMD row, sample and point kernels and the exact double rows (src/simd, src/bulk)
  /// compute it; else every bulk call takes the double scalar path (route_of).
  bool simd = false;
  /// The shader emitter (src/shader) writes it; else shader_source refuses, with no_shader.
  bool shader = false;
  std::string_view no_shader = {};
};

/// The row of `k`.
[[nodiscard]] const noise_kind_row& noise_kind_of(noise_kind k) noexcept;
/// Every row, in the order of enum noise_kind.
[[nodiscard]] std::span<const noise_kind_row> noise_kind_rows() noexcept;
/// Throws perlin::invalid_argument (parameter "noise") when the kind does not take `dims`
/// coordinates, with the row's reason.
void check_noise_dims(noise_kind k, std::size_t dims);
/// Throws perlin::invalid_argument (parameter "period") when the kind has no periods and the
/// lattice has one, with the row's reason.
void check_noise_periods(noise_kind k, const lattice& l);

// The kernels: base_of<D, T>(noise), one overload per kind.

/// Simplex noise's kernel: the double path (simplex.hpp) whatever T, rounded to T; the lattice's
/// wraps are unused (simplex noise has no periods). D = 1 is never called (check_noise_dims):
/// it gives NaN.
template <int D, class T>
struct simplex_base {
  T operator()(const std::uint8_t* perm, const axis_wrap*, const T* q, T* dq) const noexcept {
    double x[4] = {0, 0, 0, 0};
    for (int k = 0; k < D; ++k) x[k] = static_cast<double>(q[k]);
    if constexpr (std::is_same_v<T, double>) return simplex(D, perm, x, dq, nullptr);
    double g[4];
    const double v = simplex(D, perm, x, dq != nullptr ? g : nullptr, nullptr);
    if (dq != nullptr) {
      for (int k = 0; k < D; ++k) dq[k] = static_cast<T>(g[k]);
    }
    return static_cast<T>(v);
  }
  void hessian(const std::uint8_t* perm, const axis_wrap*, const T* q, T* h) const noexcept {
    double x[4] = {0, 0, 0, 0};
    for (int k = 0; k < D; ++k) x[k] = static_cast<double>(q[k]);
    double hd[16];
    simplex(D, perm, x, nullptr, hd);
    for (int k = 0; k < D * D; ++k) h[k] = static_cast<T>(hd[k]);
  }
};

template <int D, class T>
improved_base<D, T> base_of(const improved_noise&) noexcept {
  return {};
}
template <int D, class T>
value_base<D, T> base_of(const value_noise& n) noexcept {
  return {n.interp()};
}
template <int D, class T>
simplex_base<D, T> base_of(const simplex_noise&) noexcept {
  return {};
}

}  // namespace perlin::detail
