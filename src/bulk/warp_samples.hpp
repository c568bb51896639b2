// Warped fields on the SIMD kernels (bulk_route::warp_kernel): the displacement of
// perlin/warp.hpp with each warp octave's noise from noise_points_dd (hashed in lanes, blended in
// double: a float displacement's rounding, carried through the field's slope, cost up to its whole
// value tolerance and several times its gradient tolerance), the warped points in double, then
// the field's own plan at them on the sample kernel (eval_points_d: placed in double, blended in
// float); with gradients, the displacement's Jacobian in double and the chain rule, as
// field::eval does.
#pragma once

#include <cstddef>
#include <span>

#include "bulk/plans.hpp"
#include "detail/grid_plan.hpp"
#include "perlin/grid.hpp"

namespace perlin::detail {

/// Samples at most this many points per kernel call (the scratch of one call stays in L2).
inline constexpr std::size_t k_warp_chunk = 1024;

/// The warped field at the n <= k_warp_chunk lattice points x[a][0 .. n) (a < plan.dims; already
/// turned for a rotated plane), which are overwritten by the warped points. Values go to out;
/// when `grad` is not null, grad[a][0 .. n) receives the partial along lattice axis a of the
/// original point (the Jacobian's chain rule).
void warp_samples(const warp_plan& plan, const kernels& k, double* const* x, std::size_t n,
                  float* out, float* const* grad);

/// fill_grid and fill_grid_deriv on the warp kernel: rows in chunks over the threads, each
/// chunk's points computed in double as the scalar path computes them (turned when the plane
/// is rotated), the gradient (planar, g.dims arrays) turned back.
void warped_rows(const grid& g, const warp_plan& plan, unsigned threads, std::span<float> out,
                 std::span<float> gradient);

}  // namespace perlin::detail
