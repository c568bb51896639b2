// libFuzzer: read_png on untrusted bytes. It decodes or throws perlin::io_error, within its
// memory limits; it never crashes or allocates without bound.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "perlin/error.hpp"
#include "perlin/image_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/perlin-fuzz-png-" + std::to_string(::getpid()) + ".png";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  try {
    const auto img = perlin::read_png(path, std::size_t{64} << 20);
    if (img.data.size() > (std::size_t{64} << 20)) std::abort();
  } catch (const perlin::io_error&) {
  }
  std::remove(path.c_str());
  return 0;
}
