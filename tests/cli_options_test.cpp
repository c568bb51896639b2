// `perlin options`, `perlin recipe` and --recipe: the table as the CLI prints it, docs/options.md
// kept current, every option a flag of eval and render, and recipes through the command line
// bit for bit (the golden file) and against the options themselves.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "cli_support.hpp"
#include "perlin/perlin.hpp"
#include "recipe_cases.hpp"

using perlin_test::run_perlin;

namespace {

std::string q(const std::string& s) { return "'" + s + "'"; }

/// A spec's options as command-line flags (a flag is --NAME or --no-NAME).
std::string flags_of(const perlin::field_spec& spec) {
  std::string out;
  const perlin::field_spec defaults;
  for (const auto& row : perlin::field_options()) {
    const std::string v = row.get(spec);
    if (v == row.get(defaults)) continue;
    if (row.type == perlin::option_type::flag) {
      out += v == "true" ? " --" + std::string(row.name) : " --no-" + std::string(row.name);
    } else {
      out += " --" + std::string(row.name) + " " + q(v);
    }
  }
  return out;
}

}  // namespace

TEST(CliOptions, TheDocIsGeneratedFromTheTable) {
  const auto r = run_perlin("options --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/../../docs/options.md");
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), r.out)
      << "docs/options.md is stale: run perlin options --markdown > docs/options.md";
}

TEST(CliOptions, EveryOptionIsAFlagOfEvalAndRenderWithTheTablesDefault) {
  const auto json = run_perlin("options --json");
  ASSERT_EQ(json.status, 0);
  EXPECT_EQ(json.out, perlin::options_json());
  const auto eval_help = run_perlin("eval --help"), render_help = run_perlin("render --help");
  for (const auto& row : perlin::field_options()) {
    const std::string flag = "--" + std::string(row.name);
    EXPECT_NE(eval_help.out.find(flag), std::string::npos) << flag;
    EXPECT_NE(render_help.out.find(flag), std::string::npos) << flag;
    if (!row.default_text().empty() && row.type != perlin::option_type::flag) {
      EXPECT_NE(eval_help.out.find("(default " + row.default_text() + ")"), std::string::npos)
          << flag;
    }
  }
}

TEST(CliOptions, RecipesThroughTheCommandLineGiveTheGoldenBits) {
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/recipes.txt");
  std::string line;
  std::size_t checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto c = recipe_cases::parse_line(line);
    std::string point;
    for (const double x : c.point) point += recipe_cases::number_text(x) + " ";
    const auto r = run_perlin("eval --recipe " + q(c.recipe), point + "\n");
    ASSERT_EQ(r.status, 0) << c.recipe << ": " << r.err;
    double got = 0;
    std::sscanf(r.out.c_str(), "%lf", &got);
    EXPECT_EQ(std::memcmp(&got, &c.value, sizeof got), 0) << c.recipe << ": " << r.out;
    // The options themselves give the same bits, and `perlin recipe` the same text.
    const perlin::field_spec spec = perlin::spec_from_recipe(c.recipe);
    const auto o = run_perlin("eval" + flags_of(spec), point + "\n");
    EXPECT_EQ(o.out, r.out) << flags_of(spec);
    if (checked % 4 == 0) {
      const auto rec = run_perlin("recipe" + flags_of(spec));
      EXPECT_EQ(rec.out, c.recipe + "\n") << rec.err;
    }
    ++checked;
  }
  EXPECT_GE(checked, 120u);
}

TEST(CliOptions, OptionsBesideARecipeOverrideItAndSaySo) {
  const auto r = run_perlin("recipe --recipe 'perlin=1&fractal=fbm&octaves=8' --octaves 3");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "perlin=1&fractal=fbm&octaves=3\n");
  EXPECT_NE(r.err.find("--octaves overrides the recipe's octaves=8"), std::string::npos) << r.err;
  const auto bad = run_perlin("eval --recipe 'perlin=1&octave=3'", "1\n");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("unknown option 'octave' (did you mean 'octaves'?)"), std::string::npos)
      << bad.err;
  // A preset's flag switched off equals the recipe of that field: a recipe names the whole field
  // (its field part replaces the preset's field options; the preset gives the colormap).
  perlin_test::temp_dir d;
  const auto a = run_perlin("render -q -o " + q((d.path / "a.npy").string()) +
                            " --preset clouds --size 40x30 --no-normalize --seed 5 --step 0.03");
  ASSERT_EQ(a.status, 0) << a.err;
  const auto b = run_perlin("render -q -o " + q((d.path / "b.npy").string()) +
                            " --recipe "
                            "'perlin=1&seed=5&fractal=fbm&octaves=6&decorrelate=true&preset=clouds&"
                            "size=40x30&step=0.03'");
  ASSERT_EQ(b.status, 0) << b.err;
  const auto c = run_perlin("render -q -o " + q((d.path / "c.npy").string()) +
                            " --preset clouds --size 40x30 --seed 5 --step 0.03");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto bytes = [&](const char* name) { return perlin_test::slurp(d.path / name); };
  EXPECT_EQ(bytes("a.npy"), bytes("b.npy"));
  EXPECT_NE(bytes("a.npy"), bytes("c.npy"));  // the preset normalises
}

