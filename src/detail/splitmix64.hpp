// The pseudo-random generator of the library: seeding (lattice.cpp) and the fixed sample points
// of field::typical_range (field.cpp).
#pragma once

#include <cstdint>

namespace perlin::detail {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014),
// with the constants of its reference implementation. docs/seeding.md specifies it in full.
class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Unbiased draw in [0, n): rejects the 2^64 mod n lowest outputs, then takes the remainder.
  std::uint64_t below(std::uint64_t n) noexcept {
    const std::uint64_t threshold = (0 - n) % n;  // == 2^64 mod n
    std::uint64_t r = next();
    while (r < threshold) r = next();
    return r % n;
  }

 private:
  std::uint64_t state_;
};

}  // namespace perlin::detail
