// `perlin serve`: the live preview page.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace perlin_cli {

/// Registers the subcommand; `run` is set to the action to take once parsing succeeded.
void add_serve_command(CLI::App& app, std::function<int()>& run);

}  // namespace perlin_cli
