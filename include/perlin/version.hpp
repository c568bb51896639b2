// The library's version (CMakeLists.txt checks that it matches the project's).
#pragma once

#include <string_view>

namespace perlin {

inline constexpr int k_version_major = 0;
inline constexpr int k_version_minor = 1;
inline constexpr int k_version_patch = 0;

/// "0.1.0"
[[nodiscard]] constexpr std::string_view version() noexcept { return "0.1.0"; }

}  // namespace perlin
