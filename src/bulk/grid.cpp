// Bulk entry points: validate once, build the plan (per-column tables, per-octave parameters),
// split rows or points over threads, and call the active target's kernels once per chunk.
#include "perlin/grid.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bulk/bulk_checks.hpp"
#include "bulk/plans.hpp"
#include "bulk/warp_samples.hpp"
#include "detail/error.hpp"
#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "detail/rotation.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/error.hpp"
#include "perlin/graph_grid.hpp"
#include "runtime/parallel.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

/// Columns per plan: the per-column tables cost about 40 bytes a column and octave, so very
/// wide grids (long 1-D signals) are filled in bands of columns with bounded memory.
constexpr std::size_t k_band_columns = 8192;

std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  if (b != 0 && a > std::numeric_limits<std::size_t>::max() / b) {
    detail::throw_size(what, "the number of samples overflows std::size_t");
  }
  return a * b;
}

}  // namespace

namespace detail {
void check_grid(const grid& g) {
  (void)g.size();
  constexpr std::int64_t limit = std::int64_t{1} << 53;
  for (std::size_t k = 0; k < g.dims; ++k) {
    if (g.first[k] <= -limit || g.first[k] >= limit ||
        // In 64 bits: a 32-bit size_t (wasm32, armv7) cannot hold 2^53.
        static_cast<std::uint64_t>(g.count[k]) >=
            static_cast<std::uint64_t>(limit - std::max<std::int64_t>(g.first[k], 0))) {
      detail::throw_invalid("first", "sample indices must stay below 2^53 in magnitude");
    }
    if (!std::isfinite(g.origin[k])) detail::throw_invalid("origin", "must be finite");
    if (!std::isfinite(g.step[k])) detail::throw_invalid("step", "must be finite");
    if (g.step[k] == 0)
      detail::throw_invalid("step", "must not be 0 (axis " + std::to_string(k) + ")");
    // The coordinates every front accepts (perlin eval, render, make_field's overflow rule).
    for (const std::int64_t i :
         {g.first[k], g.first[k] + static_cast<std::int64_t>(g.count[k]) - 1}) {
      const double x = g.origin[k] + static_cast<double>(i) * g.step[k];
      if (!(std::abs(x) <= k_max_coordinate)) {
        detail::throw_invalid("origin", "the grid's samples reach " + detail::number_text(x) +
                                            " on axis " + std::to_string(k) +
                                            ", beyond 2^52 (the coordinates every front accepts)");
      }
    }
  }
}
}  // namespace detail

namespace {

/// Threads for `items` chunks of work holding `samples` samples in all. Automatic (requested 0):
/// no more than one per `per_thread` samples, below which a second thread measured no faster
/// (docs/design.md); an explicit count is taken as asked. The bits never depend on it.
unsigned threads_for(unsigned requested, std::size_t items, std::size_t samples,
                     std::size_t per_thread) {
  if (requested != 0) return detail::thread_count(requested, items);
  return detail::thread_count(0, std::min(items, samples / per_thread + 1));
}

/// The coordinates p[1 .. dims) of row `row` (rows count every axis but x, y fastest).
template <class T>
void row_point(const grid& g, std::size_t row, T* p) {
  for (std::size_t a = 1; a < g.dims; ++a) {
    p[a] = g.coordinate(a, row % g.count[a]);
    row /= g.count[a];
  }
}

template <class T, class F>
void scalar_rows(const grid& g, unsigned threads, F&& per_sample) {
  const std::size_t nx = g.count[0];
  const std::size_t rows = g.size() / nx;
  detail::parallel_for(rows, threads_for(threads, rows, g.size(), 8192),
                       [&](std::size_t rb, std::size_t re) {
                         for (std::size_t row = rb; row < re; ++row) {
                           T p[4] = {};
                           row_point(g, row, p);
                           for (std::size_t i = 0; i < nx; ++i) {
                             p[0] = g.coordinate(0, i);
                             per_sample(row * nx + i, std::span<const T>(p, g.dims));
                           }
                         }
                       });
}

/// value_range of a span, NaN ignored: SIMD for float (the active target's min_max).
value_range<float> range_of(const float* v, std::size_t n) {
  value_range<float> r;
  if (n != 0) detail::active_kernels().min_max(v, n, &r.min, &r.max);
  return r;
}

template <class T>
value_range<T> range_of(const T* v, std::size_t n) {
  value_range<T> r;
  for (std::size_t i = 0; i < n; ++i) {
    r.min = v[i] < r.min ? v[i] : r.min;
    r.max = v[i] > r.max ? v[i] : r.max;
  }
  return r;
}

/// Collects the ranges of the chunks that threads computed.
template <class T>
class range_merger {
 public:
  void add(const value_range<T>& r) {
    const std::lock_guard lock(m_);
    total_.min = std::min(total_.min, r.min);
    total_.max = std::max(total_.max, r.max);
  }
  [[nodiscard]] value_range<T> get() const { return total_; }

