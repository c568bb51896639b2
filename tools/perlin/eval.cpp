// `perlin eval`: reads points, one per line, and prints one value per line with %.17g.
#include "eval.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval_line.hpp"
#include "noise_flags.hpp"
#include "perlin/field.hpp"
#include "perlin/graph.hpp"
#include "perlin/option_table.hpp"
#include "runtime/parallel.hpp"

namespace perlin_cli {

namespace {

struct eval_options {
  field_flags flags;
  perlin::field_spec spec;  // from the flags, when parsed
  int dims = 0;             // 0: from each line
  bool derivatives = false;
  bool use_float = false;
  unsigned threads = 0;  // 0: every usable CPU
};

template <class T>
void print_values(const T* v, int count, std::string& buf) {
  char tmp[32];
  for (int k = 0; k < count; ++k) {
    // The text of printf's %.17g (to_chars with a precision is defined as printf), faster.
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, static_cast<double>(v[k]),
                                 std::chars_format::general, 17);
    if (k != 0) buf.push_back(' ');
    buf.append(tmp, r.ptr);
  }
  buf.push_back('\n');
}

/// F: a perlin::field or a perlin::graph (both have eval for double and float points).
template <class T, class F>
void eval_point(const F& field, const double* p, int n, bool derivatives, std::string& buf) {
  T x[4];
  for (int k = 0; k < n; ++k) x[k] = static_cast<T>(p[k]);
  T out[5];
  out[0] =
      field.eval(std::span<const T>(x, static_cast<std::size_t>(n)),
                 derivatives ? std::span<T>(out + 1, static_cast<std::size_t>(n)) : std::span<T>());
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

/// The longest input line: 4 numbers of 17 digits need about 100 characters; a longer line
/// (a file that is not points, /dev/zero) stops the run instead of filling memory.
constexpr std::size_t k_max_line = 4096;

/// Standard input in lines ending in "\n", "\r\n" or a lone "\r" (old Mac files), read in
/// large blocks with fread; a read error is an error, never a silent end. A UTF-8 byte order
/// mark at the start is skipped; a line longer than k_max_line is a line_error.
class line_reader {
 public:
  /// The next line into `line`; false at the end of the input.
  bool next(std::string& line) {
    line.clear();
    bool any = false;
    ++lines_;
    for (;;) {
      if (pos_ == len_ && !refill()) return any;
      if (lines_ == 1 && !any && !bom_checked_) {
        bom_checked_ = true;
        if (len_ - pos_ >= 3 && std::memcmp(buf_.data() + pos_, "\xEF\xBB\xBF", 3) == 0) pos_ += 3;
        if (pos_ == len_) continue;
      }
      if (skip_lf_) {  // the "\n" of a "\r\n" split between two reads
        skip_lf_ = false;
        if (buf_[pos_] == '\n') {
          ++pos_;
          continue;
        }
      }
      any = true;
      std::size_t stop = pos_;
      while (stop < len_ && buf_[stop] != '\n' && buf_[stop] != '\r') ++stop;
      if (line.size() + (stop - pos_) > k_max_line) {
        throw line_error("line " + std::to_string(lines_) + " is longer than " +
                         std::to_string(k_max_line) + " characters (a point is 1 to 4 numbers)");
      }
      line.append(buf_.data() + pos_, stop - pos_);
      pos_ = stop;
      if (pos_ < len_) {
        skip_lf_ = buf_[pos_++] == '\r';
        return true;
      }
    }
  }

 private:
  bool refill() {
    len_ = std::fread(buf_.data(), 1, buf_.size(), stdin);
    pos_ = 0;
    if (len_ == 0 && std::ferror(stdin)) {
      throw std::runtime_error(std::string("cannot read standard input: ") + std::strerror(errno));
    }
    return len_ > 0;
  }
  std::vector<char> buf_ = std::vector<char>(1 << 20);
  std::size_t pos_ = 0, len_ = 0;
  std::size_t lines_ = 0;
  bool skip_lf_ = false;
  bool bom_checked_ = false;
};

bool is_blank_line(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

/// One line: parsed, evaluated and printed into `buf`; throws line_error.
template <class F>
void eval_line(const eval_options& o, const F& field, const std::string& line, std::size_t number,
               std::string& buf) {
  if (is_blank_line(line)) return;  // blank lines (a trailing one, say) are skipped
  double p[4];
  const int n = parse_line(line, number, p);
  if (o.dims != 0 && n != o.dims) {
    throw line_error("line " + std::to_string(number) + ": expected " + std::to_string(o.dims) +
                     " numbers, got " + std::to_string(n));
  }
  if (o.use_float) {
    eval_point<float>(field, p, n, o.derivatives, buf);
  } else {
    eval_point<double>(field, p, n, o.derivatives, buf);
  }
}

/// The lines of one block split among threads: each part parses, evaluates and prints its
/// lines into its own buffer, stopping at its first bad line.
struct block_part {
  std::string out;
  std::optional<line_error> error;
};

/// Lines are read in blocks of k_block_lines; each block is shared among the threads and printed
/// in order, so the output is the same for every thread count, and memory stays bounded.
constexpr std::size_t k_block_lines = 16384;

template <class F>
int run_eval(const eval_options& o, const F& field) {
  line_reader in;
  std::vector<std::string> lines(k_block_lines);
  std::string buf;
  std::size_t number = 0;  // lines read before this block
  // Reused from block to block (their buffers keep their capacity): memory stays flat however
  // long the input.
  std::vector<block_part> parts(perlin::detail::thread_count(o.threads, k_block_lines / 1024 + 1));
  while (true) {
    std::size_t n = 0;
    // A line the reader refuses (too long) stops the run after the lines before it.
    std::optional<line_error> read_error;
    while (n < k_block_lines) {
      try {
        if (!in.next(lines[n])) break;
      } catch (const line_error& e) {
        read_error = e;
        break;
      }
      ++n;
    }
    if (n == 0 && !read_error) break;
    const unsigned threads = perlin::detail::thread_count(o.threads, n / 1024 + 1);
    for (block_part& part : parts) part.out.clear();
    // One work item per part: part k holds lines [n k / threads, n (k + 1) / threads).
    perlin::detail::parallel_for(threads, threads, [&](std::size_t first, std::size_t last) {
      for (std::size_t k = first; k < last; ++k) {
        block_part& part = parts[k];
        for (std::size_t i = n * k / threads; i < n * (k + 1) / threads; ++i) {
          try {
            eval_line(o, field, lines[i], number + i + 1, part.out);
          } catch (const line_error& err) {
            part.error = err;
            break;
          }
        }
      }
    });
    for (unsigned k = 0; k < threads; ++k) {
      block_part& part = parts[k];
      buf += part.out;
      if (part.error) {
        // The lines before the bad one are printed (then the error): a write failure wins.
        finish_output(buf);
        throw *part.error;
      }
      if (buf.size() > (1u << 16)) flush_output(buf);
    }
    number += n;
    if (read_error) {
      finish_output(buf);
      throw *read_error;
    }
    if (n < k_block_lines) break;
  }
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
  add_field_options(*cmd, opts->flags);
  cmd->add_option("--dims", opts->dims, "Require this many numbers per line (1 to 4)")
      ->check(CLI::Range(1, 4));
  cmd->add_flag("--derivatives", opts->derivatives,
                "Print the value and then the analytic gradient on each line");
  cmd->add_flag("--float", opts->use_float, "Evaluate in single precision");
  cmd->add_option("--threads", opts->threads,
                  "Threads that parse, evaluate and print blocks of lines (0: every core); the "
                  "output is the same for any count")
      ->capture_default_str();
  // A line_error reaches main, which prints it and exits 1 (a failure, not a usage error).
  cmd->callback([opts, &run] {
    run = [opts] {
      std::vector<std::string> warnings;
      if (perlin::is_graph_text(opts->flags.recipe)) {
        // A graph (docs/graphs.md): its fields carry their own options.
        if (!opts->flags.given.empty()) {
          throw perlin::invalid_argument(perlin::error_kind::value,
                                         "--" + opts->flags.given[0].first,
                                         "a graph's fields take their options in the graph "
                                         "(ID.NAME=VALUE), not as flags");
        }
        std::vector<std::pair<std::string, std::string>> skipped;
        const perlin::graph g = perlin::graph::from_text(opts->flags.recipe, &skipped);
        if (auto w = perlin::recipe_skipped_warning(skipped); !w.empty()) {
          std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
        }
        return run_eval(*opts, g);
      }
      opts->spec = spec_of(opts->flags, warnings);
      for (const std::string& w : warnings)
        std::fprintf(stderr, "perlin: warning: %s\n", w.c_str());
      return run_eval(*opts, perlin::make_field(opts->spec));
    };
  });
}

}  // namespace perlin_cli
