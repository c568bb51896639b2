// `perlin render` pixel by pixel against docs/render.md: every preset's formula evaluated with the
// library's double scalar path, mapped with the documented bounds and colormap stops and, for the
// terrain relief, lit with the documented shading; for every combination of preset, frames,
// volume and format that the CLI accepts (the others must be refused clearly).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/image_io.hpp"
#include "perlin/perlin.hpp"

namespace {

namespace fs = std::filesystem;
using perlin_test::run_perlin;
using perlin_test::slurp;
using perlin_test::temp_dir;

// ---- the documented model (docs/render.md), written independently of tools/perlin ----

enum class formula { plain, marble, wood };

struct stop {
  double t;
  std::array<double, 3> rgb;
};

/// The colormap stops of docs/render.md.
std::vector<stop> stops_of(const std::string& name) {
  if (name == "clouds")
    return {
        {0, {40, 90, 170}}, {0.45, {90, 150, 220}}, {0.7, {235, 240, 250}}, {1, {255, 255, 255}}};
  if (name == "marble")
    return {
        {0, {30, 30, 45}}, {0.1, {105, 103, 115}}, {0.3, {212, 208, 200}}, {1, {250, 250, 247}}};
  if (name == "wood")
    return {{0, {95, 52, 22}}, {0.55, {185, 120, 62}}, {0.8, {205, 145, 85}}, {1, {120, 68, 30}}};
  if (name == "flow")
    return {{0, {11, 29, 51}},
            {0.35, {31, 111, 120}},
            {0.6, {232, 217, 176}},
            {0.8, {192, 96, 58}},
            {1, {58, 15, 18}}};
  if (name == "heat")
    return {{0, {0, 0, 0}}, {0.35, {160, 20, 10}}, {0.7, {250, 160, 20}}, {1, {255, 255, 230}}};
  if (name == "terrain") {
    return {{0, {8, 24, 80}},       {0.42, {28, 78, 150}},   {0.49, {70, 140, 200}},
            {0.5, {214, 202, 150}}, {0.52, {110, 165, 80}},  {0.6, {55, 115, 55}},
            {0.68, {115, 100, 80}}, {0.78, {165, 155, 145}}, {0.86, {250, 250, 252}},
            {1, {255, 255, 255}}};
  }
  ADD_FAILURE() << "no colormap " << name;
  return {};
}

/// Linear between the stops around t, rounded per channel.
std::array<double, 3> colour(const std::vector<stop>& s, double t) {
  std::size_t k = 1;
  while (k + 1 < s.size() && t > s[k].t) ++k;
  const double u = std::clamp((t - s[k - 1].t) / (s[k].t - s[k - 1].t), 0.0, 1.0);
  std::array<double, 3> c{};
  for (int i = 0; i < 3; ++i)
    c[i] = std::round(s[k - 1].rgb[i] + u * (s[k].rgb[i] - s[k - 1].rgb[i]));
  return c;
}

/// The relief's brightness: normal of the surface with exaggeration 0.6, light from the
/// north-west 45 degrees up, 0.35 ambient + 0.65 of the light relative to a flat surface.
double shade(double gx, double gy) {
  const double nx = -0.6 * gx, ny = -0.6 * gy, nz = 1.0;
  const double lz = std::sqrt(0.5);
  const double light = std::max(0.0, (-0.5 * nx - 0.5 * ny + lz * nz) / std::hypot(nx, ny, nz));
  return 0.35 + 0.65 * light / lz;
}

struct recipe {
  const char* name;
  perlin::fractal_kind kind;
  int octaves;
  bool decorrelate;
  double frequency;
  const char* cmap;
  formula f;
  bool shaded;
  bool rotated = false;  // the plane that avoids axis streaks (terrain, ridges)
  bool warped = false;   // progressive warp, amplitude 2.5, warp frequency 1/4, 4 octaves
};

/// The presets table of docs/render.md.
const recipe k_presets[] = {
    {"plain", perlin::fractal_kind::none, 1, false, 1.0 / 64, "grey", formula::plain, false, true},
    {"clouds", perlin::fractal_kind::fbm, 6, true, 1.0 / 128, "clouds", formula::plain, false},
    {"marble", perlin::fractal_kind::turbulence, 6, true, 1.0 / 64, "marble", formula::marble,
     false},
    {"wood", perlin::fractal_kind::fbm, 3, true, 1.0 / 64, "wood", formula::wood, false},
    {"terrain", perlin::fractal_kind::fbm, 8, true, 1.0 / 256, "terrain", formula::plain, true,
     true},
    {"ridges", perlin::fractal_kind::ridged, 7, false, 1.0 / 128, "terrain", formula::plain, false,
     true},
    {"warped", perlin::fractal_kind::fbm, 5, true, 1.0 / 128, "flow", formula::plain, false, false,
     true},
};

perlin::field field_of(const recipe& r) {
  perlin::fractal f;
  f.set_kind(r.kind).set_octaves(r.octaves).set_decorrelate(r.decorrelate);
  f.set_normalize(r.kind != perlin::fractal_kind::none);
  perlin::field out(perlin::improved_noise(), f);
  if (r.rotated) out.set_plane(perlin::plane::rotated);
  if (r.warped) {
    perlin::warp w;
    w.set_kind(perlin::warp_kind::progressive)
        .set_amplitude(2.5)
        .set_frequency(0.25)
        .set_octaves(4);
    out.set_warp(w);
  }
  return out;
}

enum class mode { image, frames, loop, volume };
const char* name_of(mode m) {
  switch (m) {
    case mode::image:
      return "image";
    case mode::frames:
      return "frames";
    case mode::loop:
      return "loop";
    default:
      return "volume";
  }
}

/// One render to check: its preset, size, mode, frequency and output details.
struct render_case {
  recipe r;
  mode m = mode::image;
  std::size_t w = 24, h = 18, n = 1;  // n: frames or slices
  std::string cmap;                   // "" = the preset's
  int bits = 8;
  bool npy = false;
  std::string extra;      // more options
  std::size_t every = 1;  // compare columns i % every == 0 and the last one only
};

std::size_t dims_of(mode m) { return m == mode::image ? 2 : (m == mode::loop ? 4 : 3); }

/// The point of pixel (i, j) of frame or slice k, and the formula's inputs.
std::array<double, 4> point_of(const render_case& c, std::size_t i, std::size_t j, std::size_t k) {
  const double f = c.r.frequency;
  double x0 = 0, y0 = 0;
  if (c.r.f == formula::wood) {  // the rings' default centre: pixel (256, 256), whatever the size
    x0 = -256 * f;
    y0 = -256 * f;
  }
  std::array<double, 4> p = {x0 + static_cast<double>(i) * f, y0 + static_cast<double>(j) * f, 0,
                             0};
  if (c.m == mode::frames || c.m == mode::volume) p[2] = static_cast<double>(k) * f;
  if (c.m == mode::loop) {  // the default radius: frames x pixel step / pi
    const double a = 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(c.n);
    const double radius = static_cast<double>(c.n) * f / std::numbers::pi;
    p[2] = radius * std::cos(a);
    p[3] = radius * std::sin(a);
  }
  return p;
}

/// The documented value (after the formula) at a point, and the field's gradient there.
double value_at(const render_case& c, const perlin::field& fld, const std::array<double, 4>& p,
                double* grad) {
  const std::size_t d = dims_of(c.m);
  double g[4];
  const double v = fld.eval<double>(std::span<const double>(p.data(), d), std::span<double>(g, d));
  if (grad != nullptr) std::copy(g, g + 2, grad);
  if (c.r.f == formula::marble) return std::sin(2 * std::numbers::pi * (0.5 * p[0] + v));
  if (c.r.f == formula::wood) {
    const double rings = 2 * std::hypot(p[0], p[1]) + 0.5 * v;
    return rings - std::floor(rings);
  }
  return v;
}

std::pair<double, double> bounds_of(const render_case& c, const perlin::field& fld) {
  if (c.r.f == formula::marble) return {-1, 1};
  if (c.r.f == formula::wood) return {0, 1};
  // 16-bit grey heightmaps map the true bound (they never clip), pictures the typical range.
  const bool grey = c.cmap.empty() ? c.bits == 16 : c.cmap == "grey";
  if (!c.npy && c.bits == 16 && grey) return fld.range(dims_of(c.m));
  return fld.typical_range(dims_of(c.m));
}

/// Near a discontinuity of the mapping (wood's ring edges, the relief's coastline) float and
/// double may fall on different sides; such pixels are not compared.
bool near_edge(const render_case& c, double v, double t) {
  if (c.r.f == formula::wood && (v < 1e-4 || v > 1 - 1e-4)) return true;
  return std::abs(t - 0.5) < 1e-5;
}

std::string args_of(const render_case& c, const fs::path& out) {
  std::string a = "render -q -o '" + out.string() + "' --preset " + c.r.name + " --size " +
                  std::to_string(c.w) + "x" + std::to_string(c.h);
  if (c.m == mode::frames) a += " --frames " + std::to_string(c.n);
  if (c.m == mode::loop) a += " --frames " + std::to_string(c.n) + " --loop";
  if (c.m == mode::volume) a += " --depth " + std::to_string(c.n);
  if (!c.cmap.empty()) a += " --colormap " + c.cmap;
  if (c.bits != 8) a += " --bits " + std::to_string(c.bits);
  return a + " " + c.extra;
}

std::string frame_name(const std::string& stem, const render_case& c, std::size_t k) {
  const std::string ext = c.npy ? ".npy" : ".png";
  if (c.m != mode::frames && c.m != mode::loop) return stem + ext;
  char num[32];
  std::snprintf(num, sizeof num, "_%04zu", k);
  return stem + num + ext;
}

/// Renders the case and compares every pixel (or value) with the model; returns the number of
/// pixels compared.
std::size_t check_case(const render_case& c) {
  const temp_dir d;
  const std::string label = std::string(c.r.name) + " " + name_of(c.m) + (c.npy ? " npy" : " png") +
                            " cmap=" + c.cmap + " bits=" + std::to_string(c.bits) + " " + c.extra;
  const auto res = run_perlin(args_of(c, d.path / (c.npy ? "out.npy" : "out.png")));
  EXPECT_EQ(res.status, 0) << label << ": " << res.err;
  if (res.status != 0) return 0;
  const perlin::field fld = field_of(c.r);
  const auto [lo, hi] = bounds_of(c, fld);
  const std::string cmap = c.cmap.empty() ? (c.bits == 16 ? "grey" : c.r.cmap) : c.cmap;
  const bool grey = cmap == "grey";
  const bool shaded = !grey && c.r.shaded;
  const std::size_t files = (c.m == mode::frames || c.m == mode::loop) ? c.n : 1;
  const std::size_t slices = c.m == mode::volume ? c.n : 1;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < files; ++k) {
    const fs::path path = d.path / frame_name("out", c, k);
    if (c.npy) {
      const auto v = perlin_test::npy_values(path);
      EXPECT_EQ(v.size(), c.w * c.h * slices) << label;
      if (v.size() != c.w * c.h * slices) return compared;
      const double tol = c.r.f == formula::plain ? perlin::value_tolerance(fld) : 1e-4;
      for (std::size_t s = 0; s < slices; ++s) {
        for (std::size_t j = 0; j < c.h; ++j) {
          for (std::size_t i = 0; i < c.w; ++i) {
            const double want = value_at(c, fld, point_of(c, i, j, std::max(k, s)), nullptr);
            if (near_edge(c, want, 0)) continue;
            EXPECT_NEAR(v[(s * c.h + j) * c.w + i], want, tol)
                << label << " at " << i << "," << j << "," << s;
            ++compared;
          }
        }
      }
      continue;
    }
    const auto img = perlin::read_png(path);
    EXPECT_EQ(img.width, c.w);
    EXPECT_EQ(img.height, c.h);
    EXPECT_EQ(img.bit_depth, c.bits) << label;
    EXPECT_EQ(img.channels, grey ? 1 : 3) << label;
    const auto stops = grey ? std::vector<stop>{} : stops_of(cmap);
    for (std::size_t j = 0; j < c.h; ++j) {
      for (std::size_t i = 0; i < c.w; ++i) {
        if (i % c.every != 0 && i + 1 != c.w) continue;
        double grad[2];
        const double v = value_at(c, fld, point_of(c, i, j, k), grad);
        const double t = std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
        if (near_edge(c, v, t)) continue;
        ++compared;
        const std::size_t px = j * c.w + i;
        if (grey) {
          const double want = std::round(t * (c.bits == 16 ? 65535.0 : 255.0));
          double got = img.data[px];
          if (c.bits == 16) {
            std::uint16_t s16;
            std::memcpy(&s16, img.data.data() + 2 * px, 2);
            got = s16;
          }
          EXPECT_NEAR(got, want, 1.0) << label << " at " << i << "," << j << " frame " << k;
          if (std::abs(got - want) > 1.0) return compared;  // one report per case
          continue;
        }
        auto rgb = colour(stops, t);
        if (shaded && t > 0.5) {
          for (auto& ch : rgb)
            ch = std::floor(std::clamp(ch * shade(grad[0], grad[1]), 0.0, 255.0));
        }
        for (std::size_t ch = 0; ch < 3; ++ch) {
          EXPECT_NEAR(img.data[3 * px + ch], rgb[ch], 1.0)
              << label << " at " << i << "," << j << " frame " << k << " channel " << ch;
          if (std::abs(img.data[3 * px + ch] - rgb[ch]) > 1.0) return compared;
        }
      }
    }
  }
  return compared;
}

