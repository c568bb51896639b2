// The SIMD targets of the bulk calls: which were compiled and run here, which is used, and a cap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perlin {

/// Names of the SIMD targets that were compiled in, that this CPU supports and that passed their
/// self-check, best first, as Highway names them (for example "AVX3", "AVX2", "SSE4", "SSSE3",
/// "NEON", and "EMU128" or "SCALAR", the portable fallback, always last).
///
/// The self-check runs once, at the first bulk call or targets query: each target's kernels fill
/// small grids (1 to 4 dimensions, improved and value noise, a fractal with periods, strict and
/// not) and point batches, and every value must lie within the documented tolerance of the double
/// scalar path. A target that disagrees is never used.
[[nodiscard]] std::vector<std::string> available_targets();

/// Every target compiled in and supported by this CPU, best first, and how its self-check went.
struct target_status {
  std::string name;
  bool passed;
  std::string failure;  ///< what disagreed, when it did not pass
};
[[nodiscard]] std::vector<target_status> target_report();

/// The target the bulk calls use now: the best available one not above the cap.
[[nodiscard]] std::string active_target();

/// Caps the SIMD level (process-wide, for later calls; thread safe): `name` is one of
/// available_targets() (in any case: "avx2" is "AVX2"), or "" to remove the cap. Throws
/// perlin::invalid_argument otherwise, listing the valid names.
void set_max_target(std::string_view name);

}  // namespace perlin
