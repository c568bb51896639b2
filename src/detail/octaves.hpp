// The octave recurrence of a fractal, in one place: the scalar path (fractal.cpp) and the bulk
// plans (grid.cpp) both walk it, so their octaves can never drift apart.
#pragma once

#include <array>
#include <cstdint>

#include "detail/lattice_index.hpp"
#include "detail/reference.hpp"
#include "detail/wrap.hpp"
#include "perlin/fractal.hpp"
#include "perlin/lattice.hpp"

namespace perlin::detail {

/// Decorrelation offsets per axis (documented on fractal::set_decorrelate). Each has an odd
/// number of 128ths as its fraction, so i * offset is off the lattice for every octave i < 128,
/// and adding it to a coordinate on a coarse dyadic grid is exact, which keeps periods exact.
inline constexpr std::array<double, 4> k_decorrelate_offsets = {101.6171875, 67.4140625, 43.7265625,
                                                                29.2421875};

/// The integer lacunarity that scales periods between octaves, or 1 when it is not an integer
/// (then the octaves keep the base period and the fractal does not tile).
inline std::uint64_t integral_lacunarity(double lacunarity) noexcept {
  const bool integral =
      lacunarity == std::floor(lacunarity) && lacunarity >= 1.0 && lacunarity < 4294967296.0;
  return integral ? static_cast<std::uint64_t>(lacunarity) : 1;
}

/// Multiplies every set period by the integer lacunarity, for the next octave. A period stays
/// below 2^62: once capped, the octave wraps with the table's own period 256 (2^62 is a multiple
/// of it) instead of P * L^i. For improved noise that is unobservable (octave coordinates beyond
/// 2^52 are integers, where it is 0); value noise takes its lattice values there, so such an
/// octave of value noise no longer tiles with P * L^i, which no finite image can show anyway.
inline void scale_periods(std::array<axis_wrap, k_max_dims>& wraps, std::uint64_t lac) noexcept {
  constexpr std::uint64_t cap = 1ULL << 62;
  if (lac <= 1) return;
  for (auto& w : wraps) {
    if (w.period != 0) w = make_axis_wrap(w.period > cap / lac ? cap : w.period * lac);
  }
}

/// Octave i of a fractal over a lattice: frequency f_i = frequency * lacunarity^i and amplitude
/// a_i = persistence^i (accumulated in double from octave 0 upward, in this order), the
/// decorrelation offset i * k_decorrelate_offsets (or 0), and the periods scaled by the integer
/// lacunarity^i. Start with `octave_walk w(f, lattice)`, read `w.freq`, ..., then `w.next()`.
struct octave_walk {
  octave_walk(const fractal& f, const lattice& l) noexcept
      : freq(f.frequency()),
        wraps(detail::wraps_of(l)),
        lacunarity_(f.lacunarity()),
        persistence_(f.persistence()),
        lacunarity_int_(integral_lacunarity(f.lacunarity())),
        decorrelate_(f.decorrelate()) {}

  int index = 0;
  double freq;
  double amp = 1;
  std::array<axis_wrap, k_max_dims> wraps;

  /// The offset of this octave along `axis`, in its own lattice units.
  [[nodiscard]] double offset(std::size_t axis) const noexcept {
    return decorrelate_ ? index * k_decorrelate_offsets[axis] : 0.0;
  }
  [[nodiscard]] bool decorrelated() const noexcept { return decorrelate_; }

  void next() noexcept {
    ++index;
    amp *= persistence_;
    freq *= lacunarity_;
    scale_periods(wraps, lacunarity_int_);
  }

 private:
  double lacunarity_, persistence_;
  std::uint64_t lacunarity_int_;
  bool decorrelate_;
};

/// The base noises in the form fractal_sum and plain_octave call them: base(perm, wraps, q, dq).
template <int D, class T>
struct improved_base {
  T operator()(const std::uint8_t* perm, const axis_wrap* w, const T* q, T* dq) const noexcept {
    return improved<D, T>(perm, w, q, dq);
  }
  void hessian(const std::uint8_t* perm, const axis_wrap* w, const T* q, T* h) const noexcept {
    noise_hessian<D, T>(true, interpolation::quintic, perm, w, q, h);
  }
};
template <int D, class T>
struct value_base {
  interpolation interp;
  T operator()(const std::uint8_t* perm, const axis_wrap* w, const T* q, T* dq) const {
    return value<D, T>(perm, w, interp, q, dq);
  }
  void hessian(const std::uint8_t* perm, const axis_wrap* w, const T* q, T* h) const noexcept {
    noise_hessian<D, T>(false, interp, perm, w, q, h);
  }
};

/// A fractal of kind none (one octave) without gradient: exactly the operations that the octave
/// loop of fractal.cpp performs for it (amplitude 1, offset 0, sum of amplitudes 1), without the
/// walk. `base(perm, wraps, q, nullptr)` is the noise. The scalar path and the double grids
/// (grid.cpp) both call it, so they give the same bits.
template <int D, class T, class Base>
inline T plain_octave(const fractal& f, const lattice& l, Base&& base, const T* x) noexcept {
  const T freq = static_cast<T>(f.frequency());
  T q[D];
  for (int k = 0; k < D; ++k) {
    q[k] = x[k] * freq;
    if (f.decorrelate()) q[k] = q[k] + T(0);
  }
  T total =
      T(0) + base(l.perm().data(), detail::wraps_of(l).data(), q, static_cast<T*>(nullptr)) * T(1);
  if (f.normalize()) total /= T(1);
  return total;
}

}  // namespace perlin::detail
