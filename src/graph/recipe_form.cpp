// The one-line form of a graph (docs/graphs.md): a recipe of version 2, read and written; a
// version-1 recipe reads as the one-node graph of its field.
//
//   perlin=2&out=t&m=field&m.fractal=ridged&m.octaves=6&t=terrace&t.in=m&t.points=-1,0,0.5,1
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "detail/error.hpp"
#include "field/recipe_text.hpp"
#include "graph/graph_data.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

/// The recipe's pairs, decoded, in order ("&" or white space between them; a leading "?").
std::vector<std::pair<std::string, std::string>> split_pairs(std::string_view text) {
  if (text.size() > 65536) detail::throw_invalid("recipe", "longer than 65536 characters");
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    detail::throw_invalid("recipe", "a NUL byte at position " + std::to_string(nul) +
                                        " (a recipe is text; remove it)");
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t i = !text.empty() && text[0] == '?' ? 1 : 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find_first_of("& \t\r\n", i), text.size());
    const std::string_view item = text.substr(i, end - i);
    i = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      detail::throw_invalid("recipe", detail::quoted(item) + " is not name=value");
    }
    pairs.emplace_back(detail::percent_decode(item.substr(0, eq)),
                       detail::percent_decode(item.substr(eq + 1)));
  }
  return pairs;
}

bool is_render_setting(std::string_view name) {
  const auto names = recipe_render_settings();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

graph graph::from_recipe(std::string_view text,
                         std::vector<std::pair<std::string, std::string>>* skipped) {
  auto pairs = split_pairs(text);
  if (pairs.empty()) {
    detail::throw_invalid("recipe", "empty (a recipe starts with perlin=1 or perlin=2)");
  }
  if (pairs[0].first != "perlin") {
    detail::throw_invalid("recipe", "must start with perlin=1 or perlin=2, got " +
                                        detail::quoted(pairs[0].first + "=" + pairs[0].second));
  }
  const auto version = detail::parse_integer<int>("recipe", pairs[0].second, "a version number");
  if (version < 1 || version > k_graph_version) {
    detail::throw_invalid("recipe", "unknown version " + detail::quoted(pairs[0].second) +
                                        " (this library reads 1 to " +
                                        std::to_string(k_graph_version) + ")");
  }
  if (version == 1) return graph(spec_from_recipe(text, skipped));

  std::map<std::string, graph_node> nodes;  // declared: id=KIND
  std::map<std::string, bool> inputs_given;
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> params;  // in order
  std::string output;
  bool has_output = false;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    auto& [name, value] = pairs[i];
    if (name == "perlin") detail::throw_invalid("recipe", "perlin= is given twice");
    if (name == "out") {
      if (has_output) detail::throw_invalid("out", "given twice");
      has_output = true;
      output = value;
      continue;
    }
    const std::size_t dot = name.find('.');
    if (dot == std::string::npos) {
      if (is_render_setting(name)) {
        if (skipped != nullptr) skipped->emplace_back(name, std::move(value));
        continue;
      }
      if (!detail::is_node_id(name)) {
        detail::throw_invalid("recipe", detail::quoted(name) +
                                            " is neither a node id (ID=KIND), out, nor a render "
                                            "setting of docs/recipes.md");
      }
      graph_node n;
      n.id = name;
      n.kind = value;
      if (!nodes.emplace(name, std::move(n)).second) {
        detail::throw_invalid(name, "is declared twice");
      }
      continue;
    }
    if (is_render_setting(name)) {  // none has a dot today; kept for the rule's sake
      if (skipped != nullptr) skipped->emplace_back(name, std::move(value));
      continue;
    }
    params.emplace_back(name.substr(0, dot),
                        std::make_pair(name.substr(dot + 1), std::move(value)));
  }
  for (auto& [id, pv] : params) {
    const auto it = nodes.find(id);
    if (it == nodes.end()) {
      detail::throw_invalid(
          detail::param_name(id, pv.first),
          "the node " + detail::quoted(id) + " is not declared (give " + id + "=KIND)");
    }
    if (pv.first == "in") {
      if (inputs_given[id]) detail::throw_invalid(detail::param_name(id, "in"), "given twice");
      inputs_given[id] = true;
      for (const auto item : detail::split_list(detail::param_name(id, "in"), pv.second)) {
        it->second.inputs.emplace_back(item);
      }
    } else {
      it->second.parameters.emplace_back(std::move(pv.first), std::move(pv.second));
    }
  }
  if (!has_output) detail::throw_invalid("out", "the graph has no output (give out=ID)");
  std::vector<graph_node> list;
  list.reserve(nodes.size());
  for (auto& [id, n] : nodes) list.push_back(std::move(n));
  return graph(std::move(list), output);
}

std::string graph::recipe() const {
  std::string out = "perlin=" + std::to_string(k_graph_version);
  out += "&out=";
  out += output();
  for (const auto& n : nodes()) {
    out += '&';
    out += n.id;
    out += '=';
    out += n.kind;
    if (!n.inputs.empty()) {
      out += '&';
      out += n.id;
      out += ".in=";
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        if (i != 0) out += ',';
        out += n.inputs[i];
      }
    }
    for (const auto& [name, value] : n.parameters) {
      out += '&';
      out += n.id;
      out += '.';
      out += name;
      out += '=';
      out += recipe_escape(value);
    }
  }
  return out;
}

}  // namespace perlin