 private:
  std::mutex m_;
  value_range<T> total_;
};

}  // namespace

double value_tolerance(const field& f) noexcept {
  if (const perlin::graph* gr = f.graph()) return value_tolerance(*gr);
  return k_float_tolerance * f.fractal().amplitude_sum();
}

double gradient_tolerance(const field& f) noexcept {
  if (const perlin::graph* gr = f.graph()) return gradient_tolerance(*gr);
  double scale = 0;
  for (detail::octave_walk o(f.fractal(), f.lattice()); o.index < f.fractal().active_octaves();
       o.next()) {
    scale += o.amp * o.freq;
  }
  if (f.fractal().normalize()) scale /= f.fractal().amplitude_sum();
  return k_gradient_tolerance * scale;
}

double grid::coordinate(std::size_t axis, std::size_t i) const noexcept {
  // first + i in double: exact (so the same as in integers) wherever the grid is valid (below
  // 2^53), and no signed overflow for a grid that was never validated.
  return origin[axis] + (static_cast<double>(first[axis]) + static_cast<double>(i)) * step[axis];
}

std::size_t grid::size() const {
  if (dims < 1 || dims > k_max_dims) {
    detail::throw_size("dims", "must be 1 to 4, got " + std::to_string(dims));
  }
  std::size_t n = 1;
  for (std::size_t k = 0; k < dims; ++k) {
    if (count[k] == 0) detail::throw_size("count", "every count must be at least 1");
    n = checked_mul(n, count[k], "count");
  }
  return n;
}

