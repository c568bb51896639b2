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

#include "detail/error.hpp"
#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "detail/rotation.hpp"
#include "grid_plan.hpp"
#include "perlin/error.hpp"
#include "runtime/parallel.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

/// Cells narrower than this many samples are hashed per sample (gathers), not per cell.
constexpr double k_gather_below_width = 3.0;

/// Columns per plan: the per-column tables cost about 40 bytes a column and octave, so very
/// wide grids (long 1-D signals) are filled in bands of columns with bounded memory.
constexpr std::size_t k_band_columns = 8192;

std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  if (b != 0 && a > std::numeric_limits<std::size_t>::max() / b) {
    detail::throw_size(what, "the number of samples overflows std::size_t");
  }
  return a * b;
}

void check_grid(const grid& g) {
  (void)g.size();
  constexpr std::int64_t limit = std::int64_t{1} << 53;
  for (std::size_t k = 0; k < g.dims; ++k) {
    if (g.first[k] <= -limit || g.first[k] >= limit ||
        g.count[k] >= static_cast<std::size_t>(limit - std::max<std::int64_t>(g.first[k], 0))) {
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

template <class T>
void check_out(std::span<T> out, std::size_t n, const char* name) {
  if (out.size() != n) {
    detail::throw_size(name, "must hold exactly " + std::to_string(n) + " values, got " +
                                 std::to_string(out.size()));
  }
}

/// Per-octave frequency, amplitude, offsets and periods: the recurrence of the scalar path
/// (detail::octave_walk).
struct octave_params {
  double freq;
  double amp;
  std::array<double, 4> offset;
  std::array<axis_wrap, k_max_dims> wrap;
};

std::vector<octave_params> octave_list(const field& f) {
  std::vector<octave_params> out;
  for (detail::octave_walk o(f.fractal(), f.lattice()); o.index < f.fractal().active_octaves();
       o.next()) {
    out.push_back({o.freq, o.amp, {o.offset(0), o.offset(1), o.offset(2), o.offset(3)}, o.wraps});
  }
  return out;
}

/// The gather kernels' tables of a permutation (hash_tables).
detail::hash_tables hash_tables_of(const perlin::permutation& perm) {
  detail::hash_tables t;
  for (std::size_t i = 0; i < 512; ++i) t.perm[i] = perm[i];
  for (std::size_t i = 0; i < 256; ++i) t.bytes[i] = static_cast<std::uint8_t>(perm[i]);
  for (std::size_t i = 0; i < 512; ++i) t.perm_z0[i] = perm[perm[i]];
  for (std::size_t i = 0; i < 512; ++i) {
    const std::size_t next = (i + 1) & 511;  // the doubled table repeats every 256
    t.pairs[i] = t.perm[i] | t.perm[next] << 16;
    t.pairs_z0[i] = t.perm_z0[i] | t.perm_z0[next] << 16;
  }
  return t;
}

template <class Plan>
void fill_common(Plan& plan, const field& f, bool strict) {
  plan.tables = hash_tables_of(f.lattice().perm());
  plan.improved = f.kind() == noise_kind::improved;
  if (!plan.improved) plan.interp = std::get<value_noise>(f.base()).interp();
  plan.kind = f.fractal().kind();
  plan.ridged = {static_cast<float>(f.fractal().ridged_offset()),
                 static_cast<float>(f.fractal().ridged_gain())};
  plan.normalize = f.fractal().normalize();
  plan.normalize_by = static_cast<float>(1.0 / f.fractal().amplitude_sum());
  plan.strict = strict;
}

}  // namespace

// The doubles of the plan come from the scalar path's own code: plain_octave's q, split_axis, fade.
std::optional<detail::exact_grid_plan> detail::make_exact_grid_plan(const field& f, const grid& g) {
  // Rows up to 65,536 samples: the plan holds 20 bytes per column and octave (a wider row would
  // make it larger than a band of the output; those take the scalar path, with the same bits).
  const fractal_kind kind = f.fractal().kind();
  if (f.kind() != noise_kind::improved ||
      (kind != fractal_kind::none && kind != fractal_kind::fbm) || f.plane() != plane::aligned ||
      f.warped() || (g.dims != 2 && g.dims != 3) || g.count[0] > 65536) {
    return std::nullopt;
  }
  const lattice& lat = f.lattice();
  detail::exact_grid_plan plan;
  plan.dims = static_cast<int>(g.dims);
  plan.nx = g.count[0];
  plan.count = g.count;
  plan.row_stride = g.count[0];
  plan.tables = hash_tables_of(lat.perm());
  plan.normalize = f.fractal().normalize();
  plan.amplitude_sum = f.fractal().amplitude_sum();
  // The octaves of fractal.cpp's loop (kind none is its one octave: plain_octave's operations).
  for (detail::octave_walk o(f.fractal(), lat); o.index < f.fractal().active_octaves(); o.next()) {
    // The octave coordinate of index i along axis a, split like the scalar path splits it.
    const auto sample = [&](std::size_t a, std::size_t i, detail::axis_index& li, double& fr) {
      double q = g.coordinate(a, i) * o.freq;
      if (o.decorrelated()) q = q + o.offset(a);
      if (!std::isfinite(q)) return false;
      li = detail::split_axis(q, o.wraps[a], fr);
      return true;
    };
    detail::exact_grid_plan::octave oct;
    oct.amp = o.amp;
    const std::size_t padded = plan.nx + detail::k_pad;
    oct.fx.resize(padded);
    oct.u.resize(padded);
    oct.cell.resize(padded);
    oct.a.reserve(padded);
    oct.b.reserve(padded);
    detail::axis_index previous{~0u, ~0u};
    for (std::size_t i = 0; i < padded; ++i) {
      detail::axis_index li{};
      double fr = 0;
      if (!sample(0, std::min(i, plan.nx - 1), li, fr)) return std::nullopt;
      oct.fx[i] = fr;
      oct.u[i] = detail::fade(fr);
      if (i < plan.nx && (li.i0 != previous.i0 || li.i1 != previous.i1)) {  // a new cell
        oct.a.push_back(lat.perm()[li.i0]);
        oct.b.push_back(lat.perm()[li.i1]);
        previous = li;
      }
      oct.cell[i] = static_cast<std::int32_t>(oct.a.size() - 1);
    }
    oct.cells = oct.a.size();
    oct.a.resize(oct.cells + detail::k_pad, oct.a.back());  // whole vectors of cells may be read
    oct.b.resize(oct.cells + detail::k_pad, oct.b.back());
    for (std::size_t a = 1; a < g.dims; ++a) {
      for (std::size_t i = 0; i < g.count[a]; ++i) {
        detail::axis_index li{};
        double fr = 0;
        if (!sample(a, i, li, fr)) return std::nullopt;
        oct.axis[a].push_back({li.i0, li.i1, fr, detail::fade(fr)});
      }
    }
    plan.octaves.push_back(std::move(oct));
  }
  return plan;
}

detail::grid_plan detail::make_grid_plan(const field& f, const grid& g, bool strict) {
  detail::grid_plan plan;
  fill_common(plan, f, strict);
  plan.dims = static_cast<int>(g.dims);
  for (std::size_t k = 0; k < g.dims; ++k) {
    plan.count[k] = g.count[k];
    plan.origin[k] = g.origin[k];
    plan.step[k] = g.step[k];
    plan.first[k] = g.first[k];
  }
  const std::size_t nx = g.count[0];
  for (const auto& op : octave_list(f)) {
    detail::octave_plan o;
    o.freq = op.freq;
    o.offset = op.offset;
    o.wrap = op.wrap;
    plan.amp.push_back(static_cast<float>(op.amp));
    o.gather = g.dims <= 3 && std::abs(g.step[0] * op.freq) * k_gather_below_width > 1.0;
    const std::size_t padded = nx + detail::k_pad;
    o.fx.resize(padded);
    o.t.resize(padded);
    o.cell.resize(padded);
    o.px0.resize(padded);
    o.px1.resize(padded);
    double previous_floor = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < padded; ++i) {
      const std::size_t col = std::min(i, nx - 1);
      const double x = g.coordinate(0, col);
      const double q = x * op.freq + op.offset[0];
      const double fl = std::floor(q);
      const detail::axis_index li = detail::lattice_index(fl, op.wrap[0]);
      o.fx[i] = static_cast<float>(q - fl);
      o.t[i] = static_cast<float>(detail::blend_weight(plan.improved, plan.interp, q - fl));
      o.px0[i] = plan.tables.perm[li.i0];
      o.px1[i] = plan.tables.perm[li.i1];
      if (i < nx && fl != previous_floor) {  // a new cell along the row
        o.cx0.push_back(static_cast<std::int32_t>(li.i0));
        o.cx1.push_back(static_cast<std::int32_t>(li.i1));
        previous_floor = fl;
      }
      o.cell[i] = static_cast<std::int32_t>(o.cx0.size() - 1);
    }
    o.cells = o.cx0.size();
    // Padding so that the vectorised coefficient pass may read whole vectors of cells.
    o.cx0.resize(o.cells + detail::k_pad, o.cx0.back());
    o.cx1.resize(o.cells + detail::k_pad, o.cx1.back());
    for (std::size_t c = 0; c < o.cx0.size(); ++c) {
      o.hx0.push_back(plan.tables.perm[static_cast<std::size_t>(o.cx0[c])]);
      o.hx1.push_back(plan.tables.perm[static_cast<std::size_t>(o.cx1[c])]);
    }
    for (std::size_t a = 1; a < g.dims; ++a) {
      for (std::size_t idx = 0; idx < g.count[a]; ++idx) {
        const double q = g.coordinate(a, idx) * op.freq + op.offset[a];
        const double fl = std::floor(q);
        const detail::axis_index li = detail::lattice_index(fl, op.wrap[a]);
        o.axis[a].push_back(
            {li.i0, li.i1, q - fl, detail::blend_weight(plan.improved, plan.interp, q - fl)});
      }
    }
    plan.octaves.push_back(std::move(o));
  }
  return plan;
}

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
bool turned(const field& f, const grid& g) {
  return f.plane() == plane::rotated && g.dims >= 2 && g.dims <= 3;
}

/// The plan of the double-coordinate kernel (eval_points_d) for the grid, or nothing when the
/// kernel does not cover the field: warps, 4-D lattice points, periods that are not powers of
/// two, value noise with the cosine interpolation.
std::optional<detail::points_plan> sample_plan(const field& f, const grid& g, bool strict) {
  const std::size_t dims = turned(f, g) ? 3 : g.dims;
  if (f.warped() || dims > 3) return std::nullopt;
  if (f.kind() == noise_kind::value &&
      std::get<value_noise>(f.base()).interp() == interpolation::cosine) {
    return std::nullopt;
  }
  return detail::make_points_plan(f, dims, strict);
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
  check_grid(g);
  const std::size_t n = g.size();
  check_out(out, n, "out");
  if ((f.plane() == plane::rotated && g.dims >= 2) || f.warped()) {
    // The row kernels follow lattice-aligned rows: rotated planes go sample by sample (their
    // lattice coordinates in double, the noise in SIMD float); warped fields take the double path.
    if (const auto plan = sample_plan(f, g, o.strict)) {
      rows_by_samples(f, g, *plan, o.threads, out, {});
    } else {
      scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
        out[idx] = static_cast<float>(f.eval<double>(p));
      });
    }
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
      detail::grid_plan plan = detail::make_grid_plan(f, band_grid(x0, width), o.strict);
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
        detail::grid_plan plan = detail::make_grid_plan(f, band_grid(x0, w), o.strict);
        plan.row_stride = nx;
        fill_band(plan, x0, 0, rows);
      }
    });
  }
  return range.get();
}

