// The bulk calls of graphs (include/perlin/graph_grid.hpp, docs/graphs.md "Bulk calls and
// tolerance"): over seeded random graphs of every node kind on 2-D and 3-D grids, double grids,
// derivative grids and point batches are graph::eval bit for bit; float ones lie within
// value_tolerance(graph) (partials within gradient_tolerance where it is finite); the bits do
// not depend on the thread count nor on how the grid is cut into tiles; a tiling graph's tile
// repeats at its edges.
#include "perlin/graph_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"

namespace {

using perlin::graph;

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
std::uint32_t bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

/// Seeded random graphs over every node kind (the generator of tests/graph_test.cpp, with the
/// field options that the bulk routes take apart: fractals, value noise, warps, periods).
struct maker {
  std::mt19937_64 rng;
  std::vector<perlin::graph_node> nodes;
  std::set<std::string> kinds;
  int next = 0;
  bool smooth_only = false;  // no kinks and no point transforms (for gradient tolerances)

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  std::string num(double lo, double hi) {
    std::ostringstream s;
    s.precision(17);
    s << uniform(lo, hi);
    return s.str();
  }

  std::string field_node() {
    perlin::graph_node n{"n" + std::to_string(next++), "field", {}, {}};
    n.parameters.emplace_back("seed", std::to_string(rng() % 1000));
    const char* fractals[] = {"none", "fbm", "ridged", "billow", "turbulence", "eroded"};
    const int f = smooth_only ? integer(0, 1) : integer(0, 5);
    if (f != 0) {
      n.parameters.emplace_back("fractal", fractals[f]);
      n.parameters.emplace_back("octaves", std::to_string(integer(1, 4)));
    }
    if (integer(0, 1) != 0) n.parameters.emplace_back("frequency", num(0.2, 3));
    if (integer(0, 3) == 0) n.parameters.emplace_back("noise", "value");
    if (!smooth_only && integer(0, 6) == 0) n.parameters.emplace_back("warp", "basic");
    kinds.insert("field");
    nodes.push_back(n);
    return n.id;
  }

  std::vector<std::pair<std::string, std::string>> params(const perlin::node_info& row) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string kind(row.name);
    if (kind == "clamp" || kind == "select") {
      out.emplace_back("lower", num(-0.8, 0));
      out.emplace_back("upper", num(0.05, 0.8));
      if (kind == "select") {
        out.emplace_back("falloff", smooth_only || integer(0, 2) != 0 ? num(0.05, 0.4) : "0");
      }
      return out;
    }
    if (kind == "curve" && smooth_only) {
      out.emplace_back("points", "-1.5:-1,-0.5:-0.2,0.25:0.4,1.5:1");
      return out;
    }
    if (kind == "terrace" && smooth_only) {
      out.emplace_back("points", "-1.2,-0.3,0.4,1.2");
      out.emplace_back("mode", "smooth");
      return out;
    }
    if (kind == "exponent" && smooth_only) {
      out.emplace_back("exponent", integer(0, 1) != 0 ? "1" : num(2, 3));
      return out;
    }
    for (const auto& p : row.parameters) {
      if (integer(0, 4) == 0) continue;  // the default
      switch (p.type) {
        case perlin::node_parameter_type::number:
          out.emplace_back(p.name, p.has_range ? num(p.min + 0.01, p.min + 3) : num(-2, 2));
          break;
        case perlin::node_parameter_type::flag:
          out.emplace_back(p.name, integer(0, 1) != 0 ? "true" : "false");
          break;
        case perlin::node_parameter_type::choice:
          out.emplace_back(p.name, std::string(p.choices[static_cast<std::size_t>(
                                       integer(0, static_cast<int>(p.choices.size()) - 1))]));
          break;
        case perlin::node_parameter_type::number_list: {
          const int count =
              integer(std::max(p.min_count, kind == "terrace" ? 2 : 1), std::min(p.max_count, 6));
          std::string text;
          for (int i = 0; i < count; ++i) text += (i ? "," : "") + num(-1.5, 1.5);
          out.emplace_back(p.name, text);
          break;
        }
        case perlin::node_parameter_type::point_list: {
          const int count = integer(4, 7);
          std::string text;
          for (int i = 0; i < count; ++i)
            text += (i ? "," : "") + num(-1.5, 1.5) + ":" + num(-1, 1);
          out.emplace_back(p.name, text);
          break;
        }
      }
    }
    return out;
  }

