// this_cpu_vendor (src/runtime/cpu_vendor.hpp) against the kernel's account of the same CPU.
#include "runtime/cpu_vendor.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

using perlin::detail::cpu_vendor;

TEST(CpuVendor, IsTheVendorLinuxReports) {
#if defined(__x86_64__) || defined(__i386__)
  std::ifstream f("/proc/cpuinfo");
  std::string line, id;
  while (std::getline(f, line)) {
    if (line.rfind("vendor_id", 0) == 0) {
      id = line.substr(line.find(':') + 2);
      break;
    }
  }
  if (id.empty()) GTEST_SKIP() << "no vendor_id in /proc/cpuinfo";
  const cpu_vendor want = id == "GenuineIntel"   ? cpu_vendor::intel
                          : id == "AuthenticAMD" ? cpu_vendor::amd
                                                 : cpu_vendor::other;
  EXPECT_EQ(perlin::detail::this_cpu_vendor(), want) << id;
#else
  EXPECT_EQ(perlin::detail::this_cpu_vendor(), cpu_vendor::other);
#endif
}

}  // namespace
