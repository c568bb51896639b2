// The CPU-GPU contract of perlin::shader_source (docs/gpu.md), on whatever OpenGL 4.3 the machine
// has through EGL without a display: Mesa's llvmpipe in CI. Double shaders give the C++ double
// path's values exactly; float shaders stay within value_tolerance of it (octave coordinates
// below 256).
// Skipped, with the reason, where no OpenGL 4.3 context can be made.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gl_compute.hpp"
#include "perlin/gpu_grid.hpp"
#include "perlin/perlin.hpp"

namespace {

/// One OpenGL 4.3 context for the whole test program (gl_compute.hpp).
struct gl_context {
  bool ok = false;
  std::string why, renderer;
  gl_context() : why(perlin_test::make_gl_context_current()) {
    if (!why.empty()) return;
    renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    ok = true;
  }
};

gl_context& context() {
  static gl_context c;
  return c;
}

/// Runs perlin_field of `source` at n points (dims coordinates each, interleaved) on the GPU;
/// with `deriv`, perlin_field_deriv: dims + 1 outputs per point (the value, then the partials).
/// With `custom`, that expression of pts[stride * i + ...] instead, one output per point.
template <class T>
std::vector<T> run_on_gpu(const std::string& source, std::size_t dims, const std::vector<T>& pts,
                          std::string& error, bool deriv = false, const std::string& custom = {},
                          std::size_t stride = 0) {
  const bool dbl = std::is_same_v<T, double>;
  const std::string t = dbl ? "double" : "float";
  const std::string v = dims == 1 ? t : (dbl ? "dvec" : "vec") + std::to_string(dims);
  std::string call = v + "(";
  for (std::size_t k = 0; k < dims; ++k) {
    if (k != 0) call += ", ";
    call += "pts[" + std::to_string(dims) + " * i + " + std::to_string(k) + "]";
  }
  call += ")";
  const std::string program =
      "#version 430\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) readonly buffer In { " +
      t + " pts[]; };\nlayout(std430, binding = 1) writeonly buffer Out { " + t +
      " vals[]; };\nuniform uint n;\n" + source +
      "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  if (i >= n) return;\n" +
      (!custom.empty() ? "  vals[i] = " + custom + ";\n"
       : deriv         ? "  " + v + " g;\n  vals[" + std::to_string(dims + 1) +
                     " * i] = perlin_field_deriv(" + call + ", g);\n" +
                     [&] {
                       std::string out;
                       for (std::size_t k = 0; k < dims; ++k) {
                         out += "  vals[" + std::to_string(dims + 1) + " * i + " +
                                std::to_string(k + 1) + "] = g" +
                                (dims == 1 ? std::string() : std::string(".") + "xyzw"[k]) + ";\n";
                       }
                       return out;
                     }()
               : "  vals[i] = perlin_field(" + call + ");\n") +
      "}\n";
  const GLuint p = perlin_test::compute_program(program, error);
  if (p == 0) return {};
  glUseProgram(p);
  const std::size_t n = pts.size() / (stride != 0 ? stride : dims),
                    outputs = n * (deriv && custom.empty() ? dims + 1 : 1);
  glUniform1ui(glGetUniformLocation(p, "n"), static_cast<GLuint>(n));
  return perlin_test::run_compute(p, pts, outputs, n);
}

/// 36 fields: every fractal kind, seeds, periods (masks and modulo), normalisation,
/// decorrelation, a non-integer lacunarity, the rotated plane, value noise with every
/// interpolation, simplex noise, in the dims given.
const std::pair<const char*, std::size_t> k_fields[] = {
    {"perlin=1", 3},
    {"perlin=1", 2},
    {"perlin=1", 1},
    {"perlin=1", 4},
    {"perlin=1&seed=42", 3},
    {"perlin=1&seed=18446744073709551615", 2},
    {"perlin=1&period=16", 3},
    {"perlin=1&period=5,7", 2},
    {"perlin=1&period=3,4,5,6", 4},
    {"perlin=1&fractal=fbm&octaves=8", 3},
    {"perlin=1&fractal=fbm&octaves=6&normalize=1&decorrelate=1", 2},
    {"perlin=1&fractal=fbm&octaves=5&period=6&seed=7", 3},
    {"perlin=1&fractal=fbm&octaves=4&lacunarity=2.5&persistence=0.6", 3},
    {"perlin=1&fractal=turbulence&octaves=5", 3},
    {"perlin=1&fractal=turbulence&octaves=4&seed=3", 2},
    {"perlin=1&fractal=ridged&octaves=6", 3},
    {"perlin=1&fractal=ridged&octaves=5&ridged-offset=0.9&ridged-gain=3", 2},
    {"perlin=1&fractal=billow&octaves=5", 3},
    {"perlin=1&fractal=billow&octaves=3&decorrelate=1", 4},
    {"perlin=1&plane=rotated", 2},
    {"perlin=1&plane=rotated&fractal=fbm&octaves=6", 3},
    {"perlin=1&plane=rotated&fractal=ridged&octaves=4", 4},
    {"perlin=1&frequency=0.37&fractal=fbm&octaves=3", 3},
    {"perlin=1&fractal=fbm&octaves=7&period=12&lacunarity=3", 2},
    // Value noise with each interpolation (cosine: float shaders only, GLSL has no double cos).
    {"perlin=1&noise=value", 3},
    {"perlin=1&noise=value&interp=linear&seed=5", 2},
    {"perlin=1&noise=value&interp=cubic&fractal=fbm&octaves=4", 3},
    {"perlin=1&noise=value&period=7&fractal=ridged&octaves=3", 4},
    {"perlin=1&noise=value&interp=cosine&fractal=billow&octaves=2", 2},
    {"perlin=1&noise=value&seed=9&plane=rotated&fractal=turbulence&octaves=3", 1},
    // Gustavson's simplex noise (2-D to 4-D; no periods): 2-D and 3-D plain are his Java code.
    {"perlin=1&noise=simplex", 2},
    {"perlin=1&noise=simplex", 3},
    {"perlin=1&noise=simplex&seed=42", 4},
    {"perlin=1&noise=simplex&fractal=fbm&octaves=5&decorrelate=1", 3},
    {"perlin=1&noise=simplex&fractal=ridged&octaves=4&seed=7", 2},
    {"perlin=1&noise=simplex&plane=rotated&fractal=billow&octaves=3", 2},
};

/// docs/gpu.md: float shaders stay within this many times value_tolerance of the double path
/// where the octave coordinates stay below 256 (decorrelation offsets and the rotated plane's
/// float rotation add to the C++ float path's own error).
constexpr double k_float_shader_factor = 16;
/// Simplex noise's float shaders: 8 times that (docs/gpu.md): their skew and unskew in float
/// round t = (i + j ...) G and the offsets d = x - (i - t) at the size of the coordinates (where
/// improved noise's fraction x - floor(x) is exact), which the steep kernels turn into value
/// errors. Measured on llvmpipe: 21.9x value_tolerance unwarped (the rotated billow field), 62x
/// (value_tolerance + A x gradient_tolerance) for the 2-D progressive warp.
constexpr double k_simplex_float_shader_factor = 128;
double float_shader_factor(const perlin::field& f) {
  return f.kind() == perlin::noise_kind::simplex ? k_simplex_float_shader_factor
                                                 : k_float_shader_factor;
}

/// The scale that keeps every octave coordinate of points within `extent` of the origin below
/// 256, where the float bound holds.
double below_256(const perlin::field& f, double extent) {
  double top = f.fractal().frequency();
  for (int k = 1; k < f.fractal().active_octaves(); ++k) top *= f.fractal().lacunarity();
  return std::min(1.0, 250.0 / (extent * top));
}

/// docs/gpu.md's bound on a float shader's distance from the double path: 16 x value_tolerance,
/// plus 16 x A x gradient_tolerance for a warp of amplitude A (the float warp moves each point
/// by a few ulps of its coordinates times A, which the field's slope turns into a value error).
double float_shader_bound(const perlin::field& f) {
  return float_shader_factor(f) *
         (perlin::value_tolerance(f) +
          (f.warped() ? f.warp().amplitude() * perlin::gradient_tolerance(f) : 0.0));
}

/// n points of `dims` coordinates, each drawn from `u`.
std::vector<double> random_points(std::size_t n, std::size_t dims, std::mt19937_64& rng,
                                  std::uniform_real_distribution<double>& u) {
  std::vector<double> pd(n * dims);
  for (auto& x : pd) x = u(rng);
  return pd;
}

/// Double values against the C++ double path: how many differ (== : a zero's sign is not
/// compared), and by how much at worst (absolute, and in units in the last place of the C++
/// value), so that a failure says whether a driver rounded or fused (an ulp or two) or computed
/// something else.
struct double_gap {
  std::size_t differ = 0;
  double worst = 0, worst_ulps = 0;
  void add(double got, double want) {
    if (got == want) return;
    ++differ;
    const double d = std::abs(got - want);
    worst = std::max(worst, d);
    const double ulp = std::nextafter(std::abs(want), INFINITY) - std::abs(want);
    worst_ulps = std::max(worst_ulps, d / ulp);
  }
};

std::ostream& operator<<(std::ostream& os, const double_gap& g) {
  return os << g.differ << " differ, by at most " << g.worst << " (" << g.worst_ulps << " ulps)";
}

/// The gap of values `got` of the points pd from the C++ double path.
double_gap gap_from_double(const perlin::field& f, const std::vector<double>& got,
                           const std::vector<double>& pd, std::size_t dims) {
  double_gap gap;
  for (std::size_t i = 0; i < got.size(); ++i)
    gap.add(got[i], f.eval<double>(std::span<const double>(pd.data() + i * dims, dims)));
  return gap;
}

/// The points pd times `shrink`, as floats.
std::vector<float> to_float(const std::vector<double>& pd, double shrink) {
  std::vector<float> pf(pd.size());
  for (std::size_t i = 0; i < pd.size(); ++i) pf[i] = static_cast<float>(pd[i] * shrink);
  return pf;
}

/// The largest distance of float values `got` from the C++ double path at the float points pf
/// (widened exactly).
double worst_from_double(const perlin::field& f, const std::vector<float>& got,
                         const std::vector<float>& pf, std::size_t dims) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double q[4];
    for (std::size_t k = 0; k < dims; ++k) q[k] = pf[i * dims + k];
    worst = std::max(worst, std::abs(got[i] - f.eval<double>(std::span<const double>(q, dims))));
  }
  return worst;
}

