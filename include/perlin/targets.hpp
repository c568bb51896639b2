// The SIMD targets of the bulk calls: which were compiled and run here, which is used, and a cap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perlin {

/// Names of the SIMD targets that were compiled in and that this CPU supports, best first, as
/// Highway names them (for example "AVX3", "AVX2", "SSE4", "SSSE3", "NEON", "EMU128" or "SCALAR",
/// the portable fallback, always last).
[[nodiscard]] std::vector<std::string> available_targets();

/// The target the bulk calls use now: the best available one not above the cap.
[[nodiscard]] std::string active_target();

/// Caps the SIMD level (process-wide, for later calls; thread safe): `name` is one of
/// available_targets(), or "" to remove the cap. Throws perlin::invalid_argument otherwise,
/// listing the valid names.
void set_max_target(std::string_view name);

}  // namespace perlin
