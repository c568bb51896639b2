// A graph as a field (field::of_graph) and the one reader of recipes that the fronts share
// (graph.hpp, field_from_text).
#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"

namespace perlin {

field field_from_text(std::string_view text, field_spec* spec,
                      std::vector<std::pair<std::string, std::string>>* skipped) {
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
