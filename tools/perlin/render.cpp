// `perlin render`: evaluates a field on a pixel grid (the bulk SIMD path, every core), maps it to
// pixels with fixed, documented bounds, and writes PNG or .npy files atomically.
#include "render.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "perlin/error.hpp"
#include "perlin/grid.hpp"
#include "perlin/image_io.hpp"
#include "perlin/range.hpp"
#include "perlin/targets.hpp"

namespace perlin_cli {

namespace {

/// Renders needing more than this are refused before anything is allocated.
constexpr std::uint64_t k_memory_limit = std::uint64_t{4} << 30;  // 4 GiB

/// What a preset computes from the field's value at a pixel.
enum class formula { plain, marble, wood };

struct colour_stop {
  double t;
  std::array<double, 3> rgb;
};

struct colormap {
  const char* name;
  std::vector<colour_stop> stops;
};

const std::vector<colormap>& colormaps() {
  static const std::vector<colormap> maps = {
      {"grey", {{0, {0, 0, 0}}, {1, {255, 255, 255}}}},
      {"clouds", {{0, {40, 90, 170}}, {0.45, {90, 150, 220}}, {0.7, {235, 240, 250}}, {1, {255, 255, 255}}}},
      {"marble", {{0, {30, 30, 45}}, {0.1, {105, 103, 115}}, {0.3, {212, 208, 200}}, {1, {250, 250, 247}}}},
      {"wood", {{0, {95, 52, 22}}, {0.55, {185, 120, 62}}, {0.8, {205, 145, 85}}, {1, {120, 68, 30}}}},
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
      {"heat", {{0, {0, 0, 0}}, {0.35, {160, 20, 10}}, {0.7, {250, 160, 20}}, {1, {255, 255, 230}}}},
  };
  return maps;
}

std::array<std::uint8_t, 3> ramp(const colormap& m, double t) {
  const auto& s = m.stops;
  std::size_t k = 1;
  while (k + 1 < s.size() && t > s[k].t) ++k;
  const double u = std::clamp((t - s[k - 1].t) / (s[k].t - s[k - 1].t), 0.0, 1.0);
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) {
    out[c] = static_cast<std::uint8_t>(std::lround(s[k - 1].rgb[c] + u * (s[k].rgb[c] - s[k - 1].rgb[c])));
  }
  return out;
}

/// A documented recipe (docs/render.md); every part can be overridden by the options.
struct preset {
  const char* name;
  noise_options noise;
  double frequency;  // pixel step
  const char* colormap;
  formula f;
};

noise_options fractal_options(const char* kind, int octaves, bool decorrelate) {
  noise_options o;
  o.fractal = kind;
  o.octaves = octaves;
  o.persistence = 0.5;
  o.lacunarity = 2;
  o.normalize = true;
  o.decorrelate = decorrelate;
  return o;
}

const std::vector<preset>& presets() {
  static const std::vector<preset> p = {
      {"plain", noise_options{}, 1.0 / 64, "grey", formula::plain},
      {"clouds", fractal_options("fbm", 6, true), 1.0 / 128, "clouds", formula::plain},
      {"marble", fractal_options("turbulence", 6, true), 1.0 / 64, "marble", formula::marble},
      {"wood", fractal_options("fbm", 3, true), 1.0 / 64, "wood", formula::wood},
      {"terrain", fractal_options("fbm", 8, true), 1.0 / 256, "terrain", formula::plain},
      {"ridges", fractal_options("ridged", 7, false), 1.0 / 128, "terrain", formula::plain},
  };
  return p;
}

// The marble and wood formulas (docs/render.md).
constexpr double k_marble_stripes = 0.5;     // stripes per lattice unit along x
constexpr double k_marble_turbulence = 1.0;  // turbulence amplitude, in stripe periods
constexpr double k_wood_rings = 2.0;         // rings per lattice unit of radius
constexpr double k_wood_noise = 0.5;         // noise amplitude, in ring periods

struct render_options {
  noise_options noise;
  std::string output;
  std::string size = "512x512";
  std::size_t depth = 0;
  std::optional<double> frequency, scale;
  std::string origin, offset;
  std::string preset = "plain";
  int bits = 8;
  std::optional<std::string> colormap;
  std::string range;
  bool stretch = false;
  bool tileable = false;
  std::size_t frames = 0;
  bool loop = false;
  double loop_radius = 1.0;
  std::optional<double> time_step;
  unsigned threads = 0;
  std::string simd;
  bool quiet = false;
  bool strict = false;
};

std::size_t parse_size_part(const std::string& text, std::size_t from, std::size_t to) {
  std::size_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data() + from, text.data() + to, v);
  if (from == to || ec != std::errc() || ptr != text.data() + to || v == 0 || v > 0x7FFFFFFF) {
    throw usage_error("--size: '" + text + "' is not WxH with W and H from 1 to 2147483647");
  }
  return v;
}

