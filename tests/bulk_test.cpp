// The bulk calls' routes (docs/design.md "Routes", read from the file) and the gradient calls:
// fill_grid_deriv in double and eval_points_deriv, against field::eval with a gradient (the
// scalar path) and against finite differences of the values; the bulk calls' bad arguments,
// non-finite octave coordinates, and threads that cannot start.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "bulk/plans.hpp"
#include "bulk_cases.hpp"
#include "perlin/perlin.hpp"

namespace {

using perlin::detail::bulk_call;

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '`')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '`')) ++i;
  return s.substr(i);
}

perlin::field field_of(const std::string& recipe) {
  return perlin::make_field(
      perlin::spec_from_recipe(recipe == "-" ? "perlin=1" : "perlin=1&" + recipe));
}

TEST(BulkRoutes, TheTableOfDesignMdIsTheCode) {
  const std::map<std::string, bulk_call> calls = {
      {"fill_grid float", bulk_call::grid_float},
      {"fill_grid double", bulk_call::grid_double},
      {"fill_grid_deriv float", bulk_call::grid_deriv_float},
      {"fill_grid_deriv double", bulk_call::grid_deriv_double},
      {"eval_points float", bulk_call::points_float},
      {"eval_points double", bulk_call::points_double},
      {"eval_points_deriv float", bulk_call::points_deriv_float},
      {"eval_points_deriv double", bulk_call::points_deriv_double},
  };
  std::ifstream in(PERLIN_DOCS_DIR "/design.md");
  ASSERT_TRUE(in) << PERLIN_DOCS_DIR "/design.md";
  std::string line;
  bool inside = false;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("<!-- routes:", 0) == 0) inside = true;
    if (line.rfind("<!-- end routes", 0) == 0) break;
    if (!inside || line.rfind("| ", 0) != 0 || line.rfind("| call", 0) == 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    for (std::string c; std::getline(ss, c, '|');) cells.push_back(trim(c));
    ASSERT_GE(cells.size(), 4u) << line;
    ASSERT_TRUE(calls.count(cells[0])) << "unknown call in design.md: " << line;
    const perlin::field f = field_of(cells[2]);
    const auto route = perlin::detail::route_of(f, calls.at(cells[0]), std::stoul(cells[1]), 256);
    EXPECT_EQ(perlin::detail::route_name(route), cells[3]) << line;
    ++rows;
  }
  EXPECT_GE(rows, 20) << "the routes table of docs/design.md was not found";
}

/// The default grid's coordinates at a few steps, 1-D to 4-D.
perlin::grid grid_of(std::size_t dims) {
  perlin::grid g;
  g.dims = dims;
  g.count = {13, dims >= 2 ? 7u : 1u, dims >= 3 ? 5u : 1u, dims >= 4 ? 3u : 1u};
  g.origin = {-1.3, 0.7, 2.1, -0.4};
  g.step = {0.173, 0.291, 0.37, 0.41};
  return g;
}

const char* const k_fields[] = {"-",
                                "fractal=fbm&octaves=5",
                                "fractal=ridged&octaves=3",
                                "noise=value&interp=cubic&fractal=billow",
                                "period=3&seed=7",
                                "plane=rotated&fractal=fbm",
                                "warp=independent"};

TEST(BulkDeriv, DoubleGridsAreTheScalarPathBitForBit) {
  for (const char* recipe : k_fields) {
    const perlin::field f = field_of(recipe);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      const perlin::grid g = grid_of(dims);
      const std::size_t n = g.size();
      std::vector<double> out(n), grad(n * dims);
      const auto r = perlin::fill_grid_deriv(f, g, out, grad, {.threads = 2});
      std::size_t idx = 0;
      double lo = INFINITY, hi = -INFINITY;
      for (std::size_t l = 0; l < g.count[3]; ++l)
        for (std::size_t k = 0; k < g.count[2]; ++k)
          for (std::size_t j = 0; j < g.count[1]; ++j)
            for (std::size_t i = 0; i < g.count[0]; ++i, ++idx) {
              const double p[4] = {g.coordinate(0, i), g.coordinate(1, j), g.coordinate(2, k),
                                   g.coordinate(3, l)};
              double want[4];
              const double v =
                  f.eval<double>(std::span<const double>(p, dims), std::span<double>(want, dims));
              ASSERT_EQ(out[idx], v) << recipe << " dims " << dims << " sample " << idx;
              for (std::size_t a = 0; a < dims; ++a)
                ASSERT_EQ(grad[a * n + idx], want[a]) << recipe << " axis " << a;
              lo = std::min(lo, v);
              hi = std::max(hi, v);
            }
      EXPECT_EQ(r.min, lo);
      EXPECT_EQ(r.max, hi);
    }
  }
}

