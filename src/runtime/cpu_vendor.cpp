// this_cpu_vendor: CPUID leaf 0's vendor string.
#include "runtime/cpu_vendor.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>
#endif

namespace perlin::detail {

cpu_vendor this_cpu_vendor() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  static const cpu_vendor vendor = [] {
    unsigned leaves = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0, &leaves, &b, &c, &d) == 0) return cpu_vendor::other;
    char name[12];
    std::memcpy(name, &b, 4);  // EBX, EDX, ECX: "GenuineIntel", "AuthenticAMD"
    std::memcpy(name + 4, &d, 4);
    std::memcpy(name + 8, &c, 4);
    if (std::memcmp(name, "GenuineIntel", 12) == 0) return cpu_vendor::intel;
    if (std::memcmp(name, "AuthenticAMD", 12) == 0) return cpu_vendor::amd;
    return cpu_vendor::other;
  }();
  return vendor;
#else
  return cpu_vendor::other;
#endif
}

}  // namespace perlin::detail
