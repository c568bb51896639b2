// Out-of-line entry points of improved and value noise over the reference kernels, so that the
// exactness of the double path never depends on the flags of the caller's translation unit.
#include <string>

#include "detail/dims.hpp"
#include "detail/reference.hpp"
#include "detail/single_calls.hpp"
#include "perlin/error.hpp"
#include "perlin/improved_noise.hpp"
#include "perlin/value_noise.hpp"

namespace perlin {

namespace {

template <int D, class T>
T improved_at(const lattice& l, const T* x, T* grad) noexcept {
  return detail::improved<D, T>(l.perm().data(), detail::wraps_of(l).data(), x, grad);
}

template <int D, class T>
T value_at(const lattice& l, interpolation i, const T* x, T* grad) noexcept {
  return detail::value<D, T>(l.perm().data(), detail::wraps_of(l).data(), i, x, grad);
}

}  // namespace

// The written-out float path of the inline single calls (perlin/detail/improved_float_call.hpp):
// their rare coordinates and periods, and every call of a -ffast-math translation unit.
template <int D>
float detail::improved_float_rare(const std::uint8_t* p, const detail::axis_wrap* wrap, float x0,
                                  float x1, float x2) noexcept {
  return detail::improved_written_out<D, float>(p, wrap, x0, x1, x2);
}
template float detail::improved_float_rare<2>(const std::uint8_t*, const detail::axis_wrap*, float,
                                              float, float) noexcept;
template float detail::improved_float_rare<3>(const std::uint8_t*, const detail::axis_wrap*, float,
                                              float, float) noexcept;

// ---- improved noise ----
// Every single-call overload is one line over these: the coordinates go into an array (2-D and
// 3-D values take the written-out path with the same bits), the gradient is filled when asked.

template <class T, class... C>
T improved_value(const lattice& l, C... c) noexcept {
  constexpr int D = sizeof...(C);
  if constexpr (D == 2 || D == 3) {
    return detail::improved_fast<D>(l.perm().data(), detail::wraps_of(l).data(), c...);
  } else {
    const T p[D] = {c...};
    return improved_at<D>(l, p, static_cast<T*>(nullptr));
  }
}

template <class T, class... C>
with_gradient<T, sizeof...(C)> improved_gradient(const lattice& l, C... c) noexcept {
  const T p[sizeof...(C)] = {c...};
  with_gradient<T, sizeof...(C)> r{};
  r.value = improved_at<sizeof...(C)>(l, p, r.gradient.data());
  return r;
}

double improved_noise::noise1d(double x) const noexcept {
  return improved_value<double>(lattice_, x);
}
double improved_noise::noise2d(double x, double y) const noexcept {
  return improved_value<double>(lattice_, x, y);
}
double improved_noise::noise3d(double x, double y, double z) const noexcept {
  return improved_value<double>(lattice_, x, y, z);
}
double improved_noise::noise4d(double x, double y, double z, double w) const noexcept {
  return improved_value<double>(lattice_, x, y, z, w);
}
float improved_noise::noise1d(float x) const noexcept { return improved_value<float>(lattice_, x); }
float improved_noise::noise4d(float x, float y, float z, float w) const noexcept {
  return improved_value<float>(lattice_, x, y, z, w);
}

with_gradient<double, 1> improved_noise::noise1d_deriv(double x) const noexcept {
  return improved_gradient<double>(lattice_, x);
}
with_gradient<double, 2> improved_noise::noise2d_deriv(double x, double y) const noexcept {
  return improved_gradient<double>(lattice_, x, y);
}
with_gradient<double, 3> improved_noise::noise3d_deriv(double x, double y,
                                                       double z) const noexcept {
  return improved_gradient<double>(lattice_, x, y, z);
}
with_gradient<double, 4> improved_noise::noise4d_deriv(double x, double y, double z,
                                                       double w) const noexcept {
  return improved_gradient<double>(lattice_, x, y, z, w);
}
with_gradient<float, 1> improved_noise::noise1d_deriv(float x) const noexcept {
  return improved_gradient<float>(lattice_, x);
}
with_gradient<float, 2> improved_noise::noise2d_deriv(float x, float y) const noexcept {
  return improved_gradient<float>(lattice_, x, y);
}
with_gradient<float, 3> improved_noise::noise3d_deriv(float x, float y, float z) const noexcept {
  return improved_gradient<float>(lattice_, x, y, z);
}
with_gradient<float, 4> improved_noise::noise4d_deriv(float x, float y, float z,
                                                      float w) const noexcept {
  return improved_gradient<float>(lattice_, x, y, z, w);
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

template <class T, class... C>
T value_value(const lattice& l, interpolation i, C... c) noexcept {
  const T p[sizeof...(C)] = {c...};
  return value_at<sizeof...(C)>(l, i, p, static_cast<T*>(nullptr));
}

template <class T, class... C>
with_gradient<T, sizeof...(C)> value_gradient(const lattice& l, interpolation i, C... c) noexcept {
  const T p[sizeof...(C)] = {c...};
  with_gradient<T, sizeof...(C)> r{};
  r.value = value_at<sizeof...(C)>(l, i, p, r.gradient.data());
  return r;
}

double value_noise::noise1d(double x) const noexcept {
  return value_value<double>(lattice_, interp_, x);
}
double value_noise::noise2d(double x, double y) const noexcept {
  return value_value<double>(lattice_, interp_, x, y);
}
double value_noise::noise3d(double x, double y, double z) const noexcept {
  return value_value<double>(lattice_, interp_, x, y, z);
}
double value_noise::noise4d(double x, double y, double z, double w) const noexcept {
  return value_value<double>(lattice_, interp_, x, y, z, w);
}
float value_noise::noise1d(float x) const noexcept {
  return value_value<float>(lattice_, interp_, x);
}
float value_noise::noise2d(float x, float y) const noexcept {
  return value_value<float>(lattice_, interp_, x, y);
}
float value_noise::noise3d(float x, float y, float z) const noexcept {
  return value_value<float>(lattice_, interp_, x, y, z);
}
float value_noise::noise4d(float x, float y, float z, float w) const noexcept {
  return value_value<float>(lattice_, interp_, x, y, z, w);
}

with_gradient<double, 1> value_noise::noise1d_deriv(double x) const noexcept {
  return value_gradient<double>(lattice_, interp_, x);
}
with_gradient<double, 2> value_noise::noise2d_deriv(double x, double y) const noexcept {
  return value_gradient<double>(lattice_, interp_, x, y);
}
with_gradient<double, 3> value_noise::noise3d_deriv(double x, double y, double z) const noexcept {
  return value_gradient<double>(lattice_, interp_, x, y, z);
}
with_gradient<double, 4> value_noise::noise4d_deriv(double x, double y, double z,
                                                    double w) const noexcept {
  return value_gradient<double>(lattice_, interp_, x, y, z, w);
}
with_gradient<float, 1> value_noise::noise1d_deriv(float x) const noexcept {
  return value_gradient<float>(lattice_, interp_, x);
}
with_gradient<float, 2> value_noise::noise2d_deriv(float x, float y) const noexcept {
  return value_gradient<float>(lattice_, interp_, x, y);
}
with_gradient<float, 3> value_noise::noise3d_deriv(float x, float y, float z) const noexcept {
  return value_gradient<float>(lattice_, interp_, x, y, z);
}
with_gradient<float, 4> value_noise::noise4d_deriv(float x, float y, float z,
                                                   float w) const noexcept {
  return value_gradient<float>(lattice_, interp_, x, y, z, w);
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

}  // namespace perlin
