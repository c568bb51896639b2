// Field options as text pairs, and the list parser of the render's settings.
#include "options.hpp"

#include <algorithm>
#include <cmath>

#include "perlin/error.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin_render {

void apply_options(perlin::field_spec& spec, const option_pairs& pairs) {
  for (const auto& [name, value] : pairs) spec.set(name, value);
}

bool names(const option_pairs& pairs, std::string_view name) {
  const perlin::option_info* row = perlin::find_option(name);
  return std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) {
    return row != nullptr && perlin::find_option(p.first) == row;
  });
}

std::vector<double> parse_list(const std::string& text, const std::string& option, std::size_t min,
                               std::size_t max) {
  const auto bad = [&] {
    return usage_error(option + ": " + perlin::detail::quoted(text) +
                       " is not a comma-separated list of " + std::to_string(min) + " to " +
                       std::to_string(max) + " finite numbers");
  };
  std::vector<double> out;
  try {
    for (const auto item : perlin::detail::split_list(option, text)) {
      out.push_back(perlin::detail::parse_number(option, item));
    }
  } catch (const perlin::invalid_argument&) {
    throw bad();
  }
  if (out.size() < min || out.size() > max) throw bad();
  return out;
}

}  // namespace perlin_render
