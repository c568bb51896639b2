// Field options as text pairs, and the list parser of the render's settings.
#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "perlin/error.hpp"
#include "perlin/graph.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin_render {

setting_error::setting_error(perlin::error_kind kind, std::string_view parameter,
                             std::string_view what, std::vector<span> names, bool subject)
    : perlin::invalid_argument(kind, parameter, what),
      names_(std::make_shared<const std::vector<span>>(std::move(names))),
      subject_(subject) {}

std::string setting_error::worded(const std::function<std::string(std::string_view)>& word) const {
  const std::string_view all = what();
  const std::size_t head = parameter().size();
  std::string out;
  std::size_t at = 0;
  const auto copy_to = [&](std::size_t end) {
    if (at <= head && end > head) {  // the parameter's ": "
      out.append(all.substr(at, head - at));
      out += subject_ ? " " : ": ";
      at = head + 2;
    }
    out.append(all.substr(at, end - at));
    at = end;
  };
  for (const span& n : *names_) {
    copy_to(n.at);
    out += word(all.substr(n.at, n.size));
    at = n.at + n.size;
  }
  copy_to(all.size());
  return out;
}

namespace {

/// `text` with its backquotes removed, appended to `out`; the names they marked recorded in
/// `names` (at their place in `out`), each {} replaced by the next of `values`. `whole`: a text
/// without backquotes is one name.
void expand(std::string& out, std::vector<setting_error::span>& names, std::string_view text,
            std::initializer_list<std::string_view> values, bool whole) {
  if (whole && text.find('`') == std::string_view::npos) {
    names.push_back({out.size(), text.size()});
    out += text;
    return;
  }
  auto value = values.begin();
  std::size_t start = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '`') {
      if (start > 0) {
        names.push_back({start - 1, out.size() - (start - 1)});
        start = 0;
      } else {
        start = out.size() + 1;  // + 1: 0 means none open
      }
    } else if (text.substr(k, 2) == "{}" && value != values.end()) {
      out += *value++;
      ++k;
    } else {
      out += text[k];
    }
  }
}

[[noreturn]] void throw_setting(std::string_view parameter, std::string_view what,
                                std::initializer_list<std::string_view> values,
                                perlin::error_kind kind, bool subject) {
  std::string head, text;
  std::vector<setting_error::span> names, later;
  expand(head, names, parameter, {}, true);
  expand(text, later, what, values, false);
  for (auto& n : later) names.push_back({n.at + head.size() + 2, n.size});
  throw setting_error(kind, head, text, std::move(names), subject);
}

}  // namespace

void bad_setting(std::string_view parameter, std::string_view what,
                 std::initializer_list<std::string_view> values, perlin::error_kind kind) {
  throw_setting(parameter, what, values, kind, false);
}

void bad_use(std::string_view subject, std::string_view predicate,
             std::initializer_list<std::string_view> values) {
  throw_setting(subject, predicate, values, perlin::error_kind::value, true);
}

void apply_options(perlin::field_spec& spec, const option_pairs& pairs) {
  for (const auto& [name, value] : pairs) spec.set(name, value);
}

bool recipe_is_graph(std::string_view text) { return perlin::is_graph_text(text); }

bool names(const option_pairs& pairs, std::string_view name) {
  const perlin::option_info* row = perlin::find_option(name);
  return std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) {
    return row != nullptr && perlin::find_option(p.first) == row;
  });
}

std::vector<double> parse_list(const std::string& text, const std::string& option, std::size_t min,
                               std::size_t max) {
  const auto bad = [&] {
    bad_setting(option, "{} is not a comma-separated list of {} to {} finite numbers",
                {perlin::detail::quoted(text), std::to_string(min), std::to_string(max)});
  };
  std::vector<double> out;
  try {
    for (const auto item : perlin::detail::split_list(option, text)) {
      out.push_back(perlin::detail::parse_number(option, item));
    }
  } catch (const perlin::invalid_argument&) {
    bad();
  }
  if (out.size() < min || out.size() > max) bad();
  return out;
}

}  // namespace perlin_render
