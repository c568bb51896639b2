// `perlin eval`: reads points, one per line, and prints one value per line with %.17g.
#include "eval.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "eval_line.hpp"
#include "noise_flags.hpp"
#include "perlin/field.hpp"

namespace perlin_cli {

namespace {

struct eval_options {
  noise_options noise;
  int dims = 0;  // 0: from each line
  bool derivatives = false;
  bool use_float = false;
};

template <class T>
void print_values(const T* v, int count, std::string& buf) {
  char tmp[32];
  for (int k = 0; k < count; ++k) {
    const int len = std::snprintf(tmp, sizeof tmp, "%.17g", static_cast<double>(v[k]));
    if (k != 0) buf.push_back(' ');
    buf.append(tmp, static_cast<std::size_t>(len));
  }
  buf.push_back('\n');
}

template <class T>
void eval_point(const perlin::field& field, const double* p, int n, bool derivatives,
                std::string& buf) {
  T x[4];
  for (int k = 0; k < n; ++k) x[k] = static_cast<T>(p[k]);
  T out[5];
  out[0] = field.eval<T>(std::span<const T>(x, static_cast<std::size_t>(n)),
                         derivatives ? std::span<T>(out + 1, static_cast<std::size_t>(n))
                                     : std::span<T>());
  print_values(out, derivatives ? n + 1 : 1, buf);
}

/// Writes `buf` to standard output and empties it; a short or failed write is an error (a full
/// disk, a closed pipe, /dev/full), never silently dropped output.
void flush_output(std::string& buf) {
  if (!buf.empty() && std::fwrite(buf.data(), 1, buf.size(), stdout) != buf.size()) {
    throw std::runtime_error(std::string("cannot write to standard output: ") +
                             std::strerror(errno));
  }
  buf.clear();
}

/// The last flush: the C library's buffer too, and its error indicator.
void finish_output(std::string& buf) {
  flush_output(buf);
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    throw std::runtime_error(std::string("cannot write to standard output: ") +
                             std::strerror(errno));
  }
}

/// Reads one line ending in "\n", "\r\n" or a lone "\r" (old Mac files); false at the end.
bool read_line(std::streambuf* in, std::string& line) {
  line.clear();
  int c = in->sbumpc();
  if (c == std::char_traits<char>::eof()) return false;
  while (c != std::char_traits<char>::eof() && c != '\n') {
    if (c == '\r') {
      if (in->sgetc() == '\n') in->sbumpc();
      break;
    }
    line.push_back(static_cast<char>(c));
    c = in->sbumpc();
  }
  return true;
}

bool is_blank_line(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

int run_eval(const eval_options& o) {
  const perlin::field field = make_field(o.noise);
  std::ios::sync_with_stdio(false);
  std::string line;
  std::string buf;
  std::size_t number = 0;
  try {
    std::streambuf* in = std::cin.rdbuf();
    while (read_line(in, line)) {
      ++number;
      if (is_blank_line(line)) continue;  // blank lines (a trailing one, say) are skipped
      double p[4];
      const int n = parse_line(line, number, p);
      if (o.dims != 0 && n != o.dims) {
        throw line_error("line " + std::to_string(number) + ": expected " +
                         std::to_string(o.dims) + " numbers, got " + std::to_string(n));
      }
      if (o.use_float) {
        eval_point<float>(field, p, n, o.derivatives, buf);
      } else {
        eval_point<double>(field, p, n, o.derivatives, buf);
      }
      if (buf.size() > (1u << 16)) flush_output(buf);
    }
  } catch (const line_error&) {
    // The lines before the bad one are printed (then the error): a write failure wins.
    finish_output(buf);
    throw;
  }
  if (std::cin.bad()) throw std::runtime_error("cannot read standard input");
  finish_output(buf);
  return 0;
}

}  // namespace

void add_eval_command(CLI::App& app, std::function<int()>& run) {
  auto opts = std::make_shared<eval_options>();
  CLI::App* cmd = app.add_subcommand(
      "eval",
      "Read points from standard input, one per line (1 to 4 numbers), and print the noise at "
      "each with 17 significant digits");
  add_noise_options(*cmd, opts->noise);
  cmd->add_option("--dims", opts->dims, "Require this many numbers per line (1 to 4)")
      ->check(CLI::Range(1, 4));
  cmd->add_flag("--derivatives", opts->derivatives,
                "Print the value and then the analytic gradient on each line");
  cmd->add_flag("--float", opts->use_float, "Evaluate in single precision");
  // A line_error reaches main, which prints it and exits 1 (a failure, not a usage error).
  cmd->callback([opts, cmd, &run] {
    const auto given = [cmd](const char* name) { return cmd->get_option(name)->count() > 0; };
    for (const std::string& w : perlin_render::unused_noise_options(opts->noise, given)) {
      std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
    }
    run = [opts] { return run_eval(*opts); };
  });
}

}  // namespace perlin_cli