TEST(CliRenderValues, EveryPresetMatchesItsFormulaIn8And16BitsAndEveryColormap) {
  for (const auto& r : k_presets) {
    SCOPED_TRACE(r.name);
    EXPECT_GT(check_case({.r = r}), 300u);                  // the preset's colormap
    EXPECT_GT(check_case({.r = r, .cmap = "grey"}), 300u);  // 8-bit grey
    EXPECT_GT(check_case({.r = r, .bits = 16}), 300u);      // 16-bit grey
    EXPECT_GT(check_case({.r = r, .cmap = "heat"}), 300u);  // another colormap (shaded terrain)
    EXPECT_GT(check_case({.r = r, .npy = true}), 300u);     // the raw values (after the formula)
  }
}

TEST(CliRenderValues, NormalMapsAreTheDocumentedFormulaOfTheAnalyticGradient) {
  // docs/render.md: n = normalize(-s df/dx, -s df/dy, 1) over the noise plane; the image's rows
  // run down, so green = +s df/dy / |n| for OpenGL (up is -y) and -s df/dy / |n| for DirectX;
  // each component stored as round((c + 1) / 2 x 255 or 65535). The gradient is the double
  // path's (field::eval with a gradient), within the float kernel's tolerance: one level.
  for (const auto& r : k_presets) {
    if (r.f != formula::plain) continue;
    SCOPED_TRACE(r.name);
    const perlin::field fld = field_of(r);
    for (const int bits : {8, 16}) {
      for (const bool opengl : {true, false}) {
        temp_dir d;
        const double s = 0.7;
        const auto res =
            run_perlin("render -q -o '" + (d.path / "n.png").string() + "' --preset " + r.name +
                       " --size 40x24 --normals " + (opengl ? "opengl" : "directx") +
                       " --height-scale 0.7 --bits " + std::to_string(bits));
        ASSERT_EQ(res.status, 0) << res.err;
        const auto img = perlin::read_png(d.path / "n.png");
        ASSERT_EQ(img.channels, 3u);
        ASSERT_EQ(img.bit_depth, static_cast<unsigned>(bits));
        const double levels = bits == 16 ? 65535 : 255;
        double worst = 0;
        for (std::size_t j = 0; j < 24; ++j) {
          for (std::size_t i = 0; i < 40; ++i) {
            double g[2];
            (void)value_at({.r = r}, fld, point_of({.r = r}, i, j, 0), g);
            const double n[3] = {-s * g[0], (opengl ? 1 : -1) * s * g[1], 1};
            const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + 1);
            for (std::size_t k = 0; k < 3; ++k) {
              const double want = (n[k] / len + 1) / 2 * levels;
              double got;
              if (bits == 16) {
                std::uint16_t v;
                std::memcpy(&v, img.data.data() + 6 * (j * 40 + i) + 2 * k, 2);
                got = v;
              } else {
                got = img.data[3 * (j * 40 + i) + k];
              }
              worst = std::max(worst, std::abs(got - want));
            }
          }
        }
        EXPECT_LE(worst, bits == 16 ? 4.0 : 1.0) << bits << " bits, opengl " << opengl;
      }
    }
  }
  // Refused clearly: another format, a colormap, a volume, a formula preset, a scale alone.
  temp_dir d;
  const std::string png = " -o '" + (d.path / "x.png").string() + "'";
  EXPECT_EQ(
      run_perlin("render -q -o '" + (d.path / "x.npy").string() + "' --normals opengl").status, 2);
  EXPECT_EQ(run_perlin("render -q" + png + " --normals opengl --colormap heat").status, 2);
  EXPECT_EQ(run_perlin("render -q" + png + " --normals sideways").status, 2);
  EXPECT_EQ(run_perlin("render -q" + png + " --normals opengl --preset marble").status, 2);
  EXPECT_EQ(run_perlin("render -q" + png + " --height-scale 2").status, 2);
  EXPECT_EQ(run_perlin("render -q" + png + " --normals opengl --height-scale 0").status, 2);
  EXPECT_FALSE(std::filesystem::exists(d.path / "x.png"));
}

