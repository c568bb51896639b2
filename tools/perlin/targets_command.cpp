// `perlin targets`: the SIMD targets compiled in and usable here, best first, the active one
// marked.
#include <cstdio>
#include <string>

#include "perlin/targets.hpp"
#include "render.hpp"

namespace perlin_cli {

void add_targets_command(CLI::App& app, std::function<int()>& run) {
  CLI::App* cmd = app.add_subcommand(
      "targets", "List the SIMD targets compiled in and supported here, best first; * marks the active one");
  cmd->callback([&run] {
    run = [] {
      const std::string active = perlin::active_target();
      for (const auto& t : perlin::available_targets()) {
        std::printf("%s%s\n", t.c_str(), t == active ? " *" : "");
      }
      return 0;
    };
  });
}

}  // namespace perlin_cli
