// The render pipeline (render_pipeline.hpp).
#include "render_pipeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <numbers>
#include <span>
#include <vector>

#include "perlin/range.hpp"
#include "presets.hpp"
#include "runtime/parallel.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define PERLIN_FRAME_HUGE_PAGES 1
#endif

namespace perlin_render {

#ifdef PERLIN_FRAME_HUGE_PAGES
namespace {
constexpr std::size_t k_huge_page = std::size_t{2} << 20;
}  // namespace
#endif

void* allocate_frame_bytes(std::size_t bytes) {
#ifdef PERLIN_FRAME_HUGE_PAGES
  if (bytes >= k_huge_page) {
    const std::size_t rounded = (bytes + k_huge_page - 1) / k_huge_page * k_huge_page;
    void* p = std::aligned_alloc(k_huge_page, rounded);
    if (p == nullptr) throw std::bad_alloc();
    (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice: refused, the pages stay small
    return p;
  }
#endif
  return ::operator new(bytes);
}

void free_frame_bytes(void* p, std::size_t bytes) noexcept {
#ifdef PERLIN_FRAME_HUGE_PAGES
  if (bytes >= k_huge_page) {
    std::free(p);  // NOLINT(cppcoreguidelines-no-malloc): aligned_alloc's
    return;
  }
#endif
  (void)bytes;
  ::operator delete(p);
}

namespace {

/// Frames are evaluated in bands of about 2^20 samples (so that the progress bar moves, and a
/// band's values are still in cache when they are mapped to pixels): whole lines (rows, or
/// slices of a volume) of `line_size` samples each.
std::size_t band_lines(const render_plan& r, std::size_t line_size, std::size_t multiple = 1) {
  const std::size_t lines = std::max<std::size_t>(1, r.band_samples / line_size);
  return std::max(multiple, lines / multiple * multiple);
}

/// Lines [line, line + count) of `g` along `axis`; `first` keeps their coordinates those of g.
perlin::grid band_of(const perlin::grid& g, std::size_t axis, std::size_t line, std::size_t count) {
  perlin::grid part = g;
  part.count[axis] = count;
  part.first[axis] = g.first[axis] + static_cast<std::int64_t>(line);
  return part;
}

/// The bulk options of every band of a frame of `frame_samples` samples. An automatic thread
/// count is resolved for the whole frame (one thread per 2^18 samples, as fill_grid would take for
/// the frame in one call): a band of 2^20 samples alone would take at most 5 threads on any
/// machine. The bits do not depend on it.
perlin::bulk_options band_options(const render_plan& r, std::size_t frame_samples) {
  perlin::bulk_options o = r.bulk;
  if (o.threads == 0) {
    o.threads = perlin::detail::thread_count(0, frame_samples / (std::size_t{1} << 18) + 1);
  }
  return o;
}

/// A cube face's pixel direction (docs/render.md): OpenGL's cube-map faces, file k = 0..5 for
/// +x, -x, +y, -y, +z, -z, with u = 2 (i + 0.5) / W - 1 across and v = 2 (j + 0.5) / W - 1 down:
/// +x (1, -v, -u), -x (-1, -v, u), +y (u, 1, v), -y (u, -1, -v), +z (u, -v, 1), -z (-u, -v, -1).
/// `du` and `dv` receive the direction's derivatives along u and v (constant on a face).
std::array<double, 3> face_direction(std::size_t face, double u, double v,
                                     std::array<double, 3>& du, std::array<double, 3>& dv) {
  switch (face) {
    case 0:
      du = {0, 0, -1}, dv = {0, -1, 0};
      return {1, -v, -u};
    case 1:
      du = {0, 0, 1}, dv = {0, -1, 0};
      return {-1, -v, u};
    case 2:
      du = {1, 0, 0}, dv = {0, 0, 1};
      return {u, 1, v};
    case 3:
      du = {1, 0, 0}, dv = {0, 0, -1};
      return {u, -1, -v};
    case 4:
      du = {1, 0, 0}, dv = {0, -1, 0};
      return {u, -v, 1};
    default:
      du = {-1, 0, 0}, dv = {0, -1, 0};
      return {-u, -v, -1};
  }
}

/// The sphere's samples of band `part` of file `file`: their points, and the unit tangents along
/// the image's x (columns) and y (rows, down) at each, for the surface gradient.
struct sphere_band {
  std::vector<float> xyz;      // planar x, y, z
  std::vector<double> tx, ty;  // 3 per sample
};

sphere_band sphere_points(const render_plan& r, std::size_t file, const perlin::grid& part) {
  const std::size_t w = part.count[0], h = part.count[1], n = w * h;
  sphere_band b;
  b.xyz.resize(3 * n);
  const bool tangents = r.with_gradient();
  if (tangents) {
    b.tx.resize(3 * n);
    b.ty.resize(3 * n);
  }
  const double pi = std::numbers::pi;
  const auto put = [&](std::size_t k, const std::array<double, 3>& unit) {
    for (std::size_t a = 0; a < 3; ++a)
      b.xyz[a * n + k] = static_cast<float>(r.origin[a] + r.sphere_radius * unit[a]);
  };
  for (std::size_t j = 0; j < h; ++j) {
    const double row = static_cast<double>(part.first[1]) + double(j) + 0.5;
    for (std::size_t i = 0; i < w; ++i) {
      const double col = static_cast<double>(part.first[0]) + double(i) + 0.5;
      const std::size_t k = j * w + i;
      if (!r.cubemap) {
        const double lambda = -pi + 2 * pi * col / static_cast<double>(r.width);
        const double phi = pi / 2 - pi * row / static_cast<double>(r.height);
        const double sl = std::sin(lambda), cl = std::cos(lambda);
        const double sp = std::sin(phi), cp = std::cos(phi);
        put(k, {cp * cl, cp * sl, sp});
        if (tangents) {  // east, and south = -north
          const double e[3] = {-sl, cl, 0}, s[3] = {sp * cl, sp * sl, -cp};
          for (std::size_t a = 0; a < 3; ++a) {
            b.tx[3 * k + a] = e[a];
            b.ty[3 * k + a] = s[a];
          }
        }
        continue;
      }
      const double u = 2 * col / static_cast<double>(r.width) - 1;
      const double v = 2 * row / static_cast<double>(r.height) - 1;
      std::array<double, 3> du{}, dv{};
      const auto d = face_direction(file, u, v, du, dv);
      const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      put(k, {d[0] / len, d[1] / len, d[2] / len});
      if (tangents) {
        // The tangent along u (and v): du minus its part along the direction, normalised.
        for (auto* t : {&du, &dv}) {
          const double along = ((*t)[0] * d[0] + (*t)[1] * d[1] + (*t)[2] * d[2]) / (len * len);
          double c[3], l2 = 0;
          for (std::size_t a = 0; a < 3; ++a) {
            c[a] = (*t)[a] - along * d[a];
            l2 += c[a] * c[a];
          }
          double* into = t == &du ? &b.tx[3 * k] : &b.ty[3 * k];
          for (std::size_t a = 0; a < 3; ++a) into[a] = c[a] / std::sqrt(l2);
        }
      }
    }
  }
  return b;
}

/// The sphere projections (docs/render.md): the equirectangular texture, pixel (i, j) of W x H at
/// origin + R (cos phi cos lambda, cos phi sin lambda, sin phi), lambda = -pi + 2 pi (i + 0.5) /
/// W, phi = pi/2 - pi (j + 0.5) / H; or a cube face, at origin + R d / |d| (face_direction).
/// With a gradient (a shaded relief, a normal map), the surface gradient along the image's axes:
/// the 3-D gradient on the unit tangents along the columns and down the rows.
void evaluate_sphere(const render_plan& r, std::size_t file, const perlin::grid& part,
                     std::span<float> out, std::vector<float>& gradient,
                     const perlin::bulk_options& o) {
  const std::size_t n = part.count[0] * part.count[1];
  const sphere_band b = sphere_points(r, file, part);
  perlin::point_set<float> p;
  p.x = std::span<const float>(b.xyz.data(), n);
  p.y = std::span<const float>(b.xyz.data() + n, n);
  p.z = std::span<const float>(b.xyz.data() + 2 * n, n);
  if (!r.with_gradient()) {
    perlin::eval_points(r.field, p, out, o);
    return;
  }
  std::vector<float> g3(3 * n);
  perlin::eval_points_deriv(r.field, p, out, g3, o);
  gradient.resize(2 * n);
  for (std::size_t k = 0; k < n; ++k) {
    double gx = 0, gy = 0;
    for (std::size_t a = 0; a < 3; ++a) {
      gx += b.tx[3 * k + a] * double(g3[a * n + k]);
      gy += b.ty[3 * k + a] * double(g3[a * n + k]);
    }
    gradient[k] = static_cast<float>(gx);
    gradient[n + k] = static_cast<float>(gy);
  }
}

/// Evaluates the band `part` of file `file` into `out`; for a relief also its gradient, planar in
/// `gradient` (plane k: the partial along axis k; resized to the band).
void evaluate_band(const render_plan& r, std::size_t file, const perlin::grid& part,
                   std::span<float> out, std::vector<float>& gradient,
                   const perlin::bulk_options& o) {
  if (r.sphere_radius > 0) return evaluate_sphere(r, file, part, out, gradient, o);
  if (r.device) return r.device(part, out);  // values only (the front refuses a gradient)
  if (r.with_gradient()) {
    gradient.resize(part.dims * out.size());
    perlin::fill_grid_deriv(r.field, part, out, gradient, o);
  } else {
    perlin::fill_grid(r.field, part, out, o);
  }
}

/// Threads for a per-pixel pass over n pixels (the formulas, the mapping to pixels): one per
/// 65536 pixels, at most the plan's count.
unsigned pixel_threads(const render_plan& r, std::size_t n) {
  return perlin::detail::thread_count(r.bulk.threads, n / 65536 + 1);
}

/// Marble and wood on rows [row_begin, row_end) of a slice of grid g; `rows` is row row_begin.
void formula_rows(const render_plan& r, const perlin::grid& g, float* rows, std::size_t row_begin,
                  std::size_t row_end) {
  if (r.f == formula::plain) return;
  // Each pixel on its own (a sine, or a square root and a floor): the rows over the threads, as
  // the field's values were. On the calling thread alone the sine was 40% of a two-thread marble
  // render's time (perf), which would cap it near 2.5x one thread on any number of cores.
  const std::size_t rows_n = row_end - row_begin;
  perlin::detail::parallel_for(
      rows_n, pixel_threads(r, rows_n * r.width), [&](std::size_t b, std::size_t e) {
        for (std::size_t j = row_begin + b; j < row_begin + e; ++j) {
          const double y = g.coordinate(1, j);
          float* row = rows + (j - row_begin) * r.width;
          for (std::size_t i = 0; i < r.width; ++i) {
            const double x = g.coordinate(0, i);
            row[i] = static_cast<float>(r.f == formula::marble ? marble(r.marble_stripes, x, row[i])
                                                               : wood(x, y, row[i]));
          }
        }
      });
}

/// Bytes per pixel of the plan's pixels.
std::size_t pixel_bytes(const render_plan& r) {
  return perlin::bytes_per_pixel(pixel_format_of(r));
}

/// The tangent-space normal map (docs/render.md): the surface z = s f(x, y) over the noise plane
/// has the normal (-s df/dx, -s df/dy, 1), normalised. Its x axis is the image's columns; the
/// image's rows run down (y grows), so the green channel's axis, up in the image, is -y for
/// OpenGL (sign +1: green = s df/dy / |n|) and +y for DirectX (sign -1). Each component c in
/// [-1, 1] is stored as round((c + 1) / 2 x 255) or x 65535.
/// The unit normal of one pixel (map_normals' formula), components in [-1, 1]; a NaN slope
/// gives the flat normal (0, 0, 1).
std::array<double, 3> unit_normal(const render_plan& r, float gx, float gy) {
  const double s = r.height_scale;
  const double c[3] = {-s * double(gx), double(r.normals) * s * double(gy), 1.0};
  const double len = std::sqrt(c[0] * c[0] + c[1] * c[1] + 1.0);
  if (!std::isfinite(len)) return {0, 0, 1};
  return {c[0] / len, c[1] / len, c[2] / len};
}

void map_normals(const render_plan& r, const float* gx, const float* gy, std::size_t n,
                 std::uint8_t* out) {
  const unsigned threads = pixel_threads(r, n);
  const double scale = r.bits == 16 ? 65535.0 : 255.0;
  perlin::detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const auto c = unit_normal(r, gx[i], gy[i]);
      for (std::size_t k = 0; k < 3; ++k) {
        const double t = (c[k] + 1.0) / 2.0;
        const auto q = static_cast<std::uint16_t>(round_half_away(std::clamp(t, 0.0, 1.0) * scale));
        if (r.bits == 16) {
          std::memcpy(out + 6 * i + 2 * k, &q, 2);
        } else {
          out[3 * i + k] = static_cast<std::uint8_t>(q);
        }
      }
    }
  });
}