/// Progress on stderr: only when stderr is a terminal and the render takes over half a second.
class progress {
 public:
  explicit progress(bool enabled) : enabled_(enabled && ::isatty(2) != 0) {}
  void update(double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::milliseconds(500)) return;
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\rrendering %3d%% [%s%s]", static_cast<int>(fraction * 100),
                 std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), '.').c_str());
    shown_ = true;
  }
  ~progress() {
    if (shown_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string frame_path(const std::string& output, std::size_t k, std::size_t frames) {
  if (frames == 0) return output;
  const std::filesystem::path p(output);
  char num[32];
  std::snprintf(num, sizeof num, "_%04zu", k);
  return (p.parent_path() / (p.stem().string() + num + p.extension().string())).string();
}

/// All the decisions of a render, made and checked before anything is computed.
struct render_plan {
  perlin::field field;
  const preset* recipe = nullptr;
  formula f = formula::plain;
  std::size_t width = 0, height = 0, depth = 0;
  std::array<double, 4> step{};
  std::array<double, 4> origin{};
  std::array<std::int64_t, 4> first{};
  bool png = true;
  int bits = 8;
  const colormap* cmap = nullptr;  // nullptr: grey
  bool shaded = false;              // terrain relief lit by the analytic gradient
  double lo = -1, hi = 1;
  bool stretch = false;
  double marble_stripes = k_marble_stripes;
};

int run_render(render_options o, CLI::App* cmd) {
  render_plan r;
  // ---- options and preset ----
  for (const auto& p : presets()) {
    if (o.preset == p.name) r.recipe = &p;
  }
  const preset& pr = *r.recipe;
  r.f = pr.f;
  const auto given = [cmd](const char* name) { return cmd->get_option(name)->count() > 0; };
  if (!given("--fractal")) o.noise.fractal = pr.noise.fractal;
  if (!given("--octaves")) o.noise.octaves = pr.noise.octaves;
  if (!given("--persistence")) o.noise.persistence = pr.noise.persistence;
  if (!given("--lacunarity")) o.noise.lacunarity = pr.noise.lacunarity;
  if (!given("--normalize")) o.noise.normalize = pr.noise.normalize;
  if (!given("--decorrelate")) o.noise.decorrelate = pr.noise.decorrelate;

  const std::string& size = o.size;
  const std::size_t x = size.find('x');
  if (x == std::string::npos) throw usage_error("--size: '" + size + "' is not WxH");
  r.width = parse_size_part(size, 0, x);
  r.height = parse_size_part(size, x + 1, size.size());
  r.depth = o.depth;

  const std::string ext = std::filesystem::path(o.output).extension().string();
  if (ext == ".png") {
    r.png = true;
  } else if (ext == ".npy") {
    r.png = false;
  } else {
    throw usage_error("--output: cannot write '" + ext + "' files (valid: .png, .npy)");
  }
  if (o.bits != 8 && o.bits != 16) throw usage_error("--bits: must be 8 or 16");
  r.bits = o.bits;
  if (!r.png && (given("--bits") || o.colormap)) {
    throw usage_error("--bits and --colormap apply to .png output; .npy holds the raw values");
  }
  if (r.png && r.depth > 0) {
    throw usage_error("--depth: a volume is written as .npy (a PNG is 2-D)");
  }
  const std::string cmap_name = o.colormap.value_or(r.bits == 16 ? "grey" : pr.colormap);
  for (const auto& m : colormaps()) {
    if (cmap_name == m.name) r.cmap = &m;
  }
  if (r.cmap == nullptr) {
    std::string valid;
    for (const auto& m : colormaps()) valid += (valid.empty() ? "" : ", ") + std::string(m.name);
    throw usage_error("--colormap: unknown '" + cmap_name + "' (valid: " + valid + ")");
  }
  if (std::string(r.cmap->name) == "grey" || !r.png) r.cmap = nullptr;
  if (r.cmap != nullptr && r.bits == 16) {
    throw usage_error("--bits 16 is for grey images; a colormap gives 8-bit RGB");
  }
  r.shaded = r.cmap != nullptr && std::string(pr.name) == "terrain";

  if (o.frequency && o.scale) throw usage_error("--frequency and --scale are alternatives; give one");
  double freq = pr.frequency;
  if (o.frequency) freq = *o.frequency;
  if (o.scale) {
    if (!(*o.scale > 0) || !std::isfinite(*o.scale)) throw usage_error("--scale: must be > 0");
    freq = 1.0 / *o.scale;
  }
  if (!(freq > 0) || !std::isfinite(freq)) throw usage_error("--frequency: must be > 0");
  if (o.frames > 0 && r.depth > 0) throw usage_error("--frames and --depth cannot be combined");
  if (o.loop && o.frames == 0) throw usage_error("--loop needs --frames N");
  if (!(o.loop_radius > 0) || !std::isfinite(o.loop_radius)) throw usage_error("--loop-radius: must be > 0");

  // ---- the field and the pixel grid ----
  r.step = {freq, freq, freq, 1};
  if (o.tileable) {
    if (r.f == formula::wood) throw usage_error("--tileable: the wood preset's rings cannot wrap");
    if (o.noise.lacunarity != std::floor(o.noise.lacunarity)) {
      throw usage_error("--tileable: needs an integer --lacunarity, so that every octave wraps");
    }
    // A whole number of lattice cells must fit: P = round(W * F) cells across (at least 1), and
    // the step becomes P / W, so pixel W lands exactly one period after pixel 0.
    std::string periods;
    const std::size_t extent[3] = {r.width, r.height, r.depth};
    for (std::size_t k = 0; k < (r.depth > 0 ? 3u : 2u); ++k) {
      const double cells = std::max(1.0, std::round(static_cast<double>(extent[k]) * freq));
      if (cells > static_cast<double>(perlin::k_max_period)) {
        throw usage_error("--tileable: more than 2^31-1 lattice cells across");
      }
      r.step[k] = cells / static_cast<double>(extent[k]);
      periods += (periods.empty() ? "" : ",") + std::to_string(static_cast<std::int64_t>(cells));
    }
    if (!o.noise.period.empty()) throw usage_error("--tileable sets the periods itself; drop --period");
    o.noise.period = periods;
    if (r.f == formula::marble) {
      const double cells = r.step[0] * static_cast<double>(r.width);
      r.marble_stripes = std::max(1.0, std::round(k_marble_stripes * cells)) / cells;
    }
  }
  r.field = make_field(o.noise);
  if (!o.origin.empty()) {
    const auto v = parse_list(o.origin, "--origin", 2, 4);
    for (std::size_t k = 0; k < v.size(); ++k) r.origin[k] = v[k];
  } else if (r.f == formula::wood) {
    // Rings around the image's centre unless told otherwise.
    r.origin[0] = -0.5 * static_cast<double>(r.width) * r.step[0];
    r.origin[1] = -0.5 * static_cast<double>(r.height) * r.step[1];
  }
  if (!o.offset.empty()) {
    const auto v = parse_list(o.offset, "--offset", 2, 3);
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (v[k] != std::floor(v[k]) || std::abs(v[k]) >= 4503599627370496.0) {
        throw usage_error("--offset: pixel offsets are integers below 2^52");
      }
      r.first[k] = static_cast<std::int64_t>(v[k]);
    }
  }

  // ---- value range ----
  const std::size_t dims = o.frames > 0 ? (o.loop ? 4 : 3) : (r.depth > 0 ? 3 : 2);
  if (r.f == formula::marble) {
    r.lo = -1;
    r.hi = 1;
  } else if (r.f == formula::wood) {
    r.lo = 0;
    r.hi = 1;
  } else {
    std::tie(r.lo, r.hi) = r.field.range(dims);
  }
  if (!o.range.empty()) {
    const auto v = parse_list(o.range, "--range", 2, 2);
    if (!(v[0] < v[1])) throw usage_error("--range: MIN must be below MAX");
    r.lo = v[0];
    r.hi = v[1];
  }
  r.stretch = o.stretch;
  if (r.stretch && !o.range.empty()) throw usage_error("--stretch and --range are alternatives");

  // ---- memory, before allocating anything ----
  const std::uint64_t pixels_per_frame = static_cast<std::uint64_t>(r.width) * r.height *
                                         std::max<std::uint64_t>(1, r.depth);
  const std::uint64_t bytes_per_pixel = 4 + (r.shaded ? 8 : 0) + (r.png ? (r.cmap ? 3 : r.bits / 8) : 0);
  if (pixels_per_frame > k_memory_limit / bytes_per_pixel) {
    throw usage_error("--size: the render would need " +
                      std::to_string(static_cast<double>(pixels_per_frame) * static_cast<double>(bytes_per_pixel)) +
                      " bytes, over the limit of " + std::to_string(k_memory_limit) + " bytes");
  }

  if (!o.simd.empty()) perlin::set_max_target(o.simd);
  // The output folder must accept files before the work starts.
  perlin::check_writable(frame_path(o.output, 0, o.frames));

  // ---- render ----
  progress bar(!o.quiet);
  const std::size_t frame_count = std::max<std::size_t>(1, o.frames);
  const perlin::bulk_options bulk{.threads = o.threads, .strict = o.strict};
  std::vector<float> values(static_cast<std::size_t>(pixels_per_frame));
  std::vector<float> gradient(r.shaded ? 2 * values.size() : 0);
  for (std::size_t frame = 0; frame < frame_count; ++frame) {
    perlin::grid g;
    g.dims = dims;
    g.count = {r.width, r.height, std::max<std::size_t>(1, r.depth), 1};
    g.origin = r.origin;
    g.step = r.step;
    g.first = r.first;
    if (o.frames > 0 && o.loop) {
      // A circle in the two extra dimensions: frame N is frame 0 again.
      const double angle = 2 * std::numbers::pi * static_cast<double>(frame) / static_cast<double>(o.frames);
      g.origin[2] = r.origin[2] + o.loop_radius * std::cos(angle);
      g.origin[3] = r.origin[3] + o.loop_radius * std::sin(angle);
      g.count[2] = g.count[3] = 1;
      g.first[2] = g.first[3] = 0;
    } else if (o.frames > 0) {
      g.step[2] = o.time_step.value_or(freq);
      g.first[2] = r.first[2] + static_cast<std::int64_t>(frame);
      g.count[2] = 1;
    }
    // Bands of rows, so that the progress bar moves; `first` keeps the arithmetic of one grid.
    const std::size_t rows = r.height * std::max<std::size_t>(1, r.depth);
    const std::size_t band = std::max<std::size_t>(1, (std::size_t{1} << 18) / r.width);
    if (r.shaded) {
      perlin::fill_grid_deriv(r.field, g, values, gradient, bulk);
      bar.update(static_cast<double>(frame + 1) / static_cast<double>(frame_count));
    } else if (r.depth > 0) {
      perlin::fill_grid(r.field, g, values, bulk);
      bar.update(static_cast<double>(frame + 1) / static_cast<double>(frame_count));
    } else {
      for (std::size_t row = 0; row < rows; row += band) {
        perlin::grid part = g;
        part.count[1] = std::min(band, rows - row);
        part.first[1] = g.first[1] + static_cast<std::int64_t>(row);
        perlin::fill_grid(r.field, part,
                          std::span<float>(values.data() + row * r.width, part.count[1] * r.width), bulk);
        bar.update((static_cast<double>(frame) + static_cast<double>(row + part.count[1]) / static_cast<double>(rows)) /
                   static_cast<double>(frame_count));
      }
    }
    // Formulas of the presets, in noise coordinates of each pixel.
    if (r.f != formula::plain) {
      for (std::size_t j = 0; j < r.height; ++j) {
        const double y = g.coordinate(1, j);
        for (std::size_t i = 0; i < r.width; ++i) {
          const double xc = g.coordinate(0, i);
          float& v = values[j * r.width + i];
          if (r.f == formula::marble) {
            v = static_cast<float>(std::sin(2 * std::numbers::pi * (r.marble_stripes * xc + k_marble_turbulence * v)));
          } else {
            const double rings = k_wood_rings * std::hypot(xc, y) + k_wood_noise * v;
            v = static_cast<float>(rings - std::floor(rings));
          }
        }
      }
    }
    const std::string path = frame_path(o.output, frame, o.frames);
    if (!r.png) {
      std::vector<std::size_t> shape;
      if (r.depth > 0) shape.push_back(r.depth);
      shape.push_back(r.height);
      shape.push_back(r.width);
      perlin::write_npy(path, shape, values);
      continue;
    }
    double lo = r.lo, hi = r.hi;
    if (r.stretch) {
      lo = std::numeric_limits<double>::infinity();
      hi = -lo;
      for (const float v : values) {
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
      }
      if (!(hi > lo)) hi = lo + 1;
    }
    const std::size_t n = values.size();
    if (r.cmap == nullptr) {
      const double scale = r.bits == 16 ? 65535.0 : 255.0;
      std::vector<std::uint8_t> pixels(n * static_cast<std::size_t>(r.bits / 8));
      for (std::size_t i = 0; i < n; ++i) {
        const auto q = static_cast<std::uint16_t>(std::lround(perlin::to_unit(values[i], lo, hi) * scale));
        if (r.bits == 16) {
          std::memcpy(pixels.data() + 2 * i, &q, 2);
        } else {
          pixels[i] = static_cast<std::uint8_t>(q);
        }
      }
      perlin::write_png(path, r.width, r.height,
                        r.bits == 16 ? perlin::pixel_format::gray16 : perlin::pixel_format::gray8, pixels);
    } else {
      std::vector<std::uint8_t> pixels(3 * n);
      // Light from the north-west, 45 degrees up (the cartographic convention).
      const double lx = -0.5, ly = -0.5, lz = std::sqrt(0.5);
      for (std::size_t i = 0; i < n; ++i) {
        const double t = perlin::to_unit(values[i], lo, hi);
        auto rgb = ramp(*r.cmap, t);
        if (r.shaded && t > 0.5) {  // land only: the sea stays flat
          const double k = 0.6;  // vertical exaggeration
          const double nx = -k * gradient[i], ny = -k * gradient[n + i], nz = 1.0;
          const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
          const double light = std::max(0.0, (nx * lx + ny * ly + nz * lz) / len);
          const double shade = 0.35 + 0.65 * light / lz;
          for (auto& c : rgb) c = static_cast<std::uint8_t>(std::clamp(c * shade, 0.0, 255.0));
        }
        std::copy(rgb.begin(), rgb.end(), pixels.begin() + static_cast<std::ptrdiff_t>(3 * i));
      }
      perlin::write_png(path, r.width, r.height, perlin::pixel_format::rgb8, pixels);
    }
  }
  if (r.stretch && !o.quiet) {
    std::fprintf(stderr, "perlin: note: --stretch maps each image's own min and max; tiles rendered "
                         "separately will not match at their edges\n");
  }
  return 0;
}

}  // namespace

