// The command-line flags of the noise options, shared by `perlin eval` and `perlin render`.
#pragma once

#include <CLI/CLI.hpp>

#include "options.hpp"

namespace perlin_cli {

using namespace perlin_render;

/// Registers --noise, --interp, --seed, --period, --fractal, --octaves, --lacunarity,
/// --persistence, --normalize, --decorrelate and, when `with_frequency`, --frequency (the
/// fractal's base frequency; `perlin render` uses --frequency for the pixel step instead).
/// The valid names of the enum options come from the library's tables.
/// `preset_defaults`: the defaults come from a preset (render), so --help does not show the
/// eval defaults for them.
void add_noise_options(CLI::App& app, noise_options& o, bool with_frequency = true,
                       bool preset_defaults = false);

}  // namespace perlin_cli
