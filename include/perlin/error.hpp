// The one exception hierarchy through which the library reports every error.
#pragma once

#include <stdexcept>
#include <string>

namespace perlin {

/// A parameter or argument outside its documented domain. The message names the parameter and
/// the accepted range. Thrown where the value is set, never during evaluation.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A failure to read or write a file (used by the image writers and the CLI).
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// The single funnel for argument errors, so that every message has the same shape:
/// "<parameter>: <what is wrong>".
[[noreturn]] void throw_invalid(const std::string& parameter, const std::string& what);
}  // namespace detail

}  // namespace perlin