TEST(GpuContract, DoubleShadersGiveTheDoublePathsValuesAndFloatShadersItsTolerance) {
  if (!context().ok) GTEST_SKIP() << context().why;
  RecordProperty("renderer", context().renderer);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-40, 40);
  constexpr std::size_t n = 10000;
  double worst_ratio = 0;
  // llvmpipe compiles a shader in one to two seconds: 17 of the 30 fields (the 13 that repeat
  // another's kind, plane and period in a different setting are left to the derivative test,
  // whose double values are compared too, and to the SPIR-V test).
  const std::size_t repeats[] = {1, 5, 9, 11, 13, 15, 16, 17, 18, 21, 22, 23, 25};
  for (std::size_t fi = 0; fi < std::size(k_fields); ++fi) {
    if (std::find(std::begin(repeats), std::end(repeats), fi) != std::end(repeats)) continue;
    const auto& [recipe, dims] = k_fields[fi];
    SCOPED_TRACE(std::string(recipe) + " dims " + std::to_string(dims));
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const std::vector<double> pd = random_points(n, dims, rng, u);
    // Double: exactly the C++ double path (== : a zero's sign is not compared).
    std::string error;
    if (std::string(recipe).find("cosine") != std::string::npos) {
      EXPECT_THROW((void)perlin::shader_source(f, {.double_precision = true, .dims = dims}),
                   perlin::invalid_argument);
    } else {
      const auto got = run_on_gpu(
          perlin::shader_source(
              f, {.double_precision = true, .dims = dims, .derivatives = false, .split = false}),
          dims, pd, error);
      ASSERT_TRUE(error.empty()) << error;
      const double_gap gap = gap_from_double(f, got, pd, dims);
      EXPECT_EQ(gap.differ, 0u) << "double shader values against the C++ double path: " << gap;
    }
    // Float: within the library's float tolerance of the double path, which holds where every
    // octave coordinate stays below 256 (docs/exactness.md): the points scaled to that.
    const std::vector<float> pf = to_float(pd, below_256(f, 40.0));
    const auto gf = run_on_gpu(
        perlin::shader_source(
            f, {.double_precision = false, .dims = dims, .derivatives = false, .split = false}),
        dims, pf, error);
    ASSERT_TRUE(error.empty()) << error;
    const double ratio = worst_from_double(f, gf, pf, dims) / perlin::value_tolerance(f);
    worst_ratio = std::max(worst_ratio, ratio);
    EXPECT_LE(ratio, float_shader_factor(f));
    if (f.kind() == perlin::noise_kind::simplex) std::printf("%s: float %.3gx\n", recipe, ratio);
  }
  RecordProperty("worst float error / value_tolerance", std::to_string(worst_ratio));
  std::printf("float shaders: worst error %.3g x value_tolerance (renderer %s)\n", worst_ratio,
              context().renderer.c_str());
}

