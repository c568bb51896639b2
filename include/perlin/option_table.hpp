// The option table: every option that describes a field, once. Its name, type, default, range or
// choices, unit and help, and how it is read from text and written back. Every front reads it:
// the CLI registers its flags from it, the presets are partial option sets in its names, Python's
// keywords, the server's query, the page's controls, the C API's introspection (C#, Lua), the
// recipes and docs/options.md all come from these rows (docs/options.md is generated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "perlin/field_spec.hpp"

namespace perlin {

/// How an option's value is written as text. One parser per type, so every front takes the same
/// text: integers are decimal with an optional sign ("+42", "-3"; not "0x2a", "1e3" or " 42");
/// numbers are decimal or scientific ("1e3", "+0.5"; finite only); flags are 1, 0, true or false;
/// a choice is one of its names; a seed is an integer from 0 to 2^64-1; periods are one integer
/// or 2 to 4 separated by commas.
enum class option_type { integer, number, flag, choice, seed, periods };
[[nodiscard]] std::string_view to_string(option_type t) noexcept;

/// Where a row's value lives in field_spec.
using option_member =
    std::variant<int field_spec::*, double field_spec::*, bool field_spec::*,
                 std::string field_spec::*, std::optional<std::uint64_t> field_spec::*,
                 std::vector<std::int64_t> field_spec::*>;

/// One row of the table. Adding an option is one row here and its member in field_spec (and the
/// library's setter the member feeds in make_field).
struct option_info {
  std::string_view name =
      {};  ///< the CLI flag without "--", the recipe key; Python and Lua take "_" for "-"
  std::string_view alias = {};  ///< another accepted name ("gain" for persistence), or empty
  option_type type = option_type::number;
  std::string_view help = {};  ///< one line
  std::string_view unit = {};
  /// What an empty default means, in words ("Ken Perlin's table", "the field's", "none").
  std::string_view unset = {};  ///< "lattice cells", "octaves", ... or empty
  /// Inclusive bounds of integers and numbers (and of each period), when `has_range`;
  /// `min_exclusive`: the value must be greater than `min` (frequencies). `max` may be infinite.
  bool has_range = false;
  double min = 0, max = 0;
  bool min_exclusive = false;
  /// The valid names of a choice, in the library's order; null for other types.
  std::vector<std::string> (*choices)() = nullptr;
  /// Whether the option changes the field with these settings (false: a warning when given).
  bool (*used)(const field_spec&) = nullptr;
  /// Why it does not, for the warning: "has no effect without --fractal (the fractal is none)".
  std::string_view unused_reason = {};
  option_member member = {};

  /// Parses `text` with the type's parser, checks the range or choices, and stores it; throws
  /// perlin::invalid_argument naming the option. The spec is unchanged on error. An empty text
  /// unsets a seed or a period (their default).
  void set(field_spec& spec, std::string_view text) const;
  /// The value as canonical text (the recipe's): integers in decimal, numbers in shortest
  /// round-trip form, flags true/false, periods P or P,P,...; "" for an unset seed or period.
  [[nodiscard]] std::string get(const field_spec& spec) const;
  /// The default value as canonical text: get(field_spec{}), so the defaults are written once,
  /// in field_spec's members.
  [[nodiscard]] std::string default_text() const { return get(field_spec{}); }
  /// "1 to 32", "> 0", ">= 0", "one of: none, fbm, ...": the accepted values in words.
  [[nodiscard]] std::string domain() const;
};

/// Every field option, in the order recipes, `perlin options` and docs/options.md list them.
[[nodiscard]] std::span<const option_info> field_options() noexcept;

/// The row of `name` (or its alias; "_" may stand for "-"), or nullptr.
[[nodiscard]] const option_info* find_option(std::string_view name) noexcept;

/// The row of `name`, or throws perlin::unknown_option: "unknown option 'octave' (did you mean
/// 'octaves'?)" or "unknown option 'x' (valid: noise, interp, ...)".
[[nodiscard]] const option_info& option(std::string_view name);

/// The closest name of `candidates` to `name` (edit distance at most 2, or a prefix), or "".
[[nodiscard]] std::string closest_name(std::string_view name,
                                       std::span<const std::string_view> candidates);

/// The text of an error for a name that is none of `valid`: "unknown value 'fmb' (did you mean
/// 'fbm'? valid: none, fbm, turbulence, ...)", with closest_name's rule; `noun` replaces
/// "value" (empty: "unknown 'x'"), `more` is appended to the list ("or stops T:#RRGGBB,...").
[[nodiscard]] std::string unknown_choice(std::string_view name,
                                         std::span<const std::string_view> valid,
                                         std::string_view noun = "value",
                                         std::string_view more = {});

/// The options given that change nothing in `spec`, as warnings ("octaves has no effect without
/// fractal (the fractal is none)"): `given` holds the table's names.
[[nodiscard]] std::vector<std::string> unused_options(const field_spec& spec,
                                                      std::span<const std::string> given,
                                                      std::string_view prefix = "--");

/// The table as JSON: a list of objects with name, alias, type, default, help, unit, and min,
/// max (and min_exclusive) or choices where they apply (`perlin options --json`).
[[nodiscard]] std::string options_json();

// ---------------------------------------------------------------------------------------------
// Recipes: one line of text that names a field completely (docs/recipes.md).
//
//   perlin=1&fractal=fbm&octaves=8&frequency=0.015625
//
// A version marker ("perlin=1"), then name=value pairs in the table's names and order, only the
// options whose value differs from the default, in canonical text, joined by "&" and
// percent-encoded where a character is not [A-Za-z0-9._~,:+-]: a recipe is also a URL query
// (the preview page's links are recipes). Equal fields have equal recipes.

/// The recipe format this library writes; every later version reads it to the same bits.
inline constexpr int k_recipe_version = 1;

/// The recipe of `spec`.
[[nodiscard]] std::string to_recipe(const field_spec& spec);

/// The pairs of a recipe, percent-decoded ("+" is a space, as in a URL query), in order, with the
/// version checked and removed. Pairs are separated by "&" or white space; a leading "?" is
/// skipped. Throws perlin::invalid_argument for a missing or unknown version ("recipe: ...") or a
/// pair without
/// "=", and for a name given twice.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> recipe_pairs(std::string_view text);

/// The names a recipe's render part may carry after the field's options (docs/recipes.md: size,
/// step, colormap, ...), in the order renders write them. A field reader skips them; `perlin
/// render` reads them (its settings table holds one row for each of these names, a test checks).
[[nodiscard]] std::span<const std::string_view> recipe_render_settings() noexcept;

/// A field_spec from a recipe: its field part. A page's or a render's recipe reads too: its
/// render settings (recipe_render_settings) are skipped, and appended to `skipped` when given, so
/// that the caller says in its own way which it did not use (recipe_skipped_warning). Any other
/// name is refused ("unknown option 'octave' (did you mean 'octaves'?)"). Throws
/// perlin::invalid_argument or perlin::unknown_option naming the pair.
[[nodiscard]] field_spec spec_from_recipe(
    std::string_view text, std::vector<std::pair<std::string, std::string>>* skipped = nullptr);

/// The warning for the render settings a field reader skipped, or "" when there are none:
/// "recipe: size, step are render settings, not part of the field (perlin render --recipe and
/// perlin.render(recipe=...) use them)".
[[nodiscard]] std::string recipe_skipped_warning(
    std::span<const std::pair<std::string, std::string>> skipped);

/// Text as a recipe value: percent-encodes what is not [A-Za-z0-9._~,:+-].
[[nodiscard]] std::string recipe_escape(std::string_view text);

}  // namespace perlin
