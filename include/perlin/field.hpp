// A complete noise description: a base noise (improved, value or simplex) and a fractal over it.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "perlin/fractal.hpp"
#include "perlin/improved_noise.hpp"
#include "perlin/noise_families.hpp"
#include "perlin/simplex_noise.hpp"
#include "perlin/value_noise.hpp"
#include "perlin/warp.hpp"

namespace perlin {

/// Which base noise a field uses (docs/noise.md): Ken Perlin's improved noise, value noise, or
/// Stefan Gustavson's simplex noise (2 to 4 coordinates, no periods), KdotJPG's OpenSimplex2 and
/// OpenSimplex2S, cellular noise, libnoise's Voronoi (noise_families.hpp).
enum class noise_kind {
  improved,
  value,
  simplex,
  opensimplex2,
  opensimplex2s,
  cellular,
  libnoise_voronoi
};
[[nodiscard]] std::string_view to_string(noise_kind k) noexcept;
/// Parses a kind's name ("improved", "value", "simplex", "opensimplex2", ...); throws
/// perlin::invalid_argument.
[[nodiscard]] noise_kind parse_noise_kind(std::string_view name);
/// Every name, in declaration order.
[[nodiscard]] std::vector<std::string> noise_kind_names();

/// How 2-D to 4-D points meet the lattice. `aligned` (the default): the coordinates are the
/// lattice's, so a 2-D field is Ken Perlin's z = 0 slice, exactly. `rotated`: x, y, z are turned
/// by a fixed rotation before sampling, so that the xy plane cuts the lattice along the plane
/// perpendicular to its main diagonal (1, 1, 1): 2-D pictures lose the axis-aligned and 45-degree
/// streaks that the 12 gradients leave on the z = 0 slice (OpenSimplex2 does the same for its
/// "improve XY planes"). The rotation maps (x, y, z) to x a + y b + z c with a = (1, -1, 0)/sqrt 2,
/// b = (1, 1, -2)/sqrt 6, c = (1, 1, 1)/sqrt 3 (w unchanged; 1-D points are not turned).
/// A rotated field cannot tile (its periods would not be along x and y): periods are refused.
/// Grids on rotated planes go through the per-sample SIMD kernel (grid.hpp); point batches on
/// rotated planes take the double scalar path.
enum class plane { aligned, rotated };
[[nodiscard]] std::string_view to_string(plane p) noexcept;
/// Parses "aligned" or "rotated"; throws perlin::invalid_argument.
[[nodiscard]] plane parse_plane(std::string_view name);
[[nodiscard]] std::vector<std::string> plane_names();

class graph;  // graph.hpp: a field composed of fields

/// A base noise and a fractal over it, optionally sampled at warped points (perlin::warp): what
/// the CLI, the grid API and the renderer evaluate.
/// The default is Ken Perlin's improved noise, unchanged (fractal_kind::none, frequency 1), whose
/// double 3-D values are his reference values bit for bit. A small value, thread safe to read.
class field {
 public:
  /// The base noises, one alternative per noise_kind, in its order.
  using noise_variant = std::variant<improved_noise, value_noise, simplex_noise, opensimplex2_noise,
                                     opensimplex2s_noise, cellular_noise, libnoise_voronoi_noise>;

  field() noexcept { fractal_.set_kind(fractal_kind::none); }
  field(const improved_noise& n, const fractal& f) noexcept : base_(n), fractal_(f) {}
  field(const value_noise& n, const fractal& f) noexcept : base_(n), fractal_(f) {}
  field(const simplex_noise& n, const fractal& f) noexcept : base_(n), fractal_(f) {}
  /// Any base noise. Throws perlin::invalid_argument (parameter "period") when its lattice has
  /// periods and the kind has none (simplex noise, OpenSimplex2, libnoise's Voronoi), and
  /// (parameter "fractal") for an eroded fractal over a kind without a Hessian.
  field(const noise_variant& n, const fractal& f);