value_range<double> fill_grid(const field& f, const grid& g, std::span<double> out,
                              const bulk_options& o) {
  check_grid(g);
  check_out(out, g.size(), "out");
  if (const auto plan = detail::make_exact_grid_plan(f, g)) {
    // Plain improved noise in 2-D and 3-D: the SIMD kernel with the scalar path's bits.
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
  if (f.fractal().kind() == fractal_kind::none && f.plane() == plane::aligned && !f.warped()) {
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
    if (const auto* v = std::get_if<value_noise>(&f.base())) {
      const interpolation interp = v->interp();
      by_dims([interp]<int D>() { return detail::value_base<D, double>{interp}; });
    } else {
      by_dims([]<int D>() { return detail::improved_base<D, double>{}; });
    }
    return range_of(out.data(), out.size());
  }
  scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
    out[idx] = f.eval<double>(p);
  });
  return range_of(out.data(), out.size());
}

value_range<float> fill_grid_deriv(const field& f, const grid& g, std::span<float> out,
                                   std::span<float> gradient, const bulk_options& o) {
  check_grid(g);
  const std::size_t n = g.size();
  check_out(out, n, "out");
  check_out(gradient, checked_mul(n, g.dims, "count"), "gradient");
  if (const auto plan = sample_plan(f, g, o.strict)) {
    rows_by_samples(f, g, *plan, o.threads, out, gradient);
    return range_of(out.data(), out.size());
  }
  scalar_rows<double>(g, o.threads, [&](std::size_t idx, std::span<const double> p) {
    double grad[4];
    out[idx] = static_cast<float>(f.eval<double>(p, std::span<double>(grad, p.size())));
    for (std::size_t k = 0; k < p.size(); ++k) gradient[k * n + idx] = static_cast<float>(grad[k]);
  });
  return range_of(out.data(), out.size());
}

