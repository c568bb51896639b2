// Graphs (include/perlin/graph.hpp, docs/graphs.md): both written forms round-trip for random
// graphs over every node kind; every refusal names its node and parameter; every node's value
// is its documented formula over its inputs' values (fields evaluated on their own); gradients
// match central differences in 1-D to 4-D away from kinks and the stated rules at them; a
// version-1 recipe is the one-node graph of its field, bit for bit (tests/data/recipes.txt).
#include "perlin/graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/option_table.hpp"

namespace {

using perlin::graph;

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double eval_at(const graph& g, const std::vector<double>& p) {
  return g.eval(std::span<const double>(p.data(), p.size()));
}

double field_at(const std::string& recipe, const std::vector<double>& p) {
  return perlin::make_field(perlin::spec_from_recipe(recipe))
      .eval(std::span<const double>(p.data(), p.size()));
}

/// The message of the error that `text` raises, or "" when it reads.
std::string error_of(const std::string& text) {
  try {
    (void)graph::from_text(text);
  } catch (const perlin::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Random graphs over every node kind.

struct random_graph_maker {
  std::mt19937_64 rng;
  std::vector<perlin::graph_node> nodes;
  std::set<std::string> kinds_used;
  int next = 0;

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
    const int f = integer(0, 5);
    if (f != 0) {
      n.parameters.emplace_back("fractal", fractals[f]);
      n.parameters.emplace_back("octaves", std::to_string(integer(1, 4)));
    }
    if (integer(0, 1) != 0) n.parameters.emplace_back("frequency", num(0.2, 3));
    if (integer(0, 3) == 0) n.parameters.emplace_back("noise", "value");
    if (integer(0, 4) == 0) n.parameters.emplace_back("warp", "basic");
    kinds_used.insert("field");
    nodes.push_back(n);
    return n.id;
  }

  /// Parameters for a kind, inside their domains.
  std::vector<std::pair<std::string, std::string>> params(const perlin::node_info& row) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string kind(row.name);
    if (kind == "clamp" || kind == "select") {
      out.emplace_back("lower", num(-0.8, 0));
      out.emplace_back("upper", num(0.05, 0.8));
      if (kind == "select") out.emplace_back("falloff", num(0, 0.4));
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
          const int count = integer(4, 7);  // enough for both curve modes
          std::string text;
          for (int i = 0; i < count; ++i) {
            text += (i ? "," : "") + num(-1.5, 1.5) + ":" + num(-1, 1);
          }
          out.emplace_back(p.name, text);
          break;
        }
      }
    }
    return out;
  }

  /// A node of a random kind (of `root_kind` when given) over random inputs, `depth` levels.
  std::string make(int depth, const perlin::node_info* root_kind = nullptr) {
    if (root_kind != nullptr && root_kind->field_options) return field_node();
    if (root_kind == nullptr && (depth == 0 || integer(0, 5) == 0)) {
      if (!nodes.empty() && integer(0, 3) == 0) {
        // A node used again: shared inputs are evaluated once.
        return nodes[static_cast<std::size_t>(integer(0, static_cast<int>(nodes.size()) - 1))].id;
      }
      return field_node();
    }
    const auto kinds = perlin::node_kinds();
    const perlin::node_info& row =
        root_kind != nullptr
            ? *root_kind
            : kinds[static_cast<std::size_t>(integer(1, static_cast<int>(kinds.size()) - 1))];
    const int max_in = row.max_inputs == perlin::k_any_inputs ? 3 : row.max_inputs;
    const int count = integer(row.min_inputs, max_in);
    std::vector<std::string> inputs;
    for (int i = 0; i < count; ++i) inputs.push_back(make(depth - 1));
    perlin::graph_node n{"n" + std::to_string(next++), std::string(row.name), inputs, params(row)};
    kinds_used.insert(n.kind);
    nodes.push_back(n);
    return n.id;
  }
};

std::vector<graph> random_graphs(int count, std::set<std::string>* kinds_used) {
  std::vector<graph> out;
  std::mt19937_64 seeds(52);
  for (int i = 0; i < count; ++i) {
    random_graph_maker m{std::mt19937_64(seeds()), {}, {}, 0};
    // The output's kind cycles through the kinds (field's included), so every kind is in.
    const auto kinds = perlin::node_kinds();
    const std::string output = m.make(3, &kinds[static_cast<std::size_t>(i) % kinds.size()]);
    out.emplace_back(m.nodes, output);
    if (kinds_used != nullptr) kinds_used->insert(m.kinds_used.begin(), m.kinds_used.end());
  }
  return out;
}

std::vector<double> random_point(std::mt19937_64& rng, std::size_t dims) {
  std::vector<double> p(dims);
  for (auto& x : p) x = std::uniform_real_distribution<double>(-20, 20)(rng);
  return p;
}

TEST(Graph, RandomGraphsRoundTripThroughBothFormsToTheSameBits) {
  std::set<std::string> kinds;
  const auto graphs = random_graphs(60, &kinds);
  for (const auto& row : perlin::node_kinds()) {
    EXPECT_TRUE(kinds.count(std::string(row.name))) << row.name << " not in the random graphs";
  }
  std::mt19937_64 rng(7);
  for (const auto& g : graphs) {
    const std::string recipe = g.recipe();
    const std::string json = g.json();
    const graph from_recipe = graph::from_text(recipe);
    const graph from_json = graph::from_text(json);
    EXPECT_EQ(from_recipe.recipe(), recipe);
    EXPECT_EQ(from_json.recipe(), recipe);
    EXPECT_EQ(from_recipe.json(), json);
    EXPECT_EQ(from_json.json(), json);
    EXPECT_TRUE(from_json == g);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      const auto p = random_point(rng, dims);
      const double v = eval_at(g, p);
      EXPECT_EQ(bits(eval_at(from_recipe, p)), bits(v)) << recipe;
      EXPECT_EQ(bits(eval_at(from_json, p)), bits(v)) << json;
    }
  }
}