  bool allowed(std::string_view kind) const {
    if (!smooth_only) return true;
    static const std::set<std::string_view> smooth = {
        "constant",   "add",      "subtract", "multiply", "smooth-min", "smooth-max", "invert",
        "scale-bias", "exponent", "blend",    "select",   "curve",      "terrace"};
    return smooth.count(kind) != 0;
  }

  std::string make(int depth) {
    if (depth == 0 || integer(0, 5) == 0) {
      if (!nodes.empty() && integer(0, 3) == 0) {
        return nodes[static_cast<std::size_t>(integer(0, static_cast<int>(nodes.size()) - 1))].id;
      }
      return field_node();
    }
    const auto all = perlin::node_kinds();
    const perlin::node_info* row = nullptr;
    do {
      row = &all[static_cast<std::size_t>(integer(1, static_cast<int>(all.size()) - 1))];
    } while (!allowed(row->name));
    const int max_in = row->max_inputs == perlin::k_any_inputs ? 3 : row->max_inputs;
    const int count = integer(row->min_inputs, max_in);
    std::vector<std::string> inputs;
    for (int i = 0; i < count; ++i) inputs.push_back(make(depth - 1));
    perlin::graph_node n{"n" + std::to_string(next++), std::string(row->name), inputs,
                         params(*row)};
    kinds.insert(n.kind);
    nodes.push_back(n);
    return n.id;
  }
};

std::vector<graph> random_graphs(int count, std::uint64_t seed, bool smooth_only,
                                 std::set<std::string>* kinds = nullptr) {
  std::vector<graph> out;
  std::mt19937_64 seeds(seed);
  for (int i = 0; i < count; ++i) {
    maker m{std::mt19937_64(seeds()), {}, {}, 0, smooth_only};
    const std::string output = m.make(3);
    out.emplace_back(m.nodes, output);
    if (kinds != nullptr) kinds->insert(m.kinds.begin(), m.kinds.end());
  }
  return out;
}

/// A 2-D and a 3-D grid with counts that are not multiples of a vector's width.
std::vector<perlin::grid> test_grids() {
  perlin::grid a = perlin::grid::plane(97, 61, 0.173, -3.25, 1.5);  // two chunks
  perlin::grid b = perlin::grid::volume(13, 7, 5, 0.31, 2.0, -4.5, 0.75);
  return {a, b};
}

std::vector<double> point_of(const perlin::grid& g, std::size_t n) {
  std::vector<double> p(g.dims);
  for (std::size_t a = 0; a < g.dims; ++a) {
    p[a] = g.coordinate(a, n % g.count[a]);
    n /= g.count[a];
  }
  return p;
}

TEST(GraphGrid, RandomGraphsCoverEveryNodeKind) {
  std::set<std::string> kinds;
  (void)random_graphs(60, 52, false, &kinds);
  for (const auto& row : perlin::node_kinds()) {
    EXPECT_TRUE(kinds.count(std::string(row.name))) << row.name;
  }
}