namespace {
/// A grid whose samples the field turns onto a rotated plane (2-D and 3-D grids).
/// Values and planar partials on the double scalar path (field::eval with a gradient), rounded
/// to T: the gradient grids' fallback, and the whole of the double one.
template <class T>
value_range<T> scalar_deriv_rows(const field& f, const grid& g, std::span<T> out,
                                 std::span<T> gradient, unsigned threads) {
  const std::size_t n = g.size();
  scalar_rows<double>(g, threads, [&](std::size_t idx, std::span<const double> p) {
    double grad[4];
    out[idx] = static_cast<T>(f.eval<double>(p, std::span<double>(grad, p.size())));
    for (std::size_t k = 0; k < p.size(); ++k) gradient[k * n + idx] = static_cast<T>(grad[k]);
  });
  return range_of(out.data(), out.size());
}

/// The sample kernel's plan for the grid (route_of chose the sample kernel, so it covers it).
detail::points_plan sample_plan(const field& f, const grid& g, bool strict) {
  detail::points_plan plan =
      *detail::make_points_plan(f, detail::sample_lattice_dims(f, g.dims), strict);
  // rows_by_samples' rows: y, z the same along a row unless the plane turns them.
  plan.constant_axes = !(f.plane() == plane::rotated && g.dims >= 2 && g.dims <= 3);
  return plan;
}

bool turned(const field& f, const grid& g) {
  return f.plane() == plane::rotated && g.dims >= 2 && g.dims <= 3;
}

/// Fills the grid row by row through eval_points_d: each row's lattice coordinates computed in
/// double exactly as the scalar path computes them (rotated when the plane is), then the kernel.
/// With a `gradient` (planar, g.dims arrays), the partials, turned back for rotated planes.
void rows_by_samples(const field& f, const grid& g, const detail::points_plan& plan,
                     unsigned threads, std::span<float> out, std::span<float> gradient) {
  const detail::kernels& k = detail::active_kernels();
  const std::size_t nx = g.count[0];
  const std::size_t n = g.size();
  const std::size_t rows = n / nx;
  const bool rotate = turned(f, g);
  const auto lattice_dims = static_cast<std::size_t>(plan.dims);
  const bool with_gradient = !gradient.empty();
  std::vector<double> xs(nx);  // the x coordinates, the same in every row
  for (std::size_t i = 0; i < nx; ++i) xs[i] = g.coordinate(0, i);
  detail::parallel_for(
      rows, threads_for(threads, rows, n, 16384), [&](std::size_t rb, std::size_t re) {
        std::vector<double> coords(lattice_dims * nx);
        std::vector<float> turned_gradient(rotate && with_gradient ? 3 * nx : 0);
        const double* c[3] = {};
        float* gr[3] = {};
        for (std::size_t a = 0; a < lattice_dims; ++a) c[a] = coords.data() + a * nx;
        if (!rotate) c[0] = xs.data();
        for (std::size_t row = rb; row < re; ++row) {
          double p[4] = {};
          row_point(g, row, p);
          if (rotate) {
            // detail::rotated's sum, term by term in the same order, for the whole row.
            for (std::size_t a = 0; a < 3; ++a) {
              double* ca = coords.data() + a * nx;
              for (std::size_t i = 0; i < nx; ++i) ca[i] = 0.0 + xs[i] * detail::k_rot[0][a];
              for (std::size_t axis = 1; axis < g.dims; ++axis) {
                const double term = p[axis] * detail::k_rot[axis][a];
                for (std::size_t i = 0; i < nx; ++i) ca[i] += term;
              }
            }
          } else {
            for (std::size_t a = 1; a < lattice_dims; ++a)
              std::fill_n(coords.data() + a * nx, nx, p[a]);
          }
          if (with_gradient) {
            for (std::size_t a = 0; a < lattice_dims; ++a) {
              gr[a] = rotate ? turned_gradient.data() + a * nx : gradient.data() + a * n + row * nx;
            }
          }
          k.eval_points_d(plan, c, nx, out.data() + row * nx, with_gradient ? gr : nullptr);
          if (rotate && with_gradient) {
            for (std::size_t a = 0; a < g.dims; ++a) {
              for (std::size_t i = 0; i < nx; ++i) {
                double s = 0;
                for (std::size_t j = 0; j < 3; ++j)
                  s += detail::k_rot[a][j] * double(turned_gradient[j * nx + i]);
                gradient[a * n + row * nx + i] = static_cast<float>(s);
              }
            }
          }
        }
      });
}

}  // namespace
value_range<float> fill_grid(const field& f, const grid& g, std::span<float> out,
                             const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return fill_grid(*gr, g, out, o);  // graph_grid.hpp
  detail::check_grid(g);
  const std::size_t n = g.size();
  detail::check_out(out, n, "out");
  switch (detail::route_of(f, detail::bulk_call::grid_float, g.dims, g.count[0])) {
    case detail::bulk_route::row_kernel:
      break;
    case detail::bulk_route::sample_kernel:
      rows_by_samples(f, g, sample_plan(f, g, o.strict), o.threads, out, {});
      return range_of(out.data(), out.size());
    case detail::bulk_route::warp_kernel:
      // Targets without double vectors (WebAssembly) have no displacement kernel: scalar.
      if (detail::active_kernels().noise_points_dd != nullptr) {
        detail::warped_rows(g, detail::make_warp_plan(f, g.dims, o.strict), o.threads, out, {});
        return range_of(out.data(), out.size());
      }
      [[fallthrough]];
    default:
      scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
        out[idx] = static_cast<float>(f.eval<double>(p));
      });
      return range_of(out.data(), out.size());
  }
  const detail::kernels& k = detail::active_kernels();
  const std::size_t nx = g.count[0];
  const std::size_t rows = n / nx;
  range_merger<float> range;
  // Fills the band of columns [x0, x0 + the plan's width) of rows [rb, re), with its range.
  const auto fill_band = [&](const detail::grid_plan& plan, std::size_t x0, std::size_t rb,
                             std::size_t re) {
    value_range<float> r;
    k.fill_rows(plan, rb, re, out.data() + rb * nx + x0, &r.min, &r.max);
    range.add(r);
  };
  // `first` keeps each band's coordinates those of the whole grid, so bands never change a value.
  const auto band_grid = [&](std::size_t x0, std::size_t width) {
    grid band = g;
    band.count[0] = width;
    band.first[0] = g.first[0] + static_cast<std::int64_t>(x0);
    return band;
  };
  const unsigned threads = threads_for(o.threads, std::max<std::size_t>(rows, nx / 64), n, 1 << 18);
  if (rows >= threads) {
    // Bands of columns one after the other (bounded tables), each band's rows over the threads.
    for (std::size_t x0 = 0; x0 < nx; x0 += k_band_columns) {
      const std::size_t width = std::min(k_band_columns, nx - x0);
      detail::grid_plan plan = detail::make_grid_plan(f, band_grid(x0, width), o.strict, k);
      plan.row_stride = nx;
      detail::parallel_for(rows, threads,
                           [&](std::size_t rb, std::size_t re) { fill_band(plan, x0, rb, re); });
    }
  } else {
    // Fewer rows than threads (a 1-D signal, a few long rows): the threads take bands of
    // columns instead, each with its own plan.
    const std::size_t width = std::min(k_band_columns, (nx + threads - 1) / threads);
    const std::size_t bands = (nx + width - 1) / width;
    detail::parallel_for(bands, threads, [&](std::size_t bb, std::size_t be) {
      for (std::size_t b = bb; b < be; ++b) {
        const std::size_t x0 = b * width;
        const std::size_t w = std::min(width, nx - x0);
        detail::grid_plan plan = detail::make_grid_plan(f, band_grid(x0, w), o.strict, k);
        plan.row_stride = nx;
        fill_band(plan, x0, 0, rows);
      }
    });
  }
  return range.get();
}

