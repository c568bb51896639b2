// `perlin eval`: noise values of points read from standard input.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace perlin_cli {

/// Registers the subcommand; `run` is set to the action to take once parsing succeeded.
void add_eval_command(CLI::App& app, std::function<int()>& run);

}  // namespace perlin_cli