namespace {

template <class T>
std::size_t point_dims(const point_set<T>& p, std::size_t n_out) {
  const std::span<const T> axes[4] = {p.x, p.y, p.z, p.w};
  std::size_t dims = 0;
  while (dims < 4 && !axes[dims].empty()) ++dims;
  if (dims == 0) {
    if (n_out == 0) return 0;  // an empty batch
    detail::throw_size("points", "need at least the x coordinates");
  }
  for (std::size_t k = dims; k < 4; ++k) {
    if (!axes[k].empty())
      detail::throw_size("points", "coordinate arrays must be leading (x, then y, ...)");
  }
  for (std::size_t k = 0; k < dims; ++k) {
    if (axes[k].size() != n_out) {
      detail::throw_size("points", "every coordinate array must be as long as out (" +
                                       std::to_string(n_out) + ")");
    }
  }
  return dims;
}

}  // namespace

std::optional<detail::points_plan> detail::make_points_plan(const field& f, std::size_t dims,
                                                            bool strict) {
  const auto octaves = octave_list(f);
  bool simd = dims <= 3;
  for (const auto& op : octaves) {
    for (std::size_t k = 0; k < dims; ++k) simd &= !op.wrap[k].modulo;
  }
  if (!simd) return std::nullopt;
  detail::points_plan plan;
  fill_common(plan, f, strict);
  plan.dims = static_cast<int>(dims);
  for (const auto& op : octaves) {
    plan.amp.push_back(static_cast<float>(op.amp));
    plan.freq.push_back(op.freq);
    plan.offset.push_back(op.offset);
    plan.mask.push_back({op.wrap[0].mask, op.wrap[1].mask, op.wrap[2].mask, op.wrap[3].mask});
  }
  return plan;
}