value_range<double> fill_grid(const field& f, const grid& g, std::span<double> out,
                              const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return fill_grid(*gr, g, out, o);
  detail::check_grid(g);
  detail::check_out(out, g.size(), "out");
  const detail::bulk_route route =
      detail::route_of(f, detail::bulk_call::grid_double, g.dims, g.count[0]);
  if (route == detail::bulk_route::exact_rows) {
    // Plain improved noise in 2-D and 3-D: the SIMD kernel with the scalar path's bits.
    const auto plan = detail::make_exact_grid_plan(f, g);
    const auto& k = detail::active_kernels();
    const std::size_t nx = g.count[0], rows = g.size() / nx;
    range_merger<double> range;
    detail::parallel_for(rows, threads_for(o.threads, rows, g.size(), 1 << 18),
                         [&](std::size_t rb, std::size_t re) {
                           value_range<double> r;
                           k.fill_rows_exact(*plan, rb, re, out.data() + rb * nx, &r.min, &r.max);
                           range.add(r);
                         });
    return range.get();
  }
  if (route == detail::bulk_route::plain_scalar) {
    // The plain noise: the scalar path's own operations (detail::plain_octave) with the
    // dimension and the noise fixed once for the whole grid instead of per sample.
    const lattice& lat = f.lattice();
    const auto rows = [&]<int D>(auto&& noise) {
      scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
        out[idx] = detail::plain_octave<D, double>(f.fractal(), lat, noise, p.data());
      });
    };
    const auto by_dims = [&](auto&& noise_of) {
      switch (g.dims) {
        case 1:
          return rows.template operator()<1>(noise_of.template operator()<1>());
        case 2:
          return rows.template operator()<2>(noise_of.template operator()<2>());
        case 3:
          return rows.template operator()<3>(noise_of.template operator()<3>());
        default:
          return rows.template operator()<4>(noise_of.template operator()<4>());
      }
    };
    std::visit(
        [&](const auto& n) { by_dims([&n]<int D>() { return detail::base_of<D, double>(n); }); },
        f.base());
    return range_of(out.data(), out.size());
  }
  scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
    out[idx] = f.eval<double>(p);
  });
  return range_of(out.data(), out.size());
}

value_range<float> fill_grid_deriv(const field& f, const grid& g, std::span<float> out,
                                   std::span<float> gradient, const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return fill_grid_deriv(*gr, g, out, gradient, o);
  detail::check_grid(g);
  const std::size_t n = g.size();
  detail::check_out(out, n, "out");
  detail::check_out(gradient, checked_mul(n, g.dims, "count"), "gradient");
  const detail::bulk_route route = detail::route_of(f, detail::bulk_call::grid_deriv_float, g.dims);
  if (route == detail::bulk_route::sample_kernel) {
    rows_by_samples(f, g, sample_plan(f, g, o.strict), o.threads, out, gradient);
    return range_of(out.data(), out.size());
  }
  if (route == detail::bulk_route::warp_kernel &&
      detail::active_kernels().noise_points_dd != nullptr) {
    detail::warped_rows(g, detail::make_warp_plan(f, g.dims, o.strict), o.threads, out, gradient);
    return range_of(out.data(), out.size());
  }
  return scalar_deriv_rows(f, g, out, gradient, o.threads);
}

value_range<double> fill_grid_deriv(const field& f, const grid& g, std::span<double> out,
                                    std::span<double> gradient, const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return fill_grid_deriv(*gr, g, out, gradient, o);
  detail::check_grid(g);
  const std::size_t n = g.size();
  detail::check_out(out, n, "out");
  detail::check_out(gradient, checked_mul(n, g.dims, "count"), "gradient");
  return scalar_deriv_rows(f, g, out, gradient, o.threads);
}

}  // namespace perlin