/// The shortest text that reads back to v.
std::string exact(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

std::string hex_bits(double v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(bits(v)));
  return buf;
}

/// The golden file's text: 30 of the random graphs, each at a point of 1 to 4 coordinates
/// (one per graph, dims cycling), with the value and the gradient, as text and as bits.
std::string golden_graphs_text() {
  std::string out =
      "# Graphs (version 2) written by perlin 0.1 with their values and gradients (the exact "
      "double\n"
      "# path): the recipe, a point (1 to 4 coordinates), the value, the gradient, then the "
      "point's,\n"
      "# the value's and the gradient's bit patterns in hexadecimal, tab-separated. Generated by\n"
      "# tests/graph_test.cpp (PERLIN_WRITE_GRAPHS=FILE) from its seeded random graphs over every "
      "node\n"
      "# kind. Every later version reads each graph to these bits and writes it back unchanged.\n";
  const auto graphs = random_graphs(30, nullptr);
  std::mt19937_64 rng(30);
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const auto p = random_point(rng, i % 4 + 1);
    std::vector<double> grad(p.size());
    const double v = graphs[i].eval(std::span<const double>(p), std::span<double>(grad));
    std::string point, gradient, hex;
    for (const double x : p) {
      point += (point.empty() ? "" : " ") + exact(x);
      hex += (hex.empty() ? "" : " ") + hex_bits(x);
    }
    hex += " " + hex_bits(v);
    for (const double d : grad) {
      gradient += (gradient.empty() ? "" : " ") + exact(d);
      hex += " " + hex_bits(d);
    }
    out +=
        graphs[i].recipe() + "\t" + point + "\t" + exact(v) + "\t" + gradient + "\t" + hex + "\n";
  }
  return out;
}

// The golden file: graphs written by this version with their values and gradients. Every later
// version must read each graph to the same bits and write it back unchanged. Regenerate only
// when adding cases: PERLIN_WRITE_GRAPHS=tests/data/graphs.txt.
TEST(Graph, TheGoldenFileReadsToTheSameBits) {
  if (const char* out = std::getenv("PERLIN_WRITE_GRAPHS")) {
    std::ofstream(out) << golden_graphs_text();
    GTEST_SKIP() << "wrote " << out;
  }
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/graphs.txt");
  ASSERT_TRUE(in.good());
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string recipe, point_text, value_text, gradient_text, bits_text;
    std::getline(fields, recipe, '\t');
    std::getline(fields, point_text, '\t');
    std::getline(fields, value_text, '\t');
    std::getline(fields, gradient_text, '\t');
    std::getline(fields, bits_text, '\t');
    std::vector<std::uint64_t> hex;
    std::istringstream hs(bits_text);
    for (std::string h; hs >> h;) hex.push_back(std::stoull(h, nullptr, 16));
    const std::size_t dims = (hex.size() - 1) / 2;
    ASSERT_EQ(hex.size(), 2 * dims + 1) << line;
    std::vector<double> p(dims), grad(dims);
    for (std::size_t k = 0; k < dims; ++k) std::memcpy(&p[k], &hex[k], sizeof(double));
    const graph g = graph::from_text(recipe);
    EXPECT_EQ(g.recipe(), recipe);
    EXPECT_EQ(graph::from_text(g.json()).recipe(), recipe);
    const double v = g.eval(std::span<const double>(p), std::span<double>(grad));
    EXPECT_EQ(bits(v), hex[dims]) << recipe;
    for (std::size_t k = 0; k < dims; ++k) EXPECT_EQ(bits(grad[k]), hex[dims + 1 + k]) << recipe;
    ++checked;
  }
  EXPECT_EQ(checked, 30);
}

TEST(Graph, EqualGraphsHaveEqualText) {
  // Another order of pairs, of points, other spellings of the same numbers, defaults given.
  const graph a = graph::from_text(
      "perlin=2&t=terrace&t.points=0.50,-1,1,0&m.octaves=6&out=t&m=field&t.in=m&m.fractal=ridged"
      "&t.mode=libnoise&t.invert=0");
  const graph b = graph::from_text(
      "perlin=2&out=t&m=field&m.fractal=ridged&m.octaves=6&t=terrace&t.in=m&t.points=-1,0,0.5,1");
  EXPECT_EQ(a.recipe(), b.recipe());
  EXPECT_EQ(a.recipe(),
            "perlin=2&out=t&m=field&m.fractal=ridged&m.octaves=6&t=terrace&t.in=m&t.points=-1,0,0."
            "5,1");
  EXPECT_EQ(a.json(),
            "{\"perlin\": 2, \"nodes\": {\n"
            "  \"m\": {\"node\": \"field\", \"fractal\": \"ridged\", \"octaves\": 6},\n"
            "  \"t\": {\"node\": \"terrace\", \"inputs\": [\"m\"], \"points\": [-1, 0, 0.5, 1]}\n"
            "}, \"output\": \"t\"}");
  const graph c = graph::from_text(
      "{\"output\": \"t\", \"perlin\": 2, \"nodes\": {\"t\": {\"points\": [1, 0.5, 0, -1e0], "
      "\"inputs\": [\"m\"], \"node\": \"terrace\"}, \"m\": {\"octaves\": 6, \"node\": \"field\", "
      "\"fractal\": \"ridged\"}}}");
  EXPECT_TRUE(c == b);
  // Curve points and special text: a point list, a seed above 2^53 (a string in JSON), periods.
  const graph d = graph::from_text(
      "perlin=2&out=c&c=curve&c.in=f&c.points=1:1,-1:-1,0:0.25&f=field&f.seed=18446744073709551615"
      "&f.period=16,8");
  EXPECT_EQ(d.recipe(),
            "perlin=2&out=c&c=curve&c.in=f&c.points=-1:-1,0:0.25,1:1&f=field&f.seed="
            "18446744073709551615&f.period=16,8");
  EXPECT_EQ(d.json(),
            "{\"perlin\": 2, \"nodes\": {\n"
            "  \"c\": {\"node\": \"curve\", \"inputs\": [\"f\"], \"points\": [[-1, -1], [0, 0.25], "
            "[1, 1]]},\n"
            "  \"f\": {\"node\": \"field\", \"seed\": \"18446744073709551615\", \"period\": [16, "
            "8]}\n"
            "}, \"output\": \"c\"}");
  EXPECT_TRUE(graph::from_text(d.json()) == d);
}

