// The recipes of `perlin render`: presets, colormaps, the marble and wood formulas and the relief
// shading, each exactly as docs/render.md states it (the render tests check pixels against it).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "options.hpp"

namespace perlin_render {

/// What a preset computes from the field's value v at noise coordinates (x, y).
enum class formula { plain, marble, wood };

struct colour_stop {
  double t;
  std::array<double, 3> rgb;
};

struct colormap {
  std::string name;
  std::vector<colour_stop> stops;
};

/// Every colormap, "grey" first.
const std::vector<colormap>& colormaps();
/// The colormap of that name, or nullptr.
const colormap* find_colormap(std::string_view name);
/// "grey, clouds, ...": the valid names for messages.
std::string colormap_names();
/// A custom gradient "T:#RRGGBB,T:#RRGGBB,..." (2 to 32 stops, T from 0 to 1 increasing, the
/// first 0 and the last 1). Throws setting_error naming colormap.
colormap parse_colormap(const std::string& text);

/// std::lround without its library call (a call per channel of every pixel): the nearest
/// integer, halves away from zero. Exact: x - trunc(x) is exact for every |x| < 2^63.
inline std::int64_t round_half_away(double x) noexcept {
  const auto i = static_cast<std::int64_t>(x);
  const double f = x - static_cast<double>(i);
  return i + (f >= 0.5) - (f <= -0.5);
}

/// The colour of t in [0, 1]: linear between the two stops around t, each channel rounded.
inline std::array<std::uint8_t, 3> ramp(const colormap& m, double t) {
  const auto& s = m.stops;
  std::size_t k = 1;
  while (k + 1 < s.size() && t > s[k].t) ++k;
  const double u = std::clamp((t - s[k - 1].t) / (s[k].t - s[k - 1].t), 0.0, 1.0);
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) {
    out[c] = static_cast<std::uint8_t>(
        round_half_away(s[k - 1].rgb[c] + u * (s[k].rgb[c] - s[k - 1].rgb[c])));
  }
  return out;
}

/// A documented preset (docs/render.md): a partial option set in the option table's names, and
/// the render's own settings; every part can be overridden by the options.
struct preset {
  const char* name;
  option_pairs field;  // the field options it sets, on top of the table's defaults
  double step;         // pixel step
  const char* colormap;
  formula f;
  bool shaded;  // with a colormap: a relief lit by the analytic gradient
};

const std::vector<preset>& presets();
const preset* find_preset(std::string_view name);

// The marble and wood formulas (docs/render.md).
inline constexpr double k_marble_stripes = 0.5;     // stripes per lattice unit along x
inline constexpr double k_marble_turbulence = 1.0;  // turbulence amplitude, in stripe periods
inline constexpr double k_wood_rings = 2.0;         // rings per lattice unit of radius
inline constexpr double k_wood_noise = 0.5;         // noise amplitude, in ring periods

/// marble: sin(2 pi (stripes x + 1.0 v)), in [-1, 1].
double marble(double stripes, double x, double v);
/// wood: frac(2 hypot(x, y) + 0.5 v), in [0, 1).
double wood(double x, double y, double v);

/// The relief's brightness factor for a surface with gradient (gx, gy) of the heights: light
/// from the north-west, 45 degrees up, vertical exaggeration 0.6, ambient 0.35 (docs/render.md).
double relief_shade(double gx, double gy);

}  // namespace perlin_render
