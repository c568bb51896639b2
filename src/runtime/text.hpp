// The one parser per type of the option table (option_table.hpp), shared by every front that
// reads options as text: integers, numbers, flags, seeds and comma-separated lists, with one
// message shape ("<option>: '<text>' is not <what>").
#pragma once

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "detail/error.hpp"
#include "perlin/error.hpp"

namespace perlin::detail {

/// The text for a message: at most 40 characters, control and non-ASCII bytes escaped as \xHH,
/// in single quotes, so no message carries terminal escapes or invalid UTF-8.
inline std::string quoted(std::string_view v) {
  std::string out = "'";
  const std::size_t n = v.size() > 40 ? 40 : v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(v[i]);
    if (c < 0x20 || c >= 0x7F) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + (v.size() > 40 ? "...'" : "'");
}

/// A decimal integer with an optional sign ("+42", "-3"); nothing else (no spaces, no "0x").
/// Throws invalid_argument "<option>: '<v>' is not an integer" (or out of range for T).
template <class T>
T parse_integer(std::string_view option, std::string_view v, const char* what = "an integer") {
  const char* first = v.data();
  const char* last = v.data() + v.size();
  const bool plus = first != last && *first == '+';
  if (plus) ++first;
  if (first == last || (plus && *first == '-'))
    detail::throw_invalid(std::string(option), quoted(v) + " is not " + what);
  T out{};
  const auto [ptr, ec] = std::from_chars(first, last, out);
  if (ec == std::errc::result_out_of_range && ptr == last) {
    detail::throw_invalid(std::string(option), quoted(v) + " is out of range");
  }
  if (ec != std::errc() || ptr != last)
    detail::throw_invalid(std::string(option), quoted(v) + " is not " + what);
  return out;
}

/// std::from_chars for a double in chars_format::general, written out for standard libraries
/// that lack it (emscripten 3.1.6's libc++, in the WebAssembly build): the longest prefix of
/// [-](digits[.digits]|.digits)[(e|E)[+|-]digits], or inf, infinity, nan (any case), converted by
/// strtod (correctly rounded in glibc and musl). Tests hold it equal to std::from_chars.
inline std::from_chars_result portable_number_from_chars(const char* first, const char* last,
                                                         double& out) {
  const char* p = first;
  if (p != last && *p == '-') ++p;
  const auto digit = [&](const char* q) { return q != last && *q >= '0' && *q <= '9'; };
  const auto word = [&](std::string_view w) {
    if (static_cast<std::size_t>(last - p) < w.size()) return false;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if ((p[i] | 0x20) != w[i]) return false;
    }
    return true;
  };
  const char* end = nullptr;
  if (word("infinity")) {
    end = p + 8;
  } else if (word("inf") || word("nan")) {
    end = p + 3;
  } else {
    const char* q = p;
    bool any = false;
    for (; digit(q); ++q) any = true;
    if (q != last && *q == '.') {
      for (++q; digit(q); ++q) any = true;
    }
    if (!any) return {first, std::errc::invalid_argument};
    end = q;
    if (q != last && (*q == 'e' || *q == 'E')) {
      const char* e = q + 1;
      if (e != last && (*e == '+' || *e == '-')) ++e;
      if (digit(e)) {
        while (digit(e)) ++e;
        end = e;
      }
    }
  }
  const std::string text(first, end);
  errno = 0;
  const double v = std::strtod(text.c_str(), nullptr);
  // strtod says ERANGE for subnormal results too; from_chars takes those.
  if (errno == ERANGE && (std::isinf(v) || v == 0)) return {end, std::errc::result_out_of_range};
  out = v;
  return {end, std::errc()};
}

/// std::to_chars(double) (the shortest text that reads back exactly, fixed or scientific,
/// whichever is shorter, fixed on a tie), written out for standard libraries that lack it: the
/// fewest significant digits that round-trip (printf's %.*e, correctly rounded), laid out both
/// ways. Tests hold it equal to std::to_chars.
inline std::string portable_shortest_text(double v) {
  char buf[64];
  if (!std::isfinite(v)) {
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  int precision = 0;
  for (; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", precision, v);
  const std::string sci_text = buf;  // [-]d[.ddd]e(+|-)XX
  const bool negative = sci_text[0] == '-';
  const std::size_t e_at = sci_text.find('e');
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e_at; ++i) {
    if (sci_text[i] != '.') digits += sci_text[i];
  }
  const int exponent = std::atoi(sci_text.c_str() + e_at + 1);
  const int n = static_cast<int>(digits.size());
  std::string fixed = negative ? "-" : "";
  if (exponent >= n - 1) {
    // An integer: its exact digits are as short as the rounded ones and closer (the standard
    // picks the nearest of the shortest): 53165205877497296, not ...300.
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
    fixed += buf;
  } else if (exponent >= 0) {
    fixed += digits.substr(0, static_cast<std::size_t>(exponent) + 1) + "." +
             digits.substr(static_cast<std::size_t>(exponent) + 1);
  } else {
    fixed += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  }
  return fixed.size() <= sci_text.size() ? fixed : sci_text;
}

/// std::from_chars for a double (general format) where the library has it, else the above.
inline std::from_chars_result number_from_chars(const char* first, const char* last, double& out) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  return std::from_chars(first, last, out, std::chars_format::general);
#else
  return portable_number_from_chars(first, last, out);
#endif
}