TEST(GraphGrid, DoubleGridsAndDerivativeGridsAreEvalBitForBit) {
  int checked = 0;
  for (const graph& gr : random_graphs(60, 52, false)) {
    for (const auto& g : test_grids()) {
      const std::size_t n = g.size();
      std::vector<double> v(n), dv(n), dg(n * g.dims);
      const auto r = perlin::fill_grid(gr, g, std::span<double>(v));
      const auto rd = perlin::fill_grid_deriv(gr, g, std::span<double>(dv), std::span<double>(dg));
      double lo = INFINITY, hi = -INFINITY;
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(g, i);
        std::vector<double> grad(g.dims);
        const double want = gr.eval(std::span<const double>(p), std::span<double>(grad));
        ASSERT_EQ(bits(v[i]), bits(want)) << gr.recipe() << " sample " << i;
        ASSERT_EQ(bits(dv[i]), bits(want)) << gr.recipe() << " sample " << i;
        for (std::size_t a = 0; a < g.dims; ++a) {
          ASSERT_EQ(bits(dg[a * n + i]), bits(grad[a])) << gr.recipe() << " axis " << a;
        }
        lo = std::min(lo, want);
        hi = std::max(hi, want);
        ++checked;
      }
      EXPECT_EQ(r.min, lo);
      EXPECT_EQ(r.max, hi);
      EXPECT_EQ(rd.min, lo);
      EXPECT_EQ(rd.max, hi);
    }
  }
  EXPECT_GT(checked, 300000);
}

TEST(GraphGrid, DoublePointBatchesAreEvalBitForBit) {
  std::mt19937_64 rng(4);
  for (const graph& gr : random_graphs(40, 53, false)) {
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      const std::size_t n = 101;
      std::vector<std::vector<double>> axes(dims, std::vector<double>(n));
      for (auto& a : axes) {
        for (auto& x : a) x = std::uniform_real_distribution<double>(-20, 20)(rng);
      }
      perlin::point_set<double> ps;
      std::span<const double>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
      for (std::size_t a = 0; a < dims; ++a) *spans[a] = axes[a];
      std::vector<double> v(n), dv(n), dg(n * dims);
      perlin::eval_points(gr, ps, std::span<double>(v));
      perlin::eval_points_deriv(gr, ps, std::span<double>(dv), std::span<double>(dg));
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<double> p(dims), grad(dims);
        for (std::size_t a = 0; a < dims; ++a) p[a] = axes[a][i];
        const double want = gr.eval(std::span<const double>(p), std::span<double>(grad));
        ASSERT_EQ(bits(v[i]), bits(want)) << gr.recipe();
        ASSERT_EQ(bits(dv[i]), bits(want)) << gr.recipe();
        for (std::size_t a = 0; a < dims; ++a) ASSERT_EQ(bits(dg[a * n + i]), bits(grad[a]));
      }
    }
  }
}

TEST(GraphGrid, FloatGridsAndBatchesAreWithinTheDerivedTolerance) {
  double worst = 0;
  int finite = 0;
  for (const graph& gr : random_graphs(60, 52, false)) {
    for (const auto& g : test_grids()) {
      const double tol = perlin::value_tolerance(gr, 20);
      if (std::isfinite(tol)) ++finite;
      const std::size_t n = g.size();
      std::vector<float> v(n), dv(n), dg(n * g.dims), pv(n);
      perlin::fill_grid(gr, g, std::span<float>(v));
      perlin::fill_grid_deriv(gr, g, std::span<float>(dv), std::span<float>(dg));
      // The same samples as a point batch of floats (every coordinate here is a float).
      std::vector<std::vector<float>> axes(g.dims, std::vector<float>(n));
      std::vector<perlin::grid> g_float(1, g);
      bool exact_floats = true;
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(g, i);
        for (std::size_t a = 0; a < g.dims; ++a) {
          axes[a][i] = static_cast<float>(p[a]);
          exact_floats = exact_floats && static_cast<double>(axes[a][i]) == p[a];
        }
      }
      perlin::point_set<float> ps;
      std::span<const float>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
      for (std::size_t a = 0; a < g.dims; ++a) *spans[a] = axes[a];
      perlin::eval_points(gr, ps, std::span<float>(pv));
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(g, i);
        const double want = gr.eval(std::span<const double>(p));
        ASSERT_LE(std::fabs(v[i] - want), tol) << gr.recipe() << " sample " << i;
        ASSERT_LE(std::fabs(dv[i] - want), tol) << gr.recipe() << " sample " << i;
        std::vector<double> pf(g.dims);
        for (std::size_t a = 0; a < g.dims; ++a) pf[a] = axes[a][i];
        const double want_f = gr.eval(std::span<const double>(pf));
        ASSERT_LE(std::fabs(pv[i] - want_f), tol) << gr.recipe() << " sample " << i;
        if (tol > 0 && std::isfinite(tol)) worst = std::max(worst, std::fabs(v[i] - want) / tol);
      }
      (void)exact_floats;
    }
  }
  EXPECT_GT(finite, 60);
  RecordProperty("worst_error_over_tolerance", std::to_string(worst));
  std::printf("float grids: largest error / value_tolerance = %.3g\n", worst);
}