TEST(Graph, AVersionOneRecipeIsTheOneNodeGraphOfItsFieldBitForBit) {
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/recipes.txt");
  ASSERT_TRUE(in.good());
  std::string line;
  int checked = 0;
  std::map<std::string, graph> graphs;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string recipe, point_text, value_text, bits_text;
    std::getline(fields, recipe, '\t');
    std::getline(fields, point_text, '\t');
    std::getline(fields, value_text, '\t');
    std::getline(fields, bits_text, '\t');
    std::vector<double> p;
    std::istringstream ps(point_text);
    for (double x = 0; ps >> x;) p.push_back(x);
    const std::string value_bits = bits_text.substr(bits_text.rfind(' ') + 1);
    auto it = graphs.find(recipe);
    if (it == graphs.end()) it = graphs.emplace(recipe, graph::from_text(recipe)).first;
    const graph& g = it->second;
    ASSERT_NE(g.single_field(), nullptr);
    EXPECT_EQ(bits(eval_at(g, p)), std::stoull(value_bits, nullptr, 16)) << recipe;
    // Its version-2 recipe names the same field.
    EXPECT_EQ(perlin::to_recipe(*graph::from_text(g.recipe()).single_field()), recipe);
    ++checked;
  }
  EXPECT_EQ(checked, 120);
  // A field recipe's render settings are skipped, as fields skip them.
  std::vector<std::pair<std::string, std::string>> skipped;
  const graph g = graph::from_text("perlin=1&octaves=2&fractal=fbm&size=64x64", &skipped);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].first, "size");
  EXPECT_EQ(g.recipe(), "perlin=2&out=f&f=field&f.fractal=fbm&f.octaves=2");
}

/// The option table's names, as a message lists them.
std::string option_names() {
  std::string out;
  for (const auto& o : perlin::field_options())
    out += (out.empty() ? "" : ", ") + std::string(o.name);
  return out;
}

