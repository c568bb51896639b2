// `perlin eval` end to end: reference values, options, and every kind of bad input.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_support.hpp"
#include "perlin/perlin.hpp"

namespace {

using perlin_test::run_perlin;
using perlin_test::temp_dir;

std::string fmt17(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

TEST(CliEval, TutorialValue) {
  const auto r = run_perlin("eval", "3.14 42 7\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "0.13691995878400012\n");
}

TEST(CliEval, ReproducesEveryReferenceValue) {
  std::ifstream data(std::string(PERLIN_TEST_DATA) + "/improved_noise_3d.txt");
  std::string input, expected, line;
  while (std::getline(data, line)) {
    std::istringstream s(line);
    std::string x, y, z, v;
    s >> x >> y >> z >> v;
    input += x + " " + y + " " + z + "\n";
    expected += fmt17(std::stod(v)) + "\n";
  }
  const auto r = run_perlin("eval --dims 3", input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, expected);
}

// `perlin eval --noise simplex` prints Gustavson's SimplexNoise.noise values bit for bit:
// tests/data/simplex_gustavson_{2,3,4}d.txt, the points as their decimals (each the exact
// double), the values from their hex bits, printed with 17 significant digits.
TEST(CliEval, SimplexGivesGustavsonsGoldenValues) {
  for (int dims = 2; dims <= 4; ++dims) {
    std::ifstream data(std::string(PERLIN_TEST_DATA) + "/simplex_gustavson_" +
                       std::to_string(dims) + "d.txt");
    std::string input, expected, line;
    int rows = 0;
    while (std::getline(data, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream decimals(line.substr(0, line.find('\t')));
      std::istringstream hex(line.substr(line.find('\t') + 1));
      std::string x, h;
      for (int k = 0; k < dims; ++k) {
        decimals >> x;
        input += (k ? " " : "") + x;
      }
      input += "\n";
      for (int k = 0; k <= dims; ++k) hex >> h;
      double v;
      const std::uint64_t b = std::stoull(h, nullptr, 16);
      std::memcpy(&v, &b, sizeof v);
      expected += fmt17(v) + "\n";
      ++rows;
    }
    ASSERT_EQ(rows, 2000);
    const auto r = run_perlin("eval --noise simplex --dims " + std::to_string(dims), input);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, expected) << dims << "-D";
  }
  // What it refuses, and why.
  const auto one = run_perlin("eval --noise simplex", "0.5\n");
  EXPECT_EQ(one.status, 2);  // a usage error: the options ask for a noise without 1-D
  EXPECT_NE(one.err.find("simplex noise takes 2 to 4 coordinates, got 1: Gustavson's simplex "
                         "noise is defined in 2-D, 3-D and 4-D only"),
            std::string::npos)
      << one.err;
  const auto tiled = run_perlin("eval --noise simplex --period 8", "0.5 0.5\n");
  EXPECT_NE(tiled.status, 0);
  EXPECT_NE(tiled.err.find("period: simplex noise has no periods"), std::string::npos) << tiled.err;
}

TEST(CliEval, DimensionFromEachLine) {
  const perlin::improved_noise n;
  const auto r = run_perlin("eval", "0.5\n0.5 1.25\n  0.5\t1.25 2.5 \n0.5 1.25 2.5 3.75\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, fmt17(n.noise1d(0.5)) + "\n" + fmt17(n.noise2d(0.5, 1.25)) + "\n" +
                       fmt17(n.noise3d(0.5, 1.25, 2.5)) + "\n" +
                       fmt17(n.noise4d(0.5, 1.25, 2.5, 3.75)) + "\n");
}

TEST(CliEval, OptionsReachTheLibrary) {
  perlin::value_noise v(7, perlin::interpolation::cosine);
  v.lattice().set_period(0, 4).set_period(1, 5);
  perlin::fractal f;
  f.set_kind(perlin::fractal_kind::ridged)
      .set_octaves(3)
      .set_frequency(0.5)
      .set_lacunarity(3)
      .set_persistence(0.25)
      .set_normalize(true)
      .set_decorrelate(true);
  const auto r = run_perlin(
      "eval --noise value --interp cosine --seed 7 --period 4,5 --fractal ridged --octaves 3 "
      "--frequency 0.5 --lacunarity 3 --persistence 0.25 --normalize --decorrelate",
      "1.5 2.25\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, fmt17(perlin::field(v, f)(1.5, 2.25)) + "\n");
}

TEST(CliEval, WarpOptionsReachTheLibraryWithDerivatives) {
  perlin::fractal f;
  f.set_kind(perlin::fractal_kind::fbm).set_octaves(4).set_frequency(0.5);
  perlin::improved_noise n(3);
  n.lattice().set_period_all(8);
  perlin::field fld(n, f);
  perlin::warp w;
  w.set_kind(perlin::warp_kind::independent)
      .set_amplitude(1.75)
      .set_frequency(0.5)
      .set_octaves(5)
      .set_seed(11);
  fld.set_warp(w);
  const auto r = run_perlin(
      "eval --seed 3 --period 8 --fractal fbm --octaves 4 --frequency 0.5 --warp independent "
      "--warp-amplitude 1.75 --warp-frequency 0.5 --warp-octaves 5 --warp-seed 11 --derivatives",
      "1.5 2.25 -0.5\n");
  EXPECT_EQ(r.status, 0) << r.err;
  const double p[3] = {1.5, 2.25, -0.5};
  double g[3];
  const double v = fld.eval(std::span<const double>(p), std::span<double>(g));
  EXPECT_EQ(r.out, fmt17(v) + " " + fmt17(g[0]) + " " + fmt17(g[1]) + " " + fmt17(g[2]) + "\n");
  EXPECT_TRUE(r.err.empty()) << r.err;
  // The warp changes the value: the same options without it print something else.
  const auto plain = run_perlin(
      "eval --seed 3 --period 8 --fractal fbm --octaves 4 --frequency 0.5", "1.5 2.25 -0.5\n");
  EXPECT_NE(plain.out.substr(0, 10), r.out.substr(0, 10));
}

TEST(CliEval, WarpOptionsWithoutAWarpAreWarnedAbout) {
  const auto r = run_perlin("eval --warp-amplitude 2 --warp-seed 4", "0.5 0.5\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("--warp-amplitude has no effect without --warp (the warp is none)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--warp-seed has no effect without --warp"), std::string::npos) << r.err;
  const auto b = run_perlin("eval --warp basic --warp-octaves 4", "0.5 0.5\n");
  EXPECT_NE(b.err.find("--warp-octaves has no effect on a basic warp"), std::string::npos) << b.err;
}

TEST(CliEval, ThreadsPrintTheSameTextAndStopAtTheSameBadLine) {
  // 40,000 lines span three blocks of 16,384, shared among the threads; a bad line in the
  // second block stops the run after exactly the lines before it, whatever the thread count.
  std::string input;
  for (int i = 0; i < 40000; ++i) {
    input += std::to_string(i * 0.0137) + " " + std::to_string(i % 97 * 0.31) +
             (i % 3 ? " 2.5" : "") + "\n";
  }
  const auto one = run_perlin("eval --threads 1 --derivatives", input);
  const auto two = run_perlin("eval --threads 2 --derivatives", input);
  const auto many = run_perlin("eval --threads 7 --derivatives", input);
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 40000);
  EXPECT_EQ(two.out, one.out);
  EXPECT_EQ(many.out, one.out);
  // The text is printf's %.17g of the library's values.
  const perlin::improved_noise n;
  const double x = 39999 * 0.0137;
  const auto d =
      n.noise2d_deriv(std::stod(std::to_string(x)), std::stod(std::to_string(39999 % 97 * 0.31)));
  EXPECT_NE(
      one.out.find(fmt17(d.value) + " " + fmt17(d.gradient[0]) + " " + fmt17(d.gradient[1]) + "\n"),
      std::string::npos);
  std::string bad = input;
  std::size_t at = 0;
  for (int i = 0; i < 20000; ++i) at = bad.find('\n', at) + 1;
  bad.insert(at, "1 x 2\n");  // line 20001
  for (const char* threads : {"1", "2", "5"}) {
    const auto r = run_perlin(std::string("eval --derivatives --threads ") + threads, bad);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("line 20001"), std::string::npos) << r.err;
    std::size_t end = 0;
    for (int i = 0; i < 20000; ++i) end = one.out.find('\n', end) + 1;
    EXPECT_EQ(r.out, one.out.substr(0, end)) << threads;
  }
}

TEST(CliEval, UnderflowIsZeroOverflowIsAnErrorAndBadTokensAreQuotedBriefly) {
  const perlin::improved_noise n;
  auto r = run_perlin("eval", "1e-400 0.5 -1e-400\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, fmt17(n.noise3d(0.0, 0.5, 0.0)) + "\n");
  r = run_perlin("eval", "1e400 0.5\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("line 1: '1e400' is out of range"), std::string::npos) << r.err;
  r = run_perlin("eval", std::string(1000, 'x') + "\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("(1000 characters) is not a number"), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 200u);
  // Settings whose octaves overflow are refused by name (exit 2), not evaluated to NaN.
  r = run_perlin("eval --fractal ridged --octaves 32 --lacunarity 1e300", "0.5 0.5\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("lacunarity: the frequency of octave"), std::string::npos) << r.err;
}

TEST(CliEval, BlankLinesAndEveryLineEndingAreRead) {
  const perlin::improved_noise n;
  const std::string want = fmt17(n.noise2d(0.5, 0.5)) + "\n" + fmt17(n.noise2d(0.25, 1.0)) + "\n" +
                           fmt17(n.noise2d(1.0, 2.0)) + "\n";
  for (const char* input : {"0.5 0.5\n0.25 1\n1 2\n", "0.5 0.5\r\n0.25 1\r\n1 2\r\n",
                            "0.5 0.5\r0.25 1\r1 2", "\n0.5 0.5\n \t\n0.25 1\n\n1 2\n\n\n"}) {
    const auto r = run_perlin("eval", input);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, want);
  }
  EXPECT_EQ(run_perlin("eval", "").out, "");  // nothing in, nothing out, exit 0
}

TEST(CliEval, DerivativesAndFloat) {
  const perlin::improved_noise n;
  const auto d = n.noise3d_deriv(0.3, 0.6, 0.9);
  auto r = run_perlin("eval --derivatives", "0.3 0.6 0.9\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, fmt17(d.value) + " " + fmt17(d.gradient[0]) + " " + fmt17(d.gradient[1]) + " " +
                       fmt17(d.gradient[2]) + "\n");
  r = run_perlin("eval --float", "0.3 0.6 0.9\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, fmt17(static_cast<double>(n.noise3d(0.3f, 0.6f, 0.9f))) + "\n");
}

TEST(CliEval, BadLinesNameTheLineAndExit1) {
  const struct {
    const char* input;
    const char* message;
  } cases[] = {
      {"0.5 0.5\nabc 1\n", "line 2: 'abc' is not a number"},
      {"0.5 0.5\n1 2 3 4 5\n", "line 2: more than 4 numbers"},
      {"nan 1\n", "line 1: NaN"},
      {"1 inf\n", "line 1: an infinity"},
      {"1 -infinity\n", "line 1: an infinity"},
      {"1e400 0\n", "line 1: '1e400' is out of range"},
      {"1e20 0\n", "line 1: '1e20' is out of range"},
      {"0.5\n\n1 x\n", "line 3: 'x' is not a number"},       // blank lines are skipped, but counted
      {"0.5\r\n1\r1 x\r\n", "line 3: 'x' is not a number"},  // \r\n and \r end lines
      {"0.5 1x\n", "line 1: '1x' is not a number"},
  };
  for (const auto& c : cases) {
    const auto r = run_perlin("eval", c.input);
    EXPECT_EQ(r.status, 1) << c.input;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("perlin: error: ", 0), 0u) << r.err;
  }
  const auto r = run_perlin("eval --dims 2", "0.5 0.5\n0.5 0.5 0.5\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("line 2: expected 2 numbers, got 3"), std::string::npos) << r.err;
}

TEST(CliEval, BadOptionsExit2WithAMessage) {
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"eval --octaves 0", "octaves"},
      {"eval --octaves 33", "octaves"},
      {"eval --period 0", "period"},
      {"eval --period 3,x", "period: 'x' is not an integer"},
      {"eval --period 1,2,3,4,5", "period: at most 4 periods"},
      {"eval --lacunarity nan", "lacunarity"},
      {"eval --persistence inf", "persistence"},
      {"eval --frequency 0", "frequency"},
      {"eval --noise gabor",
       "noise: unknown value 'gabor' (valid: improved, value, simplex, "
       "opensimplex2, opensimplex2s, cellular, libnoise-voronoi)"},
      {"eval --fractal pink", "fractal: unknown value"},
      {"eval --interp spline", "interp: unknown value"},
      {"eval --dims 5", "--dims"},
      {"eval --seed -1", "seed: '-1' is not an integer from 0"},
      {"eval --warp swirl", "warp: unknown value"},
      {"eval --warp basic --warp-octaves 0", "warp-octaves: must be 1 to 32, got 0"},
      {"eval --warp basic --warp-amplitude -1", "warp-amplitude: must be >= 0"},
      {"eval --warp basic --warp-amplitude nan", "warp-amplitude"},
      {"eval --warp basic --warp-frequency 0", "warp-frequency: must be > 0"},
      {"eval --warp basic --warp-seed -2", "warp-seed"},
      {"eval --warp basic --period 5 --warp-frequency 0.5",
       "warp-frequency: the field tiles every 5 cells"},
      {"eval --bogus", "bogus"},
      {"frobnicate", "frobnicate"},
      {"", "subcommand"},
  };
  for (const auto& c : cases) {
    const auto r = run_perlin(c.args, "0.5\n");
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

TEST(CliEval, HelpListsTheOptions) {
  const auto r = run_perlin("eval --help");
  EXPECT_EQ(r.status, 0);
  for (const char* opt :
       {"--noise", "--interp", "--seed", "--period", "--fractal", "--octaves", "--frequency",
        "--lacunarity", "--persistence", "--normalize", "--derivatives", "--float", "--dims",
        "--warp", "--warp-amplitude", "--warp-frequency", "--warp-octaves", "--warp-seed"}) {
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  }
}

/// The largest resident set of any child process waited for so far, in KiB.
long children_max_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_maxrss;
}

std::string many_lines(int n) {
  std::string input;
  for (int i = 0; i < n; ++i) input += std::to_string(i * 0.01) + " 0.5\n";
  return input;
}

/// Runs `awk ... | perlin eval > out` with `lines` generated points; returns the exit status. The
/// input is made by awk so that this process stays small: a forked child counts its parent's
/// pages until it execs.
int eval_generated(int lines, const std::string& out) {
#if defined(__SANITIZE_THREAD__)
  // TSan keeps the state of every thread ever started (eval starts its threads per block of
  // lines), so under TSan memory would grow with the input for that reason alone: one thread.
  const std::string threads = " --threads 1";
#else
  const std::string threads = " --threads 2";
#endif
  const std::string cmd = "awk 'BEGIN { for (i = 0; i < " + std::to_string(lines) +
                          "; i++) print i * 0.01, 0.5 }' | '" + PERLIN_EXE + "' eval" + threads +
                          " > '" + out + "'";
  const int raw = std::system(cmd.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

TEST(CliEval, StreamsManyLinesInBoundedMemory) {
  // Memory does not grow with the input: 20x the lines (14 MiB in, 20 MiB out), and the largest
  // resident set of the child processes grows by less than 4 MiB.
  const temp_dir d;
  const std::string out = (d.path / "out").string();
  ASSERT_EQ(eval_generated(50000, out), 0);
  const long before = children_max_rss_kib();
  ASSERT_EQ(eval_generated(1000000, out), 0);
  const long after = children_max_rss_kib();
  EXPECT_LT(after - before, 4 * 1024) << before << " KiB, then " << after << " KiB";
  const std::string text = perlin_test::slurp(out);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1000000);
}

TEST(CliEval, AWriteErrorIsAnErrorEvenAfterManyLines) {
  // /dev/full fails every write: the small output fails at the last flush, the large one in
  // the loop (it passes the 64 KiB buffer). Neither may exit 0.
  for (const int lines : {1, 20000}) {
    const auto r = run_perlin("eval", many_lines(lines), "/dev/full");
    EXPECT_EQ(r.status, 1) << lines << " lines";
    EXPECT_NE(r.err.find("cannot write to standard output"), std::string::npos) << r.err;
  }
  // A bad line after a failed write: the write error is reported, still status 1.
  const auto r = run_perlin("eval", many_lines(20000) + "oops\n", "/dev/full");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

}  // namespace

TEST(CliEval, HostileInputIsBoundedEscapedAndDocumented) {
  // A line without an end (/dev/zero) stops at 4096 characters instead of filling memory.
  const auto zeros = run_perlin("eval", std::string(1 << 20, '\0'));
  EXPECT_EQ(zeros.status, 1);
  EXPECT_NE(zeros.err.find("line 1 is longer than 4096 characters"), std::string::npos)
      << zeros.err;
  const auto long_line = run_perlin("eval", "0.5\n" + std::string(5000, '1') + "\n");
  EXPECT_EQ(long_line.status, 1);
  EXPECT_NE(long_line.err.find("line 2 is longer than"), std::string::npos) << long_line.err;
  EXPECT_EQ(long_line.out, run_perlin("eval", "0.5\n").out);  // the lines before it are printed
  // Terminal escapes and invalid UTF-8 in a bad token are escaped, never echoed raw.
  const auto esc = run_perlin("eval", "1 \x1b[2J\xff\n");
  EXPECT_EQ(esc.status, 1);
  EXPECT_EQ(esc.err.find('\x1b'), std::string::npos);
  EXPECT_NE(esc.err.find("'\\x1b[2J\\xff' is not a number"), std::string::npos) << esc.err;
  // A UTF-8 byte order mark is ignored; blank lines are skipped, as docs/cli.md says.
  const auto bom = run_perlin("eval",
                              "\xEF\xBB\xBF"
                              "3.14 42 7\n\n \t \n3.14 42 7\n");
  EXPECT_EQ(bom.status, 0) << bom.err;
  EXPECT_EQ(bom.out, "0.13691995878400012\n0.13691995878400012\n");
}