TEST(BulkDeriv, PointGradientsAreWithinTheirTolerance) {
  // Float points: the sample kernel (or the scalar path, rounded) within grid.hpp's tolerances
  // of the double path; double points: the double path bit for bit. Points are in
  // [-40, 40)^dims, the same for every field.
  for (const char* recipe : k_fields) {
    const perlin::field f = field_of(recipe);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      const std::size_t n = 3001;  // not a multiple of any vector width or block
      std::vector<float> xf[4];
      std::vector<double> xd[4];
      for (std::size_t a = 0; a < dims; ++a) {
        for (std::size_t i = 0; i < n; ++i) {
          const auto v = static_cast<float>(
              std::fmod(
                  (static_cast<double>(i) * 7919.0 + static_cast<double>(a) * 104729.0) * 0.0137,
                  80.0) -
              40.0);
          xf[a].push_back(v);
          xd[a].push_back(v);
        }
      }
      perlin::point_set<float> pf;
      perlin::point_set<double> pd;
      std::span<const float>* sf[4] = {&pf.x, &pf.y, &pf.z, &pf.w};
      std::span<const double>* sd[4] = {&pd.x, &pd.y, &pd.z, &pd.w};
      for (std::size_t a = 0; a < dims; ++a) {
        *sf[a] = xf[a];
        *sd[a] = xd[a];
      }
      std::vector<float> of(n), gf(n * dims);
      std::vector<double> od(n), gd(n * dims);
      perlin::eval_points_deriv(f, pf, of, gf, {.threads = 2});
      perlin::eval_points_deriv(f, pd, od, gd, {.threads = 2});
      const double vtol = perlin::value_tolerance(f), gtol = perlin::gradient_tolerance(f);
      int kinks = 0;
      for (std::size_t i = 0; i < n; ++i) {
        double p[4], want[4];
        for (std::size_t a = 0; a < dims; ++a) p[a] = xd[a][i];
        const double v =
            f.eval<double>(std::span<const double>(p, dims), std::span<double>(want, dims));
        ASSERT_EQ(od[i], v) << recipe;
        ASSERT_NEAR(of[i], v, vtol) << recipe << " dims " << dims << " point " << i;
        for (std::size_t a = 0; a < dims; ++a) {
          ASSERT_EQ(gd[a * n + i], want[a]) << recipe;
          if (std::abs(gf[a * n + i] - want[a]) > gtol) ++kinks;  // the other side of a kink
        }
      }
      EXPECT_LE(kinks, 3) << recipe << " dims " << dims;
    }
  }
}

TEST(BulkDeriv, TheGradientIsTheSlopeOfTheValues) {
  // Independent of the code under test: central differences of fill_grid's double values.
  const perlin::field f = field_of("fractal=fbm&octaves=4&seed=11");
  perlin::grid g = perlin::grid::plane(64, 1, 1.0 / 4096, 0.25, 0.5);
  std::vector<double> out(g.size()), grad(2 * g.size());
  perlin::fill_grid_deriv(f, g, out, grad);
  for (std::size_t i = 1; i + 1 < 64; ++i) {
    const double slope = (out[i + 1] - out[i - 1]) / (2.0 / 4096);
    EXPECT_NEAR(grad[i], slope, 1e-3 * (1 + std::abs(slope))) << i;
  }
}

TEST(BulkDeriv, BadSizesAreSizeErrors) {
  const float x[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  perlin::point_set<float> p;
  p.x = x;
  p.y = x;
  std::vector<float> out(4), grad(7);
  try {
    perlin::eval_points_deriv(perlin::field(), p, out, grad);
    FAIL() << "no error";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_EQ(e.kind(), perlin::error_kind::size);
    EXPECT_EQ(e.parameter(), "gradient");
  }
  perlin::grid g = perlin::grid::plane(4, 4);
  std::vector<double> o(16), gr(31);
  EXPECT_THROW(perlin::fill_grid_deriv(perlin::field(), g, std::span<double>(o), gr),
               perlin::invalid_argument);
}

}  // namespace

