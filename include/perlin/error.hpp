// The one exception hierarchy through which the library reports every error.
#pragma once

#include <stdexcept>
#include <string>

namespace perlin {

/// A parameter or argument outside its documented domain. The message names the parameter and
/// the accepted range. Setters throw it where the value is set; calls that take their arguments
/// at evaluation (eval with a point of a bad size, fill_grid with a bad grid or buffer) throw it
/// there, before computing anything.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// An option name that is not in the option table (option_table.hpp): its message suggests the
/// closest name. The C API reports it as PERLIN_E_OPTION, Python as TypeError.
class unknown_option : public invalid_argument {
 public:
  using invalid_argument::invalid_argument;
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

namespace detail {
/// The single funnel for argument errors, so that every message has the same shape:
/// "<parameter>: <what is wrong>".
[[noreturn]] void throw_invalid(const std::string& parameter, const std::string& what);
/// The same for perlin::unknown_option ("option: unknown option 'x' ...").
[[noreturn]] void throw_unknown_option(const std::string& what);
}  // namespace detail

}  // namespace perlin
