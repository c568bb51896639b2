// Point batches (grid.hpp): validation, then the point kernel, the sample kernel (with
// gradients), the warp kernel or the double scalar path, as route_of decides, over the threads.
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bulk/bulk_checks.hpp"
#include "bulk/plans.hpp"
#include "bulk/warp_samples.hpp"
#include "detail/error.hpp"
#include "detail/grid_plan.hpp"
#include "detail/kernel_registry.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/grid.hpp"
#include "runtime/parallel.hpp"

namespace perlin {

namespace {

/// The double scalar path at every point, with the partials when `gradient` is not empty
/// (planar), rounded to T.
template <class T>
void scalar_points(const field& f, const point_set<T>& p, std::size_t dims, std::span<T> out,
                   std::span<T> gradient, unsigned threads) {
  const T* axes[4] = {p.x.data(), p.y.data(), p.z.data(), p.w.data()};
  const std::size_t n = out.size();
  detail::parallel_for(n, detail::thread_count(threads, n / 4096 + 1),
                       [&](std::size_t b, std::size_t e) {
                         for (std::size_t i = b; i < e; ++i) {
                           double q[4], g[4];
                           for (std::size_t k = 0; k < dims; ++k) q[k] = axes[k][i];
                           const std::span<const double> at(q, dims);
                           if (gradient.empty()) {
                             out[i] = static_cast<T>(f.eval<double>(at));
                             continue;
                           }
                           out[i] = static_cast<T>(f.eval<double>(at, std::span<double>(g, dims)));
                           for (std::size_t k = 0; k < dims; ++k)
                             gradient[k * n + i] = static_cast<T>(g[k]);
                         }
                       });
}

template <class T>
void check_gradient(std::span<T> gradient, std::size_t dims, std::size_t n) {
  if (gradient.size() != dims * n) {
    detail::throw_size("gradient", "must hold exactly " + std::to_string(dims * n) +
                                       " values (dims x points), got " +
                                       std::to_string(gradient.size()));
  }
}

/// Float points of a warped field on the warp kernel (bulk/warp_samples.hpp): the coordinates
/// widened to double (exactly), k_warp_chunk at a time, with the partials (planar) when
/// `gradient` is not empty.
void warped_points(const field& f, const point_set<float>& p, std::size_t dims,
                   std::span<float> out, std::span<float> gradient, const bulk_options& o) {
  const detail::warp_plan plan = detail::make_warp_plan(f, dims, o.strict);
  const detail::kernels& k = detail::active_kernels();
  const float* axes[4] = {p.x.data(), p.y.data(), p.z.data(), p.w.data()};
  const std::size_t n = out.size();
  constexpr std::size_t chunk = detail::k_warp_chunk;
  detail::parallel_for(
      n, detail::thread_count(o.threads, n / 4096 + 1), [&](std::size_t b, std::size_t e) {
        std::vector<double> coords(3 * chunk);
        for (std::size_t i = b; i < e; i += chunk) {
          const std::size_t m = std::min(chunk, e - i);
          double* x[3] = {};
          float* g[3] = {};
          for (std::size_t a = 0; a < dims; ++a) {
            x[a] = coords.data() + a * chunk;
            std::copy_n(axes[a] + i, m, x[a]);
            if (!gradient.empty()) g[a] = gradient.data() + a * n + i;
          }
          detail::warp_samples(plan, k, x, m, out.data() + i, gradient.empty() ? nullptr : g);
        }
      });
}

}  // namespace

void eval_points_deriv(const field& f, const point_set<float>& p, std::span<float> out,
                       std::span<float> gradient, const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return eval_points_deriv(*gr, p, out, gradient, o);
  const std::size_t dims = detail::point_dims(p, out.size());
  const std::size_t n = out.size();
  check_gradient(gradient, dims, n);
  if (dims == 0) return;
  const detail::bulk_route route = detail::route_of(f, detail::bulk_call::points_deriv_float, dims);
  if (route == detail::bulk_route::warp_kernel &&
      detail::active_kernels().noise_points_dd != nullptr) {
    return warped_points(f, p, dims, out, gradient, o);
  }
  if (route != detail::bulk_route::sample_kernel) {
    return scalar_points(f, p, dims, out, gradient, o.threads);
  }
  const detail::points_plan plan = *detail::make_points_plan(f, dims, o.strict);
  const detail::kernels& k = detail::active_kernels();
  const float* axes[4] = {p.x.data(), p.y.data(), p.z.data(), p.w.data()};
  detail::parallel_for(n, detail::thread_count(o.threads, n / 4096 + 1),
                       [&](std::size_t b, std::size_t e) {
                         // The float coordinates in double, a block at a time (exact).
                         constexpr std::size_t block = 1024;
                         std::vector<double> coords(dims * block);
                         for (std::size_t i = b; i < e; i += block) {
                           const std::size_t m = std::min(block, e - i);
                           const double* c[3] = {};
                           float* g[3] = {};
                           for (std::size_t a = 0; a < dims; ++a) {
                             double* ca = coords.data() + a * block;
                             std::copy_n(axes[a] + i, m, ca);
                             c[a] = ca;
                             g[a] = gradient.data() + a * n + i;
                           }
                           k.eval_points_d(plan, c, m, out.data() + i, g);
                         }
                       });
}

void eval_points_deriv(const field& f, const point_set<double>& p, std::span<double> out,
                       std::span<double> gradient, const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return eval_points_deriv(*gr, p, out, gradient, o);
  const std::size_t dims = detail::point_dims(p, out.size());
  check_gradient(gradient, dims, out.size());
  if (dims == 0) return;
  scalar_points(f, p, dims, out, gradient, o.threads);
}

void eval_points(const field& f, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return eval_points(*gr, p, out, o);
  const std::size_t dims = detail::point_dims(p, out.size());
  if (dims == 0) return;
  const std::size_t n = out.size();
  const unsigned threads = detail::thread_count(o.threads, n / 4096 + 1);
  const detail::bulk_route route = detail::route_of(f, detail::bulk_call::points_float, dims);
  if (route == detail::bulk_route::warp_kernel &&
      detail::active_kernels().noise_points_dd != nullptr) {
    return warped_points(f, p, dims, out, {}, o);
  }
  if (route != detail::bulk_route::point_kernel) {
    // Periods that are not powers of two, rotated fields, warps the warp kernel does not cover:
    // the double scalar path, rounded.
    return scalar_points(f, p, dims, out, {}, o.threads);
  }
  detail::points_plan plan = *detail::make_points_plan(f, dims, o.strict);
  plan.coord[0] = p.x.data();
  plan.coord[1] = p.y.data();
  plan.coord[2] = p.z.data();
  const detail::kernels& k = detail::active_kernels();
  detail::parallel_for(
      n, threads, [&](std::size_t b, std::size_t e) { k.eval_points(plan, b, e, out.data() + b); });
}

void eval_points(const field& f, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o) {
  if (const perlin::graph* gr = f.graph()) return eval_points(*gr, p, out, o);
  const std::size_t dims = detail::point_dims(p, out.size());
  if (dims == 0) return;
  scalar_points(f, p, dims, out, {}, o.threads);
}

}  // namespace perlin
