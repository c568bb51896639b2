// The field options' flags (CLI11), one per row of the option table.
#include "noise_flags.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "perlin/option_table.hpp"
#include "presets.hpp"

namespace perlin_cli {

namespace {

bool set_by_a_preset(std::string_view name) {
  for (const auto& p : presets()) {
    if (names(p.field, name)) return true;
  }
  return false;
}

}  // namespace

void add_field_options(CLI::App& app, field_flags& flags, bool preset_defaults) {
  for (const perlin::option_info& row : perlin::field_options()) {
    const std::string name(row.name);
    std::string help(row.help);
    if (row.type != perlin::option_type::flag && row.type != perlin::option_type::seed &&
        row.type != perlin::option_type::choice) {
      help += "; " + row.domain();
    }
    if (!row.unit.empty()) help += " (" + std::string(row.unit) + ")";
    if (preset_defaults && set_by_a_preset(row.name)) {
      help += " (default: the preset's)";
    } else if (!row.default_text().empty() && row.type != perlin::option_type::flag) {
      help += " (default " + row.default_text() + ")";
    } else if (!row.unset.empty()) {
      help += " (default: " + std::string(row.unset) + ")";
    }
    auto record = [&flags, name](std::string text) {
      auto& g = flags.given;
      g.erase(std::remove_if(g.begin(), g.end(), [&](const auto& p) { return p.first == name; }),
              g.end());
      g.emplace_back(name, std::move(text));
    };
    if (row.type == perlin::option_type::flag) {
      app.add_flag_function(
          "--" + name + ",!--no-" + name,
          [record](std::int64_t count) { record(count > 0 ? "true" : "false"); }, help);
    } else {
      const std::string flag =
          "--" + name + (row.alias.empty() ? "" : ",--" + std::string(row.alias));
      const char* type = row.type == perlin::option_type::integer   ? "INT"
                         : row.type == perlin::option_type::number  ? "NUMBER"
                         : row.type == perlin::option_type::seed    ? "SEED"
                         : row.type == perlin::option_type::periods ? "P[,P..]"
                                                                    : "NAME";
      app.add_option_function<std::string>(
             flag, [record](const std::string& v) { record(v); }, help)
          ->type_name(type);
    }
  }
  app.add_option_function<std::string>(
         "--recipe",
         [&flags](const std::string& v) {
           flags.recipe = v;
           if (v.empty() || v[0] != '@') return;
           // @FILE: the recipe or graph (either written form) that FILE holds.
           std::ifstream in(v.substr(1), std::ios::binary);
           std::ostringstream text;
           if (!(in && text << in.rdbuf()))
             throw CLI::ValidationError("--recipe", "cannot read '" + v.substr(1) + "'");
           flags.recipe = text.str();
           flags.recipe.erase(flags.recipe.find_last_not_of(" \t\r\n") + 1);
         },
         "A recipe (perlin recipe; docs/recipes.md) or a graph (docs/graphs.md: the one-line "
         "form or JSON) to start from, or @FILE to read it from FILE; options given beside a "
         "version-1 recipe override it")
      ->type_name("TEXT");
}

perlin::field_spec spec_of(const field_flags& flags, std::vector<std::string>& warnings) {
  perlin::field_spec spec;
  if (!flags.recipe.empty()) {
    std::vector<std::pair<std::string, std::string>> skipped;
    spec = perlin::spec_from_recipe(flags.recipe, &skipped);
    if (auto w = perlin::recipe_skipped_warning(skipped); !w.empty()) {
      warnings.push_back(std::move(w));
    }
    for (const auto& [name, value] : flags.given) {
      const std::string old = perlin::option(name).get(spec);
      if (old != perlin::field_spec{}.get(name)) {
        warnings.push_back("--" + name + " overrides the recipe's " + name + "=" + old);
      }
    }
  }
  apply_options(spec, flags.given);
  std::vector<std::string> names;
  for (const auto& [name, value] : flags.given) names.push_back(name);
  for (auto& w : perlin::unused_options(spec, names)) warnings.push_back(std::move(w));
  return spec;
}

}  // namespace perlin_cli
