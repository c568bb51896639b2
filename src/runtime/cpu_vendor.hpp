// The maker of the CPU this process runs on, for the choices that depend on the cores rather
// than on the instruction set a SIMD target needs (src/runtime/cpu_vendor.cpp).
#pragma once

namespace perlin::detail {

enum class cpu_vendor { intel, amd, other };

/// CPUID's vendor string on x86 (read once); `other` elsewhere.
cpu_vendor this_cpu_vendor() noexcept;

}  // namespace perlin::detail
