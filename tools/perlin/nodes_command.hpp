// `perlin nodes`: the node table of graphs (include/perlin/graph.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace perlin_cli {

/// Registers `perlin nodes` (text, --json, --markdown: docs/nodes.md).
void add_nodes_command(CLI::App& app, std::function<int()>& run);

}  // namespace perlin_cli
