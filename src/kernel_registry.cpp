// The per-target kernel tables, joined from the families' registrations
// (detail/kernel_registry.hpp).
#include "detail/kernel_registry.hpp"

#include <algorithm>
#include <deque>

namespace perlin::detail {

namespace {

/// Sets the kernels of `k` that `part` has; the gather thresholds go with fill_rows.
void join(kernels& k, const kernels& part) {
  if (part.fill_rows != nullptr) {
    k.fill_rows = part.fill_rows;
    k.gather_below_width = part.gather_below_width;
  }
  if (part.eval_points != nullptr) k.eval_points = part.eval_points;
  if (part.eval_points_d != nullptr) k.eval_points_d = part.eval_points_d;
  if (part.min_max != nullptr) k.min_max = part.min_max;
  if (part.fill_rows_exact != nullptr) k.fill_rows_exact = part.fill_rows_exact;
}

}  // namespace

std::vector<registration> registered_kernels() {
  static const std::vector<registration> joined = [] {
    static std::deque<kernels> tables;
    std::vector<registration> v;
    for (const kernel_family* family : {&g_row_kernels, &g_point_kernels, &g_exact_row_kernels}) {
      for (const registration& r : family->list()) {
        auto it =
            std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.target == r.target; });
        if (it == v.end()) {
          v.push_back({r.target, &tables.emplace_back(kernels{})});
          it = v.end() - 1;
        }
        // The table is one of `tables`: join into it through the deque, not the const pointer.
        join(tables[static_cast<std::size_t>(it - v.begin())], *r.k);
      }
    }
    return v;
  }();
  return joined;
}

}  // namespace perlin::detail
