// The per-target kernel tables, joined from the families' registrations
// (detail/kernel_registry.hpp).
#include "detail/kernel_registry.hpp"

#include <algorithm>
#include <deque>
#include <utility>

namespace perlin::detail {

void complete_from(kernels& k, const kernels& from) {
  if (k.fill_rows == nullptr) {
    k.fill_rows = from.fill_rows;
    k.gather_below_width = from.gather_below_width;
  }
  if (k.eval_points == nullptr) k.eval_points = from.eval_points;
  if (k.eval_points_d == nullptr) k.eval_points_d = from.eval_points_d;
  if (k.min_max == nullptr) k.min_max = from.min_max;
  if (k.fill_rows_exact == nullptr) k.fill_rows_exact = from.fill_rows_exact;
  if (k.axis_fractions == nullptr) k.axis_fractions = from.axis_fractions;
  if (k.noise_points_dd == nullptr) k.noise_points_dd = from.noise_points_dd;
}

std::vector<registration> registered_kernels() {
  static const std::vector<registration> joined = [] {
    // One table per target, joined from its families' parts; they live as long as the program.
    static std::deque<std::pair<std::int64_t, kernels>> tables;
    for (const kernel_family* family : {&g_row_kernels, &g_point_kernels, &g_exact_row_kernels}) {
      for (const registration& r : family->list()) {
        auto it = std::find_if(tables.begin(), tables.end(),
                               [&](const auto& t) { return t.first == r.target; });
        if (it == tables.end()) it = tables.insert(it, {r.target, kernels{}});
        complete_from(it->second, *r.k);
      }
    }
    std::vector<registration> v;
    v.reserve(tables.size());
    for (const auto& [target, k] : tables) v.push_back({target, &k});
    return v;
  }();
  return joined;
}

}  // namespace perlin::detail
