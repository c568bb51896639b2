// Fractal sums of octaves over any base noise: fBm, turbulence, ridged multifractal, billow,
// eroded fBm.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/improved_noise.hpp"
#include "perlin/simplex_noise.hpp"
#include "perlin/value_noise.hpp"

namespace perlin {

/// How the octaves are combined. With n_i the base noise of octave i at (f_i * x + o_i), where
/// f_i = frequency * lacunarity^i, a_i = persistence^i and o_i the optional decorrelation offset:
enum class fractal_kind {
  none,        ///< n_0 only: the base noise at `frequency`, octaves ignored
  fbm,         ///< sum a_i n_i (fractional Brownian motion)
  turbulence,  ///< sum a_i |n_i| (Perlin 1985)
  ridged,      ///< Musgrave's ridged multifractal: sum a_i s_i, s_i = (offset - |n_i|)^2 w_i,
               ///< w_0 = 1, w_{i+1} = clamp(gain s_i, 0, 1) (offset 1 and gain 2 by default)
  billow,      ///< sum a_i (2 |n_i| - 1)
  eroded,      ///< derivative-damped fBm (Inigo Quilez): sum a_i n_i / (1 + k |G_i|^2), with G_i
               ///< = sum_{j <= i} grad n_j (each octave's gradient in its own lattice units) and
               ///< k the erosion (1 by default): slopes damp the finer octaves (docs/noise.md)
};

[[nodiscard]] std::string_view to_string(fractal_kind k) noexcept;
/// Parses "none", "fbm", "turbulence", "ridged", "billow", "eroded"; throws
/// perlin::invalid_argument.
[[nodiscard]] fractal_kind parse_fractal_kind(std::string_view name);
/// Every name, in declaration order.
[[nodiscard]] std::vector<std::string> fractal_kind_names();

/// Most octaves a fractal accepts: with lacunarity 2, octave 31 already samples at 2^31 times
/// the base frequency.
inline constexpr int k_max_octaves = 32;
/// The ridged fractal's largest offset and gain (fractal::set_ridged_offset, set_ridged_gain).
inline constexpr double k_max_ridged_offset = 4;
inline constexpr double k_max_ridged_gain = 16;
/// The eroded fractal's largest erosion k (fractal::set_erosion).
inline constexpr double k_max_erosion = 1000;

/// The settings of a fractal sum; every setter validates its value and throws
/// perlin::invalid_argument naming the parameter. Settings whose octaves overflow a double are
/// refused by the setter that would complete them: every octave frequency
/// frequency * lacunarity^i (i < octaves) must be finite, and the sum of the amplitudes
/// persistence^i below DBL_MAX / 4 (the check uses `octaves` whatever the kind, so that
/// set_kind never fails). Evaluation is const and thread safe.
///
/// Summation order (the contract that tests/data/fbm_3d.txt pins): from octave 0 upward,
/// total += n_i * a_i, then a_{i+1} = a_i * persistence and f_{i+1} = f_i * lacunarity. Without
/// normalisation and offsets, with frequency 1 and lacunarity 2, fBm is exactly
/// sum_{i<n} persistence^i noise(2^i x, 2^i y, 2^i z) as in Ken Perlin's octave loop (the usual
/// OctavePerlin).
///
/// Periods: a base noise with period P tiles every fractal when the lacunarity is an integer L:
/// octave i then uses period P * L^i in its own lattice units, so the sum repeats every
/// P / frequency in x. With a non-integer lacunarity the octaves keep period P and the sum does
/// not tile.
class fractal {
 public:
  fractal() noexcept = default;

  /// fbm by default.
  fractal& set_kind(fractal_kind k) noexcept {
    kind_ = k;
    return *this;
  }
  /// 1 to k_max_octaves; default 1.
  fractal& set_octaves(int n);
  /// Frequency of octave 0 (multiplies the coordinates); finite and > 0; default 1.
  fractal& set_frequency(double f);
  /// Frequency ratio between octaves; finite and > 0; default 2.
  fractal& set_lacunarity(double l);
  /// Amplitude ratio between octaves (also called gain); finite and >= 0; default 0.5.
  fractal& set_persistence(double p);
  /// Divide by the sum of amplitudes, as the C seed does; default off.
  fractal& set_normalize(bool on) noexcept {
    normalize_ = on;
    return *this;
  }
  /// Shift octave i by i * (101.6171875, 67.4140625, 43.7265625, 29.2421875) (odd multiples of
  /// 1/128, so never on the lattice for i < 128) in its own lattice units, so that octaves do not
  /// all vanish together at integer points (every octave of plain fBm is 0 at the origin); default
  /// off.
  fractal& set_decorrelate(bool on) noexcept {
    decorrelate_ = on;
    return *this;
  }

