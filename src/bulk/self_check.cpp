// The known-answer self-check of a SIMD target: small grids and point batches through that
// target's kernels, against the double scalar path, within the tolerance that grid.hpp states.
#include "bulk/self_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bulk/plans.hpp"
#include "bulk/warp_samples.hpp"
#include "detail/kernel_registry.hpp"
#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "perlin/grid.hpp"

namespace perlin::detail {

namespace {

std::vector<field> check_fields() {
  std::vector<field> out;
  out.emplace_back();  // Ken Perlin's noise
  improved_noise periodic(5);
  periodic.lattice().set_period(0, 4).set_period(1, 16).set_period(2, 8).set_period(3, 2);
  out.emplace_back(periodic,
                   fractal().set_kind(fractal_kind::fbm).set_octaves(3).set_decorrelate(true));
  out.emplace_back(improved_noise(8), fractal()
                                          .set_kind(fractal_kind::ridged)
                                          .set_octaves(3)
                                          .set_lacunarity(2.5)
                                          .set_normalize(true));
  value_noise v(11, interpolation::cubic);
  v.lattice().set_period_all(6);
  out.emplace_back(v, fractal().set_kind(fractal_kind::billow).set_octaves(2));
  out.emplace_back(value_noise(3, interpolation::quintic),
                   fractal().set_kind(fractal_kind::turbulence).set_octaves(2));
  return out;
}

std::string describe(const char* what, std::size_t field_index, std::size_t dims, bool strict,
                     double got, double want) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: field %zu, %zu-D%s: %.9g instead of %.9g", what, field_index,
                dims, strict ? ", strict" : "", got, want);
  return buf;
}

/// The coordinates p[0 .. g.dims) of sample `idx` of the grid (x fastest).
void sample_point(const grid& g, std::size_t idx, double* p) {
  for (std::size_t a = 0; a < g.dims; ++a) {
    p[a] = g.coordinate(a, idx % g.count[a]);
    idx /= g.count[a];
  }
}

std::string check_grids(const kernels& k, const std::vector<field>& fields) {
  for (std::size_t fi = 0; fi < fields.size(); ++fi) {
    const field& f = fields[fi];
    const double tol = value_tolerance(f);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      for (const double step : {0.23, 1.3}) {  // cells wider than a sample, and per sample
        for (const bool strict : {false, true}) {
          grid g;
          g.dims = dims;
          g.count = {37, 3, 2, 2};
          g.origin = {-3.3, 1.7, -0.45, 2.2};
          g.step = {step, step * 0.9, step * 1.1, step * 0.7};
          const grid_plan plan = [&] {
            grid_plan p = make_grid_plan(f, g, strict, k);
            p.row_stride = g.count[0];
            return p;
          }();
          const std::size_t n = g.size();
          std::vector<float> out(n);
          float lo = std::numeric_limits<float>::infinity(), hi = -lo;
          k.fill_rows(plan, 0, n / g.count[0], out.data(), &lo, &hi);
          const auto [mn, mx] = std::minmax_element(out.begin(), out.end());
          if (lo != *mn || hi != *mx) {
            return describe("grid range", fi, dims, strict, lo != *mn ? lo : hi,
                            lo != *mn ? *mn : *mx);
          }
          for (std::size_t idx = 0; idx < n; ++idx) {
            double p[4];
            sample_point(g, idx, p);
            const double want = f.eval<double>(std::span<const double>(p, dims));
            if (!(std::abs(out[idx] - want) <= tol)) {
              return describe("grid", fi, dims, strict, out[idx], want);
            }
          }
        }
      }
    }
  }
  return {};
}

