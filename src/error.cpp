// The error funnel: every argument error of the library passes here. With exceptions it throws
// perlin::invalid_argument; without (-fno-exceptions) it calls the handler and aborts.
#include "perlin/error.hpp"

#include <atomic>
#include <cstdlib>

namespace perlin {

namespace {
std::atomic<error_handler> g_handler{nullptr};
}  // namespace

error_handler set_error_handler(error_handler h) noexcept { return g_handler.exchange(h); }

namespace detail {
void throw_invalid(const std::string& parameter, const std::string& what) {
  const std::string message = parameter + ": " + what;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw perlin::invalid_argument(message);
#else
  if (const error_handler h = g_handler.load()) h(message.c_str());
  std::abort();
#endif
}
void throw_unknown_option(const std::string& what) {
  const std::string message = "option: " + what;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw perlin::unknown_option(message);
#else
  if (const error_handler h = g_handler.load()) h(message.c_str());
  std::abort();
#endif
}
}  // namespace detail

}  // namespace perlin
