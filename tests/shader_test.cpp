// The emitted shader text against golden files (tests/data/shaders/, README.md there): the
// text of shader_source, byte for byte, for eight fields (plain, fBm with periods, value noise's
// cosine, the rotated plane ridged, the progressive warp; simplex noise's fBm, eroded fBm and
// warp on the rotated plane) in each language and both precisions.
// The GPU tests (tests/gpu) hold what the text computes; this holds the text itself, so that a
// change to the emitter (src/shader/) that changes one character is seen here, in milliseconds.
// An intended change: run the test with PERLIN_UPDATE_SHADER_GOLDENS=1 to rewrite the files,
// then read their diff.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "perlin/perlin.hpp"

namespace {

struct golden_case {
  const char* file;
  const char* recipe;
  perlin::shader_language language;
  bool double_precision;
  std::size_t dims;
  bool standalone;
};

using lang = perlin::shader_language;
constexpr const char* k_plain = "perlin=1";
constexpr const char* k_fbm_periods =
    "perlin=1&period=12,10&fractal=fbm&octaves=4&decorrelate=true";
constexpr const char* k_value_cosine = "perlin=1&noise=value&interp=cosine&fractal=fbm&octaves=3";
constexpr const char* k_rotated_ridged = "perlin=1&fractal=ridged&octaves=4&plane=rotated";
constexpr const char* k_progressive_warp =
    "perlin=1&fractal=fbm&octaves=3&warp=progressive&warp-octaves=2";
constexpr const char* k_simplex_fbm = "perlin=1&noise=simplex&seed=42&fractal=fbm&octaves=4";
constexpr const char* k_simplex_eroded = "perlin=1&noise=simplex&fractal=eroded&octaves=3";
constexpr const char* k_simplex_warp =
    "perlin=1&noise=simplex&plane=rotated&warp=basic&warp-amplitude=0.5";

// The files' table: README.md there gives each one's `perlin shader` command.
constexpr golden_case k_cases[] = {
    {"plain_glsl.glsl", k_plain, lang::glsl, false, 3, false},
    {"plain_wgsl.wgsl", k_plain, lang::wgsl, false, 3, false},
    {"fbm_periods_glsl_double.glsl", k_fbm_periods, lang::glsl, true, 2, false},
    {"fbm_periods_hlsl.hlsl", k_fbm_periods, lang::hlsl, false, 4, false},
    {"value_cosine_glsl_es.glsl", k_value_cosine, lang::glsl_es, false, 2, true},
    {"value_cosine_wgsl.wgsl", k_value_cosine, lang::wgsl, false, 1, false},
    {"rotated_ridged_glsl_double.glsl", k_rotated_ridged, lang::glsl, true, 2, false},
    {"rotated_ridged_hlsl.hlsl", k_rotated_ridged, lang::hlsl, false, 3, true},
    {"progressive_warp_glsl.glsl", k_progressive_warp, lang::glsl, false, 3, false},
    {"progressive_warp_wgsl.wgsl", k_progressive_warp, lang::wgsl, false, 2, true},
    {"simplex_fbm_glsl_double.glsl", k_simplex_fbm, lang::glsl, true, 2, false},
    {"simplex_fbm_hlsl.hlsl", k_simplex_fbm, lang::hlsl, false, 4, false},
    {"simplex_eroded_wgsl.wgsl", k_simplex_eroded, lang::wgsl, false, 3, false},
    {"simplex_warp_glsl_es.glsl", k_simplex_warp, lang::glsl_es, false, 2, true},
};

std::string golden_path(const golden_case& c) {
  return std::string(PERLIN_TEST_DATA) + "/shaders/" + c.file;
}

std::string emitted(const golden_case& c) {
  perlin::shader_options o;
  o.language = c.language;
  o.double_precision = c.double_precision;
  o.dims = c.dims;
  o.standalone = c.standalone;
  return perlin::shader_source(perlin::spec_from_recipe(c.recipe), o);
}

/// The first line where a and b differ (1-based), with both lines, for the failure message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "same lines (a difference in the last line break)";
    if (!ga || !gb || la != lb) {
      return "line " + std::to_string(n) + ":\n  emitted: " + (ga ? la : "(end)") +
             "\n  golden:  " + (gb ? lb : "(end)");
    }
  }
}

