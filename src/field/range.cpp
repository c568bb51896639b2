// The true bounds of improved noise per dimension (docs/ranges.md).
#include "perlin/range.hpp"

#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"

namespace perlin {

double improved_bound(std::size_t dims) {
  switch (dims) {
    case 1:
      return 0.5;
    case 2:
      return 1.0;
    case 3:
      return 1.0364;
    case 4:
      return 1.5366;
    default:
      detail::throw_size("dims", "must be 1 to 4, got " + std::to_string(dims));
  }
}

}  // namespace perlin