TEST(Graph, EveryRefusalNamesItsNodeAndParameter) {
  const std::string base = "perlin=2&out=a&b=field&";
  const std::pair<std::string, std::string> cases[] = {
      {"perlin=3&out=a", "recipe: unknown version '3' (this library reads 1 to 2)"},
      {"{\"perlin\": 3, \"nodes\": {}, \"output\": \"a\"}",
       "perlin: unknown version '3' (this library reads 2 in JSON; 1 and 2 in recipes)"},
      {base + "a=abs&a.in=x", "a.in: unknown node 'x' (did you mean 'a'? valid: a, b)"},
      {base + "a=add&a.in=b,c&c=add&c.in=a,b", "c.in: a cycle: a -> c -> a"},
      {base + "a=abs&a.in=b&q=constant",
       "q: not used by the output 'a' (every node must feed the output: remove it or use it)"},
      {base + "a=abs&a.in=b,b", "a.in: abs takes 1 (source) input, got 2"},
      {base + "a=add&a.in=b", "a.in: add takes 2 or more inputs, got 1"},
      {base + "a=select&a.in=b,b", "a.in: select takes 3 (a, b, control) inputs, got 2"},
      {base + "a=terace&a.in=b",
       "a: unknown node kind 'terace' (did you mean 'terrace'? valid: field, constant, add, "
       "subtract, multiply, min, max, smooth-min, smooth-max, abs, invert, clamp, scale-bias, "
       "exponent, blend, select, curve, terrace, displace, scale-point, translate-point, "
       "rotate-point)"},
      {base + "a=terrace&a.in=b&a.pionts=1,2",
       "a.pionts: unknown terrace parameter 'pionts' (did you mean 'points'? valid: points, "
       "invert, mode)"},
      {base + "a=abs&a.in=b&a.scale=2", "a.scale: abs has no parameters"},
      {base + "a=abs&a.in=b&b.octave=3",
       "b.octave: unknown field option 'octave' (did you mean 'octaves'? valid: " + option_names() +
           ")"},
      {base + "a=abs&a.in=b&b.octaves=0", "b.octaves: must be 1 to 32, got 0"},
      {base + "a=abs&a.in=b&b.octaves=2&b.octaves=3", "b.octaves: given twice"},
      {base + "a=clamp&a.in=b&a.lower=1", "a.upper: must be greater than lower (1), got 1"},
      {base + "a=select&a.in=b,b,b&a.upper=-2", "a.upper: must be greater than lower (-1), got -2"},
      {base + "a=select&a.in=b,b,b&a.falloff=-1", "a.falloff: must be >= 0, got -1"},
      {base + "a=smooth-min&a.in=b,b&a.smoothness=0", "a.smoothness: must be > 0, got 0"},
      {base + "a=curve&a.in=b&a.points=0:0,1:1&a.mode=libnoise",
       "a.points: mode libnoise needs at least 4 points, got 2"},
      {base + "a=curve&a.in=b&a.points=0:0,0:1", "a.points: the input 0 is given twice"},
      {base + "a=curve&a.in=b&a.points=0:0", "a.points: must have 2 to 256 points, got 1"},
      {base + "a=curve&a.in=b&a.points=0,1", "a.points: '0' is not a point in:out"},
      {base + "a=curve&a.in=b&a.mode=cubic",
       "a.mode: unknown value 'cubic' (valid: monotone, libnoise)"},
      {base + "a=terrace&a.in=b&a.points=1,1", "a.points: the point 1 is given twice"},
      {base + "a=terrace&a.in=b&a.invert=yes", "a.invert: 'yes' is not 1, 0, true or false"},
      {base + "a=rotate-point&a.in=b&a.angles=1,2", "a.angles: must have 3 numbers, got 2"},
      {base + "a=scale-bias&a.in=b&a.scale=x", "a.scale: 'x' is not a number"},
      {base + "a=abs&a.in=b&a=abs", "a: is declared twice"},
      {base + "a=abs&a.in=b&x.octaves=2", "x.octaves: the node 'x' is not declared (give x=KIND)"},
      {"perlin=2&a=constant", "out: the graph has no output (give out=ID)"},
      {"perlin=2&out=b&a=constant", "out: unknown node 'b' (did you mean 'a'? valid: a)"},
      {"perlin=2&out=size&size=constant", "graph: has no nodes"},
      {"perlin=2&out=a&A=constant",
       "recipe: 'A' is neither a node id (ID=KIND), out, nor a render setting of "
       "docs/recipes.md"},
      {"{\"perlin\": 2, \"nodes\": {\"out\": {\"node\": \"constant\"}}, \"output\": \"out\"}",
       "out: is a reserved name (out, perlin and the render settings of docs/recipes.md), not a "
       "node id"},
      {"{\"perlin\": 2, \"nodes\": {\"a\": {\"node\": \"constant\"}, \"a\": {}}, \"output\": "
       "\"a\"}",
       "json: the key 'a' given twice at offset 51"},
      {"{\"perlin\": 2, \"nodes\": {\"a\": {\"node\": \"constant\", \"value\": [1, \"x\"]}}, "
       "\"output\": \"a\"}",
       "a.value: must be a number, a string, true or false, null, a list of numbers or a list of "
       "[in, out] pairs"},
      {"{\"perlin\": 2, \"nodes\": {\"a\": {\"node\": \"constant\"}}, \"output\": \"a\"} x",
       "json: text after the graph at offset 67"},
      {"{\"perlin\": 2, \"nodes\": {\"a\": {\"node\": \"constant\", \"value\": 01}}, \"output\": "
       "\"a\"}",
       "json: expected '}' at offset 60"},
      {"{\"perlin\": 2, \"nodes\": {\"a\": {\"value\": 1}}, \"output\": \"a\"}",
       "a: has no \"node\": KIND"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(error_of(text), message) << text;
}

TEST(Graph, HostileTextIsRefusedNeverCrashes) {
  // Random edits of valid texts in both forms: each reads or is refused with invalid_argument.
  const auto graphs = random_graphs(8, nullptr);
  std::mt19937_64 rng(99);
  const std::string alphabet = "{}[]\",:.&=%0123456789-+eE abcnoutx\\\n";
  int refused = 0, read = 0;
  for (const auto& g : graphs) {
    for (const std::string& base : {g.recipe(), g.json()}) {
      for (int k = 0; k < 300; ++k) {
        std::string text = base;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits && !text.empty(); ++e) {
          const std::size_t at = rng() % text.size();
          switch (rng() % 3) {
            case 0:
              text.erase(at, 1 + rng() % 4);
              break;
            case 1:
              text.insert(at, 1, alphabet[rng() % alphabet.size()]);
              break;
            default:
              text[at] = alphabet[rng() % alphabet.size()];
          }
        }
        try {
          const graph h = graph::from_text(text);
          (void)eval_at(h, {0.5, 1.5});
          ++read;
        } catch (const perlin::invalid_argument&) {
          ++refused;
        }
      }
    }
  }
  EXPECT_GT(refused, 1000);
  // Deep nesting and graphs whose point transforms multiply their evaluations are refused.
  EXPECT_EQ(error_of("{\"perlin\": " + std::string(100, '[')),
            "json: nested too deep at offset 27");
  std::string chain = "perlin=2&out=n20&n0=field";
  for (int i = 1; i <= 20; ++i) {
    const std::string n = "n" + std::to_string(i), prev = "n" + std::to_string(i - 1);
    chain += "&" + n + "=add&" + n + ".in=" + n + "a," + n + "b&" + n + "a=translate-point&" + n +
             "a.in=" + prev + "&" + n + "a.offset=1&" + n + "b=translate-point&" + n +
             "b.in=" + prev + "&" + n + "b.offset=2";
  }
  EXPECT_EQ(error_of(chain),
            "graph: needs more than 65536 node evaluations a point (point transforms used many "
            "times over)");
}

TEST(Graph, ReadsJsonStringsWithEscapes) {
  const graph g = graph::from_text(
      "  {\"perlin\": 2, \"nodes\": {\"a\": {\"node\": \"curve\", \"inputs\": [\"b\"], \"mode\": "
      "\"\\u006donotone\"}, \"b\": {\"node\": \"field\", \"fractal\": \"f\\u0062m\"}}, "
      "\"output\": \"a\"}\n");
  EXPECT_EQ(g.recipe(), "perlin=2&out=a&a=curve&a.in=b&b=field&b.fractal=fbm");
  // The version is the number 2 in any spelling.
  EXPECT_TRUE(graph::from_text("{\"perlin\": 2.0e0, \"nodes\": {\"a\": {\"node\": \"field\"}}, "
                               "\"output\": \"a\"}") == graph::from_text("perlin=2&out=a&a=field"));
}

// ---------------------------------------------------------------------------------------------
// Values: each node is its documented formula over its inputs' values.

const std::string k_fa = "perlin=1&seed=1&fractal=fbm&octaves=3";
const std::string k_fb = "perlin=1&seed=2&fractal=ridged&octaves=2";
const std::string k_fc = "perlin=1&seed=3&frequency=0.5";

/// A graph of one node `x` of `kind` over fields a, b, c (k_fa, k_fb, k_fc), with the extra pairs.
graph node_over_fields(const std::string& kind, const std::string& inputs,
                       const std::string& extra = "") {
  // Only the fields the node reads: a graph refuses unused nodes.
  std::string text = "perlin=2&out=x&x=" + kind + "&x.in=" + inputs + extra;
  if (inputs.find('a') != std::string::npos) text += "&a=field&a.seed=1&a.fractal=fbm&a.octaves=3";
  if (inputs.find('b') != std::string::npos)
    text += "&b=field&b.seed=2&b.fractal=ridged&b.octaves=2";
  if (inputs.find('c') != std::string::npos) text += "&c=field&c.seed=3&c.frequency=0.5";
  return graph::from_text(text);
}

double smoothstep3(double a) { return (a * a * (3.0 - 2.0 * a)); }
double lerp(double n0, double n1, double a) { return ((1.0 - a) * n0) + (a * n1); }

TEST(Graph, EveryNodeIsItsDocumentedFormula) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 300; ++k) {
    const auto p = random_point(rng, 3);
    const double a = field_at(k_fa, p), b = field_at(k_fb, p), c = field_at(k_fc, p);
    const auto check = [&](const graph& g, double expected) {
      EXPECT_EQ(bits(eval_at(g, p)), bits(expected)) << g.recipe();
    };
    check(node_over_fields("add", "a,b,c"), (a + b) + c);
    check(node_over_fields("subtract", "a,b"), a - b);
    check(node_over_fields("multiply", "a,b,c"), (a * b) * c);
    const double m2 = a < b ? a : b;
    check(node_over_fields("min", "a,b,c"), m2 < c ? m2 : c);
    const double x2 = a > b ? a : b;
    check(node_over_fields("max", "a,b,c"), x2 > c ? x2 : c);
    const double k3 = 0.3;
    const double h = std::fmax(k3 - std::fabs(a - b), 0.0) / k3;
    check(node_over_fields("smooth-min", "a,b", "&x.smoothness=0.3"),
          (a < b ? a : b) - h * h * h * k3 / 6.0);
    check(node_over_fields("smooth-max", "a,b", "&x.smoothness=0.3"),
          (a > b ? a : b) + h * h * h * k3 / 6.0);
    check(node_over_fields("abs", "a"), std::fabs(a));
    check(node_over_fields("invert", "a"), -a);
    check(node_over_fields("clamp", "a", "&x.lower=-0.2&x.upper=0.1"),
          a < -0.2 ? -0.2 : (a > 0.1 ? 0.1 : a));
    check(node_over_fields("scale-bias", "a", "&x.scale=1.5&x.bias=0.25"), a * 1.5 + 0.25);
    check(node_over_fields("exponent", "a", "&x.exponent=2.5"),
          std::pow(std::fabs((a + 1.0) / 2.0), 2.5) * 2.0 - 1.0);
    check(node_over_fields("blend", "a,b,c"), lerp(a, b, (c + 1.0) / 2.0));
    // Smooth terrace between points -0.5 and 0.5 (flat outside).
    {
      double expected = a < -0.5 ? -0.5 : 0.5;
      if (a >= -0.5 && a < 0.5) {
        const double t = (a - -0.5) / (0.5 - -0.5);
        const double s = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
        expected = ((1.0 - s) * -0.5) + (s * 0.5);
      }
      check(node_over_fields("terrace", "a", "&x.points=-0.5,0.5&x.mode=smooth"), expected);
    }
    // Select with falloff: the band formula of docs/graphs.md.
    {
      const double lo = -0.1, hi = 0.2, f = 0.05;
      double expected = a;
      if (c < lo - f) {
        expected = a;
      } else if (c < lo + f) {
        expected = lerp(a, b, smoothstep3((c - (lo - f)) / ((lo + f) - (lo - f))));
      } else if (c < hi - f) {
        expected = b;
      } else if (c < hi + f) {
        expected = lerp(b, a, smoothstep3((c - (hi - f)) / ((hi + f) - (hi - f))));
      }
      check(node_over_fields("select", "a,b,c", "&x.lower=-0.1&x.upper=0.2&x.falloff=0.05"),
            expected);
    }
    // Point transforms: the source at the moved point.
    {
      const std::vector<double> scaled = {p[0] * 2.0, p[1] * 0.5, p[2] * 2.0};
      EXPECT_EQ(bits(eval_at(node_over_fields("scale-point", "a", "&x.scale=2,0.5,2"), p)),
                bits(field_at(k_fa, scaled)));
      const std::vector<double> moved = {p[0] + 1.25, p[1] + 1.25, p[2] + 1.25};
      EXPECT_EQ(bits(eval_at(node_over_fields("translate-point", "a", "&x.offset=1.25"), p)),
                bits(field_at(k_fa, moved)));
      const std::vector<double> displaced = {p[0] + b, p[1] + c, p[2]};
      EXPECT_EQ(bits(eval_at(node_over_fields("displace", "a,b,c"), p)),
                bits(field_at(k_fa, displaced)));
    }
  }
}

