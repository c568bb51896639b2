// libFuzzer: `perlin eval`'s line parser. Any input either parses to 1 to 4 finite numbers within
// 2^52 or throws line_error with a bounded message; nothing else may happen.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "eval_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  double out[4];
  try {
    const int n = perlin_cli::parse_line(line, 1, out);
    if (n < 1 || n > 4) std::abort();
    for (int k = 0; k < n; ++k) {
      if (!std::isfinite(out[k]) || std::abs(out[k]) > perlin_cli::k_max_coordinate) std::abort();
    }
  } catch (const perlin_cli::line_error& e) {
    if (std::string_view(e.what()).size() > 200) std::abort();  // a bad token is never echoed whole
  }
  return 0;
}
