// The two functions of Highway's runtime library (libhwy) that perlin calls, for the WebAssembly
// build: Debian ships libhwy for the host only, and a WebAssembly module has one SIMD target, the
// one it is compiled for (no runtime dispatch), so these are all that library would do here.
#include <hwy/base.h>
#include <hwy/targets.h>

#include <cstdlib>

namespace hwy {

int64_t SupportedTargets() { return HWY_STATIC_TARGET; }

HWY_NORETURN void Abort(const char* /*file*/, int /*line*/, const char* /*format*/, ...) {
  std::abort();  // a broken Highway invariant: WebAssembly traps, the library never prints
}

}  // namespace hwy
