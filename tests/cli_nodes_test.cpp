// `perlin nodes` (the node table of graphs) and graphs through `perlin eval --recipe`:
// docs/nodes.md kept current, the JSON listing, and a graph's values and gradients through the
// command line bit for bit in both written forms.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/graph.hpp"

using perlin_test::run_perlin;

namespace {

std::string g17(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  return std::string(buf, r.ptr);
}

}  // namespace

TEST(CliNodes, TheDocIsGeneratedFromTheTable) {
  const auto r = run_perlin("nodes --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/../../docs/nodes.md");
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), r.out)
      << "docs/nodes.md is stale: run perlin nodes --markdown > docs/nodes.md";
}

TEST(CliNodes, ListsEveryKindAsTextAndJson) {
  const auto text = run_perlin("nodes");
  const auto json = run_perlin("nodes --json");
  ASSERT_EQ(text.status, 0) << text.err;
  ASSERT_EQ(json.status, 0) << json.err;
  for (const auto& row : perlin::node_kinds()) {
    EXPECT_NE(text.out.find(std::string(row.name) + " "), std::string::npos) << row.name;
    EXPECT_NE(json.out.find("{\"name\": \"" + std::string(row.name) + "\", \"inputs\": "),
              std::string::npos)
        << row.name;
  }
  EXPECT_EQ(json.out, perlin::nodes_json());
  EXPECT_NE(run_perlin("nodes --json --markdown").status, 0);
}

TEST(CliNodes, EvalReadsGraphsInBothFormsToTheLibrarysBits) {
  const perlin::graph g = perlin::graph::from_text(
      "perlin=2&out=s&a=field&a.fractal=ridged&a.octaves=4&b=field&b.seed=7&b.fractal=fbm&c="
      "field&c.seed=9&c.frequency=0.25&s=select&s.in=a,d,c&s.lower=-0.2&s.upper=0.3&s.falloff="
      "0.1&d=curve&d.in=b&d.points=-1:-1,0:0.4,1:1");
  const std::vector<std::vector<double>> points = {
      {0.3}, {1.25, -7.5}, {3.1, 4.2, -5.3}, {0.5, 0.25, 8.125, -2}};
  std::string input, expected;
  for (const auto& p : points) {
    std::vector<double> grad(p.size());
    const double v = g.eval(std::span<const double>(p), std::span<double>(grad));
    for (std::size_t k = 0; k < p.size(); ++k) input += (k ? " " : "") + g17(p[k]);
    input += "\n";
    expected += g17(v);
    for (const double d : grad) expected += " " + g17(d);
    expected += "\n";
  }
  for (const std::string& form : {g.recipe(), g.json()}) {
    const auto r = run_perlin("eval --derivatives --recipe " + perlin_test::q(form), input);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, expected) << form;
  }
  // Field flags do not apply to a graph; a bad graph is a usage error naming its node.
  const auto flags = run_perlin("eval --octaves 3 --recipe " + perlin_test::q(g.recipe()), "1\n");
  EXPECT_EQ(flags.status, 2);
  EXPECT_NE(flags.err.find("--octaves: a graph's fields take their options in the graph"),
            std::string::npos)
      << flags.err;
  const auto bad =
      run_perlin("eval --recipe 'perlin=2&out=a&a=abs&a.in=b&b=field&b.octaves=0'", "1\n");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("b.octaves: must be 1 to 32, got 0"), std::string::npos) << bad.err;
}
