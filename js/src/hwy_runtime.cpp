// The two functions of Highway's runtime library (libhwy) that perlin calls, for the WebAssembly
// build: Debian ships libhwy for the host only, and a WebAssembly module has no runtime dispatch
// (it runs the targets it was compiled for), so these are all that library would do here.
#include <hwy/base.h>
#include <hwy/targets.h>

#include <cstdlib>

namespace hwy {

// Every compiled target runs where the module loads (an engine without SIMD128 refuses the whole
// module of a SIMD build).
int64_t SupportedTargets() { return HWY_TARGETS; }

HWY_NORETURN void Abort(const char* /*file*/, int /*line*/, const char* /*format*/, ...) {
  std::abort();  // a broken Highway invariant: WebAssembly traps, the library never prints
}

}  // namespace hwy
