// Warped fields on the sample kernel (bulk/warp_samples.hpp).
#include "bulk/warp_samples.hpp"

#include <algorithm>
#include <vector>

#include "detail/kernel_registry.hpp"
#include "detail/rotation.hpp"
#include "runtime/parallel.hpp"

namespace perlin::detail {

namespace {

/// One thread's scratch for warp_samples, k_warp_chunk samples wide.
struct warp_scratch {
  explicit warp_scratch(std::size_t d)
      : origin(d * k_warp_chunk),
        jac(d * d * k_warp_chunk),
        next(d * d * k_warp_chunk),
        disp(d * k_warp_chunk),
        dn(d * d * k_warp_chunk),
        gf(d * k_warp_chunk) {}
  std::vector<double> origin;  // the original points (independent warps)
  std::vector<double> jac;     // d x'_r / d x_c at [(r d + c) chunk + j]
  std::vector<double> next;    // the progressive Jacobian's update
  std::vector<double> disp;    // component k of the octave's displacement noise at [k chunk + j]
  std::vector<double> dn;      // its partials: d n_k / d from_c at [(k d + c) chunk + j]
  std::vector<float> gf;       // the field's gradient at the warped points
};

thread_local std::vector<warp_scratch> t_scratch;

warp_scratch& scratch_for(std::size_t d) {
  // One per dimension count, kept by the thread: no allocation per chunk.
  while (t_scratch.size() < d) t_scratch.emplace_back(t_scratch.size() + 1);
  return t_scratch[d - 1];
}

/// J <- J + s M J (progressive: the octave displaced the point it was given) or J + s M
/// (independent: the original point), with M = dn (the noise's partials, frequency included).
void update_jacobian(warp_scratch& w, std::size_t d, std::size_t n, double s, bool progressive) {
  constexpr std::size_t C = k_warp_chunk;
  double* jac = w.jac.data();
  const double* dn = w.dn.data();
  if (!progressive) {
    for (std::size_t e = 0; e < d * d; ++e) {
      for (std::size_t j = 0; j < n; ++j) jac[e * C + j] += s * dn[e * C + j];
    }
    return;
  }
  double* next = w.next.data();
  for (std::size_t r = 0; r < d; ++r) {
    for (std::size_t c = 0; c < d; ++c) {
      double* to = next + (r * d + c) * C;
      for (std::size_t j = 0; j < n; ++j) {
        double acc = 0;
        for (std::size_t l = 0; l < d; ++l)
          acc += dn[(r * d + l) * C + j] * jac[(l * d + c) * C + j];
        to[j] = jac[(r * d + c) * C + j] + s * acc;
      }
    }
  }
  std::swap(w.jac, w.next);
}

}  // namespace

void warp_samples(const warp_plan& plan, const kernels& k, double* const* x, std::size_t n,
                  float* out, float* const* grad) {
  constexpr std::size_t C = k_warp_chunk;
  const auto d = static_cast<std::size_t>(plan.dims);
  warp_scratch& w = scratch_for(d);
  const bool with_grad = grad != nullptr;
  const double* from[3] = {x[0], d > 1 ? x[1] : nullptr, d > 2 ? x[2] : nullptr};
  if (!plan.progressive) {
    for (std::size_t a = 0; a < d; ++a) {
      std::copy(x[a], x[a] + n, w.origin.data() + a * C);
      from[a] = w.origin.data() + a * C;
    }
  }
  if (with_grad) {
    for (std::size_t r = 0; r < d; ++r) {
      for (std::size_t c = 0; c < d; ++c)
        std::fill_n(w.jac.data() + (r * d + c) * C, n, r == c ? 1.0 : 0.0);
    }
  }
  for (std::size_t i = 0; i < plan.scale.size(); ++i) {
    for (std::size_t c = 0; c < d; ++c) {
      double* dn[3] = {};
      for (std::size_t a = 0; a < d; ++a) dn[a] = w.dn.data() + (c * d + a) * C;
      k.noise_points_dd(plan.noise[i * d + c], from, n, w.disp.data() + c * C,
                        with_grad ? dn : nullptr);
    }
    const double s = plan.scale[i];
    if (with_grad) update_jacobian(w, d, n, s, plan.progressive);
    for (std::size_t c = 0; c < d; ++c) {
      double* xc = x[c];
      const double* disp = w.disp.data() + c * C;
      for (std::size_t j = 0; j < n; ++j) xc[j] += s * disp[j];
    }
  }
  if (!with_grad) {
    k.eval_points_d(plan.field, x, n, out, nullptr);
    return;
  }
  float* gf[3] = {};
  for (std::size_t a = 0; a < d; ++a) gf[a] = w.gf.data() + a * C;
  k.eval_points_d(plan.field, x, n, out, gf);
  // d v / d q_c = sum_r (d v / d x_r) (d x_r / d q_c), as field::eval.
  for (std::size_t c = 0; c < d; ++c) {
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t r = 0; r < d; ++r) s += double(gf[r][j]) * w.jac[(r * d + c) * C + j];
      grad[c][j] = static_cast<float>(s);
    }
  }
}