/// Maps the n values (with a relief, its partials gx and gy) to pixels at `out`, lo and hi to
/// black and white. Each pixel on its own: the same bytes for every thread count and band.
void map_pixels(const render_plan& r, double lo, double hi, const float* values, const float* gx,
                const float* gy, std::size_t n, std::uint8_t* out) {
  if (r.normals != 0) return map_normals(r, gx, gy, n, out);
  const unsigned threads = pixel_threads(r, n);
  if (r.cmap == nullptr) {
    const double scale = r.bits == 16 ? 65535.0 : 255.0;
    perlin::detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const double t = perlin::to_unit(values[i], lo, hi);
        const auto q = static_cast<std::uint16_t>(round_half_away((r.invert ? 1 - t : t) * scale));
        if (r.bits == 16) {
          std::memcpy(out + 2 * i, &q, 2);
        } else {
          out[i] = static_cast<std::uint8_t>(q);
        }
      }
    });
    return;
  }
  perlin::detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const double t = perlin::to_unit(values[i], lo, hi);
      auto rgb = ramp(*r.cmap, r.invert ? 1 - t : t);
      if (r.shaded && t > 0.5) {  // land only: the sea stays flat
        const double shade = relief_shade(gx[i], gy[i]);
        for (auto& c : rgb) c = static_cast<std::uint8_t>(std::clamp(c * shade, 0.0, 255.0));
      }
      std::copy(rgb.begin(), rgb.end(), out + 3 * i);
    }
  });
}

