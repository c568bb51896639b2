// `perlin render --recipe GRAPH` (issue 52 item 7): a graph renders through the pipeline's
// every output (.npy, PNG, 16-bit PNG, normal maps), its values are the graph's (the float grid
// of the same field bit for bit, within value_tolerance of graph::eval's exact doubles), the file
// carries the graph's recipe (perlin recipe --from gives it back and it renders the same bytes),
// JSON reads the same, and flags beside a graph and bad graphs are refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "perlin/perlin.hpp"

namespace {

namespace fs = std::filesystem;
using perlin_test::q;
using perlin_test::run_perlin;
using perlin_test::slurp;
using perlin_test::temp_dir;

// A continent mask selecting between fBm and ridged fields, through a curve.
const std::string k_graph =
    "perlin=2&out=c&a=field&a.seed=3&a.fractal=fbm&a.octaves=4&b=field&b.seed=9&b.fractal=ridged"
    "&b.octaves=3&m=field&m.seed=1&m.frequency=0.25&s=select&s.in=a,b,m&s.falloff=0.2"
    "&c=curve&c.in=s&c.points=-1:-1,-0.2:0.1,0.4:0.3,1:1";
constexpr std::size_t k_w = 40, k_h = 24;
constexpr double k_x = -1.5, k_y = 2.25, k_step = 0.05;
const std::string k_place = " --size 40x24 --step 0.05 --origin -1.5,2.25";

std::string line(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(CliGraphRender, NpyIsTheGraphsGridAndCarriesItsRecipe) {
  const temp_dir d;
  const auto npy = d.path / "g.npy";
  const auto r =
      run_perlin("render --recipe '" + k_graph + "'" + k_place + " --write-recipe -o " + q(npy));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<float> got = perlin_test::npy_values(npy);
  ASSERT_EQ(got.size(), k_w * k_h);

  const perlin::graph g = perlin::graph::from_text(k_graph);
  const perlin::field f = perlin::field_from_text(k_graph);
  ASSERT_NE(f.graph(), nullptr);
  perlin::grid grid;
  grid.dims = 2;
  grid.count = {k_w, k_h, 1, 1};
  grid.origin = {k_x, k_y, 0, 0};
  grid.step = {k_step, k_step, 1, 1};
  // The same route (the float grid of the graph's field): the same bits.
  std::vector<float> want(k_w * k_h);
  (void)perlin::fill_grid(f, grid, std::span<float>(want));
  EXPECT_EQ(0, std::memcmp(got.data(), want.data(), want.size() * sizeof(float)));
  // The exact path: graph::eval at each pixel's point, within the graph's float tolerance.
  const double tol = perlin::value_tolerance(f);
  double worst = 0;
  for (std::size_t j = 0; j < k_h; ++j) {
    for (std::size_t i = 0; i < k_w; ++i) {
      const double exact =
          g(k_x + static_cast<double>(i) * k_step, k_y + static_cast<double>(j) * k_step);
      worst = std::max(worst, std::abs(static_cast<double>(got[j * k_w + i]) - exact));
    }
  }
  EXPECT_LE(worst, tol);

  // The sidecar's recipe is the graph's (canonical), then the render settings; read back, it
  // renders the same bytes.
  const auto from = run_perlin("recipe --from " + q(npy));
  ASSERT_EQ(from.status, 0) << from.err;
  const std::string recipe = line(from.out);
  EXPECT_EQ(recipe.rfind(g.recipe() + "&", 0), 0u) << recipe;
  EXPECT_NE(recipe.find("size=40x24"), std::string::npos) << recipe;
  const auto again = d.path / "again.npy";
  ASSERT_EQ(run_perlin("render --recipe '" + recipe + "' -o " + q(again)).status, 0);
  EXPECT_EQ(slurp(npy), slurp(again));

  // The JSON form renders the same bytes.
  const auto json = d.path / "json.npy";
  const auto rj = run_perlin("render --recipe '" + g.json() + "'" + k_place + " -o " + q(json));
  ASSERT_EQ(rj.status, 0) << rj.err;
  EXPECT_EQ(slurp(npy), slurp(json));
}

TEST(CliGraphRender, PngsAndNormalMapsCarryTheGraphsRecipe) {
  const temp_dir d;
  const std::string canonical = perlin::graph::from_text(k_graph).recipe();
  for (const std::string extra : {"", " --bits 16", " --normals opengl", " --colormap terrain"}) {
    const auto png = d.path / "g.png", png2 = d.path / "g2.png";
    const auto r =
        run_perlin("render --recipe '" + k_graph + "'" + k_place + extra + " -o " + q(png));
    ASSERT_EQ(r.status, 0) << extra << ": " << r.err;
    const auto from = run_perlin("recipe --from " + q(png));
    ASSERT_EQ(from.status, 0) << from.err;
    const std::string recipe = line(from.out);
    EXPECT_EQ(recipe.rfind(canonical + "&", 0), 0u) << extra << ": " << recipe;
    ASSERT_EQ(run_perlin("render --recipe '" + recipe + "' -o " + q(png2)).status, 0) << extra;
    EXPECT_EQ(slurp(png), slurp(png2)) << extra;
  }
}

TEST(CliGraphRender, EveryOutputTakesAGraph) {
  const temp_dir d;
  const std::string canonical = perlin::graph::from_text(k_graph).recipe();
  const std::string r16 = "render -q --recipe '" + k_graph + "' ", g = r16 + "--size 32x16 ";
  // Tiles share their edges (tile (1, 0) starts at the last column of tile (0, 0)).
  ASSERT_EQ(run_perlin(g + "--tiles 2x1 -o " + q(d.path / "t_{x}_{y}.npy")).status, 0);
  const auto t0 = perlin_test::npy_values(d.path / "t_0_0.npy");
  const auto t1 = perlin_test::npy_values(d.path / "t_1_0.npy");
  ASSERT_EQ(t0.size(), 32u * 16u);
  ASSERT_EQ(t1.size(), t0.size());
  for (std::size_t j = 0; j < 16; ++j) EXPECT_EQ(t0[j * 32 + 31], t1[j * 32]) << j;
  // A volume's first slice is the image.
  ASSERT_EQ(run_perlin(g + "-o " + q(d.path / "i.npy")).status, 0);
  ASSERT_EQ(run_perlin(g + "--depth 3 -o " + q(d.path / "v.npy")).status, 0);
  const auto image = perlin_test::npy_values(d.path / "i.npy");
  const auto volume = perlin_test::npy_values(d.path / "v.npy");
  ASSERT_EQ(volume.size(), 3 * image.size());
  EXPECT_EQ(0, std::memcmp(image.data(), volume.data(), image.size() * sizeof(float)));
  // Frames, loops, planets, cube maps, GeoTIFF, OpenEXR, a preset's relief: each renders and the
  // files that carry a recipe carry the graph's.
  for (const std::string& args :
       {"--frames 2 -o " + q(d.path / "f_{frame}.png"),
        "--frames 2 --loop -o " + q(d.path / "l_{frame}.png"),
        "--projection equirect -o " + q(d.path / "e.png"),
        "--projection cubemap --size 16x16 -o " + q(d.path / "c_{face}.png"),
        "--crs EPSG:3857 -o " + q(d.path / "g.tif"), "-o " + q(d.path / "x.exr"),
        "--preset terrain -o " + q(d.path / "r.png")}) {
    const auto r = run_perlin((args.find("cubemap") != std::string::npos ? r16 : g) + args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  }
  for (const char* file : {"f_0000.png", "e.png", "c_px.png", "g.tif", "x.exr", "r.png"}) {
    const auto from = run_perlin("recipe --from " + q(d.path / file));
    ASSERT_EQ(from.status, 0) << file << ": " << from.err;
    EXPECT_EQ(from.out.rfind(canonical + "&", 0), 0u) << file << ": " << from.out;
  }
}

TEST(CliGraphRender, RefusalsNameTheFlagOrTheNode) {
  const temp_dir d;
  const auto out = q(d.path / "x.png");
  auto r = run_perlin("render --recipe '" + k_graph + "' --seed 4 -o " + out);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("seed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a graph's fields take their options in the graph"), std::string::npos)
      << r.err;
  r = run_perlin("render --recipe 'perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a' -o " + out);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("b.in: a cycle: a -> b -> a"), std::string::npos) << r.err;
  r = run_perlin("render --recipe '" + k_graph + "' --tileable -o " + out);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("tileable"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d.path / "x.png"));
  // Every bad graph of bad_graphs.txt, in eval, render and recipe: the library's message.
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/bad_graphs.txt");
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    const std::string recipe = line.substr(0, tab), message = line.substr(tab + 1);
    const auto file = d.path / "bad.recipe";
    std::ofstream(file) << recipe;
    for (const std::string& cmd :
         {std::string("eval"), "render -o " + out, std::string("recipe")}) {
      r = run_perlin(cmd + " --recipe @" + q(file), "0 0\n");
      EXPECT_NE(r.status, 0) << cmd << " " << recipe;
      EXPECT_NE(r.err.find(message), std::string::npos) << cmd << " " << recipe << ": " << r.err;
    }
    ++n;
  }
  EXPECT_GE(n, 15);
  EXPECT_FALSE(fs::exists(d.path / "x.png"));
}

