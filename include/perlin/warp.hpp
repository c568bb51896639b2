// Domain warping: the point is displaced by a vector of noises before the field is sampled
// (Inigo Quilez's "warping"; FastNoiseLite's domain warp), with exact derivatives and tiling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perlin {

/// How the displacement is built. With p the point (D coordinates), f the field's frequency, A
/// the warp amplitude, F the warp frequency and, for octave i, u_i = f F 2^i and a_i = 2^-i:
/// n_i(q) is the D-vector whose component k is the field's base noise (improved or value, the
/// same interpolation) over the warp lattice at q u_i + o_ik, where o_ik is the fixed offset
/// ((4 i + k + 1) h) mod 256 on every axis, h = (101.6171875, 67.4140625, 43.7265625, 29.2421875)
/// (the decorrelation offsets of docs/noise.md). The warped point p' is then sampled by the field.
enum class warp_kind {
  none,         ///< p' = p: no warp (the default)
  basic,        ///< p' = p + (A / f) n_0(p): one displacement, one octave
  progressive,  ///< p_0 = p, p_{i+1} = p_i + (A / f) a_i n_i(p_i), p' = p_octaves: each octave
                ///< displaces the point that the previous octaves produced
  independent,  ///< p' = p + (A / f) sum_i a_i n_i(p): every octave displaces the original point
};

[[nodiscard]] std::string_view to_string(warp_kind k) noexcept;
/// Parses "none", "basic", "progressive", "independent"; throws perlin::invalid_argument.
[[nodiscard]] warp_kind parse_warp_kind(std::string_view name);
/// Every name, in declaration order.
[[nodiscard]] std::vector<std::string> warp_kind_names();

/// The settings of a domain warp; every setter validates and throws perlin::invalid_argument
/// naming the option as the command line does ("warp-amplitude: must be >= 0").
///
/// Units: the amplitude is in cells of the field's first octave (amplitude 1 moves a point by at
/// most about one cell of the base noise, 1/frequency in the caller's coordinates), and the warp
/// frequency is relative to the field's frequency, so that `frequency` zooms a warped field as a
/// whole. The warp's octaves use lacunarity 2 and gain 1/2. `basic` uses one octave whatever
/// `octaves` says.
///
/// Seed: empty (the default) samples the displacement from the field's own permutation (the
/// offsets keep it apart from the field's octaves); a seed gives the warp its own permutation.
///
/// Tiling: a field with periods keeps them when warped. The warp lattice gets period
/// P x warp frequency wherever the field's lattice has period P (and, for octave i, 2^i times
/// that), so field::set_warp refuses a warp frequency that makes it fractional.
class warp {
 public:
  [[nodiscard]] warp_kind kind() const noexcept { return kind_; }
  [[nodiscard]] double amplitude() const noexcept { return amplitude_; }
  [[nodiscard]] double frequency() const noexcept { return frequency_; }
  [[nodiscard]] int octaves() const noexcept { return octaves_; }
  [[nodiscard]] const std::optional<std::uint64_t>& seed() const noexcept { return seed_; }
  /// The octaves that are evaluated: 0 for none, 1 for basic, octaves() otherwise.
  [[nodiscard]] int active_octaves() const noexcept {
    return kind_ == warp_kind::none ? 0 : kind_ == warp_kind::basic ? 1 : octaves_;
  }

  warp& set_kind(warp_kind k) noexcept {
    kind_ = k;
    return *this;
  }
  /// Finite and >= 0 (0 leaves the field unwarped, with the warp's cost).
  warp& set_amplitude(double a);
  /// Greater than 0 and at most 2^32.
  warp& set_frequency(double f);
  /// 1 to 32.
  warp& set_octaves(int n);
  warp& set_seed(std::optional<std::uint64_t> s) noexcept {
    seed_ = s;
    return *this;
  }

  friend bool operator==(const warp&, const warp&) = default;

 private:
  warp_kind kind_ = warp_kind::none;
  double amplitude_ = 1.0;
  double frequency_ = 1.0;
  int octaves_ = 3;
  std::optional<std::uint64_t> seed_;
};

}  // namespace perlin