/// The fraction of the render done when `done` of `lines` lines of frame `frame` are.
double done_fraction(const render_plan& r, std::size_t frame, std::size_t done, std::size_t lines) {
  return (static_cast<double>(frame) + static_cast<double>(done) / static_cast<double>(lines)) /
         static_cast<double>(r.files());
}

/// The one banding loop: frame `frame`'s grid `g` in bands of whole lines along `axis` (rows, or
/// slices of a volume). For each band, `values_at(offset, m)` gives where its m values go,
/// then `use(offset, part, values, gradient)` takes them (offset: the band's first sample in g).
template <class Values, class Use>
void for_each_band(const render_plan& r, const perlin::grid& g, std::size_t axis, std::size_t frame,
                   const std::function<void(double)>& progress, Values&& values_at, Use&& use,
                   std::size_t multiple = 1) {
  const std::size_t n = g.size();
  const std::size_t lines = g.count[axis];
  const std::size_t line_size = n / lines;
  const std::size_t band = band_lines(r, line_size, multiple);
  const perlin::bulk_options o = band_options(r, n);
  std::vector<float> gradient;
  for (std::size_t line = 0; line < lines; line += band) {
    const perlin::grid part = band_of(g, axis, line, std::min(band, lines - line));
    const std::size_t offset = line * line_size;
    const std::span<float> values = values_at(offset, part.count[axis] * line_size);
    evaluate_band(r, frame, part, values, gradient, o);
    use(offset, part, values, gradient);
    if (progress) progress(done_fraction(r, frame, line + part.count[axis], lines));
  }
}

}  // namespace

