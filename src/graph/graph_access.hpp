// The bulk calls' (graph_grid.cpp) access to a graph's checked nodes and evaluation plan.
#pragma once

#include "graph/graph_data.hpp"

namespace perlin::detail {

struct graph_access {
  static const graph_data& data(const graph& g) noexcept { return *g.data_; }
};

}  // namespace perlin::detail
