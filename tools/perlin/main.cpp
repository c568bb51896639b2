// The perlin command-line tool: the only code that prints or chooses an exit status.
// Exit status: 0 success, 1 a failure (bad input data, I/O), 2 a usage error (bad options).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "eval.hpp"
#include "noise_flags.hpp"
#include "perlin/error.hpp"
#include "perlin/pending_file.hpp"
#include "perlin/version.hpp"
#include "render.hpp"
#include "serve.hpp"

namespace {

/// SIGINT and SIGTERM: remove the files being written (nothing half-written is ever left), say
/// so, and exit 128 + the signal number (130, 143) as shells do.
extern "C" void on_interrupt(int sig) {
  perlin::remove_pending_files();
  const char* msg = sig == SIGINT ? "perlin: interrupted\n" : "perlin: terminated\n";
  [[maybe_unused]] const ssize_t n = ::write(2, msg, std::strlen(msg));
  ::_exit(128 + sig);
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &sa, nullptr);
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
    std::fprintf(stderr, "perlin: error: %s\n", e.what());
    std::fprintf(stderr, "Run 'perlin --help' or 'perlin SUBCOMMAND --help' for usage.\n");
    return 2;
  }
  try {
    return finish_stdout(run ? run() : 2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perlin: error: %s\n", e.what());
    // A bad option value (the library names the parameter) is a usage error; the rest failed.
    const bool usage = dynamic_cast<const perlin::invalid_argument*>(&e) != nullptr ||
                       dynamic_cast<const perlin_cli::usage_error*>(&e) != nullptr;
    return usage ? 2 : 1;
  }
}