TEST(Graph, TheMonotoneCurveIsMonotoneC1AndThroughItsPoints) {
  // Fritsch-Carlson: through every point, within each segment between its ends' outputs (no
  // overshoot), its slope continuous at the inner points; flat outside.
  const std::vector<std::pair<double, double>> pts = {{-1, -1},   {-0.9, -0.2}, {0, -0.1},
                                                      {0.1, 0.8}, {0.15, 0.8},  {1, 1}};
  std::string text;
  for (const auto& [x, y] : pts) text += (text.empty() ? "" : ",") + exact(x) + ":" + exact(y);
  // The curve of a constant input, at any point.
  const auto curve_at = [&](double v, double* /*unused*/) {
    const graph c = graph::from_text("perlin=2&out=x&x=curve&x.in=k&x.points=" + text +
                                     "&k=constant&k.value=" + exact(v));
    return eval_at(c, {0.0});
  };
  for (const auto& [x, y] : pts) EXPECT_NEAR(curve_at(x, nullptr), y, 1e-12);
  EXPECT_EQ(curve_at(-5, nullptr), -1);
  EXPECT_EQ(curve_at(5, nullptr), 1);
  for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
    const double lo = std::min(pts[k].second, pts[k + 1].second);
    const double hi = std::max(pts[k].second, pts[k + 1].second);
    for (int i = 1; i < 100; ++i) {
      const double v = pts[k].first + (pts[k + 1].first - pts[k].first) * i / 100.0;
      const double y = curve_at(v, nullptr);
      EXPECT_GE(y, lo - 1e-15);
      EXPECT_LE(y, hi + 1e-15);
    }
  }
  for (std::size_t k = 1; k + 1 < pts.size(); ++k) {
    const double e = 1e-7;
    const double x = pts[k].first;
    const double left = (curve_at(x, nullptr) - curve_at(x - e, nullptr)) / e;
    const double right = (curve_at(x + e, nullptr) - curve_at(x, nullptr)) / e;
    EXPECT_NEAR(left, right, 1e-4 * (1 + std::fabs(left))) << "at " << x;
  }
}