TEST(CliRenderValues, PlanetsAreTheFieldOnTheSphereWithoutASeam) {
  // docs/render.md: pixel (i, j) of W x H is the 3-D field at R (cos phi cos lambda, cos phi sin
  // lambda, sin phi), lambda = -pi + 2 pi (i + 0.5) / W, phi = pi/2 - pi (j + 0.5) / H (the
  // coordinates rounded to float, as the point kernel takes them).
  const auto& r = k_presets[1];  // clouds
  ASSERT_EQ(std::string(r.name), "clouds");
  const perlin::field fld = field_of(r);
  temp_dir d;
  const std::size_t w = 96, h = 48;
  ASSERT_EQ(run_perlin("render -q --preset clouds --size 96x48 --projection equirect --radius 3 "
                       "-o '" +
                       (d.path / "p.npy").string() + "'")
                .status,
            0);
  const auto v = perlin_test::npy_values(d.path / "p.npy");
  ASSERT_EQ(v.size(), w * h);
  const double pi = std::numbers::pi;
  double worst = 0, seam = 0, across = 0;
  for (std::size_t j = 0; j < h; ++j) {
    for (std::size_t i = 0; i < w; ++i) {
      const double lambda = -pi + 2 * pi * (double(i) + 0.5) / double(w);
      const double phi = pi / 2 - pi * (double(j) + 0.5) / double(h);
      const double p[3] = {double(float(3 * std::cos(phi) * std::cos(lambda))),
                           double(float(3 * std::cos(phi) * std::sin(lambda))),
                           double(float(3 * std::sin(phi)))};
      worst = std::max(worst, std::abs(v[j * w + i] - fld.eval<double>(p)));
      if (i > 0) across += std::abs(v[j * w + i] - v[j * w + i - 1]);
    }
    seam += std::abs(v[j * w] - v[j * w + w - 1]);  // lambda = -pi + pi/W and pi - pi/W
  }
  EXPECT_LE(worst, perlin::value_tolerance(fld));
  // No seam: across lambda = +-pi the values step like any two neighbouring columns.
  EXPECT_LE(seam / double(h), 2 * across / double(h * (w - 1)));
  // Refused: with frames, tiles or normals, an offset, a radius alone, a bad radius.
  EXPECT_EQ(run_perlin("render -q --projection equirect --frames 2 -o '" +
                       (d.path / "x.png").string() + "'")
                .status,
            2);
  EXPECT_EQ(run_perlin("render -q --radius 2 -o '" + (d.path / "x.png").string() + "'").status, 2);
  EXPECT_EQ(run_perlin("render -q --projection equirect --radius -1 -o '" +
                       (d.path / "x.png").string() + "'")
                .status,
            2);
  EXPECT_EQ(
      run_perlin("render -q --projection mercator -o '" + (d.path / "x.png").string() + "'").status,
      2);
  EXPECT_FALSE(std::filesystem::exists(d.path / "x.png"));
}

