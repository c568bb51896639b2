// parse_line: the numbers of one `perlin eval` input line.
#include "eval_line.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "runtime/text.hpp"

namespace perlin_cli {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// A token as quoted in a message: at most 40 characters, so that a huge bad token is not
/// echoed whole, with control and non-ASCII bytes escaped as \xHH (no terminal escapes reach
/// the terminal).
std::string quoted(std::string_view token) {
  if (token.size() <= 40) return perlin::detail::quoted(token);
  return perlin::detail::quoted(token.substr(0, 37)) + " (" + std::to_string(token.size()) +
         " characters)";
}

}  // namespace

int parse_line(std::string_view line, std::size_t number, double* out) {
  const char* s = line.data();
  const char* end = s + line.size();
  int n = 0;
  const std::string where = "line " + std::to_string(number) + ": ";
  while (true) {
    while (s != end && is_blank(*s)) ++s;
    if (s == end) break;
    const char* tok = s;
    while (s != end && !is_blank(*s)) ++s;
    const std::string_view token(tok, static_cast<std::size_t>(s - tok));
    const char* first = tok;
    if (first != s && *first == '+') ++first;
    double v = 0;
    auto [ptr, ec] = std::from_chars(first, s, v);
    if (ec == std::errc::result_out_of_range && ptr == s) {
      // Underflow (1e-400) is a number too small for a double: it rounds to 0 (or the nearest
      // subnormal), as strtod gives. Overflow stays an error.
      const std::string text(first, s);
      const double u = std::strtod(text.c_str(), nullptr);
      if (std::abs(u) < 1.0) {
        v = u;
        ec = std::errc();
      }
    }
    if (ec == std::errc::result_out_of_range)
      throw line_error(where + quoted(token) + " is out of range");
    if (ec != std::errc() || ptr != s) throw line_error(where + quoted(token) + " is not a number");
    if (std::isnan(v)) throw line_error(where + "NaN is not a coordinate");
    if (std::isinf(v)) throw line_error(where + "an infinity is not a coordinate");
    if (std::abs(v) > k_max_coordinate) {
      throw line_error(where + quoted(token) + " is out of range (|x| <= 2^52)");
    }
    if (n == 4) throw line_error(where + "more than 4 numbers");
    out[n++] = v;
  }
  if (n == 0) throw line_error(where + "no numbers");
  return n;
}

}  // namespace perlin_cli
