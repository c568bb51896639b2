// Graphs: fields composed of fields (docs/graphs.md). A graph is a set of named nodes, each of a
// kind of the node table (one row per kind: its inputs, typed parameters, help and formula), and
// an output node. `field` nodes are today's fields, with the option table's options as their
// parameters; the other kinds combine (add, min, select, blend, ...), reshape (curve, terrace,
// clamp, ...) or move the point their input sees (displace, scale-point, ...). The double path
// of every node is its documented formula in a fixed order; where libnoise has the module, its
// doubles are libnoise's. Gradients come through every node by the chain rule.
//
// Two written forms, both read by graph::from_text: the one-line recipe (version 2, a URL query)
//
//   perlin=2&out=t&m=field&m.fractal=ridged&m.octaves=6&t=terrace&t.in=m&t.points=-1,0,0.5,1
//
// and JSON, {"perlin": 2, "nodes": {"ID": {"node": "KIND", "inputs": [...], ...}}, "output":
// "ID"}. A version-1 recipe (a field's, docs/recipes.md) reads as the one-node graph of that
// field, with its bits. Equal graphs have equal text.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "perlin/field_spec.hpp"

namespace perlin {

namespace detail {
struct node_formula;
struct graph_data;
struct graph_access;  // the bulk calls' access to the plan (src/graph/graph_access.hpp)
}  // namespace detail

/// How a node parameter's value is written. One parser per type, in both written forms: a
/// number as the option table's numbers (finite, decimal or scientific); a number list as
/// numbers joined by "," (JSON: an array of numbers); a point list as in:out pairs joined by ","
/// (JSON: [[in, out], ...]); a flag as true or false (also 1, 0); a choice by its name.
enum class node_parameter_type { number, number_list, point_list, flag, choice };
[[nodiscard]] std::string_view to_string(node_parameter_type t) noexcept;

/// One typed parameter of a node kind.
struct node_parameter_info {
  std::string_view name = {};
  node_parameter_type type = node_parameter_type::number;
  std::string_view default_text = {};  ///< the default in the recipe's text
  std::string_view help = {};          ///< one line
  /// Inclusive bounds of a number or of each number of a list, when `has_range`;
  /// `min_exclusive`: greater than `min`.
  bool has_range = false;
  double min = 0, max = 0;
  bool min_exclusive = false;
  std::span<const std::string_view> choices = {};  ///< a choice's names, the default first
  /// How many numbers (number list) or points (point list) it takes.
  int min_count = 1, max_count = 1;
  /// The accepted values in words: "> 0", "1 to 4 numbers", "one of: monotone, libnoise".
  [[nodiscard]] std::string domain() const;
};

/// max_inputs of a kind that takes any number of inputs from min_inputs on.
inline constexpr int k_any_inputs = -1;

/// One row of the node table. Adding a node kind is its row (src/graph/node_table.cpp) and its
/// formula (a file of src/graph/ by concept).
struct node_info {
  std::string_view name = {};
  int min_inputs = 0;
  int max_inputs = 0;  ///< or k_any_inputs
  /// The inputs' names in order ("a", "b", "control"); one name for a kind of any number.
  std::span<const std::string_view> input_names = {};
  std::span<const node_parameter_info> parameters = {};
  /// `field`: the parameters are the option table's options (option_table.hpp), unchanged.
  bool field_options = false;
  /// The first input sees another point than the node (displace and the *-point kinds).
  bool point_transform = false;
  /// The node gives libnoise's module's doubles (in its libnoise mode where it has modes).
  std::string_view libnoise = {};  ///< the libnoise module's name, or empty
  std::string_view help = {};      ///< one line
  std::string_view gradient = {};  ///< its gradient rule in words, with what it gives at kinks
  const detail::node_formula* formula = nullptr;  ///< the formula (src/graph/formula.hpp)
  /// "none", "1 (source)", "2 or more", "2 to 5 (source, x, y, z, w)".
  [[nodiscard]] std::string inputs_text() const;
};

/// Every node kind, in the order `perlin nodes` and docs/nodes.md list them.
[[nodiscard]] std::span<const node_info> node_kinds() noexcept;
/// The row of `name`, or nullptr.
[[nodiscard]] const node_info* find_node_kind(std::string_view name) noexcept;
/// The table as JSON: a list of objects with name, inputs (min, max or null, names),
/// parameters (name, type, default, help, min, max, choices, count), libnoise, help, gradient
/// (`perlin nodes --json`). A field node's parameters are the option table's (options_json).
[[nodiscard]] std::string nodes_json();

/// The version of the graph recipe this library writes; every later version reads it.
inline constexpr int k_graph_version = 2;

/// One node as text: what the written forms hold, and what graph's constructor takes.
/// Parameters are (name, value) in the written forms' text (a field node's are option names
/// and their canonical text).
struct graph_node {
  std::string id;  ///< [a-z][a-z0-9_]*; not `out`, `perlin` nor a render setting's name
  std::string kind;
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, std::string>> parameters;
  friend bool operator==(const graph_node&, const graph_node&) = default;
};

/// A graph of nodes with one output: a field composed of fields. An immutable value, cheap to
/// copy, thread safe to read.
class graph {
 public:
  /// The one-node graph of the default field (node `f`).
  graph();
  /// The one-node graph of a field (node `f`): the field's bits.
  explicit graph(const field_spec& spec);
  /// Checks and builds a graph. Throws perlin::invalid_argument naming the node and parameter
  /// ("t.points: ...", "a.in: a cycle: a -> b -> a", "q: not used by the output 't' ..."):
  /// ids, kinds, inputs (existing, their count), parameters (known, once, in their domain),
  /// cycles, nodes not used by the output.
  graph(std::vector<graph_node> nodes, std::string_view output);

