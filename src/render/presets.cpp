// Presets, colormaps and formulas of `perlin render` (docs/render.md states each one).
#include "presets.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <string>

#include "runtime/text.hpp"

namespace perlin_render {

const std::vector<colormap>& colormaps() {
  static const std::vector<colormap> maps = {
      {"grey", {{0, {0, 0, 0}}, {1, {255, 255, 255}}}},
      {"clouds",
       {{0, {40, 90, 170}}, {0.45, {90, 150, 220}}, {0.7, {235, 240, 250}}, {1, {255, 255, 255}}}},
      {"marble",
       {{0, {30, 30, 45}}, {0.1, {105, 103, 115}}, {0.3, {212, 208, 200}}, {1, {250, 250, 247}}}},
      {"wood",
       {{0, {95, 52, 22}}, {0.55, {185, 120, 62}}, {0.8, {205, 145, 85}}, {1, {120, 68, 30}}}},
      {"terrain",
       {{0, {8, 24, 80}},
        {0.42, {28, 78, 150}},
        {0.49, {70, 140, 200}},
        {0.5, {214, 202, 150}},
        {0.52, {110, 165, 80}},
        {0.6, {55, 115, 55}},
        {0.68, {115, 100, 80}},
        {0.78, {165, 155, 145}},
        {0.86, {250, 250, 252}},
        {1, {255, 255, 255}}}},
      {"heat",
       {{0, {0, 0, 0}}, {0.35, {160, 20, 10}}, {0.7, {250, 160, 20}}, {1, {255, 255, 230}}}},
      {"flow",
       {{0, {11, 29, 51}},
        {0.35, {31, 111, 120}},
        {0.6, {232, 217, 176}},
        {0.8, {192, 96, 58}},
        {1, {58, 15, 18}}}},
  };
  return maps;
}

const colormap* find_colormap(std::string_view name) {
  for (const auto& m : colormaps()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string colormap_names() {
  std::string valid;
  for (const auto& m : colormaps()) valid += (valid.empty() ? "" : ", ") + m.name;
  return valid;
}

colormap parse_colormap(const std::string& text) {
  colormap m{text, {}};
  const auto bad = [&](const std::string& why) {
    bad_setting("colormap", "'{}': {} (stops are T:#RRGGBB separated by commas, T from 0 to 1)",
                {text.substr(0, 60), why});
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos || item.size() != colon + 8 || item[colon + 1] != '#')
      bad("'" + item + "' is not T:#RRGGBB");
    double t = 0;
    const auto [p, ec] = perlin::detail::number_from_chars(item.data(), item.data() + colon, t);
    if (ec != std::errc() || p != item.data() + colon || !(t >= 0 && t <= 1))
      bad("'" + item + "' has no T from 0 to 1");
    unsigned rgb = 0;
    const auto [q, ec2] =
        std::from_chars(item.data() + colon + 2, item.data() + item.size(), rgb, 16);
    if (ec2 != std::errc() || q != item.data() + item.size())
      bad("'" + item + "' is not a colour #RRGGBB");
    if (!m.stops.empty() && !(t > m.stops.back().t)) bad("the stops' T must increase");
    m.stops.push_back({t, {double(rgb >> 16), double((rgb >> 8) & 0xFF), double(rgb & 0xFF)}});
    start = comma + 1;
  }
  if (m.stops.size() < 2 || m.stops.size() > 32) bad("give 2 to 32 stops");
  if (m.stops.front().t != 0 || m.stops.back().t != 1)
    bad("the first stop must be at 0 and the last at 1");
  return m;
}

const std::vector<preset>& presets() {
  // The fractal presets: normalised fBm-like sums, lacunarity 2 and persistence 0.5 (the
  // table's defaults), decorrelated where the octaves would otherwise line up.
  static const std::vector<preset> p = {
      {"plain", {{"plane", "rotated"}}, 1.0 / 64, "grey", formula::plain, false},
      {"clouds",
       {{"fractal", "fbm"}, {"octaves", "6"}, {"normalize", "true"}, {"decorrelate", "true"}},
       1.0 / 128,
       "clouds",
       formula::plain,
       false},
      {"marble",
       {{"fractal", "turbulence"},
        {"octaves", "6"},
        {"normalize", "true"},
        {"decorrelate", "true"}},
       1.0 / 64,
       "marble",
       formula::marble,
       false},
      {"wood",
       {{"fractal", "fbm"}, {"octaves", "3"}, {"normalize", "true"}, {"decorrelate", "true"}},
       1.0 / 64,
       "wood",
       formula::wood,
       false},
      {"terrain",
       {{"fractal", "fbm"},
        {"octaves", "8"},
        {"normalize", "true"},
        {"decorrelate", "true"},
        {"plane", "rotated"}},
       1.0 / 256,
       "terrain",
       formula::plain,
       true},
      {"ridges",
       {{"fractal", "ridged"}, {"octaves", "7"}, {"normalize", "true"}, {"plane", "rotated"}},
       1.0 / 128,
       "terrain",
       formula::plain,
       false},
      {"warped",
       {{"fractal", "fbm"},
        {"octaves", "5"},
        {"normalize", "true"},
        {"decorrelate", "true"},
        {"warp", "progressive"},
        {"warp-amplitude", "2.5"},
        {"warp-frequency", "0.25"},
        {"warp-octaves", "4"}},
       1.0 / 128,
       "flow",
       formula::plain,
       false},
  };
  return p;
}

const preset* find_preset(std::string_view name) {
  for (const auto& p : presets()) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

double marble(double stripes, double x, double v) {
  return std::sin(2 * std::numbers::pi * (stripes * x + k_marble_turbulence * v));
}

double wood(double x, double y, double v) {
  const double rings = k_wood_rings * std::hypot(x, y) + k_wood_noise * v;
  return rings - std::floor(rings);
}

double relief_shade(double gx, double gy) {
  const double lx = -0.5, ly = -0.5, lz = std::sqrt(0.5);
  const double k = 0.6;
  const double nx = -k * gx, ny = -k * gy, nz = 1.0;
  const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
  const double light = std::max(0.0, (nx * lx + ny * ly + nz * lz) / len);
  return 0.35 + 0.65 * light / lz;
}

}  // namespace perlin_render
