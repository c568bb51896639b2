// `perlin shader`: shader source for the field options given (perlin::shader_source, docs/gpu.md).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "noise_flags.hpp"
#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/option_table.hpp"
#include "perlin/pending_file.hpp"
#include "perlin/shader.hpp"
#include "render.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

void add_shader_command(CLI::App& app, std::function<int()>& run) {
  struct shader_flags {
    field_flags field;
    std::string lang = "glsl";
    std::string precision = "float";
    int dims = 3;
    bool standalone = false;
    std::string output;
  };
  auto f = std::make_shared<shader_flags>();
  CLI::App* cmd = app.add_subcommand(
      "shader",
      "Write shader code that computes the field on the GPU: perlin_field(p) (docs/gpu.md)");
  // The languages are the library's rows (perlin::shader_languages).
  std::string lang_help = "Shader language:";
  std::vector<std::string> lang_names;
  for (const auto& row : perlin::shader_languages()) {
    lang_help += (lang_names.empty() ? " " : ", ") + std::string(row.name) + " (" +
                 std::string(row.use) + ")";
    lang_names.emplace_back(row.name);
  }
  cmd->add_option("--lang", f->lang, lang_help)->check(CLI::IsMember(lang_names));
  cmd->add_option("--precision", f->precision,
                  "float, or double (GLSL 4.00+: bit for bit the CPU's double path)")
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--dims", f->dims, "Coordinates perlin_field takes, 1 to 4 (default 3)")
      ->check(CLI::Range(1, 4));
  cmd->add_flag("--standalone", f->standalone,
                "A complete program around perlin_field that fills a grid (docs/gpu.md): a compute "
                "shader, or for glsl-es a fragment shader writing the values' bits");
  cmd->add_option("-o,--output", f->output, "Output file (default: standard output)");
  add_field_options(*cmd, f->field);
  cmd->callback([f, &run] {
    run = [f] {
      std::vector<std::string> warnings;
      const perlin::field_spec spec = spec_of(f->field, warnings);
      for (const auto& w : warnings) std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
      const std::string text = perlin::shader_source(
          spec, {.language = perlin::parse_shader_language(f->lang),
                 .double_precision = perlin::parse_shader_precision(f->precision),
                 .dims = static_cast<std::size_t>(f->dims),
                 .standalone = f->standalone});
      if (f->output.empty() || f->output == "-") {
        // main checks the last flush and the stream's error state.
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
          throw perlin::io_error("cannot write to standard output");
        return 0;
      }
      perlin::pending_file file(f->output);
      file.write(text.data(), text.size());
      file.publish();
      return 0;
    };
  });
}

}  // namespace perlin_cli
