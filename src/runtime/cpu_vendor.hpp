// The maker of the CPU this process runs on, for the choices that depend on the cores rather
// than on the instruction set a SIMD target needs (src/runtime/cpu_vendor.cpp).
#pragma once

#include <optional>

namespace perlin::detail {

enum class cpu_vendor { intel, amd, other };

/// CPUID's vendor string on x86 (read once), `other` elsewhere; or what force_cpu_vendor set.
cpu_vendor this_cpu_vendor() noexcept;

/// Makes this_cpu_vendor() answer `v` from now on (std::nullopt: the CPU's own again), so that
/// the tests run each vendor's kernel choices on any machine. Not for use while kernels run.
void force_cpu_vendor(std::optional<cpu_vendor> v) noexcept;

}  // namespace perlin::detail