TEST(GpuContract, DoubleShaderDerivativesAreTheDoublePathsGradientBitForBit) {
  // perlin_field_deriv in double: the value and every partial equal field::eval's with a
  // gradient, for 8 fields of the list (fBm, ridged, billow, turbulence, both bases, periods,
  // the rotated plane, 1-D, 2-D and 4-D; 2,000 points each).
  if (!context().ok) GTEST_SKIP() << context().why;
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-40, 40);
  constexpr std::size_t n = 2000;
  std::size_t checked = 0, smooth_checked = 0;
  double worst_float = 0;
  for (std::size_t fi = 0; fi < std::size(k_fields); ++fi) {
    const auto& [recipe, dims] = k_fields[fi];
    const std::string r = recipe;
    if (r.find("cosine") != std::string::npos) continue;
    // A field of each kind and each base (their compilation on llvmpipe is what takes the time).
    static const std::pair<std::string_view, std::size_t> picks[] = {
        {"perlin=1", 1},
        {"perlin=1", 4},
        {"perlin=1&period=5,7", 2},
        {"perlin=1&fractal=fbm&octaves=6&normalize=1&decorrelate=1", 2},
        {"perlin=1&fractal=ridged&octaves=5&ridged-offset=0.9&ridged-gain=3", 2},
        {"perlin=1&fractal=billow&octaves=3&decorrelate=1", 4},
        {"perlin=1&plane=rotated&fractal=ridged&octaves=4", 4},
        {"perlin=1&noise=value&seed=9&plane=rotated&fractal=turbulence&octaves=3", 1},
        {"perlin=1&noise=simplex", 3},
        {"perlin=1&noise=simplex&seed=42", 4},
        {"perlin=1&noise=simplex&fractal=ridged&octaves=4&seed=7", 2}};
    if (std::find(std::begin(picks), std::end(picks),
                  std::pair<std::string_view, std::size_t>(r, dims)) == std::end(picks))
      continue;
    SCOPED_TRACE(r + " dims " + std::to_string(dims));
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const std::vector<double> pd = random_points(n, dims, rng, u);
    std::string error;
    const auto got = run_on_gpu(perlin::shader_source(f, {.double_precision = true, .dims = dims}),
                                dims, pd, error, /*deriv=*/true);
    ASSERT_TRUE(error.empty()) << error;
    double_gap gap;
    for (std::size_t i = 0; i < n; ++i) {
      double g[4];
      const double want = f.eval<double>(std::span<const double>(pd.data() + i * dims, dims),
                                         std::span<double>(g, dims));
      gap.add(got[i * (dims + 1)], want);
      for (std::size_t k = 0; k < dims; ++k) gap.add(got[i * (dims + 1) + 1 + k], g[k]);
    }
    EXPECT_EQ(gap.differ, 0u) << "values or partials against the C++ double path: " << gap;
    ++checked;
    // Float, on the smooth fields (no kink where float and double may take either side): the
    // partials within 16 x gradient_tolerance of the double path, points scaled below 256.
    const bool smooth =
        r.find("turbulence") == std::string::npos && r.find("ridged") == std::string::npos &&
        r.find("billow") == std::string::npos && r.find("linear") == std::string::npos;
    if (!smooth) continue;
    const double shrink = below_256(f, 40.0);
    std::vector<float> pf(pd.size());
    for (std::size_t i = 0; i < pd.size(); ++i) pf[i] = static_cast<float>(pd[i] * shrink);
    const auto gf = run_on_gpu(perlin::shader_source(f, {.dims = dims}), dims, pf, error, true);
    ASSERT_TRUE(error.empty()) << error;
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double q[4], g[4];
      for (std::size_t k = 0; k < dims; ++k) q[k] = pf[i * dims + k];
      const double want =
          f.eval<double>(std::span<const double>(q, dims), std::span<double>(g, dims));
      EXPECT_LE(std::abs(gf[i * (dims + 1)] - want),
                float_shader_factor(f) * perlin::value_tolerance(f));
      for (std::size_t k = 0; k < dims; ++k) {
        worst = std::max(
            worst, std::abs(gf[i * (dims + 1) + 1 + k] - g[k]) / perlin::gradient_tolerance(f));
      }
    }
    EXPECT_LE(worst, float_shader_factor(f)) << "float partials over the tolerance";
    worst_float = std::max(worst_float, worst);
    ++smooth_checked;
  }
  EXPECT_GE(checked, 8u);
  EXPECT_GE(smooth_checked, 4u);
  std::printf("float derivative shaders: worst partial %.3g x gradient_tolerance\n", worst_float);
}

