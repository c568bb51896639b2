// The render's settings as text: the usage error, the list parser, and how the field options a
// front was given (by the option table's names) become a field_spec on top of a preset's.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "perlin/field_spec.hpp"

namespace perlin_render {

/// A usage error found after parsing (a bad combination or value): exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Options as (name, text) pairs, by the option table's names (or the render settings'), in the
/// order a front was given them.
using option_pairs = std::vector<std::pair<std::string, std::string>>;

/// Sets each pair on `spec` through the option table (one parser per type); throws
/// perlin::invalid_argument or perlin::unknown_option naming the pair.
void apply_options(perlin::field_spec& spec, const option_pairs& pairs);

/// Whether `pairs` names the field option `name` (or its alias).
[[nodiscard]] bool names(const option_pairs& pairs, std::string_view name);

/// Parses a comma-separated list of 1 to `max` numbers for `option`; throws usage_error.
[[nodiscard]] std::vector<double> parse_list(const std::string& text, const std::string& option,
                                             std::size_t min, std::size_t max);

}  // namespace perlin_render