/// Evaluates the field on the frame's grid, in bands (rows, or slices of a volume).
void render_frame(const render_plan& r, std::size_t frame, frame_values& v,
                  const std::function<void(double)>& progress) {
  // Sized for the plan (kept between frames; not zero-filled: every sample is written below).
  v.values.resize(r.samples());
  v.gradient.resize(r.with_gradient() ? 2 * r.samples() : 0);
  v.grid = r.frame_grid(frame);
  const std::size_t n = r.samples();
  for_each_band(
      r, v.grid, r.depth > 0 ? 2 : 1, frame, progress,
      [&](std::size_t offset, std::size_t m) {
        return std::span<float>(v.values).subspan(offset, m);
      },
      [&](std::size_t offset, const perlin::grid&, std::span<float> values,
          const std::vector<float>& gradient) {
        if (!r.with_gradient()) return;
        const std::size_t m = values.size();
        for (std::size_t k = 0; k < 2; ++k) {
          std::copy_n(gradient.data() + k * m, m, v.gradient.data() + k * n + offset);
        }
      });
}

/// Marble and wood: the formula at each pixel's noise coordinates, on every slice.
void apply_formula(const render_plan& r, frame_values& v) {
  const std::size_t slices = std::max<std::size_t>(1, r.depth);
  for (std::size_t s = 0; s < slices; ++s) {
    formula_rows(r, v.grid, v.values.data() + s * r.height * r.width, 0, r.height);
  }
}