TEST(CliRenderValues, HeightmapsNeverClipAndUseAThirdOfTheLevels) {
  // Every preset's 16-bit RAW heightmap over the area of 1024x1024: no value lies outside the
  // bounds it is mapped with (so no sample is clamped), and the levels used span at least 30% of
  // 0..65535.
  for (const auto& r : k_presets) {
    SCOPED_TRACE(r.name);
    temp_dir d;
    // The area of the documented 1024x1024 render at half its resolution (a quarter of the
    // samples: the same lattice cells, so the same levels within sampling).
    char step[32];
    std::snprintf(step, sizeof step, "%.17g", 2 * r.frequency);
    const std::string size = std::string(" --size 512x512 --step ") + step + " --preset " + r.name;
    ASSERT_EQ(run_perlin("render -q -o '" + (d.path / "h.r16").string() + "'" + size).status, 0);
    ASSERT_EQ(run_perlin("render -q -o '" + (d.path / "h.npy").string() + "'" + size).status, 0);
    const std::string raw = slurp(d.path / "h.r16");
    const auto values = perlin_test::npy_values(d.path / "h.npy");
    ASSERT_EQ(raw.size(), 2 * values.size());
    const auto [lo, hi] = bounds_of({.r = r, .bits = 16}, field_of(r));
    std::uint16_t mn = 65535, mx = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_GE(values[i], lo) << i;
      ASSERT_LE(values[i], hi) << i;
      std::uint16_t level;
      std::memcpy(&level, raw.data() + 2 * i, 2);
      mn = std::min(mn, level);
      mx = std::max(mx, level);
    }
    EXPECT_GE(mx - mn, 0.3 * 65535) << mn << ".." << mx;
  }
}

