// `perlin render`: textures, heightmaps, volumes and animation frames as PNG, .npy, RAW, TIFF or
// OpenEXR files (docs/render.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "usage.hpp"  // usage_error, which the commands throw

namespace perlin_cli {

/// Registers the subcommand; `run` is set to the action to take once parsing succeeded.
void add_render_command(CLI::App& app, std::function<int()>& run);

/// Registers `perlin targets`: the SIMD targets compiled in and usable here, the active one marked.
void add_targets_command(CLI::App& app, std::function<int()>& run);

/// Registers `perlin options` (the option table) and `perlin recipe` (the recipe of the options).
void add_options_command(CLI::App& app, std::function<int()>& run);
/// `perlin shader` (shader_command.cpp).
void add_shader_command(CLI::App& app, std::function<int()>& run);

}  // namespace perlin_cli
