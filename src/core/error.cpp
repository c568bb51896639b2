// The error funnel (src/detail/error.hpp): every error of the library passes here. With
// exceptions it throws; without (-fno-exceptions) it calls the handler and aborts.
#include "detail/error.hpp"

#include <atomic>
#include <cstdlib>
#include <utility>

namespace perlin {

namespace {
std::atomic<error_handler> g_handler{nullptr};

/// Throws E built from the arguments; without exceptions, calls the handler with what the
/// exception would have said, and aborts.
template <class E, class... A>
[[noreturn]] void raise(A&&... args) {
#if PERLIN_HAS_EXCEPTIONS
  throw E(std::forward<A>(args)...);
#else
  const E e(std::forward<A>(args)...);
  if (const error_handler h = g_handler.load()) h(e.what());
  std::abort();
#endif
}
}  // namespace

error_handler set_error_handler(error_handler h) noexcept { return g_handler.exchange(h); }

namespace detail {
void throw_invalid(const std::string& parameter, const std::string& what) {
  raise<invalid_argument>(error_kind::value, parameter, what);
}
void throw_size(const std::string& parameter, const std::string& what) {
  raise<invalid_argument>(error_kind::size, parameter, what);
}
void throw_unknown_option(const std::string& what) { raise<unknown_option>(what); }
void throw_io(const std::string& message) { raise<io_error>(message); }
}  // namespace detail

}  // namespace perlin
