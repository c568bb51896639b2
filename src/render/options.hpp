// The render's settings as text: the error naming them, the list parser, and how the field options
// a front was given (by the option table's names) become a field_spec on top of a preset's.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"

namespace perlin_render {

/// A render setting's bad value, or settings that do not go together: a perlin::invalid_argument
/// whose parameter() names the setting ("size"), or the settings ("frames and depth"), as recipes,
/// queries and keywords name them (no dashes), and whose text may name others ("needs frames N").
/// names() are where the message names a setting or a field option (the parameter's names
/// included), so that a front can word them its own way: the CLI writes each as its flag
/// (--frames). subject(): the parameter is the subject of the text ("frames and depth: cannot be
/// combined"), which a front that words the names can write as one sentence ("--frames and
/// --depth cannot be combined").
class setting_error : public perlin::invalid_argument {
 public:
  /// A name's bytes in what().
  struct span {
    std::size_t at = 0, size = 0;
  };
  setting_error(perlin::error_kind kind, std::string_view parameter, std::string_view what,
                std::vector<span> names, bool subject);
  [[nodiscard]] const std::vector<span>& names() const noexcept { return *names_; }
  [[nodiscard]] bool subject() const noexcept { return subject_; }
  /// The message with each name written as word(name) (and the parameter joined to the text by a
  /// space instead of ": " when it is the subject).
  [[nodiscard]] std::string worded(const std::function<std::string(std::string_view)>& word) const;

 private:
  std::shared_ptr<const std::vector<span>> names_;  // shared: copying never throws
  bool subject_ = false;
};

/// Throws setting_error "PARAMETER: WHAT". Names of settings and field options are written
/// between backquotes (`frames`), in `parameter` too unless it is one name; each {} in `what`
/// takes the next of `values` as it is (a user's text: never read for names).
[[noreturn]] void bad_setting(std::string_view parameter, std::string_view what,
                              std::initializer_list<std::string_view> values = {},
                              perlin::error_kind kind = perlin::error_kind::value);
/// The same with the parameter as the subject of `predicate`: "loop: needs frames N" (the CLI:
/// "--loop needs --frames N").
[[noreturn]] void bad_use(std::string_view subject, std::string_view predicate,
                          std::initializer_list<std::string_view> values = {});

/// Options as (name, text) pairs, by the option table's names (or the render settings'), in the
/// order a front was given them.
using option_pairs = std::vector<std::pair<std::string, std::string>>;

/// Sets each pair on `spec` through the option table (one parser per type); throws
/// perlin::invalid_argument or perlin::unknown_option naming the pair.
void apply_options(perlin::field_spec& spec, const option_pairs& pairs);

/// Whether a recipe's text is a graph (docs/graphs.md): JSON, or a recipe of another version than
/// 1 (a version-1 recipe is a field's, which field options given beside it may override).
[[nodiscard]] bool recipe_is_graph(std::string_view text);

/// Whether `pairs` names the field option `name` (or its alias).
[[nodiscard]] bool names(const option_pairs& pairs, std::string_view name);

/// Parses a comma-separated list of `min` to `max` numbers for the setting `option`; throws
/// setting_error.
[[nodiscard]] std::vector<double> parse_list(const std::string& text, const std::string& option,
                                             std::size_t min, std::size_t max);

}  // namespace perlin_render
