// `perlin targets`: the SIMD targets compiled in and usable here, best first, the active one
// marked.
#include <cstdio>
#include <string>

#include "perlin/targets.hpp"
#include "render.hpp"

namespace perlin_cli {

void add_targets_command(CLI::App& app, std::function<int()>& run) {
  CLI::App* cmd = app.add_subcommand("targets",
                                     "List the SIMD targets compiled in and supported here, best "
                                     "first, and their self-check; * marks the active one");
  cmd->callback([&run] {
    run = [] {
      const std::string active = perlin::active_target();
      for (const auto& t : perlin::target_report()) {
        if (t.passed) {
          std::printf("%s%s: self-check passed\n", t.name.c_str(), t.name == active ? " *" : "");
        } else {
          std::printf("%s (not used: failed its self-check: %s)\n", t.name.c_str(),
                      t.failure.c_str());
        }
      }
      return 0;
    };
  });
}

}  // namespace perlin_cli