TEST(CliGraphRender, RecipeJsonAndAtFile) {
  const temp_dir d;
  const perlin::graph g = perlin::graph::from_text(k_graph);
  // perlin recipe: the canonical one-line form, --json the library's JSON (graph::json).
  auto r = run_perlin("recipe --recipe '" + k_graph + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, g.recipe() + "\n");
  r = run_perlin("recipe --json --recipe '" + k_graph + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, g.json() + "\n");
  EXPECT_EQ(perlin::graph::from_json(r.out), g);
  // A field's JSON is its one-node graph's.
  r = run_perlin("recipe --json --seed 7 --fractal fbm --octaves 3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(
      perlin::graph::from_text(r.out).recipe(),
      perlin::graph(perlin::spec_from_recipe("perlin=1&seed=7&fractal=fbm&octaves=3")).recipe());
  r = run_perlin("recipe --recipe '" + k_graph + "' --octaves 3");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("a graph's fields take their options in the graph"), std::string::npos)
      << r.err;

  // @FILE reads either written form, in eval, render and recipe.
  const auto text = d.path / "g.recipe", json = d.path / "g.json";
  std::ofstream(text) << k_graph << "\n";
  std::ofstream(json) << g.json() << "\n";
  for (const auto& file : {text, json}) {
    r = run_perlin("recipe --recipe @" + q(file));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, g.recipe() + "\n");
    r = run_perlin("eval --recipe @" + q(file), "0.3 0.2\n-1.25 4.5\n");
    ASSERT_EQ(r.status, 0) << r.err;
    char want[128];
    std::snprintf(want, sizeof want, "%.17g\n%.17g\n", g(0.3, 0.2), g(-1.25, 4.5));
    EXPECT_EQ(r.out, want);
  }
  const auto a = d.path / "a.npy", b = d.path / "b.npy";
  ASSERT_EQ(run_perlin("render --recipe @" + q(json) + k_place + " -o " + q(a)).status, 0);
  ASSERT_EQ(run_perlin("render --recipe '" + k_graph + "'" + k_place + " -o " + q(b)).status, 0);
  EXPECT_EQ(slurp(a), slurp(b));
  r = run_perlin("eval --recipe @" + q(d.path / "missing"), "0 0\n");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
}

}  // namespace
