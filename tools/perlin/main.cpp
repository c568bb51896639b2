// The perlin command-line tool: the only code that prints or chooses an exit status.
// Exit status: 0 success, 1 a failure (bad input data, I/O), 2 a usage error (bad options).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "eval.hpp"
#include "nodes_command.hpp"
#include "noise_flags.hpp"
#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "perlin/pending_file.hpp"
#include "perlin/version.hpp"
#include "render.hpp"
#include "serve.hpp"
#include "usage.hpp"

namespace {

/// SIGINT and SIGTERM: remove the files being written (nothing half-written is ever left), say
/// so, and exit 128 + the signal number (130, 143) as shells do.
/// Whether standard error is a terminal (where the progress bar may hold the line): set once
/// before the handlers are installed, read by the handler (async-signal-safe).
volatile sig_atomic_t g_stderr_tty = 0;

extern "C" void on_interrupt(int sig) {
  perlin::remove_pending_files();
  // A fresh line first (the progress bar's is cleared on a terminal), then what was kept: the
  // files being written are removed, every file that was there before is as it was.
  if (g_stderr_tty != 0) {
    [[maybe_unused]] const ssize_t c = ::write(2, "\r\033[K", 4);
  }
  const char* msg = sig == SIGINT ? "perlin: interrupted: " : "perlin: terminated: ";
  const char* kept =
      "the files being written were removed; the files that were there before (an earlier "
      "render's frames or tiles included) are unchanged\n";
  [[maybe_unused]] const ssize_t n = ::write(2, msg, std::strlen(msg));
  [[maybe_unused]] const ssize_t m = ::write(2, kept, std::strlen(kept));
  ::_exit(128 + sig);
}

void install_signal_handlers() {
  g_stderr_tty = ::isatty(2) != 0 ? 1 : 0;
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &sa, nullptr);
}

/// "--octave 5" is not a flag of `sub`: CLI11 says "The following arguments were not expected:
/// 5 --octave"; say which flag was meant instead, with the option table's distance rule.
std::string unknown_flag_hint(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return {};
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands({})) {
    if (s->get_name() == argv[1]) sub = s;
  }
  if (sub == nullptr) return {};
  std::vector<std::string> names;
  for (const CLI::Option* o : sub->get_options()) {
    for (const std::string& n : o->get_lnames()) names.push_back(n);
    for (const std::string& n : o->get_fnames()) names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string hint;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.substr(0, 2) != "--") continue;
    const std::string_view name = arg.substr(2, arg.find('=') - 2);
    if (std::binary_search(names.begin(), names.end(), name)) continue;
    const std::string near = perlin::closest_name(name, candidates);
    hint += "unknown option '--" + std::string(name) + "'" +
            (near.empty() ? "" : " (did you mean '--" + near + "'?)") + "\n";
  }
  return hint;
}

/// The last flush of standard output: a write error there is a failure, not a silent loss.
int finish_stdout(int status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "perlin: error: cannot write to standard output: %s\n",
                 std::strerror(errno));
    return status == 0 ? 1 : status;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  install_signal_handlers();
  CLI::App app{"perlin: Ken Perlin's improved noise, exact and fast"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "perlin " + std::string(perlin::version()));
  std::function<int()> run;
  perlin_cli::add_eval_command(app, run);
  perlin_cli::add_render_command(app, run);
  perlin_cli::add_targets_command(app, run);
  perlin_cli::add_serve_command(app, run);
  perlin_cli::add_options_command(app, run);
  perlin_cli::add_shader_command(app, run);
  perlin_cli::add_nodes_command(app, run);
  // CLI11 reports an unknown subcommand as "a subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::string valid;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      valid += (valid.empty() ? "" : ", ") + sub->get_name();
      known |= sub->get_name() == argv[1];
    }
    if (!known) {
      std::fprintf(stderr, "perlin: error: unknown command '%s' (valid: %s)\n", argv[1],
                   valid.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and friends are "errors" with exit code 0 in CLI11.
    if (e.get_exit_code() == 0) return finish_stdout(app.exit(e));
    const std::string hint = unknown_flag_hint(app, argc, argv);
    if (!hint.empty()) {
      // One line an unknown flag, each with its nearest name, instead of CLI11's list.
      std::string_view rest = hint;
      while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        std::fprintf(stderr, "perlin: error: %.*s\n", static_cast<int>(nl), rest.data());
        rest.remove_prefix(nl + 1);
      }
    } else {
      std::fprintf(stderr, "perlin: error: %s\n", e.what());
    }
    std::fprintf(stderr, "Run 'perlin %s--help' for usage.\n",
                 argc > 1 && argv[1][0] != '-' ? (std::string(argv[1]) + " ").c_str() : "");
    return 2;
  }
  try {
    return finish_stdout(run ? run() : 2);
  } catch (const std::exception& e) {
    // The render's setting errors name settings; the CLI says them as its flags.
    const auto* setting = dynamic_cast<const perlin_render::setting_error*>(&e);
    std::fprintf(stderr, "perlin: error: %s\n",
                 setting != nullptr ? perlin_cli::flag_message(*setting).c_str() : e.what());
    // A bad option value (the library names the parameter) is a usage error; the rest failed.
    const bool usage = dynamic_cast<const perlin::invalid_argument*>(&e) != nullptr ||
                       dynamic_cast<const perlin_cli::usage_error*>(&e) != nullptr;
    return usage ? 2 : 1;
  }
}
