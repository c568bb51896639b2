// A graph is a field (field::of_graph, field_from_text in graph.hpp): every field call evaluates
// the graph. Checked against the compatibility file tests/data/graphs.txt (each graph's value and
// gradient as bit patterns, written when the graphs were made) and against the graph's own calls.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"
#include "perlin/shader.hpp"

namespace {

struct graph_case {
  std::string recipe;
  std::vector<double> point;
  double value = 0;
  std::vector<double> gradient;
};

/// The lines of tests/data/graphs.txt: recipe, point, value, gradient, then the bit patterns of
/// the point, the value and the gradient (tab-separated fields).
std::vector<graph_case> read_graphs() {
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/graphs.txt");
  std::vector<graph_case> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) fields.push_back(f);
    if (fields.size() < 5) continue;
    graph_case c;
    c.recipe = fields[0];
    std::stringstream pt(fields[1]);
    for (double v; pt >> v;) c.point.push_back(v);
    std::stringstream bits(fields[4]);
    std::vector<double> all;
    for (std::string h; bits >> h;)
      all.push_back(std::bit_cast<double>(static_cast<std::uint64_t>(std::stoull(h, nullptr, 16))));
    const std::size_t d = c.point.size();
    if (all.size() != 2 * d + 1) continue;
    for (std::size_t k = 0; k < d; ++k) c.point[k] = all[k];
    c.value = all[d];
    c.gradient.assign(all.begin() + static_cast<std::ptrdiff_t>(d + 1), all.end());
    out.push_back(c);
  }
  return out;
}

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

TEST(GraphField, EveryGraphOfTheCompatibilityFileIsAFieldWithItsBits) {
  const auto cases = read_graphs();
  ASSERT_GE(cases.size(), 30u);
  for (const auto& c : cases) {
    const perlin::field f = perlin::field_from_text(c.recipe);
    const std::size_t d = c.point.size();
    std::vector<double> g(d);
    const double v = f.eval(std::span<const double>(c.point), std::span<double>(g));
    EXPECT_TRUE(same_bits(v, c.value)) << c.recipe << ": " << v << " want " << c.value;
    for (std::size_t k = 0; k < d; ++k)
      EXPECT_TRUE(same_bits(g[k], c.gradient[k])) << c.recipe << " d/dx" << k;
    EXPECT_TRUE(same_bits(f.eval(std::span<const double>(c.point)), c.value)) << c.recipe;
  }
}

TEST(GraphField, AVersionOneRecipeAndAOneFieldGraphAreThatField) {
  const std::string v1 = "perlin=1&fractal=fbm&octaves=5&seed=7";
  perlin::field_spec spec;
  const perlin::field f = perlin::field_from_text(v1, &spec);
  EXPECT_EQ(f.graph(), nullptr);  // the field's own routes
  EXPECT_EQ(spec, perlin::spec_from_recipe(v1));
  const perlin::field one = perlin::field_from_text(perlin::graph(spec).recipe(), &spec);
  EXPECT_EQ(one.graph(), nullptr);
  const double p[3] = {0.3, -1.7, 2.25};
  EXPECT_TRUE(
      same_bits(one.eval(std::span<const double>(p)),
                perlin::make_field(perlin::spec_from_recipe(v1)).eval(std::span<const double>(p))));
}

const char* const k_terrain =
    "perlin=2&out=t&c=field&c.seed=1&c.frequency=0.25&m=field&m.seed=2&m.fractal=ridged&"
    "m.octaves=5&h=field&h.seed=3&h.fractal=fbm&h.octaves=4&s=select&s.in=h,m,c&s.lower=0&"
    "s.upper=2&s.falloff=0.2&t=terrace&t.in=s&t.points=-1,-0.25,0.25,1";

TEST(GraphField, BulkCallsOfTheFieldAreTheGraphs) {
  const perlin::graph gr = perlin::graph::from_text(k_terrain);
  const perlin::field f = perlin::field_from_text(k_terrain);
  ASSERT_NE(f.graph(), nullptr);
  perlin::grid g;
  g.dims = 2;
  g.count = {37, 11, 1, 1};
  g.origin = {-3.25, 1.5, 0, 0};
  g.step = {0.13, 0.29, 1, 1};
  std::vector<double> a(g.size()), b(g.size());
  (void)perlin::fill_grid(f, g, std::span<double>(a));
  (void)perlin::fill_grid(gr, g, std::span<double>(b));
  std::vector<float> fl(g.size());
  (void)perlin::fill_grid(f, g, std::span<float>(fl));
  const double tol = perlin::value_tolerance(f);
  EXPECT_EQ(tol, perlin::value_tolerance(gr));
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double p[2] = {g.coordinate(0, i % 37), g.coordinate(1, i / 37)};
    ASSERT_TRUE(same_bits(a[i], b[i])) << i;
    ASSERT_TRUE(same_bits(a[i], gr.eval(std::span<const double>(p)))) << i;
    ASSERT_LE(std::fabs(double(fl[i]) - a[i]), tol) << i;
  }
}

TEST(GraphField, RangeHoldsTheValuesAndShadersAreRefusedWithTheReason) {
  const perlin::field f = perlin::field_from_text(k_terrain);
  const auto [lo, hi] = f.range(2);
  EXPECT_TRUE(std::isfinite(lo) && std::isfinite(hi) && lo < hi);
  for (int i = 0; i < 4000; ++i) {
    const double p[2] = {i * 0.731 - 1000, i * -0.377 + 55};
    const double v = f.eval(std::span<const double>(p));
    ASSERT_GE(v, lo);
    ASSERT_LE(v, hi);
  }
  const auto [tlo, thi] = f.typical_range(2);
  EXPECT_GE(tlo, lo);
  EXPECT_LE(thi, hi);
  try {
    (void)perlin::shader_source(f, {});
    FAIL() << "a graph's shader was emitted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("graph"), std::string::npos) << e.what();
  }
}

}  // namespace