void eval_points(const field& f, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o) {
  const std::size_t dims = point_dims(p, out.size());
  if (dims == 0) return;
  const std::size_t n = out.size();
  const unsigned threads = detail::thread_count(o.threads, n / 4096 + 1);
  auto plan = (f.plane() == plane::rotated && dims >= 2) || f.warped()
                  ? std::optional<detail::points_plan>()
                  : detail::make_points_plan(f, dims, o.strict);
  if (plan) {
    plan->coord[0] = p.x.data();
    plan->coord[1] = p.y.data();
    plan->coord[2] = p.z.data();
  }
  if (!plan) {
    // Periods that are not powers of two, rotated or warped fields: the double scalar path,
    // rounded.
    const float* axes[4] = {p.x.data(), p.y.data(), p.z.data(), p.w.data()};
    detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        double q[4];
        for (std::size_t k = 0; k < dims; ++k) q[k] = axes[k][i];
        out[i] = static_cast<float>(f.eval<double>(std::span<const double>(q, dims)));
      }
    });
    return;
  }
  const detail::kernels& k = detail::active_kernels();
  detail::parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
    k.eval_points(*plan, b, e, out.data() + b);
  });
}

void eval_points(const field& f, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o) {
  const std::size_t dims = point_dims(p, out.size());
  if (dims == 0) return;
  const double* axes[4] = {p.x.data(), p.y.data(), p.z.data(), p.w.data()};
  const std::size_t n = out.size();
  detail::parallel_for(n, detail::thread_count(o.threads, n / 4096 + 1),
                       [&](std::size_t b, std::size_t e) {
                         for (std::size_t i = b; i < e; ++i) {
                           double q[4];
                           for (std::size_t k = 0; k < dims; ++k) q[k] = axes[k][i];
                           out[i] = f.eval<double>(std::span<const double>(q, dims));
                         }
                       });
}

}  // namespace perlin