void add_render_command(CLI::App& app, std::function<int()>& run) {
  auto opts = std::make_shared<render_options>();
  CLI::App* cmd = app.add_subcommand("render", "Render noise to a PNG image or a .npy array");
  auto& o = *opts;
  cmd->add_option("-o,--output", o.output, "Output file: .png or .npy")->required();
  cmd->add_option("--size", o.size, "Image size WxH in pixels")->capture_default_str();
  cmd->add_option("--depth", o.depth, "Render a volume of this many slices (.npy only)");
  cmd->add_option("--frequency", o.frequency,
                  "Step between neighbouring pixels in noise coordinates (1/64: 64 pixels a cell)");
  cmd->add_option("--scale", o.scale, "Pixels per lattice cell (1 / frequency)");
  cmd->add_option("--origin", o.origin, "Noise coordinates X,Y[,Z[,W]] of pixel (0, 0)");
  cmd->add_option("--offset", o.offset,
                  "Pixel index of the top-left pixel, I,J[,K]: pixel (i, j) samples "
                  "origin + (I + i, J + j) * frequency, so tiles match a whole render exactly");
  std::vector<std::string> names;
  for (const auto& p : presets()) names.emplace_back(p.name);
  cmd->add_option("--preset", o.preset, "Recipe: plain, clouds, marble, wood, terrain, ridges")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  add_noise_options(*cmd, o.noise, /*with_frequency=*/false);
  cmd->add_option("--bits", o.bits, "PNG bit depth for grey images: 8 or 16")->capture_default_str();
  cmd->add_option("--colormap", o.colormap,
                  "grey, clouds, marble, wood, terrain or heat (RGB); default: the preset's");
  cmd->add_option("--range", o.range, "MIN,MAX of the values mapped to black and white");
  cmd->add_flag("--stretch", o.stretch, "Map each image's own min and max instead (tiles will not match)");
  cmd->add_flag("--tileable", o.tileable, "Make the image wrap seamlessly (adjusts the frequency)");
  cmd->add_option("--frames", o.frames, "Write N frames, FILE_0000.png ...");
  cmd->add_flag("--loop", o.loop, "Frames loop seamlessly (a circle through 4-D noise)");
  cmd->add_option("--loop-radius", o.loop_radius, "Radius of the loop's circle in noise units")
      ->capture_default_str();
  cmd->add_option("--time-step", o.time_step, "Without --loop: z step between frames (default: frequency)");
  cmd->add_option("--threads", o.threads, "Worker threads, 0 = every core")->capture_default_str();
  cmd->add_option("--simd", o.simd, "Cap the SIMD target (see 'perlin targets')");
  cmd->add_flag("--strict", o.strict, "Identical bits on every SIMD target (no fused multiply-add)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress bar or notes");
  cmd->callback([opts, cmd, &run] { run = [opts, cmd] { return run_render(*opts, cmd); }; });
}

void add_targets_command(CLI::App& app, std::function<int()>& run) {
  CLI::App* cmd = app.add_subcommand(
      "targets", "List the SIMD targets compiled in and supported here, best first; * marks the active one");
  cmd->callback([&run] {
    run = [] {
      const std::string active = perlin::active_target();
      for (const auto& t : perlin::available_targets()) {
        std::printf("%s%s\n", t.c_str(), t == active ? " *" : "");
      }
      return 0;
    };
  });
}

}  // namespace perlin_cli