TEST(ShaderGolden, EmittedTextIsTheGoldenFileByteForByte) {
  const bool update = std::getenv("PERLIN_UPDATE_SHADER_GOLDENS") != nullptr;
  for (const golden_case& c : k_cases) {
    SCOPED_TRACE(c.file);
    const std::string text = emitted(c);
    if (update) {
      std::ofstream(golden_path(c), std::ios::binary) << text;
      continue;
    }
    std::ifstream in(golden_path(c), std::ios::binary);
    ASSERT_TRUE(in) << "cannot read " << golden_path(c);
    const std::string golden{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(text.size(), golden.size());
    EXPECT_TRUE(text == golden) << first_difference(text, golden);
  }
}

// The goldens cover what they claim: each field's distinctive functions and tables are there
// (a regenerated golden that lost one would pass the byte comparison above).
TEST(ShaderGolden, EachGoldenHoldsItsFieldsConstructs) {
  const auto has = [](const golden_case& c, const char* what) {
    return emitted(c).find(what) != std::string::npos;
  };
  EXPECT_TRUE(has(k_cases[0], "float perlin_field_split(ivec3 cell, vec3 frac) {"));
  EXPECT_TRUE(has(k_cases[1],
                  "fn perlin_field_deriv(p: vec3<f32>, gradient: ptr<function, "
                  "vec3<f32>>) -> f32 {"));
  EXPECT_TRUE(has(k_cases[2], "const int perlin_period[8] = int[8](12, 10, 24, 20,"));
  EXPECT_TRUE(has(k_cases[2], "double perlin_field(dvec2 p) {"));
  EXPECT_TRUE(has(k_cases[3], "static const int perlin_freq_mod[16] = {1, 1, 0, 0, 2, 2,"));
  EXPECT_TRUE(has(k_cases[4], "perlin_cos_half"));
  EXPECT_TRUE(has(k_cases[4], "#version 300 es\n// recipe: "));
  EXPECT_TRUE(has(k_cases[5], "fn perlin_dcosine(t: f32) -> f32 {"));
  EXPECT_TRUE(has(k_cases[6], "weight = clamp(next, "));
  EXPECT_TRUE(has(k_cases[6],
                  "perlin_field_split is not written for this field: the rotated "
                  "plane mixes the axes."));
  EXPECT_TRUE(has(k_cases[7], "RWStructuredBuffer"));
  EXPECT_TRUE(has(k_cases[8], "moves the point the octaves before it moved."));
  EXPECT_TRUE(has(k_cases[9], "perlin_warp_noise_deriv"));
  // Simplex noise: its own noise function (no fade or lerp), its gradient set, no split form.
  EXPECT_TRUE(
      has(k_cases[10], "// Gustavson's simplex noise (SimplexNoise.java, 2012-03-09), 2-D."));
  EXPECT_FALSE(has(k_cases[10], "perlin_fade"));
  EXPECT_TRUE(has(k_cases[11], "static const int perlin_grad[128] = {"));
  EXPECT_TRUE(has(k_cases[12], "fn perlin_noise_deriv(q: array<f32, 4>"));
  EXPECT_TRUE(has(k_cases[13], "perlin_warp_noise(q, i)"));
}

// JavaScript (the text npm's Field.eval compiles): fBm with periods in 2-D, in double. Its golden
// file is rewritten with the others under PERLIN_UPDATE_SHADER_GOLDENS; what the text computes is
// held by tests/js (bit for bit the module's exact path on improved and value noise fields).
TEST(ShaderGolden, JavaScriptTextIsTheGoldenFileByteForByte) {
  const golden_case c{"fbm_periods_js.js", k_fbm_periods, lang::js, true, 2, false};
  const std::string text = emitted(c);
  if (std::getenv("PERLIN_UPDATE_SHADER_GOLDENS") != nullptr) {
    std::ofstream(golden_path(c), std::ios::binary) << text;
    return;
  }
  std::ifstream in(golden_path(c), std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << golden_path(c);
  const std::string golden{std::istreambuf_iterator<char>(in), {}};
  EXPECT_TRUE(text == golden) << first_difference(text, golden);
  EXPECT_NE(text.find("function perlin_field(p_x, p_y) {"), std::string::npos);
  EXPECT_NE(text.find("function perlin_mod(x, P)"), std::string::npos);
  EXPECT_EQ(text.find("perlin_field_deriv"), std::string::npos);
  // Only the double path, and no program around it.
  perlin::shader_options o;
  o.language = lang::js;
  EXPECT_THROW((void)perlin::shader_source(perlin::spec_from_recipe(k_plain), o),
               perlin::invalid_argument);
  o.double_precision = true;
  o.standalone = true;
  EXPECT_THROW((void)perlin::shader_source(perlin::spec_from_recipe(k_plain), o),
               perlin::invalid_argument);
  EXPECT_EQ(perlin::parse_shader_language("js"), lang::js);
}

}  // namespace
