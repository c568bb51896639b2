// A graph as a field (field::of_graph) and the one reader of recipes that the fronts share
// (graph.hpp, field_from_text).
#include <string_view>
#include <utility>

#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/option_table.hpp"

namespace perlin {

bool is_graph_text(std::string_view text) noexcept {
  const std::size_t first = text.find_first_not_of(" \t\r\n?");
  if (first == std::string_view::npos) return false;
  const std::string_view rest = text.substr(first);
  constexpr std::string_view v1 = "perlin=1";
  const bool version_1 =
      rest.starts_with(v1) &&
      (rest.size() == v1.size() ||
       std::string_view("& \t\r\n").find(rest[v1.size()]) != std::string_view::npos);
  return rest.front() == '{' || (rest.starts_with("perlin=") && !version_1);
}

field field_from_text(std::string_view text, field_spec* spec,
                      std::vector<std::pair<std::string, std::string>>* skipped) {
  // A version-1 recipe is read as a field's, so its errors name the option as they always did
  // (a graph would name its one node: "f.frequency: ...").
  if (!is_graph_text(text)) {
    field_spec s = spec_from_recipe(text, skipped);
    field f = make_field(s);
    if (spec != nullptr) *spec = std::move(s);
    return f;
  }
  const graph g = graph::from_text(text, skipped);
  if (const field_spec* single = g.single_field()) {
    field f = make_field(*single);
    if (spec != nullptr) *spec = *single;
    return f;
  }
  if (spec != nullptr) *spec = field_spec{};
  return field::of_graph(g);
}

}  // namespace perlin
