// `perlin options`, `perlin recipe` and --recipe: the table as the CLI prints it, docs/options.md
// kept current, every option a flag of eval and render, and recipes through the command line
// bit for bit (the golden file) and against the options themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

TEST(CliOptions, TheRenderSettingsAreTypedRowsThatDocsRenderMdLists) {
  // One typed row per setting, its default read from render_options' initialiser (written once).
  const auto r = run_perlin("options --render --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* row :
       {"| `size` | size | 512x512 | WxH, 1 to 2147483647 each |",
        "| `fps` | integer | 24 | 1 to 1000 |", "| `bits` | integer | 8 | 8 or 16 |",
        "| `projection` | choice | plane | one of: equirect, cubemap, plane |",
        "| `invert` | flag | false |"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  // The names recipes carry (perlin::recipe_render_settings) are the rows', in their order.
  std::vector<std::string> rows;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) == 0) rows.push_back(line.substr(3, line.find('`', 3) - 3));
  }
  const auto names = perlin::recipe_render_settings();
  EXPECT_EQ(rows, std::vector<std::string>(names.begin(), names.end()));
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/../../docs/render.md");
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_NE(doc.str().find(r.out), std::string::npos)
      << "docs/render.md's settings list is stale: paste perlin options --render --markdown";
  const auto help = run_perlin("render --help");
  EXPECT_NE(help.out.find("pixels (default 512x512)"), std::string::npos) << help.out;
  // Parsed once, when set, by the row: the same refusal whatever else the command holds.
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--bits 12", "--bits: must be 8 or 16"},
           {"--fps 0 --frames 2 --animated", "--fps: must be 1 to 1000, got 0"},
           {"--tiles 3", "--tiles: '3' is not CxR"},
           {"--range 1,0", "--range: MIN must be below MAX"},
           {"--projection globe", "--projection: unknown value 'globe'"}}) {
    const auto bad = run_perlin("render -o x.png " + args);
    EXPECT_EQ(bad.status, 2) << args;
    EXPECT_NE(bad.err.find(message), std::string::npos) << args << ": " << bad.err;
  }
}

TEST(CliOptions, TheOutputFormatsAreRowsThatDocsRenderMdAndTheHelpList) {
  // One row per format (src/render/formats.cpp): docs/render.md's table, render --help's lists
  // and the refusals that list the formats are read from the rows.
  const auto r = run_perlin("options --formats --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* row : {"| `png` | `.png` |", "| `npy` | `.npy` |", "| `raw` | `.r16`, `.raw` |",
                          "| `tiff` | `.tif`, `.tiff` |", "| `exr` | `.exr` |"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/../../docs/render.md");
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_NE(doc.str().find(r.out), std::string::npos)
      << "docs/render.md's format table is stale: paste perlin options --formats --markdown";
  const auto help = run_perlin("render --help");
  for (const char* text :
       {"png, npy, raw, tiff or exr (default: from the extension",
        ".r16/.raw (16-bit RAW), .tif/.tiff (float32)", "PNG, .npy, 16-bit RAW, TIFF or OpenEXR"}) {
    EXPECT_NE(help.out.find(text), std::string::npos) << text << "\n" << help.out;
  }
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"-o x.jpg", "(valid: .png, .npy, .r16 or .raw, .tif or .tiff, .exr)"},
           {"-o x.png --format gif", "valid: png, npy, raw, tiff, exr"},
           {"-o x.png --depth 2", "a volume is written as .npy or .tif (pages)"},
           {"-o x.npy --normals opengl",
            "a normal map is written as PNG (RGB, --bits 8 or 16) or EXR (float RGB)"},
           {"-o x.tif --depth 70000", "--depth: a TIFF holds at most 65535 pages"}}) {
    const auto bad = run_perlin("render " + args);
    EXPECT_EQ(bad.status, 2) << args;
    EXPECT_NE(bad.err.find(message), std::string::npos) << args << ": " << bad.err;
  }
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
      {"--frequency 1e-400", "frequency: '1e-400' is too close to 0 for a double"},
      {"--lacunarity 0.0001e-320", "lacunarity: '0.0001e-320' is too close to 0"},
      {"--frequency 1e400", "frequency: must be finite, got '1e400'"},
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

