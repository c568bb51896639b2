// The error funnel: every argument error of the library passes here. With exceptions it throws
// perlin::invalid_argument; without (-fno-exceptions) it calls the handler and aborts.
#include "perlin/error.hpp"

#include <atomic>
#include <cstdlib>

namespace perlin {

namespace {
std::atomic<error_handler> g_handler{nullptr};

/// Throws E with the message; without exceptions, calls the handler and aborts.
template <class E>
[[noreturn]] void raise(const std::string& message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw E(message);
#else
  if (const error_handler h = g_handler.load()) h(message.c_str());
  std::abort();
#endif
}
}  // namespace

error_handler set_error_handler(error_handler h) noexcept { return g_handler.exchange(h); }

namespace detail {
void throw_invalid(const std::string& parameter, const std::string& what) {
  raise<perlin::invalid_argument>(parameter + ": " + what);
}
void throw_unknown_option(const std::string& what) {
  raise<perlin::unknown_option>("option: " + what);
}
}  // namespace detail

}  // namespace perlin