TEST(GraphGrid, FloatDerivativeGridsAreWithinTheGradientTolerance) {
  int finite = 0;
  double worst = 0;
  for (const graph& gr : random_graphs(40, 77, true)) {
    const double gtol = perlin::gradient_tolerance(gr, 20);
    const double vtol = perlin::value_tolerance(gr, 20);
    ASSERT_TRUE(std::isfinite(gtol)) << gr.recipe();
    ++finite;
    for (const auto& g : test_grids()) {
      const std::size_t n = g.size();
      std::vector<float> v(n), dg(n * g.dims);
      perlin::fill_grid_deriv(gr, g, std::span<float>(v), std::span<float>(dg));
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(g, i);
        std::vector<double> grad(g.dims);
        const double want = gr.eval(std::span<const double>(p), std::span<double>(grad));
        ASSERT_LE(std::fabs(v[i] - want), vtol) << gr.recipe();
        for (std::size_t a = 0; a < g.dims; ++a) {
          ASSERT_LE(std::fabs(dg[a * n + i] - grad[a]), gtol) << gr.recipe() << " axis " << a;
          if (gtol > 0) worst = std::max(worst, std::fabs(dg[a * n + i] - grad[a]) / gtol);
        }
      }
    }
  }
  EXPECT_EQ(finite, 40);
  std::printf("float derivative grids: largest error / gradient_tolerance = %.3g\n", worst);
}

/// The whole grid, then the same grid cut into two tiles along its last axis (`first`).
template <class T>
void expect_same_bits_for_threads_and_tiles(const graph& gr, const perlin::grid& g) {
  const std::size_t n = g.size();
  std::vector<T> one(n), four(n), tiled(n);
  perlin::bulk_options o1, o4;
  o1.threads = 1;
  o4.threads = 4;
  perlin::fill_grid(gr, g, std::span<T>(one), o1);
  perlin::fill_grid(gr, g, std::span<T>(four), o4);
  const std::size_t last = g.dims - 1;
  const std::size_t cut = g.count[last] / 3;
  const std::size_t row = n / g.count[last];
  perlin::grid a = g, b = g;
  a.count[last] = cut;
  b.count[last] = g.count[last] - cut;
  b.first[last] = static_cast<std::int64_t>(cut);
  perlin::fill_grid(gr, a, std::span<T>(tiled.data(), row * cut), o4);
  perlin::fill_grid(gr, b, std::span<T>(tiled.data() + row * cut, n - row * cut), o1);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(bits(one[i]), bits(four[i])) << gr.recipe() << " sample " << i;
    ASSERT_EQ(bits(one[i]), bits(tiled[i])) << gr.recipe() << " sample " << i;
  }
}

TEST(GraphGrid, TheBitsDoNotDependOnThreadsOrTiles) {
  // Large enough that four threads and several chunks take part.
  const perlin::grid g2 = perlin::grid::plane(211, 317, 0.021, -1.0, 2.0);
  const perlin::grid g3 = perlin::grid::volume(41, 37, 29, 0.05);
  for (const graph& gr : random_graphs(12, 99, false)) {
    expect_same_bits_for_threads_and_tiles<float>(gr, g2);
    expect_same_bits_for_threads_and_tiles<double>(gr, g2);
    expect_same_bits_for_threads_and_tiles<float>(gr, g3);
  }
}