/// The decimal exponent of a number's first non-zero digit in a well-formed decimal or
/// scientific text ("1e-400": -400, "0.001": -3, "123": 2), to tell underflow from overflow.
inline long long decimal_magnitude(const char* first, const char* last) {
  if (first != last && (*first == '-' || *first == '+')) ++first;
  long long magnitude = 0;
  bool seen_digit = false, after_point = false;
  const char* p = first;
  for (; p != last && *p != 'e' && *p != 'E'; ++p) {
    if (*p == '.') {
      after_point = true;
    } else if (!seen_digit && *p == '0') {
      if (after_point) --magnitude;
    } else if (!seen_digit) {
      seen_digit = true;
      if (after_point) --magnitude;
    } else if (!after_point) {
      ++magnitude;
    }
  }
  long long exponent = 0;
  if (p != last) {
    ++p;
    const bool negative = p != last && *p == '-';
    if (p != last && (*p == '-' || *p == '+')) ++p;
    for (; p != last && exponent < (1LL << 40); ++p) exponent = exponent * 10 + (*p - '0');
    if (negative) exponent = -exponent;
  }
  return magnitude + exponent;
}

/// A finite decimal or scientific number with an optional sign ("1e3", "+0.5", "-2"); not
/// "inf", "nan", hexadecimal or with spaces. Throws invalid_argument.
inline double parse_number(std::string_view option, std::string_view v) {
  const char* first = v.data();
  const char* last = v.data() + v.size();
  const bool plus = first != last && *first == '+';
  if (plus) ++first;
  double out = 0;
  const auto [ptr, ec] = number_from_chars(first, last, out);
  if (first == last || (plus && *first == '-') || ptr != last ||
      (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    detail::throw_invalid(std::string(option), quoted(v) + " is not a number");
  }
  if (ec == std::errc::result_out_of_range && decimal_magnitude(first, last) < 0) {
    detail::throw_invalid(std::string(option),
                          quoted(v) +
                              " is too close to 0 for a double (below about 4.9e-324): "
                              "give 0 or a number of a size a double holds");
  }
  if (ec == std::errc::result_out_of_range || !std::isfinite(out)) {
    detail::throw_invalid(std::string(option), "must be finite, got " + quoted(v));
  }
  return out;
}

/// 1, 0, true or false.
inline bool parse_flag(std::string_view option, std::string_view v) {
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  detail::throw_invalid(std::string(option), quoted(v) + " is not 1, 0, true or false");
}

/// An integer from 0 to 2^64-1.
inline std::uint64_t parse_seed(std::string_view option, std::string_view v) {
  constexpr const char* what = "an integer from 0 to 18446744073709551615";
  if (!v.empty() && v[0] == '-')
    detail::throw_invalid(std::string(option), quoted(v) + " is not " + what);
  const char* first = v.data() + (!v.empty() && v[0] == '+' ? 1 : 0);
  std::uint64_t out = 0;
  const auto [ptr, ec] = std::from_chars(first, v.data() + v.size(), out);
  if (first == v.data() + v.size() || ec != std::errc() || ptr != v.data() + v.size()) {
    detail::throw_invalid(std::string(option), quoted(v) + " is not " + what);
  }
  return out;
}

/// The items of a comma-separated list, each non-empty ("1,,2" and "1," are refused).
inline std::vector<std::string_view> split_list(std::string_view option, std::string_view v) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = v.find(',', start);
    const std::string_view item =
        v.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) detail::throw_invalid(std::string(option), quoted(v) + " has an empty item");
    out.push_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

/// The shortest text that parses back to the same double (std::to_chars), with "e+" written as
/// "e" so that the text needs no escaping in a URL: 0.015625, 1e20, -2.5e-07.
inline std::string number_text(double v) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string out(buf, r.ptr);
#else
  std::string out = portable_shortest_text(v);
#endif
  if (const auto e = out.find("e+"); e != std::string::npos) out.erase(e + 1, 1);
  return out;
}

}  // namespace perlin::detail