std::string check_points(const kernels& k, const std::vector<field>& fields) {
  // Two blocks of 64 (the widest loops) and a tail that is not a multiple of any vector width.
  constexpr std::size_t n = 133;
  std::vector<float> xs[3];
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t i = 0; i < n; ++i) {
      xs[a].push_back(
          static_cast<float>(std::fmod(static_cast<double>(i * (7 + 4 * a)) * 1.618, 97.0) - 48.5));
    }
  }
  for (std::size_t fi = 0; fi < fields.size(); ++fi) {
    const field& f = fields[fi];
    const double tol = value_tolerance(f);
    for (std::size_t dims = 1; dims <= 3; ++dims) {
      for (const bool strict : {false, true}) {
        point_set<float> ps;
        ps.x = xs[0];
        if (dims >= 2) ps.y = xs[1];
        if (dims >= 3) ps.z = xs[2];
        auto plan = make_points_plan(f, dims, strict);
        if (!plan) continue;  // the scalar path serves it
        plan->coord[0] = ps.x.data();
        plan->coord[1] = ps.y.data();
        plan->coord[2] = ps.z.data();
        std::vector<float> out(n);
        k.eval_points(*plan, 0, n, out.data());
        for (std::size_t i = 0; i < n; ++i) {
          double p[3];
          for (std::size_t a = 0; a < dims; ++a) p[a] = xs[a][i];
          const double want = f.eval<double>(std::span<const double>(p, dims));
          if (!(std::abs(out[i] - want) <= tol))
            return describe("points", fi, dims, strict, out[i], want);
        }
      }
    }
  }
  return {};
}

}  // namespace

namespace {

/// eval_points_d: values and gradients at double coordinates (some far from the origin, where a
/// float coordinate would have lost the fraction), against the double path.
std::string check_samples(const kernels& k, const std::vector<field>& fields) {
  constexpr std::size_t n = 133;  // two blocks of 64 and a tail, as check_points
  std::vector<double> xs[3];
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t i = 0; i < n; ++i) {
      const double far = i % 5 == 0 ? 1048576.0 * static_cast<double>(a + 1) : 0.0;
      xs[a].push_back(std::fmod(static_cast<double>(i * (5 + 3 * a)) * 1.618, 91.0) - 45.25 + far);
    }
  }
  for (std::size_t fi = 0; fi < fields.size(); ++fi) {
    const field& f = fields[fi];
    const double tol = value_tolerance(f);
    const double gtol = gradient_tolerance(f);
    for (std::size_t dims = 1; dims <= 3; ++dims) {
      for (const bool strict : {false, true}) {
        const auto plan = make_points_plan(f, dims, strict);
        if (!plan) continue;
        const double* c[3] = {xs[0].data(), xs[1].data(), xs[2].data()};
        std::vector<float> out(n), grad(3 * n);
        float* g[3] = {grad.data(), grad.data() + n, grad.data() + 2 * n};
        k.eval_points_d(*plan, c, n, out.data(), g);
        for (std::size_t i = 0; i < n; ++i) {
          double p[3], want_grad[3];
          for (std::size_t a = 0; a < dims; ++a) p[a] = xs[a][i];
          const double want =
              f.eval<double>(std::span<const double>(p, dims), std::span<double>(want_grad, dims));
          if (!(std::abs(out[i] - want) <= tol))
            return describe("samples", fi, dims, strict, out[i], want);
          for (std::size_t a = 0; a < dims; ++a) {
            // At a kink (an octave's noise at 0 under turbulence, ridged or billow, or the ridged
            // weight at its clamp) the gradient jumps, and float and double may take either side.
            double side[2][3];
            for (int s = 0; s < 2; ++s) {
              double q[3] = {p[0], p[1], p[2]};
              q[a] += s == 0 ? -1e-7 : 1e-7;
              (void)f.eval<double>(std::span<const double>(q, dims),
                                   std::span<double>(side[s], dims));
            }
            if (std::abs(side[0][a] - side[1][a]) > gtol) continue;
            if (!(std::abs(g[a][i] - want_grad[a]) <= gtol)) {
              return describe("sample gradients", fi, dims, strict, g[a][i], want_grad[a]);
            }
          }
        }
      }
    }
  }
  return {};
}

