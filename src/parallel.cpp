// usable_cpus (detail/parallel.hpp).
#include "detail/parallel.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

namespace perlin::detail {

unsigned usable_cpus() {
  static const unsigned cpus = [] {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = std::max(1, CPU_COUNT(&set));
    // cgroup v2: "max 100000" (no quota) or "QUOTA PERIOD" in microseconds.
    std::ifstream f("/sys/fs/cgroup/cpu.max");
    std::string quota;
    double period = 0;
    if (f >> quota >> period && quota != "max" && period > 0) {
      const double q = std::strtod(quota.c_str(), nullptr) / period;
      if (q > 0) n = std::min(n, std::max(1u, static_cast<unsigned>(std::ceil(q))));
    }
#endif
    return n;
  }();
  return cpus;
}

}  // namespace perlin::detail