TEST(GraphGrid, AOneFieldGraphIsItsFieldsGridBitForBit) {
  // The graph fills its fields tile by tile (whole rows at a time): the field's own grid, value
  // for value, in float (its SIMD rows) and double.
  const perlin::grid g2 = perlin::grid::plane(173, 301, 0.037, -2.0, 5.0);
  const perlin::grid g3 = perlin::grid::volume(41, 23, 9, 0.11);
  for (const char* recipe : {"perlin=1&fractal=fbm&octaves=5&seed=3", "perlin=1&noise=value",
                             "perlin=1&fractal=ridged&octaves=3&period=8"}) {
    const perlin::field_spec spec = perlin::spec_from_recipe(recipe);
    const perlin::field f = perlin::make_field(spec);
    const graph gr(spec);
    for (const auto& g : {g2, g3}) {
      std::vector<float> a(g.size()), b(g.size());
      std::vector<double> c(g.size()), d(g.size());
      perlin::fill_grid(f, g, std::span<float>(a));
      perlin::fill_grid(gr, g, std::span<float>(b));
      perlin::fill_grid(f, g, std::span<double>(c));
      perlin::fill_grid(gr, g, std::span<double>(d));
      for (std::size_t i = 0; i < g.size(); ++i) {
        ASSERT_EQ(bits(a[i]), bits(b[i])) << recipe << " sample " << i;
        ASSERT_EQ(bits(c[i]), bits(d[i])) << recipe << " sample " << i;
      }
    }
  }
}

TEST(GraphGrid, TilesOfATilingGraphShareTheirEdges) {
  const graph gr = graph::from_text(
      "perlin=2&out=t&a=field&a.period=4&a.fractal=fbm&a.octaves=3&b=field&b.period=4&b.seed=9&"
      "c=field&c.period=4&c.seed=3&c.frequency=1&s=select&s.in=a,b,c&s.falloff=0.2&s.lower=-0.1&"
      "s.upper=0.5&t=terrace&t.in=s&t.points=-1,-0.2,0.3,1&t.mode=smooth");
  ASSERT_EQ(gr.periods(), std::vector<std::int64_t>{4});
  // One period in 64 steps: samples 0 and 64 of each axis lie a period apart.
  for (int tile = 0; tile < 2; ++tile) {
    perlin::grid g = perlin::grid::plane(65, 65, 1.0 / 16);
    g.first = {64 * tile, -64 * tile, 0, 0};
    std::vector<double> v(g.size());
    std::vector<float> f(g.size());
    perlin::fill_grid(gr, g, std::span<double>(v));
    perlin::fill_grid(gr, g, std::span<float>(f));
    for (std::size_t k = 0; k < 65; ++k) {
      EXPECT_EQ(bits(v[k * 65]), bits(v[k * 65 + 64]));  // left and right edges
      EXPECT_EQ(bits(v[k]), bits(v[64 * 65 + k]));       // bottom and top
      EXPECT_EQ(bits(f[k * 65]), bits(f[k * 65 + 64]));
      EXPECT_EQ(bits(f[k]), bits(f[64 * 65 + k]));
    }
  }
}

TEST(GraphGrid, BadSizesAreRefused) {
  const graph gr;
  const perlin::grid g = perlin::grid::plane(4, 4);
  std::vector<float> small(15), grad(31);
  EXPECT_THROW(perlin::fill_grid(gr, g, std::span<float>(small)), perlin::invalid_argument);
  std::vector<float> ok(16);
  EXPECT_THROW(perlin::fill_grid_deriv(gr, g, std::span<float>(ok), std::span<float>(grad)),
               perlin::invalid_argument);
}

}  // namespace
