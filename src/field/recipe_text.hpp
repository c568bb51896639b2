// The text of recipes, shared by the version-1 reader (option_table.cpp) and the graphs'
// (graph/recipe_form.cpp).
#pragma once

#include <string>
#include <string_view>

namespace perlin::detail {

/// %XX escapes and "+" as a space, as in a URL query (the page's links are recipes). Throws
/// perlin::invalid_argument naming `recipe` for a bad %-escape.
[[nodiscard]] std::string percent_decode(std::string_view v);

}  // namespace perlin::detail
