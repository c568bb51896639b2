// The error funnel (src/core/error.cpp): every error of the library and of perlin::image passes
// here, so every message has the shape "<parameter>: <what is wrong>" and builds without exceptions
// (-fno-exceptions) reach the handler (perlin::set_error_handler) instead of a throw.
#pragma once

#include <string>

#include "perlin/error.hpp"

/// Whether this translation unit is compiled with exceptions: decided here, once.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define PERLIN_HAS_EXCEPTIONS 1
#else
#define PERLIN_HAS_EXCEPTIONS 0
#endif

namespace perlin::detail {

/// perlin::invalid_argument of kind value: a value outside its domain, or malformed.
[[noreturn]] void throw_invalid(const std::string& parameter, const std::string& what);
/// perlin::invalid_argument of kind size: dims, a count, a shape or a buffer of the wrong size.
[[noreturn]] void throw_size(const std::string& parameter, const std::string& what);
/// perlin::unknown_option ("option: unknown option 'x' ...").
[[noreturn]] void throw_unknown_option(const std::string& what);
/// perlin::io_error with the message as given.
[[noreturn]] void throw_io(const std::string& message);

}  // namespace perlin::detail
