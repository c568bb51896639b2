// Out-of-line entry points of improved and value noise over the reference kernels, so that the
// exactness of the double path never depends on the flags of the caller's translation unit.
#include <string>

#include "detail/dims.hpp"
#include "detail/kernel.hpp"
#include "perlin/error.hpp"
#include "perlin/improved_noise.hpp"
#include "perlin/value_noise.hpp"

namespace perlin {

namespace {

template <int D, class T>
T improved_at(const lattice& l, const T* x, T* grad) noexcept {
  return detail::improved<D, T>(l.perm().data(), l.wraps().data(), x, grad);
}

template <int D, class T>
T value_at(const lattice& l, interpolation i, const T* x, T* grad) noexcept {
  return detail::value<D, T>(l.perm().data(), l.wraps().data(), i, x, grad);
}


}  // namespace

// ---- improved noise ----
double improved_noise::noise1d(double x) const noexcept { return improved_at<1>(lattice_, &x, static_cast<double*>(nullptr)); }
double improved_noise::noise2d(double x, double y) const noexcept {
  return detail::improved_fast<2>(lattice_.perm().data(), lattice_.wraps().data(), x, y);
}
double improved_noise::noise3d(double x, double y, double z) const noexcept {
  return detail::improved_fast<3>(lattice_.perm().data(), lattice_.wraps().data(), x, y, z);
}
double improved_noise::noise4d(double x, double y, double z, double w) const noexcept {
  const double p[4] = {x, y, z, w};
  return improved_at<4>(lattice_, p, static_cast<double*>(nullptr));
}
float improved_noise::noise1d(float x) const noexcept { return improved_at<1>(lattice_, &x, static_cast<float*>(nullptr)); }
float improved_noise::noise2d(float x, float y) const noexcept {
  return detail::improved_fast<2>(lattice_.perm().data(), lattice_.wraps().data(), x, y);
}
float improved_noise::noise3d(float x, float y, float z) const noexcept {
  return detail::improved_fast<3>(lattice_.perm().data(), lattice_.wraps().data(), x, y, z);
}
float improved_noise::noise4d(float x, float y, float z, float w) const noexcept {
  const float p[4] = {x, y, z, w};
  return improved_at<4>(lattice_, p, static_cast<float*>(nullptr));
}

with_gradient<double, 1> improved_noise::noise1d_deriv(double x) const noexcept {
  with_gradient<double, 1> r{};
  r.value = improved_at<1>(lattice_, &x, r.gradient.data());
  return r;
}
with_gradient<double, 2> improved_noise::noise2d_deriv(double x, double y) const noexcept {
  const double p[2] = {x, y};
  with_gradient<double, 2> r{};
  r.value = improved_at<2>(lattice_, p, r.gradient.data());
  return r;
}
with_gradient<double, 3> improved_noise::noise3d_deriv(double x, double y, double z) const noexcept {
  const double p[3] = {x, y, z};
  with_gradient<double, 3> r{};
  r.value = improved_at<3>(lattice_, p, r.gradient.data());
  return r;
}
with_gradient<double, 4> improved_noise::noise4d_deriv(double x, double y, double z,
                                                       double w) const noexcept {
  const double p[4] = {x, y, z, w};
  with_gradient<double, 4> r{};
  r.value = improved_at<4>(lattice_, p, r.gradient.data());
  return r;
}
with_gradient<float, 3> improved_noise::noise3d_deriv(float x, float y, float z) const noexcept {
  const float p[3] = {x, y, z};
  with_gradient<float, 3> r{};
  r.value = improved_at<3>(lattice_, p, r.gradient.data());
  return r;
}

double improved_noise::eval(std::span<const double> p, std::span<double> gradient) const {
  return detail::dispatch_dims(p, gradient, [this]<int D>(const double* x, double* g) {
    return improved_at<D>(lattice_, x, g);
  });
}
float improved_noise::eval(std::span<const float> p, std::span<float> gradient) const {
  return detail::dispatch_dims(p, gradient, [this]<int D>(const float* x, float* g) {
    return improved_at<D>(lattice_, x, g);
  });
}

// ---- value noise ----
double value_noise::noise1d(double x) const noexcept { return value_at<1>(lattice_, interp_, &x, static_cast<double*>(nullptr)); }
double value_noise::noise2d(double x, double y) const noexcept {
  const double p[2] = {x, y};
  return value_at<2>(lattice_, interp_, p, static_cast<double*>(nullptr));
}
double value_noise::noise3d(double x, double y, double z) const noexcept {
  const double p[3] = {x, y, z};
  return value_at<3>(lattice_, interp_, p, static_cast<double*>(nullptr));
}
double value_noise::noise4d(double x, double y, double z, double w) const noexcept {
  const double p[4] = {x, y, z, w};
  return value_at<4>(lattice_, interp_, p, static_cast<double*>(nullptr));
}
float value_noise::noise2d(float x, float y) const noexcept {
  const float p[2] = {x, y};
  return value_at<2>(lattice_, interp_, p, static_cast<float*>(nullptr));
}
float value_noise::noise3d(float x, float y, float z) const noexcept {
  const float p[3] = {x, y, z};
  return value_at<3>(lattice_, interp_, p, static_cast<float*>(nullptr));
}
with_gradient<double, 2> value_noise::noise2d_deriv(double x, double y) const noexcept {
  const double p[2] = {x, y};
  with_gradient<double, 2> r{};
  r.value = value_at<2>(lattice_, interp_, p, r.gradient.data());
  return r;
}
with_gradient<double, 3> value_noise::noise3d_deriv(double x, double y, double z) const noexcept {
  const double p[3] = {x, y, z};
  with_gradient<double, 3> r{};
  r.value = value_at<3>(lattice_, interp_, p, r.gradient.data());
  return r;
}
double value_noise::eval(std::span<const double> p, std::span<double> gradient) const {
  return detail::dispatch_dims(p, gradient, [this]<int D>(const double* x, double* g) {
    return value_at<D>(lattice_, interp_, x, g);
  });
}
float value_noise::eval(std::span<const float> p, std::span<float> gradient) const {
  return detail::dispatch_dims(p, gradient, [this]<int D>(const float* x, float* g) {
    return value_at<D>(lattice_, interp_, x, g);
  });
}

std::string_view to_string(interpolation i) noexcept {
  switch (i) {
    case interpolation::linear: return "linear";
    case interpolation::cosine: return "cosine";
    case interpolation::cubic: return "cubic";
    case interpolation::quintic: return "quintic";
  }
  return "quintic";
}

interpolation parse_interpolation(std::string_view name) {
  for (auto i : {interpolation::linear, interpolation::cosine, interpolation::cubic,
                 interpolation::quintic}) {
    if (name == to_string(i)) return i;
  }
  detail::throw_invalid("interpolation", "unknown name '" + std::string(name) +
                                             "' (valid: linear, cosine, cubic, quintic)");
}

}  // namespace perlin