  /// Ridged: the ridge height `offset` in s_i = (offset - |n_i|)^2 w_i, 0 to
  /// k_max_ridged_offset; default 1 (libnoise's and FastNoiseLite's offset).
  fractal& set_ridged_offset(double offset);
  /// Ridged: the `gain` in w_{i+1} = clamp(gain s_i, 0, 1), 0 to k_max_ridged_gain; default 2
  /// (libnoise's gain).
  fractal& set_ridged_gain(double gain);

  /// Eroded: the k in a_i n_i / (1 + k |G_i|^2), 0 (plain fBm) to k_max_erosion; default 1.
  fractal& set_erosion(double k);

  [[nodiscard]] fractal_kind kind() const noexcept { return kind_; }
  [[nodiscard]] double erosion() const noexcept { return erosion_; }
  [[nodiscard]] double ridged_offset() const noexcept { return ridged_offset_; }
  [[nodiscard]] double ridged_gain() const noexcept { return ridged_gain_; }
  [[nodiscard]] int octaves() const noexcept { return octaves_; }
  [[nodiscard]] double frequency() const noexcept { return frequency_; }
  [[nodiscard]] double lacunarity() const noexcept { return lacunarity_; }
  [[nodiscard]] double persistence() const noexcept { return persistence_; }
  [[nodiscard]] bool normalize() const noexcept { return normalize_; }
  [[nodiscard]] bool decorrelate() const noexcept { return decorrelate_; }
  /// The number of octaves actually summed (1 for fractal_kind::none).
  [[nodiscard]] int active_octaves() const noexcept {
    return kind_ == fractal_kind::none ? 1 : octaves_;
  }

  /// Deprecated: perlin::field is the one evaluator, with the fractal as its settings (as the
  /// warp is): `perlin::field(noise, fractal).eval(p, gradient)` or `field(noise, fractal)(x, y)`
  /// gives the same bits. These remain for code written against them.
  template <class Noise, class T>
  [[deprecated(
      "use perlin::field(noise, fractal).eval(p): field is the one evaluator")]] [[nodiscard]] T
  eval(const Noise& noise, std::span<const T> p, std::span<T> gradient = {}) const {
    return sum(noise, p, gradient);
  }
  template <class Noise>
  [[deprecated(
      "use perlin::field(noise, fractal)(x, y): field is the one evaluator")]] [[nodiscard]] double
  eval2d(const Noise& noise, double x, double y) const {
    const double p[2] = {x, y};
    return sum<Noise, double>(noise, p, {});
  }
  template <class Noise>
  [[deprecated(
      "use perlin::field(noise, fractal)(x, y, z): field is the one "
      "evaluator")]] [[nodiscard]] double
  eval3d(const Noise& noise, double x, double y, double z) const {
    const double p[3] = {x, y, z};
    return sum<Noise, double>(noise, p, {});
  }

  /// A bound B such that |fractal(x)| <= B (or, for turbulence and ridged, 0 <= value <= B) for
  /// every point, given a bound `base` on |noise|. Ridged: max(offset^2, (base - offset)^2)
  /// sum a_i (the weights are at most 1). For billow the value lies in
  /// [-sum a_i, max(1, 2 base - 1) sum a_i]. Divided by sum a_i when normalising.
  [[nodiscard]] double bound(double base) const noexcept;
  /// sum_{i < active_octaves} persistence^i, accumulated as the evaluation does.
  [[nodiscard]] double amplitude_sum() const noexcept;

  friend bool operator==(const fractal&, const fractal&) = default;

 private:
  friend class field;
  /// The fractal of `noise` at p (1 to 4 coordinates); `gradient`, when not empty, receives the
  /// analytic partial derivatives. Defined for Noise = improved_noise, value_noise and
  /// simplex_noise, T = double
  /// and float. Throws perlin::invalid_argument for a point of another size.
  template <class Noise, class T>
  [[nodiscard]] T sum(const Noise& noise, std::span<const T> p, std::span<T> gradient) const;

  fractal_kind kind_ = fractal_kind::fbm;
  int octaves_ = 1;
  double frequency_ = 1.0;
  double lacunarity_ = 2.0;
  double persistence_ = 0.5;
  bool normalize_ = false;
  bool decorrelate_ = false;
  double ridged_offset_ = 1.0;
  double ridged_gain_ = 2.0;
  double erosion_ = 1.0;
};

}  // namespace perlin
