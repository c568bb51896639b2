// The command-line flags of the field options, generated from the option table and shared by
// `perlin eval`, `perlin render`, `perlin recipe` and `perlin shader`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "options.hpp"

namespace perlin_cli {

using namespace perlin_render;

/// What the field flags of one command were given.
struct field_flags {
  option_pairs given;  // (table name, text), once each
  std::string recipe;  // --recipe (@FILE: the text FILE holds)
};

/// Registers --NAME for every row of the option table (and --ALIAS, such as --gain), typed as
/// text and parsed by the table when applied; a flag row is a bare --NAME, and --no-NAME sets it
/// to false (a preset's normalize switched off). Also --recipe. `preset_defaults`: the command
/// has presets (render), so --help says that the defaults of the options a preset sets are the
/// preset's.
void add_field_options(CLI::App& app, field_flags& flags, bool preset_defaults = false);

/// The field given by a command's flags: the recipe's field options (render settings in it are
/// refused unless `others` takes them), then the flags, which override it; `warnings` receives
/// "--octaves overrides the recipe's octaves=8" and the table's unused-option warnings.
[[nodiscard]] perlin::field_spec spec_of(const field_flags& flags,
                                         std::vector<std::string>& warnings);

}  // namespace perlin_cli