// The bulk calls' arguments and their threads.
namespace {

using bulk_cases::for_each_target;

TEST(Bulk, NonFiniteOctaveCoordinatesGiveNanOnEveryTarget) {
  // A fractal (so the points take the double prepass, not the plain path) at NaN and infinite
  // points, and a grid whose octave coordinates overflow to infinity (frequency 1e300 at
  // x = 1e10): NaN samples, never an undefined float-to-integer conversion (the asan-ubsan
  // preset traps on float-cast-overflow) and never a wild table index.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const perlin::field fbm(perlin::improved_noise(3),
                          perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(3));
  perlin::value_noise vn(3, perlin::interpolation::cosine);
  const perlin::field value(vn, perlin::fractal().set_kind(perlin::fractal_kind::none));
  perlin::field huge(perlin::improved_noise(3),
                     perlin::fractal().set_kind(perlin::fractal_kind::none));
  huge.fractal().set_frequency(1e300);
  for_each_target([&](const std::string&) {
    for (const perlin::field* f : {&fbm, &value}) {
      std::vector<float> x = {0.5f, nan, inf, -inf, 0.25f}, y(x.size(), 0.75f), out(x.size());
      perlin::eval_points(*f, {.x = x, .y = y, .z = y}, out);
      EXPECT_FALSE(std::isnan(out[0]));
      for (std::size_t i = 1; i < 4; ++i) EXPECT_TRUE(std::isnan(out[i])) << i;
      EXPECT_FALSE(std::isnan(out[4]));
    }
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      perlin::grid g;
      g.dims = dims;
      g.count = {20, 2, 2, 2};
      g.origin = {1e10, 1e10, 1e10, 1e10};
      g.step = {1, 1, 1, 1};
      std::vector<float> out(g.size());
      perlin::fill_grid(huge, g, out);
      for (const float v : out) ASSERT_TRUE(std::isnan(v)) << dims;
    }
  });
}

TEST(Bulk, ThreadsThatCannotStartAreNotAnError) {
  // In a child process that may not create threads (RLIMIT_NPROC; root ignores that limit, so
  // the child becomes user nobody first), a call asking for 8 threads still fills the grid with
  // the same bits as one thread: it neither throws nor terminates.
  perlin::grid g;
  g.count = {1024, 300, 1, 1};  // enough samples for several threads (one per 65,536)
  g.step = {0.05, 0.07, 1, 1};
  const perlin::field f;
  std::vector<float> one(g.size());
  perlin::fill_grid(f, g, one, {.threads = 1});
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::getuid() == 0 && ::setuid(65534) != 0) ::_exit(3);
    const rlimit none{0, 0};
    if (::setrlimit(RLIMIT_NPROC, &none) != 0) ::_exit(4);
    try {
      std::thread probe([] {});  // must fail, or the test proves nothing
      probe.join();
      ::_exit(5);
    } catch (const std::system_error&) {
    }
    std::vector<float> many(g.size());
    try {
      perlin::fill_grid(f, g, many, {.threads = 8});
    } catch (...) {
      ::_exit(6);
    }
    ::_exit(std::memcmp(many.data(), one.data(), one.size() * sizeof(float)) == 0 ? 0 : 7);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  if (WEXITSTATUS(status) == 5)
    GTEST_SKIP() << "threads can still be created under RLIMIT_NPROC here";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Bulk, BadArgumentsAreRejected) {
  const perlin::field f;
  perlin::grid g;
  std::vector<float> out(4);
  g.count = {2, 2, 1, 1};
  EXPECT_NO_THROW(perlin::fill_grid(f, g, out));
  g.count = {0, 2, 1, 1};
  EXPECT_THROW(perlin::fill_grid(f, g, out), perlin::invalid_argument);
  g.count = {2, 2, 1, 1};
  g.dims = 5;
  EXPECT_THROW(perlin::fill_grid(f, g, out), perlin::invalid_argument);
  g.dims = 0;
  EXPECT_THROW((void)g.size(), perlin::invalid_argument);
  g.dims = 4;
  g.count = {std::size_t{1} << 20, std::size_t{1} << 20, std::size_t{1} << 20,
             std::size_t{1} << 20};
  EXPECT_THROW((void)g.size(), perlin::invalid_argument);  // 2^80 samples overflow
  g.dims = 2;
  g.count = {3, 2, 1, 1};
  EXPECT_THROW(perlin::fill_grid(f, g, out), perlin::invalid_argument);  // out too small
  g.count = {2, 2, 1, 1};
  g.origin[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(perlin::fill_grid(f, g, out), perlin::invalid_argument);
  g.origin[1] = 0;
  g.step[0] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(perlin::fill_grid(f, g, out), perlin::invalid_argument);
  std::vector<float> x(4), y(3);
  EXPECT_THROW(perlin::eval_points(f, {.x = x, .y = y}, out), perlin::invalid_argument);
  EXPECT_THROW(perlin::eval_points(f, {.x = {}, .y = x}, out), perlin::invalid_argument);
  EXPECT_THROW(perlin::set_max_target("AVX9000"), perlin::invalid_argument);
}

}  // namespace