  /// Either written form: text starting with `{` (after white space) is JSON, else a recipe of
  /// version 1 (a field) or 2. Render settings in a recipe (recipe_render_settings) are skipped
  /// and appended to `skipped` when given, as spec_from_recipe does.
  [[nodiscard]] static graph from_text(
      std::string_view text, std::vector<std::pair<std::string, std::string>>* skipped = nullptr);
  [[nodiscard]] static graph from_recipe(
      std::string_view text, std::vector<std::pair<std::string, std::string>>* skipped = nullptr);
  [[nodiscard]] static graph from_json(std::string_view text);

  /// The one-line form (version 2), canonical: the output, then the nodes by id, each with its
  /// inputs and its parameters that differ from their defaults in the table's order.
  [[nodiscard]] std::string recipe() const;
  /// The JSON form, canonical in the same way (no final newline).
  [[nodiscard]] std::string json() const;

  /// The graph at p (1 to 4 coordinates), with the gradient when `gradient` is not empty (one
  /// value per coordinate). Each node is evaluated once per point it sees. Throws
  /// perlin::invalid_argument for a point of another size or a gradient of the wrong size.
  [[nodiscard]] double eval(std::span<const double> p, std::span<double> gradient = {}) const;
  /// The same in float: computed in double and rounded.
  [[nodiscard]] float eval(std::span<const float> p, std::span<float> gradient = {}) const;
  template <class... C>
  requires(sizeof...(C) >= 1 && sizeof...(C) <= 4 && (std::is_arithmetic_v<C> && ...))
      [[nodiscard]] double
      operator()(C... c) const {
    const double p[] = {static_cast<double>(c)...};
    return eval(std::span<const double>(p, sizeof...(C)));
  }

  /// The output node's id.
  [[nodiscard]] const std::string& output() const noexcept;
  /// The nodes by id, parameters as canonical text, defaults omitted.
  [[nodiscard]] std::vector<graph_node> nodes() const;
  /// The field's spec when the graph is one field node (so a front may take the field's own
  /// paths), else nullptr.
  [[nodiscard]] const field_spec* single_field() const noexcept;
  /// The periods with which the graph tiles: its field nodes' common periods (option
  /// `period`, with the same frequency). Throws perlin::invalid_argument naming the node that
  /// stops it: a field without periods or with other periods or frequency than the first field
  /// (by id), a rotate-point with an angle that is not 0, a scale-point with a scale that is not
  /// a whole number.
  [[nodiscard]] std::vector<std::int64_t> periods() const;

  /// Equal graphs: equal recipes.
  friend bool operator==(const graph& a, const graph& b);

 private:
  friend struct detail::graph_access;
  std::shared_ptr<const detail::graph_data> data_;
};

/// Whether `text` is a graph's written form rather than a version-1 recipe: JSON (it starts with
/// `{`) or a recipe whose version is not 1 (after white space and a leading "?", as the readers
/// skip them). The fronts ask it before taking field flags beside a recipe.
[[nodiscard]] bool is_graph_text(std::string_view text) noexcept;

/// The field that either written form names (graph::from_text), as every front reads recipes: a
/// version-1 recipe or a graph of one field node is that field (make_field, with its own bulk
/// routes), any other graph is field::of_graph(graph). `spec`, when given, receives the single
/// field's options (the defaults for a graph); `skipped` the render settings the text carried.
[[nodiscard]] field field_from_text(
    std::string_view text, field_spec* spec = nullptr,
    std::vector<std::pair<std::string, std::string>>* skipped = nullptr);

}  // namespace perlin