TEST(CliOptions, MisspeltFlagsAndChoicesSuggestTheNearestName) {
  perlin_test::temp_dir d;
  const std::string out = "render -q -o " + q((d.path / "x.png").string());
  const struct {
    std::string args, message;
  } cases[] = {
      {"eval --octave 5",
       "perlin: error: unknown option '--octave' (did you mean '--octaves'?)\n"
       "Run 'perlin eval --help' for usage.\n"},
      {out + " --sise 8x8 --octaves=3",
       "perlin: error: unknown option '--sise' (did you mean '--size'?)\n"
       "Run 'perlin render --help' for usage.\n"},
      {out + " --preset cloud",
       "perlin: error: --preset: unknown 'cloud' (did you mean 'clouds'? valid: plain, clouds, "
       "marble, wood, terrain, ridges, warped)\n"},
      {"eval --fractal fmb",
       "perlin: error: fractal: unknown value 'fmb' (did you mean 'fbm'? valid: none, fbm, "
       "turbulence, ridged, billow, eroded)\n"},
      {out + " --colormap gry",
       "perlin: error: --colormap: unknown 'gry' (did you mean 'grey'? valid: grey, clouds, "
       "marble, wood, terrain, heat, flow, or stops T:#RRGGBB,...)\n"},
      {out + " --projection equi",
       "perlin: error: --projection: unknown value 'equi' (did you mean 'equirect'? valid: "
       "equirect, cubemap, plane)\n"},
      {out + " --format pgn",
       "perlin: error: --format: unknown value 'pgn' (did you mean 'png'? valid: png, npy, raw, "
       "tiff, exr)\n"},
  };
  for (const auto& c : cases) {
    const auto r = run_perlin(c.args, "1\n");
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_EQ(r.err, c.message) << c.args;
  }
}

TEST(CliOptions, AFieldReaderTakesARendersRecipeAndSaysWhichSettingsItDidNotUse) {
  // The page's recipe (field and render settings) read by eval: the field part, the same bits as
  // the field-only recipe, and a warning naming the settings left out.
  const std::string field = "perlin=1&seed=42&fractal=fbm&octaves=5&frequency=0.5";
  const std::string page = field + "&preset=clouds&size=64x48&step=0.015625&colormap=heat";
  const auto a = run_perlin("eval --recipe " + q(page), "0.3 0.7\n1.25 -2.5 3\n");
  const auto b = run_perlin("eval --recipe " + q(field), "0.3 0.7\n1.25 -2.5 3\n");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(b.err, "");
  EXPECT_EQ(a.err,
            "perlin: warning: recipe: preset, size, step, colormap are render settings, not part "
            "of the field (perlin render --recipe and perlin.render(recipe=...) use them)\n");
  // The same in the library: the skipped pairs, in order, and the same spec.
  std::vector<std::pair<std::string, std::string>> skipped;
  EXPECT_EQ(perlin::spec_from_recipe(page, &skipped), perlin::spec_from_recipe(field));
  ASSERT_EQ(skipped.size(), 4u);
  EXPECT_EQ(skipped[1], (std::pair<std::string, std::string>{"size", "64x48"}));
  // `perlin recipe` and `perlin shader` read it too; a name that is neither is still an error,
  // with the nearest of both vocabularies.
  const auto rec = run_perlin("recipe --recipe " + q(page));
  EXPECT_EQ(rec.out, field + "\n");
  const auto typo = run_perlin("eval --recipe " + q(field + "&stpe=0.5"), "1\n");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("unknown option 'stpe' (did you mean 'step'?)"), std::string::npos)
      << typo.err;
  // Every render setting is a name recipes carry (one vocabulary; the render reads them all).
  const auto names = perlin::recipe_render_settings();
  EXPECT_EQ(std::vector<std::string_view>(names.begin(), names.end()).size(), 28u);
}

