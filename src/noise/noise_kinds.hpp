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
// and the golden tests; every front then offers it through the `noise` option. Its own options
// (OpenSimplex2's orientation, cellular noise's distance, ...) are members of field_spec and
// rows of the option table (option_table.cpp), with `used` saying when they apply; the row's
// make reads them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/cellular.hpp"
#include "detail/libnoise_voronoi.hpp"
#include "detail/octaves.hpp"
#include "detail/opensimplex2.hpp"
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
  /// |noise| <= bound(noise, dims) at every point, for every seed (docs/ranges.md,
  /// docs/noise.md); the kind's own options may enter it (cellular noise's distance).
  double (*bound)(const field::noise_variant& n, std::size_t dims) = nullptr;
  /// Null, or whether the noise is never negative with these settings (cellular F1, F2, F2 - F1):
  /// then plain and fBm fields' ranges start at 0 instead of -bound (field::range).
  bool (*nonnegative)(const field::noise_variant& n) = nullptr;
  /// Empty: the kind has a Hessian (the eroded fractal's derivatives); else why eroded is refused.
  std::string_view no_eroded = {};
  /// Null, or a check of a point's dimension against the kind's own options (OpenSimplex2's
  /// orientation): throws perlin::invalid_argument.
  void (*check_dims)(const field::noise_variant& n, std::size_t dims) = nullptr;
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
/// Throws perlin::invalid_argument (parameter "fractal") for an eroded fractal over a kind
/// without a Hessian, with the row's reason.
void check_noise_fractal(noise_kind k, fractal_kind f);

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

/// A double kernel `f(x, g)` (x: D doubles, g: D doubles or null) as a base of any T: the
/// coordinates widened, the value and gradient rounded to T.
template <int D, class T, class F>
T double_kernel(const F& f, const T* q, T* dq) noexcept {
  double x[4] = {0, 0, 0, 0};
  for (int k = 0; k < D; ++k) x[k] = static_cast<double>(q[k]);
  if constexpr (std::is_same_v<T, double>) {
    return f(x, dq);
  } else {
    double g[4] = {0, 0, 0, 0};
    const double v = f(x, dq != nullptr ? g : nullptr);
    if (dq != nullptr) {
      for (int k = 0; k < D; ++k) dq[k] = static_cast<T>(g[k]);
    }
    return static_cast<T>(v);
  }
}

/// Kinds without a Hessian: eroded is refused for them (check_noise_fractal); NaN if reached.
template <int D, class T>
void no_hessian(T* h) noexcept {
  for (int k = 0; k < D * D; ++k) h[k] = std::numeric_limits<T>::quiet_NaN();
}

/// OpenSimplex2 (Smooth false) or OpenSimplex2S: the reference's float, widened to double (the
/// value of the double path; the float path rounds nothing more). `variant` is the orientation's
/// function in D dimensions; `valid` false (the orientation does not exist in D, refused before
/// by check_dims; or D = 1) gives NaN. Perm and wraps are unused: the seed is the reference's.
template <int D, class T, bool Smooth>
struct opensimplex2_base {
  std::int64_t seed = 0;
  os2_variant variant = os2_variant::noise2;
  bool valid = false;
  T operator()(const std::uint8_t*, const axis_wrap*, const T* q, T* dq) const noexcept {
    return double_kernel<D, T>(
        [&](const double* x, double* g) -> double {
          if (!valid) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            if (g != nullptr) std::fill(g, g + D, nan);
            return nan;
          }
          if (g == nullptr)
            return Smooth ? opensimplex2s(variant, seed, x) : opensimplex2(variant, seed, x);
          return Smooth ? opensimplex2s_gradient(variant, seed, x, g)
                        : opensimplex2_gradient(variant, seed, x, g);
        },
        q, dq);
  }
  void hessian(const std::uint8_t*, const axis_wrap*, const T*, T* h) const noexcept {
    no_hessian<D, T>(h);
  }
};

/// Cellular noise (cellular.hpp) on the octave's permutation and wraps, in double.
template <int D, class T>
struct cellular_base {
  cellular_params params;
  T operator()(const std::uint8_t* perm, const axis_wrap* w, const T* q, T* dq) const noexcept {
    return double_kernel<D, T>(
        [&](const double* x, double* g) { return cellular(perm, w, params, x, D, g); }, q, dq);
  }
  void hessian(const std::uint8_t*, const axis_wrap*, const T*, T* h) const noexcept {
    no_hessian<D, T>(h);
  }
};

/// libnoise's Voronoi at frequency 1 (the fractal scaled the point), 1 to 3 coordinates, the
/// missing ones 0; D = 4 (refused by the row's dimensions) gives NaN.
template <int D, class T>
struct libnoise_voronoi_base {
  int seed = 0;
  double displacement = 1.0;
  bool distance = false;
  T operator()(const std::uint8_t*, const axis_wrap*, const T* q, T* dq) const noexcept {
    return double_kernel<D, T>(
        [&](const double* x, double* g) -> double {
          if constexpr (D > 3) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            if (g != nullptr) std::fill(g, g + D, nan);
            return nan;
          } else {
            double g3[3];
            const double v = libnoise_voronoi(x[0], x[1], x[2], 1.0, seed, displacement, distance,
                                              g != nullptr ? g3 : nullptr);
            if (g != nullptr) std::copy(g3, g3 + D, g);
            return v;
          }
        },
        q, dq);
  }
  void hessian(const std::uint8_t*, const axis_wrap*, const T*, T* h) const noexcept {
    no_hessian<D, T>(h);
  }
};

/// The reference's function for an orientation in D dimensions, and whether it exists there.
std::pair<os2_variant, bool> os2_variant_of(os2_orientation o, int dims) noexcept;

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
template <int D, class T, bool Smooth>
opensimplex2_base<D, T, Smooth> base_of(const basic_opensimplex2<Smooth>& n) noexcept {
  const auto [variant, valid] = os2_variant_of(n.orientation(), D);
  return {n.seed(), variant, valid};
}
template <int D, class T>
cellular_base<D, T> base_of(const cellular_noise& n) noexcept {
  return {{static_cast<cellular_distance>(n.metric()), static_cast<cellular_return>(n.output()),
           n.jitter()}};
}
template <int D, class T>
libnoise_voronoi_base<D, T> base_of(const libnoise_voronoi_noise& n) noexcept {
  return {n.seed(), n.displacement(), n.distance()};
}

}  // namespace perlin::detail