  [[nodiscard]] noise_kind kind() const noexcept { return static_cast<noise_kind>(base_.index()); }
  [[nodiscard]] const noise_variant& base() const noexcept { return base_; }
  [[nodiscard]] const perlin::lattice& lattice() const noexcept;
  [[nodiscard]] const perlin::fractal& fractal() const noexcept { return fractal_; }
  [[nodiscard]] perlin::plane plane() const noexcept { return plane_; }
  /// Throws perlin::invalid_argument for `rotated` when the lattice has periods.
  field& set_plane(perlin::plane p);
  [[nodiscard]] perlin::fractal& fractal() noexcept { return fractal_; }
  [[nodiscard]] const perlin::warp& warp() const noexcept { return warp_; }
  /// Throws perlin::invalid_argument when the lattice has a period P and P x the warp frequency
  /// is not a whole number (the warped field would not tile; warp.hpp).
  field& set_warp(const perlin::warp& w);
  [[nodiscard]] bool warped() const noexcept { return warp_.active_octaves() > 0; }

  /// The field at p (1 to 4 coordinates), with the analytic gradient when `gradient` is not
  /// empty (through the warp too: the chain rule with the displacement's Jacobian). Throws
  /// perlin::invalid_argument for a point of another size, or of a size the noise does not take
  /// (simplex noise: 2 to 4 coordinates). The float path of simplex noise computes in double
  /// and rounds the result.
  template <class T>
  [[nodiscard]] T eval(std::span<const T> p, std::span<T> gradient = {}) const;
  /// The same without template arguments: f.eval(p) for a double or float point.
  [[nodiscard]] double eval(std::span<const double> p, std::span<double> gradient = {}) const {
    return eval<double>(p, gradient);
  }
  [[nodiscard]] float eval(std::span<const float> p, std::span<float> gradient = {}) const {
    return eval<float>(p, gradient);
  }
  /// The field at one point of 1 to 4 coordinates of any arithmetic type, on the double path.
  template <class... C>
  requires(sizeof...(C) >= 1 && sizeof...(C) <= 4 && (std::is_arithmetic_v<C> && ...))
      [[nodiscard]] double
      operator()(C... c) const {
    const double p[] = {static_cast<double>(c)...};
    return eval<double>(std::span<const double>(p, sizeof...(C)));
  }

  /// Documented bounds of the field for points of `dims` coordinates: every value lies in
  /// [lo, hi] (docs/ranges.md); a warp only moves the points, so it keeps the bounds. Used to map
  /// values to pixels without looking at the image.
  [[nodiscard]] std::pair<double, double> range(std::size_t dims) const;

  /// The range the field really covers, for contrast: the 0.2% and 99.8% quantiles of 16,384
  /// values at fixed pseudo-random points (a SplitMix64 sequence over [0, 256 / frequency)^dims,
  /// on the double path, so the same on every machine), rounded outward to a multiple of 1/1024.
  /// Fixed per field and dims (tiles rendered separately map alike); about 1 value in 250 lies
  /// beyond each end and is clamped by the mapping. Always within range().
  [[nodiscard]] std::pair<double, double> typical_range(std::size_t dims) const;

  /// The field that is the graph `g` (graph.hpp): eval, range, typical_range and the bulk calls
  /// of grid.hpp evaluate the graph (a graph is a field in every front). Its base(), fractal(),
  /// plane() and warp() are the default field's, and say nothing of the graph.
  [[nodiscard]] static field of_graph(const perlin::graph& g);
  /// The graph this field is, or nullptr for a single field.
  [[nodiscard]] const perlin::graph* graph() const noexcept { return graph_.get(); }

 private:
  noise_variant base_;
  perlin::fractal fractal_;
  perlin::plane plane_ = perlin::plane::aligned;
  perlin::warp warp_;
  perlin::lattice warp_lattice_;                // the warp's permutation and periods (set_warp)
  std::shared_ptr<const perlin::graph> graph_;  // of_graph: the graph this field is

  template <class T>
  T eval_unturned(std::span<const T> q, std::span<T> gradient) const;
};

}  // namespace perlin