TEST(Graph, ANodeUsedTwiceGivesTheSameValueAsTwoCopies) {
  const graph shared =
      graph::from_text("perlin=2&out=s&s=add&s.in=m,m&m=field&m.fractal=fbm&m.octaves=4");
  const graph copies = graph::from_text(
      "perlin=2&out=s&s=add&s.in=m,n&m=field&m.fractal=fbm&m.octaves=4&n=field&n.fractal=fbm&n."
      "octaves=4");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    const auto p = random_point(rng, 2);
    EXPECT_EQ(bits(eval_at(shared, p)), bits(eval_at(copies, p)));
  }
}

// ---------------------------------------------------------------------------------------------
// Gradients.

/// Every node kind in a graph over smooth sources (and their dims), with the kinks noted.
std::vector<std::string> gradient_cases() {
  const std::string a = "a=field&a.seed=1&a.fractal=fbm&a.octaves=3";
  const std::string b = "&b=field&b.seed=2&b.fractal=fbm&b.octaves=2&b.frequency=0.7";
  const std::string c = "&c=field&c.seed=3&c.frequency=0.5";
  const std::string abc = a + b + c;
  const auto all = [&](const std::string& kind, const std::string& extra) {
    return "perlin=2&out=x&" + abc + "&x=" + kind + "&x.in=a,b,c" + extra;
  };
  const auto unary = [&](const std::string& kind, const std::string& extra) {
    // The unary node over a + (b - c) / 4 keeps every source used.
    return "perlin=2&out=x&" + abc +
           "&d=subtract&d.in=b,c&e=scale-bias&e.in=d&e.scale=0.25&s=add&s.in=a,e&x=" + kind +
           "&x.in=s" + extra;
  };
  return {
      "perlin=2&out=a&" + a,
      "perlin=2&out=x&" + a + "&k=constant&k.value=0.3&x=add&x.in=a,k",
      all("add", ""),
      all("multiply", ""),
      all("min", ""),
      all("max", ""),
      all("smooth-min", "&x.smoothness=0.2"),
      all("smooth-max", "&x.smoothness=0.2"),
      all("blend", ""),
      all("select", "&x.lower=-0.1&x.upper=0.2&x.falloff=0.08"),
      all("select", "&x.lower=-0.1&x.upper=0.2"),
      "perlin=2&out=x&" + abc + "&x=subtract&x.in=a,d&d=add&d.in=b,c",
      unary("abs", ""),
      unary("invert", ""),
      unary("clamp", "&x.lower=-0.15&x.upper=0.2"),
      unary("scale-bias", "&x.scale=-1.5&x.bias=0.5"),
      unary("exponent", "&x.exponent=2.5"),
      unary("exponent", "&x.exponent=0.5"),
      unary("curve", "&x.points=-1:-1,-0.2:0.1,0:0.3,0.3:0.2,1:1"),
      unary("curve", "&x.points=-1:-1,-0.2:0.1,0:0.3,0.3:0.2,1:1&x.mode=libnoise"),
      unary("terrace", "&x.points=-1,-0.3,0,0.4,1"),
      unary("terrace", "&x.points=-1,-0.3,0,0.4,1&x.invert=true"),
      unary("terrace", "&x.points=-1,-0.3,0,0.4,1&x.mode=smooth"),
      "perlin=2&out=x&" + abc + "&x=displace&x.in=a,b,c,b,c",
      "perlin=2&out=x&" + a + b + "&x=displace&x.in=a,b",
      "perlin=2&out=x&" + a + "&x=scale-point&x.in=a&x.scale=1.5,-0.5,2,3",
      "perlin=2&out=x&" + a + "&x=translate-point&x.in=a&x.offset=0.5,1.5",
      "perlin=2&out=x&" + a + "&x=rotate-point&x.in=a&x.angles=30,-45,60",
      // Point transforms over combinations, and a node seen at two points.
      "perlin=2&out=x&" + abc +
          "&r=rotate-point&r.in=m&r.angles=10,20,30&m=multiply&m.in=a,b&x=add&x.in=r,m,t&t="
          "translate-point&t.in=d&t.offset=0.3&d=displace&d.in=c,a,b",
  };
}