TEST(CliOptions, RefusalsAreTheSameInEveryCommand) {
  // What eval refuses, render and recipe refuse with the same message.
  const char* cases[][2] = {
      {"--octaves 0", "octaves: must be 1 to 32, got 0"},
      {"--seed +-1", "seed: '+-1' is not an integer"},
      {"--frequency 0x10", "frequency: '0x10' is not a number"},
      {"--period 16,0", "period: must be 1 to 2147483647, got 0"},
      {"--ridged-gain 17", "ridged-gain: must be 0 to 16, got 17"},
      {"--warp swirl", "warp: unknown value 'swirl'"},
  };
  perlin_test::temp_dir d;
  for (const auto& c : cases) {
    for (const std::string& cmd : {std::string("eval"), std::string("recipe"),
                                   "render -q -o " + q((d.path / "x.png").string())}) {
      const auto r = run_perlin(cmd + " " + c[0], "1\n");
      EXPECT_EQ(r.status, 2) << cmd << " " << c[0];
      EXPECT_NE(r.err.find(c[1]), std::string::npos) << cmd << " " << c[0] << ": " << r.err;
    }
  }
}

TEST(CliOptions, OverflowingCoordinatesAreRefusedByOneRuleInEveryCommand) {
  // |x| <= 2^52 for every sample, and no octave may take such a coordinate beyond the largest
  // double: refused with a usage error (exit 2), never a file or a line of NaN.
  perlin_test::temp_dir d;
  const std::string out = " -q -o " + q((d.path / "x.png").string());
  const char* cases[][2] = {
      {"render --step 1e308 --size 8x8", "beyond 2^52"},
      {"render --scale 1e-308 --size 8x8", "beyond 2^52"},
      {"render --origin 1e300,0 --size 8x8", "beyond 2^52"},
      {"render --size 8x8 --frames 3 --loop --loop-radius 1e300", "beyond 2^52"},
      {"render --size 8x8 --frequency 1e300", "frequency: octave 0 would sample"},
      {"render --size 8x8 --fractal fbm --octaves 32 --frequency 1e291", "lacunarity: octave"},
      {"render --size 8x8 --warp progressive --warp-amplitude 1e300 --warp-octaves 32",
       "warp-amplitude"},
      {"eval --frequency 1e300", "frequency: octave 0 would sample"},
      {"eval --warp progressive --warp-amplitude 1e300 --warp-octaves 32", "warp-amplitude"},
  };
  for (const auto& c : cases) {
    std::string cmd = c[0];
    if (cmd.rfind("render", 0) == 0) cmd.insert(6, out);
    const auto r = run_perlin(cmd, "1 2\n");
    EXPECT_EQ(r.status, 2) << cmd << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(c[1]), std::string::npos) << cmd << ": " << r.err;
    EXPECT_EQ(r.out.find("nan"), std::string::npos) << cmd;
  }
  EXPECT_EQ(perlin_test::count_files(d.path), 0u);
  // The largest accepted settings still give finite values.
  const auto ok = run_perlin("eval --fractal fbm --octaves 32 --frequency 1e280",
                             "4503599627370496 -4503599627370496\n");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out.find("nan"), std::string::npos) << ok.out;
}

TEST(CliOptions, TheMemoryLimitCountsEveryCopy) {
  // 23200^2 samples: 2.1 GB of values, 1.1 GB of 16-bit pixels and as much PNG exceed 4 GiB
  // together (the values alone did not), refused before anything is allocated.
  perlin_test::temp_dir d;
  const auto png =
      run_perlin("render -q --bits 16 --size 23200x23200 -o " + q((d.path / "big.png").string()));
  EXPECT_EQ(png.status, 2);
  EXPECT_NE(png.err.find("over the limit of 4294967296 bytes"), std::string::npos) << png.err;
  // A .npy, RAW or TIFF is written band by band: only a band must fit, so one row of 2^31 - 1
  // samples (17 GB with its copies) is refused, and a tall map is not.
  const auto row =
      run_perlin("render -q --size 2147483647x2 -o " + q((d.path / "row.npy").string()));
  EXPECT_EQ(row.status, 2);
  EXPECT_NE(row.err.find("for one band of rows, over the limit"), std::string::npos) << row.err;
  const auto exr = run_perlin("render -q --size 12000x12000 --colormap heat -o " +
                              q((d.path / "big.exr").string()));
  EXPECT_EQ(exr.status, 2);
  EXPECT_EQ(perlin_test::count_files(d.path), 0u);
}