TEST(CliOptions, ALongRecipeFailsAtItsFirstUnknownName) {
  // 64 KB of distinct pairs: read once (one lookup a pair; the duplicate check was a scan of the
  // pairs before, quadratic), then refused at the first name that is not an option.
  std::string recipe = "perlin=1";
  for (int i = 0; recipe.size() < 65000; ++i) recipe += "&n" + std::to_string(i) + "=1";
  try {
    (void)perlin::spec_from_recipe(recipe);
    FAIL() << "accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option 'n0'"), std::string::npos) << e.what();
  }
  // A name given twice is still found, through an alias or "_" for "-" too.
  for (const char* twice : {"perlin=1&octaves=2&n=1&octaves=3", "perlin=1&persistence=0.5&gain=1",
                            "perlin=1&ridged-gain=2&ridged_gain=2"}) {
    try {
      (void)perlin::spec_from_recipe(twice);
      FAIL() << twice;
    } catch (const perlin::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("is given twice"), std::string::npos) << e.what();
    }
  }
}

TEST(CliOptions, EveryOutputCarriesItsRecipeAndEvalGivesItsValues) {
  perlin_test::temp_dir d;
  const auto path = [&](const char* name) { return q((d.path / name).string()); };
  const std::string options = " --seed 5 --fractal fbm --octaves 6 --size 8x6";
  // The default preset (plain) samples the rotated plane: its field is not eval's with the same
  // options, and the file says which field it is.
  for (const char* name : {"a.png", "a.tif", "a.exr"}) {
    const auto r = run_perlin("render -q -o " + path(name) + options);
    ASSERT_EQ(r.status, 0) << name << r.err;
    const auto from = run_perlin("recipe --from " + path(name));
    EXPECT_EQ(from.status, 0) << name << from.err;
    EXPECT_EQ(from.out, "perlin=1&seed=5&fractal=fbm&octaves=6&plane=rotated&size=8x6\n") << name;
  }
  // A .npy has no room for text: --write-recipe puts it beside it; without it, the error says so.
  const auto bare = run_perlin("render -q -o " + path("b.npy") + options);
  ASSERT_EQ(bare.status, 0) << bare.err;
  const auto none = run_perlin("recipe --from " + path("b.npy"));
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.err.find("carries no recipe"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("--write-recipe, which writes b.npy.recipe beside it"), std::string::npos)
      << none.err;
  const auto v = run_perlin("render -q -v --write-recipe -o " + path("a.npy") + options);
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.err,
            "perlin: recipe: perlin=1&seed=5&fractal=fbm&octaves=6&plane=rotated&size=8x6\n");
  const auto recipe = run_perlin("recipe --from " + path("a.npy"));
  ASSERT_EQ(recipe.status, 0) << recipe.err;
  EXPECT_EQ(perlin_test::slurp(d.path / "a.npy.recipe"), recipe.out);
  // The carried recipe through eval gives the render's values (its float path, within the
  // field's tolerance), at each pixel's point origin + (i, j) * step (the plain preset's 1/64);
  // eval's own default field (the aligned plane) does not.
  const std::vector<float> values = perlin_test::npy_values(d.path / "a.npy");
  ASSERT_EQ(values.size(), 48u);
  std::string points;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 8; ++i)
      points += std::to_string(i / 64.0) + " " + std::to_string(j / 64.0) + "\n";
  std::string field = recipe.out.substr(0, recipe.out.size() - 1);
  const auto same = run_perlin("eval --recipe " + q(field), points);
  ASSERT_EQ(same.status, 0) << same.err;
  EXPECT_NE(same.err.find("recipe: size is a render setting"), std::string::npos) << same.err;
  const auto plain =
      run_perlin("eval" + std::string(" --seed 5 --fractal fbm --octaves 6"), points);
  std::istringstream a(same.out), b(plain.out);
  const double tolerance =
      perlin::value_tolerance(perlin::make_field(perlin::spec_from_recipe(field))) + 1e-7;
  double most_off_plane = 0;
  for (const float f : values) {
    double x = 0, y = 0;
    ASSERT_TRUE(a >> x && b >> y);
    EXPECT_NEAR(x, f, tolerance);
    most_off_plane = std::max(most_off_plane, std::abs(y - f));
  }
  EXPECT_GT(most_off_plane, 0.05);
  // `perlin recipe --preset P` prints the field the render samples.
  const auto preset = run_perlin("recipe --preset plain --seed 5 --fractal fbm --octaves 6");
  EXPECT_EQ(preset.out, "perlin=1&seed=5&fractal=fbm&octaves=6&plane=rotated\n");
}