TEST(Graph, GradientsMatchCentralDifferencesAwayFromKinks) {
  std::mt19937_64 rng(5);
  for (const auto& text : gradient_cases()) {
    const graph g = graph::from_text(text);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      int checked = 0, skipped = 0;
      for (int k = 0; k < 40; ++k) {
        const auto p = random_point(rng, dims);
        std::vector<double> grad(dims);
        const double v = g.eval(std::span<const double>(p), std::span<double>(grad));
        EXPECT_EQ(bits(v), bits(eval_at(g, p))) << "the value with and without the gradient";
        bool near_kink = false;
        std::vector<double> numeric(dims);
        for (std::size_t j = 0; j < dims; ++j) {
          // Central differences at two steps: where they disagree a kink is near; skip it.
          const auto diff = [&](double h) {
            auto hi = p, lo = p;
            hi[j] += h;
            lo[j] -= h;
            return (eval_at(g, hi) - eval_at(g, lo)) / (2 * h);
          };
          const double d1 = diff(1e-5), d2 = diff(2e-5);
          if (std::fabs(d1 - d2) > 1e-4 * (1 + std::fabs(d1))) near_kink = true;
          numeric[j] = d1;
        }
        if (near_kink) {
          ++skipped;
          continue;
        }
        ++checked;
        for (std::size_t j = 0; j < dims; ++j) {
          EXPECT_NEAR(grad[j], numeric[j], 2e-5 * (1 + std::fabs(numeric[j])))
              << text << " dims " << dims << " axis " << j;
        }
      }
      EXPECT_GE(checked, 20) << text << " dims " << dims << " (skipped " << skipped << ")";
    }
  }
}

TEST(Graph, GradientsAtKinksFollowTheStatedRules) {
  // Improved noise is 0 at lattice points, with its corner's gradient there: a source whose
  // value is exactly 0 and whose gradient is not.
  const std::string a = "a=field";
  const std::vector<double> p = {1, 2, 3};
  std::vector<double> ga(3);
  const double va = graph::from_text("perlin=2&out=a&" + a)
                        .eval(std::span<const double>(p), std::span<double>(ga));
  ASSERT_EQ(va, 0.0);
  ASSERT_NE(ga[0] * ga[0] + ga[1] * ga[1] + ga[2] * ga[2], 0.0);
  const auto grad_of = [&](const std::string& text) {
    std::vector<double> g(3);
    (void)graph::from_text(text).eval(std::span<const double>(p), std::span<double>(g));
    return g;
  };
  const std::vector<double> zero = {0, 0, 0};
  const std::vector<double> minus = {-ga[0], -ga[1], -ga[2]};
  // abs at 0: +g.
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=abs&x.in=a"), ga);
  // min/max on a tie: the first input's.
  const std::string k = "&k=constant";
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + k + "&x=min&x.in=a,k"), ga);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + k + "&x=min&x.in=k,a"), zero);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + k + "&x=max&x.in=a,k"), ga);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + k + "&x=max&x.in=k,a"), zero);
  // clamp at a bound: the input's (the bound is inside); beyond it: 0.
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=clamp&x.in=a&x.lower=0"), ga);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=clamp&x.in=a&x.lower=-1&x.upper=0"), ga);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=clamp&x.in=a&x.lower=0.5&x.upper=1"), zero);
  // select without falloff at control = lower: b's (lower <= control <= upper selects b).
  const std::string ab = a + "&b=invert&b.in=a";
  EXPECT_EQ(grad_of("perlin=2&out=x&" + ab + "&x=select&x.in=b,a,a&x.lower=0"), ga);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + ab + "&x=select&x.in=a,b,a&x.lower=0"), minus);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + ab + "&x=select&x.in=a,b,a&x.lower=-1&x.upper=0"), minus);
  // terrace at a point: the slope of the segment on its right (libnoise: 0 at its start, 2
  // (p1 - p0) / (p1 - p0) times... inverted: 2 / (p1 - p0) * (p1 - p0) = 2); smooth: 0.
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=terrace&x.in=a&x.points=-1,0,1"), zero);
  const auto inverted = grad_of("perlin=2&out=x&" + a +
                                "&x=terrace&x.in=a&x.points=-1,0,1&x."
                                "invert=true");
  for (int j = 0; j < 3; ++j) EXPECT_EQ(inverted[j], 2.0 * ga[j]);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + a + "&x=terrace&x.in=a&x.points=-1,0,1&x.mode=smooth"),
            zero);
  // curve at a point: the right segment's slope at its start (monotone: the point's tangent,
  // here the mean of the secants 1 and 3 = 2).
  const auto curved = grad_of("perlin=2&out=x&" + a + "&x=curve&x.in=a&x.points=-1:-1,0:0,1:3");
  for (int j = 0; j < 3; ++j) EXPECT_EQ(curved[j], 2.0 * ga[j]);
  // exponent at (v + 1) / 2 = 0: 0 for e != 1, g for e = 1.
  const std::string m1 = a + "&s=scale-bias&s.in=a&s.bias=-1";
  EXPECT_EQ(grad_of("perlin=2&out=x&" + m1 + "&x=exponent&x.in=s&x.exponent=0.5"), zero);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + m1 + "&x=exponent&x.in=s&x.exponent=2"), zero);
  EXPECT_EQ(grad_of("perlin=2&out=x&" + m1 + "&x=exponent&x.in=s"), ga);
}

