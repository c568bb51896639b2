// A checked graph (graph.cpp) as the written forms (recipe_form.cpp, json_form.cpp) and the
// evaluation read it, and the node table's text parsers and writers (node_table.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "graph/formula.hpp"
#include "perlin/graph.hpp"

namespace perlin::detail {

/// One node of a checked graph.
struct graph_node_data {
  std::string id;
  const node_info* row = nullptr;
  std::vector<int> inputs;  ///< indices into graph_data::nodes
  node_state state;
};

/// One step of a graph's evaluation plan: a node evaluated at one point (an instance), or the
/// point step of a point transform (the point its first input sees: a new context).
struct plan_step {
  int node = 0;
  int context = 0;          ///< the point context the node sees
  bool point_step = false;  ///< a transform's point step (else the node's value step)
  /// A transform's steps: the context its first input sees (made by its point step).
  int child_context = -1;
  /// The steps whose values this step reads, in the row's input order: a value step all its
  /// inputs' (a transform's: its first input's only), a point step the transform's other inputs.
  std::vector<int> inputs;
};

struct graph_data {
  std::vector<graph_node_data> nodes;  ///< sorted by id
  int output = 0;
  /// The evaluation plan, in order: every step's inputs come before it. Context 0 is the
  /// graph's point; each transform's point step makes one more.
  std::vector<plan_step> plan;
  int contexts = 1;
};

/// Parses a parameter's text with its type's parser and checks its domain; throws
/// perlin::invalid_argument naming "<id>.<name>".
param_value parse_parameter(const node_parameter_info& p, std::string_view id,
                            std::string_view text);
/// The canonical text of a parameter's value (the recipe's, unescaped).
std::string parameter_text(const node_parameter_info& p, const param_value& v);
/// The value as JSON: a number, an array, [[in, out], ...], true/false or a string.
std::string parameter_json(const node_parameter_info& p, const param_value& v);
/// The parameter's default, parsed.
param_value parameter_default(const node_parameter_info& p);

/// A JSON string literal.
std::string json_quote(std::string_view s);
/// Whether `id` is a node id: [a-z][a-z0-9_]*, 1 to 64 characters.
bool is_node_id(std::string_view id);

}  // namespace perlin::detail