/// The warp kernel (warp_samples: noise_points_dd's displacement, eval_points_d's field): values
/// and gradients of warped fields at double coordinates against the double path. Skipped for a
/// table without noise_points_dd (a target without double vectors: its grids take the scalar
/// path).
std::string check_warps(const kernels& k) {
  if (k.noise_points_dd == nullptr || k.eval_points_d == nullptr) return {};
  std::vector<field> fields;
  fields.emplace_back(improved_noise(2), fractal()
                                             .set_kind(fractal_kind::fbm)
                                             .set_octaves(3)
                                             .set_normalize(true)
                                             .set_decorrelate(true));
  fields.back().set_warp(warp()
                             .set_kind(warp_kind::progressive)
                             .set_amplitude(2.5)
                             .set_frequency(0.25)
                             .set_octaves(3));
  value_noise v(7, interpolation::cubic);
  v.lattice().set_period_all(16);
  fields.emplace_back(v, fractal().set_kind(fractal_kind::fbm).set_octaves(2));
  fields.back().set_warp(
      warp().set_kind(warp_kind::independent).set_amplitude(1.5).set_octaves(2).set_seed(9));
  constexpr std::size_t n = 133;  // two blocks of 64 and a tail
  for (std::size_t fi = 0; fi < fields.size(); ++fi) {
    const field& f = fields[fi];
    const double tol = value_tolerance(f), gtol = gradient_tolerance(f);
    for (std::size_t dims = 1; dims <= 3; ++dims) {
      const bool strict = dims == 2;
      const warp_plan plan = make_warp_plan(f, dims, strict);
      std::vector<double> xs(3 * n);
      for (std::size_t a = 0; a < dims; ++a) {
        for (std::size_t i = 0; i < n; ++i)
          xs[a * n + i] = std::fmod(static_cast<double>(i * (7 + 2 * a)) * 1.618, 61.0) - 30.5;
      }
      const std::vector<double> original = xs;
      double* x[3] = {xs.data(), xs.data() + n, xs.data() + 2 * n};
      std::vector<float> out(n), grad(3 * n);
      float* g[3] = {grad.data(), grad.data() + n, grad.data() + 2 * n};
      warp_samples(plan, k, x, n, out.data(), g);
      for (std::size_t i = 0; i < n; ++i) {
        double p[3], want_grad[3];
        for (std::size_t a = 0; a < dims; ++a) p[a] = original[a * n + i];
        const double want =
            f.eval<double>(std::span<const double>(p, dims), std::span<double>(want_grad, dims));
        if (!(std::abs(out[i] - want) <= tol))
          return describe("warps", fi, dims, strict, out[i], want);
        for (std::size_t a = 0; a < dims; ++a) {
          if (!(std::abs(g[a][i] - want_grad[a]) <= gtol))
            return describe("warp gradients", fi, dims, strict, g[a][i], want_grad[a]);
        }
      }
    }
  }
  return {};
}

/// Exact double grids: the bits of the scalar path, at lattice points too (where signs of zero
/// show), cells wider and narrower than a sample, periods.
std::string check_exact_grids(const kernels& k, const std::vector<field>& fields) {
  for (std::size_t fi = 0; fi < fields.size(); ++fi) {
    const auto* n = std::get_if<improved_noise>(&fields[fi].base());
    if (n == nullptr) continue;  // the exact kernel is improved noise's
    // The field itself as fBm (its octaves, lacunarity, persistence, periods and decorrelation).
    const field plain(*n, fractal(fields[fi].fractal()).set_kind(fractal_kind::fbm));
    for (std::size_t dims = 2; dims <= 3; ++dims) {
      for (const double step : {0.37, 1.3, 1.0}) {
        grid g;
        g.dims = dims;
        g.count = {37, 3, 2, 1};
        g.origin = {-3.0, 1.5, -0.5, 0};
        g.step = {step, step * 0.5, step, 1};
        const auto plan = make_exact_grid_plan(plain, g);
        if (!plan) return describe("exact double grid plan", fi, dims, false, 0, 0);
        std::vector<double> out(g.size());
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        k.fill_rows_exact(*plan, 0, g.size() / g.count[0], out.data(), &lo, &hi);
        for (std::size_t idx = 0; idx < out.size(); ++idx) {
          double p[4];
          sample_point(g, idx, p);
          const double want = plain.eval<double>(std::span<const double>(p, dims));
          // Bit for bit, the signs of zeros and NaN payloads included (so not ==).
          // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison)
          if (std::memcmp(&out[idx], &want, sizeof want) != 0) {
            return describe("exact double grid", fi, dims, false, out[idx], want);
          }
        }
        const auto [mn, mx] = std::minmax_element(out.begin(), out.end());
        if (lo != *mn || hi != *mx)
          return describe("exact double grid range", fi, dims, false, lo, *mn);
      }
    }
  }
  return {};
}

}  // namespace