TEST(GpuContract, WarpedShadersAreTheDoublePathBitForBitAndTheFloatPathWithinItsTolerance) {
  // Domain warps (warp.cpp's displace in the shader, step for step): in double, the value and
  // every partial of perlin_field_deriv and the value of perlin_field equal field::eval's; in
  // float, within 16 x (value_tolerance + A x gradient_tolerance) of the double path and of
  // field::eval<float> (the same operations in float: on the aligned plane with improved noise,
  // its bits on llvmpipe).
  if (!context().ok) GTEST_SKIP() << context().why;
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-20, 20);
  constexpr std::size_t n = 10000;
  const std::pair<const char*, std::size_t> fields[] = {
      {"perlin=1&warp=basic&warp-amplitude=0.7", 2},
      {"perlin=1&noise=value&interp=cubic&fractal=fbm&octaves=3&warp=progressive&warp-octaves=2&"
       "warp-amplitude=1.5",
       3},
      {"perlin=1&seed=5&period=4&fractal=fbm&octaves=2&warp=independent&warp-octaves=2&"
       "warp-seed=11&warp-frequency=0.5",
       4},
      {"perlin=1&plane=rotated&warp=progressive&warp-octaves=2", 2},
      // 2-D: Gustavson's 3-D and 4-D simplex noise jumps where the simplex changes (its kernels'
      // r^2 = 0.6 reach past the simplex; docs/noise.md), so a float warp that lands a point on
      // the other side of such a boundary differs by the jump, which no tolerance bounds.
      {"perlin=1&noise=simplex&fractal=fbm&octaves=2&warp=progressive&warp-octaves=2", 2},
  };
  for (const auto& [recipe, dims] : fields) {
    SCOPED_TRACE(std::string(recipe) + " dims " + std::to_string(dims));
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const std::vector<double> pd = random_points(n, dims, rng, u);
    std::string error;
    const std::string dsrc =
        perlin::shader_source(f, {.double_precision = true, .dims = dims, .split = false});
    const auto values = run_on_gpu(dsrc, dims, pd, error);
    ASSERT_TRUE(error.empty()) << error;
    const auto deriv = run_on_gpu(dsrc, dims, pd, error, /*deriv=*/true);
    ASSERT_TRUE(error.empty()) << error;
    double_gap gap;
    for (std::size_t i = 0; i < n; ++i) {
      double g[4];
      const auto p = std::span<const double>(pd.data() + i * dims, dims);
      const double want = f.eval<double>(p, std::span<double>(g, dims));
      gap.add(values[i], want);
      gap.add(deriv[i * (dims + 1)], want);
      for (std::size_t k = 0; k < dims; ++k) gap.add(deriv[i * (dims + 1) + 1 + k], g[k]);
    }
    EXPECT_EQ(gap.differ, 0u) << "values or partials against the C++ double path: " << gap;
    const std::vector<float> pf = to_float(pd, 1.0);
    const auto gf =
        run_on_gpu(perlin::shader_source(f, {.dims = dims, .derivatives = false, .split = false}),
                   dims, pf, error);
    ASSERT_TRUE(error.empty()) << error;
    double worst = 0;
    std::size_t same = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float want = f.eval<float>(std::span<const float>(pf.data() + i * dims, dims));
      worst = std::max(worst, std::abs(double(gf[i]) - want));
      same += gf[i] == want;
    }
    const double from_double = worst_from_double(f, gf, pf, dims);
    const double bound = float_shader_bound(f);
    EXPECT_LE(from_double, bound);
    EXPECT_LE(worst, bound);
    std::printf(
        "warped %s: float %.3g of the bound from the double path, %.3g from eval<float> "
        "(%zu/%zu equal)\n",
        recipe, from_double / bound, worst / bound, same, n);
  }
}

