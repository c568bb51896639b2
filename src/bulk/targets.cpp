// The SIMD target registry: the self-registered kernels this CPU supports, best first, each run
// once through its known-answer self-check; the cap; and the public targets API.
#include "perlin/targets.hpp"

#include <hwy/targets.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <deque>
#include <string>
#include <vector>

#include "bulk/self_check.hpp"
#include "detail/error.hpp"
#include "detail/kernel_registry.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace detail {
namespace {

/// Whether every kernel of `k` is there.
bool complete(const kernels& k) {
  return k.fill_rows != nullptr && k.eval_points != nullptr && k.eval_points_d != nullptr &&
         k.min_max != nullptr && k.fill_rows_exact != nullptr && k.axis_fractions != nullptr;
}

struct target_entry {
  std::int64_t bit;
  std::string name;
  const kernels* k;
  std::string failure;  // "" when the self-check passed
};

/// Every compiled target this CPU supports, best first, with its self-check result.
const std::vector<target_entry>& all_targets() {
  static const std::vector<target_entry> entries = [] {
    std::vector<target_entry> v;
    const std::int64_t supported = hwy::SupportedTargets();
    for (const registration& r : registered_kernels()) {
      if ((r.target & supported) != 0) v.push_back({r.target, hwy::TargetName(r.target), r.k, {}});
    }
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.bit < b.bit; });
    // A target without some kernels (WASM has no double vectors in Highway 1.0) takes them from
    // the next target down that has them; the completed tables live as long as the program.
    static std::deque<kernels> completed;
    for (std::size_t i = 0; i < v.size(); ++i) {
      kernels k = *v[i].k;
      for (std::size_t j = i + 1; j < v.size(); ++j) complete_from(k, *v[j].k);
      if (!complete(k)) {
        v[i].failure = "kernels missing (no target below has them)";
        continue;
      }
      if (!complete(*v[i].k)) v[i].k = &completed.emplace_back(k);
    }
    for (auto& e : v) {
      if (e.failure.empty()) e.failure = self_check(*e.k);
    }
    return v;
  }();
  return entries;
}

/// The usable targets (self-check passed), best first. Never empty: if even the portable
/// fallback failed, the library would be wrong everywhere, and the tests say so.
const std::vector<const target_entry*>& usable() {
  static const std::vector<const target_entry*> entries = [] {
    std::vector<const target_entry*> v;
    for (const auto& e : all_targets()) {
      if (e.failure.empty()) v.push_back(&e);
    }
    if (v.empty() && !all_targets().empty()) v.push_back(&all_targets().back());
    return v;
  }();
  return entries;
}

/// Index into usable() of the best allowed target; 0 = no cap.
std::atomic<std::size_t> g_cap{0};

const target_entry& active() {
  const auto& u = usable();
  return *u[std::min(g_cap.load(std::memory_order_relaxed), u.size() - 1)];
}

}  // namespace

const kernels& active_kernels() { return *active().k; }

}  // namespace detail

std::vector<std::string> available_targets() {
  std::vector<std::string> names;
  for (const auto* e : detail::usable()) names.push_back(e->name);
  return names;
}

std::vector<target_status> target_report() {
  std::vector<target_status> out;
  for (const auto& e : detail::all_targets()) out.push_back({e.name, e.failure.empty(), e.failure});
  return out;
}

std::string active_target() { return detail::active().name; }

void set_max_target(std::string_view name) {
  if (name.empty()) {
    detail::g_cap.store(0);
    return;
  }
  const auto& u = detail::usable();
  std::string valid;
  const auto same = [](std::string_view a, std::string_view b) {  // AVX3 or avx3
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) ==
                    std::tolower(static_cast<unsigned char>(y));
           });
  };
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (same(u[i]->name, name)) {
      detail::g_cap.store(i);
      return;
    }
    valid += (i ? ", " : "") + u[i]->name;
  }
  detail::throw_invalid("simd", "unknown or unsupported target '" + std::string(name) +
                                    "' (available here: " + valid + ")");
}

}  // namespace perlin