TEST(Graph, FloatEvaluationIsTheDoubleRounded) {
  const graph g = graph::from_text(
      "perlin=2&out=x&a=field&a.fractal=fbm&a.octaves=3&x=curve&x.in=a&x.points=-1:0,0:1,1:0");
  std::mt19937_64 rng(9);
  for (int i = 0; i < 100; ++i) {
    // Float points drawn as floats: GCC 12.2 at -O2 drops a double -> float -> double round trip
    // of a short array (its SLP vectorizer), so pd would not hold pf's values.
    float pf[3];
    for (auto& x : pf) x = std::uniform_real_distribution<float>(-20, 20)(rng);
    const double pd[3] = {pf[0], pf[1], pf[2]};
    float gf[3];
    double gd[3];
    const float vf = g.eval(std::span<const float>(pf, 3), std::span<float>(gf, 3));
    const double vd = g.eval(std::span<const double>(pd, 3), std::span<double>(gd, 3));
    EXPECT_EQ(vf, static_cast<float>(vd));
    for (int j = 0; j < 3; ++j) EXPECT_EQ(gf[j], static_cast<float>(gd[j]));
  }
}

TEST(Graph, BadPointsAreRefused) {
  const graph g;
  const double p5[5] = {0, 0, 0, 0, 0};
  EXPECT_THROW((void)g.eval(std::span<const double>(p5, 5)), perlin::invalid_argument);
  EXPECT_THROW((void)g.eval(std::span<const double>()), perlin::invalid_argument);
  double grad[2];
  EXPECT_THROW((void)g.eval(std::span<const double>(p5, 3), std::span<double>(grad, 2)),
               perlin::invalid_argument);
}

TEST(Graph, TilesWhenItsFieldsSharePeriods) {
  const graph g = graph::from_text(
      "perlin=2&out=x&a=field&a.period=8&b=field&b.period=8&b.seed=4&x=select&x.in=a,b,c&c="
      "scale-point&c.in=a&c.scale=2");
  EXPECT_EQ(g.periods(), std::vector<std::int64_t>{8});
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20; ++i) {
    auto p = random_point(rng, 2);
    for (auto& x : p) x = std::round(x * 64) / 64;  // so that p + 8 is exact
    EXPECT_EQ(bits(eval_at(g, p)), bits(eval_at(g, {p[0] + 8, p[1] - 16})));
  }
  const auto refusal = [](const std::string& text) {
    try {
      (void)graph::from_text(text).periods();
    } catch (const perlin::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refusal("perlin=2&out=x&a=field&a.period=8&b=field&x=add&x.in=a,b"),
            "b.period: the field has no periods, so the graph does not tile (every field needs "
            "the same periods)");
  EXPECT_EQ(refusal("perlin=2&out=x&a=field&a.period=8&b=field&b.period=4&x=add&x.in=a,b"),
            "b.period: the field's periods or frequency differ from 'a''s, so the graph does not "
            "tile (every field needs the same periods and frequency)");
  EXPECT_EQ(refusal("perlin=2&out=x&a=field&a.period=8&x=rotate-point&x.in=a&x.angles=0,0,10"),
            "x.angles: a turned point breaks tiling (angles 0,0,0 keep it)");
  EXPECT_EQ(refusal("perlin=2&out=x&a=field&a.period=8&x=scale-point&x.in=a&x.scale=1.5"),
            "x.scale: a scale that is not a whole number breaks tiling");
}

TEST(Graph, TheNodeTableIsWhatTheIssueNames) {
  const std::vector<std::string> names = {
      "field",           "constant",    "add",      "subtract",
      "multiply",        "min",         "max",      "smooth-min",
      "smooth-max",      "abs",         "invert",   "clamp",
      "scale-bias",      "exponent",    "blend",    "select",
      "curve",           "terrace",     "displace", "scale-point",
      "translate-point", "rotate-point"};
  std::vector<std::string> table;
  for (const auto& r : perlin::node_kinds()) {
    table.emplace_back(r.name);
    EXPECT_NE(r.formula, nullptr);
    EXPECT_FALSE(r.help.empty());
    EXPECT_FALSE(r.gradient.empty());
    for (const auto& p : r.parameters) {
      EXPECT_FALSE(p.help.empty());
      // Every default reads with the parameter's own parser.
      std::string text = "perlin=2&out=x&x=" + std::string(r.name) + "&x." + std::string(p.name) +
                         "=" + std::string(p.default_text);
      if (r.min_inputs > 0) {
        text += "&a=constant&x.in=a";
        for (int i = 1; i < r.min_inputs; ++i) text += ",a";
      }
      EXPECT_NO_THROW((void)graph::from_text(text)) << r.name << "." << p.name;
    }
  }
  EXPECT_EQ(table, names);
  const std::string json = perlin::nodes_json();
  EXPECT_NE(json.find("\"name\": \"select\""), std::string::npos);
  EXPECT_NE(json.find("\"parameters\": \"options\""), std::string::npos);
}

}  // namespace
