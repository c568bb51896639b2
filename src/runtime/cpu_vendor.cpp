// this_cpu_vendor: CPUID leaf 0's vendor string.
#include "runtime/cpu_vendor.hpp"

#include <atomic>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>
#endif

namespace perlin::detail {

namespace {

cpu_vendor read_cpu_vendor() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  unsigned leaves = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &leaves, &b, &c, &d) == 0) return cpu_vendor::other;
  char name[12];
  std::memcpy(name, &b, 4);  // EBX, EDX, ECX: "GenuineIntel", "AuthenticAMD"
  std::memcpy(name + 4, &d, 4);
  std::memcpy(name + 8, &c, 4);
  if (std::memcmp(name, "GenuineIntel", 12) == 0) return cpu_vendor::intel;
  if (std::memcmp(name, "AuthenticAMD", 12) == 0) return cpu_vendor::amd;
#endif
  return cpu_vendor::other;
}

constexpr int k_not_forced = -1;
std::atomic<int> g_forced{k_not_forced};

}  // namespace

cpu_vendor this_cpu_vendor() noexcept {
  static const cpu_vendor own = read_cpu_vendor();
  const int forced = g_forced.load(std::memory_order_relaxed);
  return forced == k_not_forced ? own : static_cast<cpu_vendor>(forced);
}

void force_cpu_vendor(std::optional<cpu_vendor> v) noexcept {
  g_forced.store(v ? static_cast<int>(*v) : k_not_forced, std::memory_order_relaxed);
}

}  // namespace perlin::detail