TEST(GpuContract, ErodedShadersAreTheDoublePathBitForBit) {
  // Eroded fBm (each octave damped by the octaves' own gradients so far, through
  // perlin_noise_deriv): double perlin_field == field::eval; float within the float bound (with
  // a warp's term where warped). perlin_field_deriv is not written for it (comment in the source).
  if (!context().ok) GTEST_SKIP() << context().why;
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-20, 20);
  constexpr std::size_t n = 10000;
  const std::pair<const char*, std::size_t> fields[] = {
      {"perlin=1&fractal=eroded&octaves=5", 2},
      {"perlin=1&noise=value&interp=cubic&fractal=eroded&octaves=4&erosion=2.5&normalize=1", 3},
      {"perlin=1&fractal=eroded&octaves=3&plane=rotated&warp=basic&seed=8", 2},
      {"perlin=1&noise=simplex&fractal=eroded&octaves=4&seed=3", 3},
  };
  for (const auto& [recipe, dims] : fields) {
    SCOPED_TRACE(std::string(recipe) + " dims " + std::to_string(dims));
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const std::string dsrc = perlin::shader_source(f, {.double_precision = true, .dims = dims});
    EXPECT_NE(dsrc.find("perlin_field_deriv is not written for the eroded fractal"),
              std::string::npos);
    const std::vector<double> pd = random_points(n, dims, rng, u);
    std::string error;
    const auto values = run_on_gpu(dsrc, dims, pd, error);
    ASSERT_TRUE(error.empty()) << error;
    const double_gap gap = gap_from_double(f, values, pd, dims);
    EXPECT_EQ(gap.differ, 0u) << "values against the C++ double path: " << gap;
    const std::vector<float> pf = to_float(pd, below_256(f, 20.0));
    const auto gf =
        run_on_gpu(perlin::shader_source(f, {.dims = dims, .derivatives = false}), dims, pf, error);
    ASSERT_TRUE(error.empty()) << error;
    const double worst = worst_from_double(f, gf, pf, dims);
    const double bound = float_shader_bound(f);
    EXPECT_LE(worst, bound);
    std::printf("eroded %s: float %.3g of its bound\n", recipe, worst / bound);
  }
}

TEST(GpuContract, TheSplitFormKeepsFloatPrecisionFarFromTheOrigin) {
  // perlin_field_split(cell, frac) in float at cells around 1e6 and 1e9 (split on the CPU by
  // perlin::split_for_shader): within the float tolerance of the double path where the plain
  // float shader, given the same points as floats, is off by the whole noise amplitude.
  if (!context().ok) GTEST_SKIP() << context().why;
  std::mt19937_64 rng(3);
  constexpr std::size_t n = 2000;
  const std::pair<const char*, std::size_t> fields[] = {
      {"perlin=1&seed=9&fractal=fbm&octaves=3", 2},
      {"perlin=1&fractal=ridged&octaves=3&decorrelate=1", 3},
      {"perlin=1&period=5,7&fractal=fbm&octaves=3", 2},
      {"perlin=1&noise=value&interp=cubic&fractal=billow&octaves=2&frequency=4", 4}};
  double worst = 0, plain_worst = 0;
  for (const auto& [recipe, dims] : fields) {
    {
      SCOPED_TRACE(std::string(recipe));
      const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
      // A third of the points around each of 1e6, -1e6 and 1e9 (one shader compiled per field).
      std::vector<double> pd(n * dims);
      for (std::size_t i = 0; i < pd.size(); ++i) {
        const double centre = i < n * dims / 3 ? 1e6 : i < 2 * n * dims / 3 ? -1e6 : 1e9;
        pd[i] = std::uniform_real_distribution<double>(centre - 500, centre + 500)(rng);
      }
      std::vector<float> packed(2 * n * dims), plain(n * dims);
      for (std::size_t i = 0; i < n * dims; ++i) {
        const auto s = perlin::split_for_shader(pd[i]);
        ASSERT_TRUE(s.frac >= 0.0f && s.frac < 1.0f) << s.frac;
        ASSERT_LE(std::abs(double(s.cell) + double(s.frac) - pd[i]), 0x1p-25) << pd[i];
        std::memcpy(&packed[(i / dims) * 2 * dims + i % dims], &s.cell, 4);
        packed[(i / dims) * 2 * dims + dims + i % dims] = s.frac;
        plain[i] = static_cast<float>(pd[i]);
      }
      const std::string d = std::to_string(dims), st = std::to_string(2 * dims);
      std::string cell = dims == 1 ? "" : "ivec" + d + "(", frac = dims == 1 ? "" : "vec" + d + "(";
      for (std::size_t k = 0; k < dims; ++k) {
        const std::string sep = k == 0 ? "" : ", ";
        cell += sep + "floatBitsToInt(pts[" + st + " * i + " + std::to_string(k) + "])";
        frac += sep + "pts[" + st + " * i + " + std::to_string(dims + k) + "]";
      }
      if (dims != 1) {
        cell += ")";
        frac += ")";
      }
      std::string error;
      const std::string source = perlin::shader_source(f, {.dims = dims, .derivatives = false});
      ASSERT_EQ(source.find("is not written"), std::string::npos) << source.substr(0, 200);
      const auto got = run_on_gpu(source, dims, packed, error, false,
                                  "perlin_field_split(" + cell + ", " + frac + ")", 2 * dims);
      ASSERT_TRUE(error.empty()) << error;
      const auto naive = run_on_gpu(source, dims, plain, error);
      ASSERT_TRUE(error.empty()) << error;
      double field_worst = 0;
      for (std::size_t i = 0; i < n; ++i) {
        // The point the split names, in double (cell + frac exactly).
        double q[4];
        for (std::size_t k = 0; k < dims; ++k) {
          std::int32_t c;
          std::memcpy(&c, &packed[i * 2 * dims + k], 4);
          q[k] = double(c) + double(packed[i * 2 * dims + dims + k]);
        }
        const double want = f.eval<double>(std::span<const double>(q, dims));
        field_worst = std::max(field_worst, std::abs(got[i] - want));
        plain_worst =
            std::max(plain_worst, std::abs(naive[i] - f.eval<double>(std::span<const double>(
                                                          pd.data() + i * dims, dims))));
      }
      EXPECT_LE(field_worst, k_float_shader_factor * perlin::value_tolerance(f));
      worst = std::max(worst, field_worst / perlin::value_tolerance(f));
    }
  }
  EXPECT_GT(plain_worst, 0.1);  // what the split form is for
  std::printf("split form: worst %.3g x value_tolerance at 1e6 and 1e9 (plain float: %.3g)\n",
              worst, plain_worst);
}