/// The plans' axis tables: the target's axis_fractions against the scalar operations, bit for
/// bit (the plans, and so strict mode's bits, must not depend on the target), on lines that
/// start below and above zero, pass 2^52 (fractions 0) and overflow to infinity (NaN fractions).
std::string check_axes(const kernels& k) {
  const std::array<axis_line, 5> lines = {{
      {.origin = -3.3, .first = 0, .step = 0.23, .freq = 1.7, .offset = 0.41},
      {.origin = 2.2, .first = -40, .step = -0.9, .freq = 0.5, .offset = -100.5},
      {.origin = 0x1p52, .first = 3, .step = 0.75, .freq = 3, .offset = 0.5},
      {.origin = -1e300, .first = 0, .step = 1e299, .freq = 1e10, .offset = 0},
      {.origin = 0.1, .first = 7, .step = 1.0 / 3, .freq = 2.5, .offset = 1e-3},
  }};
  constexpr std::size_t n = 37;  // whole vectors and a partial one on every target
  for (const axis_line& base : lines) {
    for (const interpolation w : {interpolation::quintic, interpolation::cubic,
                                  interpolation::linear, interpolation::cosine}) {
      axis_line line = base;
      line.weight = w;
      std::vector<double> fl(n), fr(n), t(n, -7.0);
      k.axis_fractions(line, n, fl.data(), fr.data(), t.data());
      for (std::size_t i = 0; i < n; ++i) {
        const double x = line.origin + (line.first + static_cast<double>(i)) * line.step;
        const double q = x * line.freq + line.offset;
        const double want_fl = std::floor(q), want_fr = q - want_fl;
        double unused = 0;  // the cosine's weights are left as they were
        const double want_t =
            w == interpolation::cosine ? -7.0 : interp_weight(w, want_fr, &unused);
        const auto same = [](double a, double b) {
          // Bit for bit (the sign of a zero too), and any NaN for a NaN. No std::bit_cast: the
          // WebAssembly build's libc++ lacks it.
          std::uint64_t ua = 0, ub = 0;
          std::memcpy(&ua, &a, sizeof a);
          std::memcpy(&ub, &b, sizeof b);
          return ua == ub || (std::isnan(a) && std::isnan(b));
        };
        if (!same(fl[i], want_fl) || !same(fr[i], want_fr) || !same(t[i], want_t)) {
          char buf[256];
          std::snprintf(buf, sizeof buf,
                        "axis tables: sample %zu: floor %.17g, fraction %.17g, weight %.17g "
                        "instead of %.17g, %.17g, %.17g",
                        i, fl[i], fr[i], t[i], want_fl, want_fr, want_t);
          return buf;
        }
      }
    }
  }
  return "";
}

std::string self_check(const kernels& k) {
  const auto fields = check_fields();
  std::string failure = check_axes(k);
  if (failure.empty()) failure = check_grids(k, fields);
  if (failure.empty()) failure = check_points(k, fields);
  if (failure.empty()) failure = check_samples(k, fields);
  if (failure.empty()) failure = check_exact_grids(k, fields);
  if (failure.empty()) failure = check_warps(k);
  return failure;
}

}  // namespace perlin::detail
