// libFuzzer: the option parsers of `perlin render` and `perlin eval` (the option table's one
// parser per type, the render settings, recipes, presets, colormaps, counts) through resolve().
// Line 0 is the output's name, line 1 a recipe (or empty), every later line NAME=VALUE: a field
// option or a render setting. Any result is a plan or an error naming an option, never another
// exception or a crash; a recipe that parsed reads back to the same spec.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "render_plan.hpp"

namespace {

std::vector<std::string> lines(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size && out.size() < 64; ++i) {
    if (data[i] == '\n') {
      out.emplace_back();
    } else {
      out.back().push_back(static_cast<char>(data[i]));
    }
  }
  if (out.size() < 2) out.resize(2);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto l = lines(data, size);
  perlin_render::render_options o;
  o.output = "out" + l[0];
  o.recipe = l[1];
  try {
    for (std::size_t i = 2; i < l.size(); ++i) {
      const std::size_t eq = l[i].find('=');
      const std::string name = l[i].substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : l[i].substr(eq + 1);
      if (perlin::find_option(name) != nullptr) {
        o.field.emplace_back(name, value);
      } else {
        perlin_render::set_render_setting(o, name, value);
      }
    }
    const auto plan = perlin_render::resolve(o);
    // A plan that passed resolve() fits the memory limit and has consistent sizes.
    if (plan.samples() == 0 || plan.width == 0 || plan.height == 0) std::abort();
    (void)plan.frame_grid(0).size();
    (void)plan.frame_path(plan.frames > 0 ? plan.frames - 1 : 0);
    // The field's recipe reads back to the same spec.
    if (!(perlin::spec_from_recipe(perlin::to_recipe(plan.spec)) == plan.spec)) std::abort();
  } catch (const perlin::invalid_argument&) {
  }
  try {
    (void)perlin_render::parse_list(l[0], "origin", 2, 4);
  } catch (const perlin::invalid_argument&) {
  }
  try {
    (void)perlin::spec_from_recipe(l[1]);
  } catch (const perlin::invalid_argument&) {
  }
  return 0;
}
