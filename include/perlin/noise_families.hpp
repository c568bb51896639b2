// The noise families beside Ken Perlin's (issue 51): KdotJPG's OpenSimplex2 and OpenSimplex2S,
// cellular (Worley) noise on the library's lattice, and libnoise's Voronoi module, as the base
// noises of a field (field.hpp; `--noise opensimplex2`, `opensimplex2s`, `cellular`,
// `libnoise-voronoi`). docs/noise.md states each one: its reference, seeding, bounds, gradients.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/lattice.hpp"

namespace perlin {

/// OpenSimplex2's lattice orientations (`--orientation`), each one of the reference's public
/// functions per dimension: standard = noise2, noise3_Fallback, noise4_Fallback; improve-x =
/// noise2_ImproveX; improve-xy, improve-xz = noise3_ImproveXY, noise3_ImproveXZ; improve-xyz-xy,
/// improve-xyz-xz, improve-xyz, improve-xy-zw = noise4_ImproveXYZ_ImproveXY, _ImproveXYZ_ImproveXZ,
/// _ImproveXYZ, _ImproveXY_ImproveZW. Every other pair of orientation and dimension is refused.
enum class os2_orientation {
  standard,
  improve_x,
  improve_xy,
  improve_xz,
  improve_xyz_xy,
  improve_xyz_xz,
  improve_xyz,
  improve_xy_zw
};
[[nodiscard]] std::string_view to_string(os2_orientation o) noexcept;
/// Parses "standard", "improve-x", ...; throws perlin::invalid_argument (parameter
/// "orientation").
[[nodiscard]] os2_orientation parse_os2_orientation(std::string_view name);
[[nodiscard]] std::vector<std::string> os2_orientation_names();
/// Whether the orientation exists for points of `dims` coordinates.
[[nodiscard]] bool os2_orientation_has(os2_orientation o, std::size_t dims) noexcept;
/// Throws perlin::invalid_argument (parameter "orientation") naming the orientations that exist
/// in `dims` dimensions when `o` does not.
void check_os2_orientation(os2_orientation o, std::size_t dims);

/// KdotJPG's OpenSimplex2 (Smooth false: OpenSimplex2.java, "fast") or OpenSimplex2S (Smooth
/// true: OpenSimplex2S.java), 2 to 4 coordinates: the Java reference's float bit for bit,
/// widened to double. Seeded by the reference's `long seed` (the library's 64-bit seed read as
/// two's complement; no seed is seed 0); the lattice is only the one a warp uses. No periods.
template <bool Smooth>
class basic_opensimplex2 {
 public:
  basic_opensimplex2() noexcept = default;
  /// `seed` as the reference's long; `l` the lattice the field's warp reads (it must have no
  /// periods: perlin::invalid_argument "period" otherwise).
  basic_opensimplex2(std::int64_t seed, os2_orientation o, const perlin::lattice& l = {});

  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }
  [[nodiscard]] std::int64_t seed() const noexcept { return seed_; }
  [[nodiscard]] os2_orientation orientation() const noexcept { return orientation_; }
  /// The noise at p (2 to 4 coordinates; the orientation must exist there: else
  /// perlin::invalid_argument).
  [[nodiscard]] double noise(std::span<const double> p) const;

  friend bool operator==(const basic_opensimplex2&, const basic_opensimplex2&) = default;

 private:
  perlin::lattice lattice_;
  std::int64_t seed_ = 0;
  os2_orientation orientation_ = os2_orientation::standard;
};
using opensimplex2_noise = basic_opensimplex2<false>;
using opensimplex2s_noise = basic_opensimplex2<true>;

/// Cellular noise's distance to a feature point (`--cellular-distance`).
enum class cellular_metric { euclidean, euclidean_squared, manhattan, chebyshev };
/// What cellular noise returns (`--cellular-return`): F1, F2, F2 - F1 or the nearest feature
/// point's cell value in [-1, 1].
enum class cellular_output { f1, f2, f2_minus_f1, cell_value };
[[nodiscard]] std::vector<std::string> cellular_metric_names();
[[nodiscard]] std::vector<std::string> cellular_output_names();
[[nodiscard]] cellular_metric parse_cellular_metric(std::string_view name);
[[nodiscard]] cellular_output parse_cellular_output(std::string_view name);

/// Cellular (Worley) noise on the lattice's permutation, 1 to 4 coordinates, with its periods:
/// one feature point per cell, jittered by `jitter` in [0, 1] from the cell's centre
/// (docs/noise.md, "Cellular noise").
class cellular_noise {
 public:
  cellular_noise() noexcept = default;
  /// Throws perlin::invalid_argument (parameter "cellular-jitter") for a jitter outside [0, 1].
  cellular_noise(const perlin::lattice& l, cellular_metric m, cellular_output r, double jitter);

  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }
  [[nodiscard]] cellular_metric metric() const noexcept { return metric_; }
  [[nodiscard]] cellular_output output() const noexcept { return output_; }
  [[nodiscard]] double jitter() const noexcept { return jitter_; }
  /// The noise at p (1 to 4 coordinates).
  [[nodiscard]] double noise(std::span<const double> p) const;
  /// Its upper bound for points of `dims` coordinates (the lower bound is 0, or -1 for the cell
  /// value).
  [[nodiscard]] double bound(std::size_t dims) const noexcept;

  friend bool operator==(const cellular_noise&, const cellular_noise&) = default;

 private:
  perlin::lattice lattice_;
  cellular_metric metric_ = cellular_metric::euclidean;
  cellular_output output_ = cellular_output::f1;
  double jitter_ = 1.0;
};

/// libnoise's noise::module::Voronoi (libnoise 1.0.0 as Debian's binary computes it) with
/// frequency 1 (a field's frequency is libnoise's: the field scales the point as SetFrequency
/// does), SetSeed(seed), SetDisplacement(displacement), EnableDistance(distance); 1 to 3
/// coordinates, the missing ones 0. No periods.
class libnoise_voronoi_noise {
 public:
  libnoise_voronoi_noise() noexcept = default;
  /// Throws perlin::invalid_argument (parameter "seed") for a seed outside 0 to 2^31 - 1, and
  /// (parameter "voronoi-displacement") for a displacement that is not finite.
  libnoise_voronoi_noise(std::int64_t seed, double displacement, bool distance,
                         const perlin::lattice& l = {});

  [[nodiscard]] const perlin::lattice& lattice() const noexcept { return lattice_; }
  [[nodiscard]] int seed() const noexcept { return seed_; }
  [[nodiscard]] double displacement() const noexcept { return displacement_; }
  [[nodiscard]] bool distance() const noexcept { return distance_; }
  /// GetValue(x, y, z) at p (1 to 3 coordinates).
  [[nodiscard]] double noise(std::span<const double> p) const;

  friend bool operator==(const libnoise_voronoi_noise&, const libnoise_voronoi_noise&) = default;

 private:
  perlin::lattice lattice_;
  int seed_ = 0;
  double displacement_ = 1.0;
  bool distance_ = false;
};

}  // namespace perlin
