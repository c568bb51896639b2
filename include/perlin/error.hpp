// The one exception hierarchy through which the library reports every error.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace perlin {

/// What is wrong with an argument; the C API's status codes follow it.
enum class error_kind {
  value,           ///< a value outside its documented domain, or malformed (PERLIN_E_VALUE)
  size,            ///< dims, a count, a shape or a buffer of the wrong size (PERLIN_E_SIZE)
  unknown_option,  ///< a name that is not in the option table (PERLIN_E_OPTION)
};

/// A parameter or argument outside its documented domain. The message is "<parameter>: <what is
/// wrong>", naming the parameter and the accepted range; parameter() and kind() give the parts.
/// Setters throw it where the value is set; calls that take their arguments at evaluation (eval
/// with a point of a bad size, fill_grid with a bad grid or buffer) throw it there, before
/// computing anything.
class invalid_argument : public std::invalid_argument {
 public:
  invalid_argument(error_kind kind, std::string_view parameter, std::string_view what)
      : std::invalid_argument(std::string(parameter) + ": " + std::string(what)),
        kind_(kind),
        parameter_size_(parameter.size()) {}
  /// The parameter's name: "octaves", "count", "option", ...
  [[nodiscard]] std::string_view parameter() const noexcept { return {what(), parameter_size_}; }
  [[nodiscard]] error_kind kind() const noexcept { return kind_; }

 private:
  error_kind kind_;
  std::size_t parameter_size_;  // the parameter is the message's prefix: copying never throws
};

/// An option name that is not in the option table (option_table.hpp): its message suggests the
/// closest name. The C API reports it as PERLIN_E_OPTION, Python as TypeError.
class unknown_option : public invalid_argument {
 public:
  explicit unknown_option(std::string_view what)
      : invalid_argument(error_kind::unknown_option, "option", what) {}
};

/// A failure to read or write a file (used by the image writers and the CLI).
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Builds without exceptions (-fno-exceptions): every error goes through one funnel, which then
/// calls this handler with the message ("<parameter>: <what is wrong>") and aborts when it
/// returns. The default handler does nothing (the library never prints). With exceptions the
/// funnel throws perlin::invalid_argument and the handler is never called.
using error_handler = void (*)(const char* message);
/// Sets the handler (nullptr: the default); returns the previous one. Thread safe.
error_handler set_error_handler(error_handler h) noexcept;

}  // namespace perlin