/// The bounds mapped to black and white: the plan's, or this frame's own with --stretch.
std::pair<double, double> value_bounds(const render_plan& r, const frame_values& v) {
  if (!r.stretch) return {r.lo, r.hi};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const float x : v.values) {
    lo = std::min(lo, double(x));
    hi = std::max(hi, double(x));
  }
  if (!(hi > lo)) hi = lo + 1;
  return {lo, hi};
}

/// Grey (8 or 16 bit) or colormapped (and shaded) pixels of a 2-D frame.
frame_buffer<std::uint8_t> to_pixels(const render_plan& r, const frame_values& v) {
  const auto [lo, hi] = value_bounds(r, v);
  const std::size_t n = v.values.size();
  frame_buffer<std::uint8_t> pixels(n * pixel_bytes(r));
  const float* g = v.gradient.data();
  map_pixels(r, lo, hi, v.values.data(), g, r.with_gradient() ? g + n : nullptr, n, pixels.data());
  return pixels;
}

frame_buffer<float> to_normals(const render_plan& r, const frame_values& v) {
  const std::size_t n = v.values.size();
  frame_buffer<float> out(3 * n);
  const float* g = v.gradient.data();
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = unit_normal(r, g[i], g[n + i]);
    for (std::size_t k = 0; k < 3; ++k) out[3 * i + k] = static_cast<float>(c[k]);
  }
  return out;
}

bool pixels_by_bands(const render_plan& r) { return r.depth == 0 && !r.stretch; }

std::size_t band_lines_of(const render_plan& r) {
  const std::size_t line_size = r.depth > 0 ? r.width * r.height : r.width;
  return band_lines(r, line_size, r.depth > 0 ? 1 : r.band_multiple);
}

void render_bands(const render_plan& r, std::size_t frame,
                  const std::function<void(const frame_band&)>& use,
                  const std::function<void(double)>& progress) {
  const perlin::grid g = r.frame_grid(frame);
  const std::size_t axis = r.depth > 0 ? 2 : 1;
  const std::size_t plane = r.width * r.height;
  frame_buffer<float> band_values;
  frame_buffer<std::uint8_t> band_pixels;
  for_each_band(
      r, g, axis, frame, progress,
      [&](std::size_t, std::size_t m) {
        band_values.resize(m);
        return std::span<float>(band_values.data(), m);
      },
      [&](std::size_t offset, const perlin::grid& part, std::span<float> values,
          const std::vector<float>& gradient) {
        const std::size_t m = values.size();
        if (r.depth > 0) {  // whole slices: the formula on each
          for (std::size_t s = 0; s < part.count[2]; ++s)
            formula_rows(r, g, values.data() + s * plane, 0, r.height);
        } else {
          const std::size_t row = offset / r.width;
          formula_rows(r, g, values.data(), row, row + part.count[1]);
        }
        frame_band band{.line = offset / (r.depth > 0 ? plane : r.width),
                        .lines = part.count[axis],
                        .values = values,
                        .pixels = {}};
        if (r.png) {
          band_pixels.resize(m * pixel_bytes(r));
          const float* gx = gradient.data();
          map_pixels(r, r.lo, r.hi, values.data(), gx, r.with_gradient() ? gx + m : nullptr, m,
                     band_pixels.data());
          band.pixels = band_pixels;
        }
        use(band);
      },
      r.depth > 0 ? 1 : r.band_multiple);
}

frame_buffer<std::uint8_t> render_pixels(const render_plan& r, std::size_t frame, frame_values& v,
                                         const std::function<void(double)>& progress) {
  if (!pixels_by_bands(r)) {
    render_frame(r, frame, v, progress);
    apply_formula(r, v);
    return to_pixels(r, v);
  }
  const perlin::grid g = r.frame_grid(frame);
  frame_buffer<std::uint8_t> pixels(r.samples() * pixel_bytes(r));
  frame_buffer<float> band_values;
  for_each_band(
      r, g, 1, frame, progress,
      [&](std::size_t, std::size_t m) {
        band_values.resize(m);
        return std::span<float>(band_values.data(), m);
      },
      [&](std::size_t offset, const perlin::grid& part, std::span<float> values,
          const std::vector<float>& gradient) {
        const std::size_t row = offset / r.width, m = values.size();
        formula_rows(r, g, values.data(), row, row + part.count[1]);
        const float* gx = gradient.data();
        map_pixels(r, r.lo, r.hi, values.data(), gx, r.with_gradient() ? gx + m : nullptr, m,
                   pixels.data() + offset * pixel_bytes(r));
      });
  return pixels;
}

}  // namespace perlin_render
