// The CLI's wording of errors: a usage error (exit status 2), and the render's setting errors
// written with the flags that set them (--size), as the CLI's messages say them.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "options.hpp"
#include "perlin/option_table.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

/// A usage error found after parsing (a bad combination or value): exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The flag that sets a render setting or a field option, through their rows ("frames":
/// "--frames"); the render's other options (output, format, compression) are flags of the same
/// name.
inline std::string flag_of(std::string_view name) {
  if (const auto* s = perlin_render::find_render_setting(name)) return "--" + std::string(s->name);
  if (const auto* o = perlin::find_option(name)) return "--" + std::string(o->name);
  return "--" + std::string(name);
}

/// The message of a render's setting error as the CLI says it: every setting and option it names
/// as its flag ("--frames and --depth cannot be combined").
inline std::string flag_message(const perlin_render::setting_error& e) {
  return e.worded([](std::string_view name) { return flag_of(name); });
}

}  // namespace perlin_cli