/// Writes `text` to `path`.
void write_text(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), f), text.size());
  ASSERT_EQ(std::fclose(f), 0);
}

/// The exit status of a shell command, its output kept in `log`.
int run_command(const std::string& command, std::string& log) {
  std::FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) log += buf;
  return pclose(p);
}

TEST(GpuContract, EveryLanguageCompilesToValidSpirv) {
  // Each field's GLSL (float and double, a compute shader), GLSL ES (a WebGL2 fragment shader)
  // and HLSL (a compute shader, through glslang's HLSL front end) inside a minimal program:
  // glslangValidator compiles it (to SPIR-V, except GLSL ES 3.00, which Vulkan does not take)
  // and spirv-val accepts the module.
  const std::string glslang = PERLIN_GLSLANG, spirv_val = PERLIN_SPIRV_VAL;
  if (glslang.empty() || glslang.find("NOTFOUND") != std::string::npos ||
      spirv_val.find("NOTFOUND") != std::string::npos) {
    GTEST_SKIP() << "glslangValidator or spirv-val not found (glslang-tools, spirv-tools)";
  }
  const std::string dir = ::testing::TempDir() + "perlin_shaders_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  std::size_t compiled = 0;
  for (std::size_t fi = 0; fi < std::size(k_fields); ++fi) {
    const auto& [recipe, dims] = k_fields[fi];
    SCOPED_TRACE(std::string(recipe) + " dims " + std::to_string(dims));
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const bool cosine = std::string(recipe).find("cosine") != std::string::npos;
    const std::string d = std::to_string(dims);
    const auto arg = [&](const std::string& v, const std::string& e) {
      return dims == 1 ? std::string(e) : v + d + "(" + e + ")";
    };
    struct program {
      perlin::shader_language lang;
      bool dbl;
      std::string head, tail, ext, compile;
    };
    const std::vector<program> programs = {
        {perlin::shader_language::glsl, false,
         "#version 450\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) buffer Out { float v[]; };\n",
         "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  v[i] = perlin_field(" +
             arg("vec", "float(i) * 0.37") + ");\n}\n",
         "comp", "-V"},
        {perlin::shader_language::glsl, true,
         "#version 450\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) buffer Out { double v[]; };\n",
         "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  v[i] = perlin_field(" +
             arg("dvec", "double(i) * 0.37LF") + ");\n}\n",
         "comp", "-V"},
        {perlin::shader_language::glsl_es, false, "#version 300 es\n",
         "out highp vec4 color;\nvoid main() {\n  color = vec4(perlin_field(" +
             arg("vec", "gl_FragCoord.x * 0.37") + "));\n}\n",
         "frag", ""},
        {perlin::shader_language::hlsl, false, "",
         "RWStructuredBuffer<float> v : register(u0);\n[numthreads(64, 1, 1)]\n"
         "void main(uint3 id : SV_DispatchThreadID) {\n  v[id.x] = perlin_field(" +
             arg("float", "id.x * 0.37") + ");\n}\n",
         "hlsl", "-D -V -S comp -e main"},
    };
    const bool every_third = fi % 3 == 0;
    for (const auto& p : programs) {
      if (p.dbl && cosine) continue;  // refused (GLSL's cos is float only)
      // Desktop GLSL is also compiled by the driver in the test above: a third of the fields
      // here. GLSL ES and HLSL have no other compiler in the suite: every field.
      if (p.lang == perlin::shader_language::glsl && !every_third) continue;
      const std::string source =
          perlin::shader_source(f, {.language = p.lang, .double_precision = p.dbl, .dims = dims});
      const std::string base = dir + "/s" + std::to_string(compiled);
      const std::string file = base + "." + p.ext, spv = base + ".spv";
      write_text(file, p.head + source + p.tail);
      std::string log;
      const bool spirv = !p.compile.empty();
      ASSERT_EQ(run_command(glslang + " " + p.compile + " '" + file + "'" +
                                (spirv ? " -o '" + spv + "'" : ""),
                            log),
                0)
          << file << "\n"
          << log;
      if (spirv) {
        ASSERT_EQ(run_command(spirv_val + " '" + spv + "'", log), 0) << file << "\n" << log;
      }
      ++compiled;
    }
  }
  EXPECT_GE(compiled, 79u);
  // The standalone programs (shader_options::standalone) of every fifth field as written, in
  // every language but WGSL (glslang has no WGSL front end: the browser test runs it): GLSL and
  // GLSL ES checked by glslang's front end (loose uniforms are OpenGL's, not Vulkan's), HLSL to
  // SPIR-V that spirv-val accepts.
  std::size_t standalone = 0;
  for (std::size_t fi = 0; fi < std::size(k_fields); fi += 5) {
    const auto& [recipe, dims] = k_fields[fi];
    SCOPED_TRACE(std::string(recipe) + " dims " + std::to_string(dims) + " standalone");
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    const std::tuple<perlin::shader_language, bool, const char*, const char*> programs[] = {
        {perlin::shader_language::glsl, false, "comp", ""},
        {perlin::shader_language::glsl, true, "comp", ""},
        {perlin::shader_language::glsl_es, false, "frag", ""},
        {perlin::shader_language::hlsl, false, "hlsl", "-D -V -S comp -e main"}};
    for (const auto& [lang, dbl, ext, flags] : programs) {
      const std::string base = dir + "/standalone" + std::to_string(standalone);
      const std::string file = base + "." + ext, spv = base + ".spv";
      write_text(
          file,
          perlin::shader_source(
              f, {.language = lang, .double_precision = dbl, .dims = dims, .standalone = true}));
      const bool spirv = *flags != '\0';
      std::string log;
      ASSERT_EQ(
          run_command(
              glslang + " " + flags + " '" + file + "'" + (spirv ? " -o '" + spv + "'" : ""), log),
          0)
          << file << "\n"
          << log;
      if (spirv) {
        ASSERT_EQ(run_command(spirv_val + " '" + spv + "'", log), 0) << file << "\n" << log;
      }
      ++standalone;
    }
  }
  EXPECT_EQ(standalone, 32u);
  (void)std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(GpuContract, WhatShadersCannotExpressIsRefusedByName) {
  const auto refused = [](const char* recipe) {
    try {
      (void)perlin::shader_source(perlin::make_field(perlin::spec_from_recipe(recipe)));
    } catch (const perlin::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused("perlin=1&period=3&fractal=fbm&octaves=32").find("2^31 - 1"),
            std::string::npos);
  EXPECT_THROW(
      (void)perlin::shader_source(
          perlin::make_field(perlin::spec_from_recipe("perlin=1&noise=value&interp=cosine")),
          {.double_precision = true}),
      perlin::invalid_argument);
  EXPECT_THROW((void)perlin::shader_source(perlin::field(), {.dims = 5}), perlin::invalid_argument);
  for (const auto lang : {perlin::shader_language::glsl_es, perlin::shader_language::hlsl,
                          perlin::shader_language::wgsl}) {
    EXPECT_THROW(
        (void)perlin::shader_source(perlin::field(), {.language = lang, .double_precision = true}),
        perlin::invalid_argument);
  }
}

}  // namespace

// perlin::gpu_grid: the standalone compute shader on its own OpenGL context, plane by plane.
TEST(GpuGrid, FillsGridsWithTheFloatShaderWithinItsTolerance) {
  if (!context().ok) GTEST_SKIP() << context().why;
  const EGLContext mine = eglGetCurrentContext();
  perlin::gpu_grid gpu;
  EXPECT_EQ(gpu.renderer(), context().renderer);
  perlin::grid plane = perlin::grid::plane(37, 29, 1.0 / 16, -3.3, 1.7);
  plane.first = {5, -7, 0, 0};  // a band of a larger grid
  perlin::grid volume = perlin::grid::volume(13, 11, 5, 0.11, 2.5, -4.25, 0.375);
  perlin::grid hyper;
  hyper.dims = 4;
  hyper.count = {9, 7, 3, 2};
  hyper.step = {0.3, 0.2, 0.7, 1.1};
  hyper.origin = {-1, 2, 3, -4};
  // 300,001 columns: two dispatches along x (2^18 columns each at most). The step is 3/4096, not
  // 1/1024: the second dispatch would then start 256 units on, a whole period of the lattice, and
  // a driver that handed back the first dispatch's values again would pass. (3/4096 is a float,
  // so the shader's i * step is exact, as the C++ coordinates are.)
  const perlin::grid line = perlin::grid::line(300001, 3.0 / 4096, -100);
  const std::pair<const char*, perlin::grid> cases[] = {
      {"perlin=1&fractal=fbm&octaves=5&seed=3", plane},
      {"perlin=1&noise=value&interp=cubic&fractal=ridged&octaves=3", volume},
      {"perlin=1&period=8&fractal=billow&octaves=3", hyper},
      {"perlin=1", line},
  };
  for (const auto& [recipe, g] : cases) {
    SCOPED_TRACE(recipe);
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    std::vector<float> out(g.size());
    gpu.fill(f, g, out);
    const double tolerance = k_float_shader_factor * perlin::value_tolerance(f);
    double worst = 0;
    std::size_t i = 0;
    for (std::size_t l = 0; l < g.count[3]; ++l) {
      for (std::size_t k = 0; k < g.count[2]; ++k) {
        for (std::size_t y = 0; y < g.count[1]; ++y) {
          for (std::size_t x = 0; x < g.count[0]; ++x, ++i) {
            const std::size_t at[4] = {x, y, k, l};
            std::vector<double> p(g.dims);
            for (std::size_t a = 0; a < g.dims; ++a) p[a] = g.coordinate(a, at[a]);
            worst = std::max(worst, std::abs(double(out[i]) - f.eval(p)));
          }
        }
      }
    }
    EXPECT_LE(worst, tolerance);
    std::printf("gpu_grid %s (%zu-D, %zu samples): worst %.3g x value_tolerance\n", recipe, g.dims,
                g.size(), worst / perlin::value_tolerance(f));
  }
  // The caller's context is current again after each call.
  EXPECT_EQ(eglGetCurrentContext(), mine);
}

TEST(GpuGrid, FarFromTheOriginTheSplitFormKeepsTheBound) {
  // A float coordinate at 1e6 has lost its fraction (its step is 0.0625): the plain program was
  // 0.16 off there (0.52 at 1e9) against a bound of 3.2e-05. gpu_grid splits each dispatch's
  // first point into cell + fraction in double and draws with perlin_field_split.
  if (!context().ok) GTEST_SKIP() << context().why;
  perlin::gpu_grid gpu;
  const perlin::grid plane = perlin::grid::plane(37, 29, 1.0 / 16, 1e6, -1e6);
  const perlin::grid volume = perlin::grid::volume(13, 11, 3, 0.11, -1e9, 2.5e8, 7e5 + 0.375);
  perlin::grid line = perlin::grid::line(300001, 3.0 / 4096, 123456789.25);  // two dispatches
  const std::pair<const char*, perlin::grid> cases[] = {
      {"perlin=1&fractal=fbm&octaves=5&seed=3", plane},
      {"perlin=1&noise=value&interp=cubic&fractal=ridged&octaves=3", volume},
      {"perlin=1&period=8&fractal=billow&octaves=3", line},
  };
  for (const auto& [recipe, g] : cases) {
    SCOPED_TRACE(recipe);
    const perlin::field f = perlin::make_field(perlin::spec_from_recipe(recipe));
    std::vector<float> out(g.size());
    gpu.fill(f, g, out);
    double worst = 0;
    std::size_t i = 0;
    for (std::size_t k = 0; k < g.count[2]; ++k) {
      for (std::size_t y = 0; y < g.count[1]; ++y) {
        for (std::size_t x = 0; x < g.count[0]; ++x, ++i) {
          const std::size_t at[3] = {x, y, k};
          std::vector<double> p(g.dims);
          for (std::size_t a = 0; a < g.dims; ++a) p[a] = g.coordinate(a, at[a]);
          worst = std::max(worst, std::abs(double(out[i]) - f.eval(p)));
        }
      }
    }
    EXPECT_LE(worst, perlin::shader_float_tolerance(f));
    std::printf("gpu_grid far %s: worst %.3g x value_tolerance\n", recipe,
                worst / perlin::value_tolerance(f));
  }
  // Without the split form (the rotated plane): refused past the reach where the bound holds,
  // naming it; drawn within the bound just inside it.
  const perlin::field rotated =
      perlin::make_field(perlin::spec_from_recipe("perlin=1&fractal=fbm&octaves=5&plane=rotated"));
  const double reach =
      1024 * perlin::value_tolerance(rotated) / perlin::gradient_tolerance(rotated);
  const perlin::grid far = perlin::grid::plane(8, 8, 1.0 / 64, reach, 0);
  std::vector<float> out(far.size(), 42.0f);
  try {
    gpu.fill(rotated, far, out);
    ADD_FAILURE() << "a rotated plane past " << reach << " was drawn";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("at most"), std::string::npos) << e.what();
  }
  EXPECT_EQ(out[0], 42.0f);
  const perlin::grid near = perlin::grid::plane(8, 8, 1.0 / 64, 0.95 * reach - 8.0 / 64, 0);
  gpu.fill(rotated, near, out);
  double worst = 0;
  for (std::size_t y = 0, i = 0; y < 8; ++y) {
    for (std::size_t x = 0; x < 8; ++x, ++i) {
      worst = std::max(
          worst, std::abs(double(out[i]) - rotated.eval(std::vector<double>{
                                               near.coordinate(0, x), near.coordinate(1, y)})));
    }
  }
  EXPECT_LE(worst, perlin::shader_float_tolerance(rotated));
}

TEST(GpuGrid, RefusesWhatItCannotDrawBeforeDrawing) {
  if (!context().ok) GTEST_SKIP() << context().why;
  perlin::gpu_grid gpu;
  const perlin::grid g = perlin::grid::plane(8, 8);
  std::vector<float> out(g.size(), 42.0f);
  const perlin::field too_long = perlin::make_field(
      perlin::spec_from_recipe("perlin=1&period=3&fractal=fbm&octaves=32"));  // 3 x 2^30 > 2^31
  EXPECT_THROW(gpu.fill(too_long, g, out), perlin::invalid_argument);
  std::vector<float> small(g.size() - 1);
  const perlin::field plain = perlin::make_field(perlin::spec_from_recipe("perlin=1"));
  EXPECT_THROW(gpu.fill(plain, g, small), perlin::invalid_argument);
  perlin::grid bad = g;
  bad.origin[0] = std::nan("");
  EXPECT_THROW(gpu.fill(plain, bad, out), perlin::invalid_argument);
  EXPECT_EQ(out[0], 42.0f);  // nothing written
}
