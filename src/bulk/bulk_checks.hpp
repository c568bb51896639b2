// The checks every bulk call makes of its arguments (grid.hpp), shared by the fields' calls
// (grid.cpp, points.cpp) and the graphs' (graph/graph_grid.cpp), so both refuse alike.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "detail/error.hpp"
#include "perlin/grid.hpp"

namespace perlin::detail {

/// Throws perlin::invalid_argument for a grid whose counts, indices (|first + count| < 2^53),
/// origin, step or coordinates (within 2^52) the bulk calls refuse.
void check_grid(const grid& g);

template <class T>
void check_out(std::span<T> out, std::size_t n, const char* name) {
  if (out.size() != n) {
    detail::throw_size(name, "must hold exactly " + std::to_string(n) + " values, got " +
                                 std::to_string(out.size()));
  }
}

/// The number of coordinate arrays of a point batch (leading x, then y, ...), each as long as
/// `n_out`; 0 for an empty batch. Throws perlin::invalid_argument (kind size) otherwise.
template <class T>
std::size_t point_dims(const point_set<T>& p, std::size_t n_out) {
  const std::span<const T> axes[4] = {p.x, p.y, p.z, p.w};
  std::size_t dims = 0;
  while (dims < 4 && !axes[dims].empty()) ++dims;
  if (dims == 0) {
    if (n_out == 0) return 0;  // an empty batch
    detail::throw_size("points", "need at least the x coordinates");
  }
  for (std::size_t k = dims; k < 4; ++k) {
    if (!axes[k].empty())
      detail::throw_size("points", "coordinate arrays must be leading (x, then y, ...)");
  }
  for (std::size_t k = 0; k < dims; ++k) {
    if (axes[k].size() != n_out) {
      detail::throw_size("points", "every coordinate array must be as long as out (" +
                                       std::to_string(n_out) + ")");
    }
  }
  return dims;
}

}  // namespace perlin::detail