TEST(CliRenderValues, ImagesOfManyBandsMatchTheFormulaInEveryBand) {
  // A PNG is made band by band of about 2^20 pixels (rows mapped to pixels while their values
  // are in cache): 65536 pixels wide, bands of 16 rows, so 40 rows are 3 bands, the last short.
  for (const auto& r : k_presets) {
    SCOPED_TRACE(r.name);
    EXPECT_GT(check_case({.r = r, .w = 65536, .h = 40, .every = 211}), 8000u);
  }
  EXPECT_GT(check_case({.r = k_presets[2], .w = 65536, .h = 40, .bits = 16, .every = 211}), 8000u);
}

TEST(CliRenderValues, EveryPresetFramesLoopsAndVolumesInEveryFormat) {
  // preset x {frames, looping frames, volume} x {png, npy}: a volume is .npy only.
  for (const auto& r : k_presets) {
    SCOPED_TRACE(r.name);
    for (const mode m : {mode::frames, mode::loop, mode::volume}) {
      for (const bool npy : {false, true}) {
        const render_case c{.r = r, .m = m, .w = 12, .h = 10, .n = 3, .npy = npy};
        if (m == mode::volume && !npy) {
          const temp_dir d;
          const auto res = run_perlin(args_of(c, d.path / "out.png"));
          EXPECT_EQ(res.status, 2);
          EXPECT_NE(res.err.find("--depth"), std::string::npos) << res.err;
          continue;
        }
        EXPECT_GT(check_case(c), 200u) << name_of(m) << (npy ? " npy" : " png");
      }
    }
  }
}