void warped_rows(const grid& g, const warp_plan& plan, unsigned threads, std::span<float> out,
                 std::span<float> gradient) {
  const kernels& k = active_kernels();
  const std::size_t nx = g.count[0];
  const std::size_t n = g.size();
  const std::size_t rows = n / nx;
  const std::size_t chunks = (nx + k_warp_chunk - 1) / k_warp_chunk;  // per row
  const auto d = static_cast<std::size_t>(plan.dims);
  const bool with_gradient = !gradient.empty();
  const std::size_t items = rows * chunks;
  // About 20 noise octaves a sample: a thread per 4,096 samples pays for its start.
  const unsigned count =
      threads != 0 ? thread_count(threads, items) : thread_count(0, std::min(items, n / 4096 + 1));
  parallel_for(items, count, [&](std::size_t ib, std::size_t ie) {
    std::vector<double> coords(3 * k_warp_chunk);
    std::vector<float> lattice_gradient(3 * k_warp_chunk);
    double* x[3] = {coords.data(), coords.data() + k_warp_chunk, coords.data() + 2 * k_warp_chunk};
    float* gr[3] = {lattice_gradient.data(), lattice_gradient.data() + k_warp_chunk,
                    lattice_gradient.data() + 2 * k_warp_chunk};
    for (std::size_t item = ib; item < ie; ++item) {
      const std::size_t row = item / chunks;
      const std::size_t i0 = item % chunks * k_warp_chunk;
      const std::size_t m = std::min(k_warp_chunk, nx - i0);
      double p[4] = {};
      std::size_t rest = row;
      for (std::size_t a = 1; a < g.dims; ++a) {
        p[a] = g.coordinate(a, rest % g.count[a]);
        rest /= g.count[a];
      }
      if (plan.turned) {
        // detail::rotated's sum, term by term in the same order (grid.cpp's rows_by_samples).
        for (std::size_t a = 0; a < 3; ++a) {
          for (std::size_t j = 0; j < m; ++j) x[a][j] = 0.0 + g.coordinate(0, i0 + j) * k_rot[0][a];
          for (std::size_t axis = 1; axis < g.dims; ++axis) {
            const double term = p[axis] * k_rot[axis][a];
            for (std::size_t j = 0; j < m; ++j) x[a][j] += term;
          }
        }
      } else {
        for (std::size_t j = 0; j < m; ++j) x[0][j] = g.coordinate(0, i0 + j);
        for (std::size_t a = 1; a < d; ++a) std::fill_n(x[a], m, p[a]);
      }
      const std::size_t at = row * nx + i0;
      warp_samples(plan, k, x, m, out.data() + at, with_gradient ? gr : nullptr);
      if (!with_gradient) continue;
      if (!plan.turned) {
        for (std::size_t a = 0; a < d; ++a)
          std::copy(gr[a], gr[a] + m, gradient.data() + a * n + at);
        continue;
      }
      for (std::size_t a = 0; a < g.dims; ++a) {
        for (std::size_t j = 0; j < m; ++j) {
          double s = 0;
          for (std::size_t l = 0; l < 3; ++l) s += k_rot[a][l] * double(gr[l][j]);
          gradient[a * n + at + j] = static_cast<float>(s);
        }
      }
    }
  });
}

}  // namespace perlin::detail