TEST(CliRenderValues, CustomColormapsAndInvert) {
  // A custom gradient is linear between its stops, like the built-in ones; --invert maps t to
  // 1 - t, in grey and in colour.
  const recipe clouds = k_presets[1];
  const temp_dir d;
  const auto value_t = [&](std::size_t i, std::size_t j) {
    const render_case c{.r = clouds, .w = 24, .h = 18};
    const perlin::field fld = field_of(clouds);
    const auto [lo, hi] = bounds_of(c, fld);
    return std::clamp((value_at(c, fld, point_of(c, i, j, 0), nullptr) - lo) / (hi - lo), 0.0, 1.0);
  };
  ASSERT_EQ(run_perlin("render -q -o '" + (d.path / "c.png").string() +
                       "' --preset clouds --size 24x18 --colormap 0:#000000,0.25:#ff0000,1:#00ff80")
                .status,
            0);
  ASSERT_EQ(run_perlin("render -q -o '" + (d.path / "i.png").string() +
                       "' --preset clouds --size 24x18 --colormap grey --invert")
                .status,
            0);
  const auto c = perlin::read_png(d.path / "c.png");
  const auto inv = perlin::read_png(d.path / "i.png");
  const std::vector<stop> custom = {{0, {0, 0, 0}}, {0.25, {255, 0, 0}}, {1, {0, 255, 128}}};
  for (std::size_t j = 0; j < 18; ++j) {
    for (std::size_t i = 0; i < 24; ++i) {
      const double t = value_t(i, j);
      const auto rgb = colour(custom, t);
      for (std::size_t ch = 0; ch < 3; ++ch)
        ASSERT_NEAR(c.data[3 * (j * 24 + i) + ch], rgb[ch], 1.0);
      ASSERT_NEAR(inv.data[j * 24 + i], std::round((1 - t) * 255), 1.0);
    }
  }
  for (const char* bad : {"0:#000000", "0:#000000,0.5:#zzzzzz,1:#ffffff", "0.1:#000000,1:#ffffff",
                          "0:#000000,0.7:#ffffff,0.5:#ffffff,1:#000000", "0:black,1:white"}) {
    const auto r = run_perlin("render -o '" + (d.path / "x.png").string() + "' --colormap " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--colormap"), std::string::npos) << r.err;
  }
}

TEST(CliRenderValues, OptionsOverrideThePreset) {
  // A few overrides on top of the recipes, still checked against the model.
  recipe clouds = k_presets[1];
  clouds.octaves = 3;
  EXPECT_GT(check_case({.r = clouds, .extra = "--octaves 3"}), 300u);
  recipe fine = k_presets[4];
  fine.frequency = 1.0 / 16;
  EXPECT_GT(check_case({.r = fine, .extra = "--step 0.0625"}), 300u);
}

}  // namespace
