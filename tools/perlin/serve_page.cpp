// The preview page's HTML: the template (serve_page.hpp) with its controls generated from the
// option table and the render settings, for `perlin serve` and for the static page of the npm
// package (js/page), which computes in a Web Worker instead of asking a server.
#include "serve_page.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perlin/option_table.hpp"
#include "presets.hpp"
#include "render_plan.hpp"

namespace perlin_cli {

using namespace perlin_render;

namespace {

std::string html_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string page_html(page_backend backend) {
  const auto options = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += "<option>" + n + "</option>";
    return out;
  };
  std::vector<std::string> preset_names, colormap_names;
  for (const auto& p : presets()) preset_names.emplace_back(p.name);
  for (const auto& m : colormaps()) colormap_names.push_back(m.name);
  // One control per row of the option table: a choice or a flag is a select whose empty entry
  // keeps the preset's value (a preset's normalize can be switched off), the rest text inputs
  // whose placeholder is the default; the title is the table's help and domain.
  std::string field_controls;
  for (const perlin::option_info& row : perlin::field_options()) {
    const std::string name(row.name);
    const std::string title = std::string(row.help) + " (" + row.domain() + ")";
    std::string label = name;
    std::replace(label.begin(), label.end(), '-', ' ');
    field_controls += "<label title=\"" + html_escape(title) + "\">" + label + " ";
    if (row.type == perlin::option_type::choice || row.type == perlin::option_type::flag) {
      const auto names = row.type == perlin::option_type::flag
                             ? std::vector<std::string>{"true", "false"}
                             : row.choices();
      field_controls += "<select name=\"" + name + "\"><option value=\"\">(preset)</option>" +
                        options(names) + "</select>";
    } else {
      const std::string def = row.default_text().empty() ? "none" : row.default_text();
      field_controls +=
          "<input type=\"text\" name=\"" + name + "\" placeholder=\"" + html_escape(def) + "\">";
    }
    field_controls += "</label>\n";
  }
  // The render settings a picture uses (the animation's are the loop player's), from their table.
  std::string render_controls;
  for (const render_setting& rs : render_settings()) {
    const std::string name(rs.name);
    if (name == "frames" || name == "loop" || name == "loop-radius" || name == "time-step" ||
        name == "animated" || name == "fps" || name == "depth" || name == "tiles") {
      continue;
    }
    render_controls += "<label title=\"" + html_escape(std::string(rs.help)) + "\">" + name + " ";
    if (rs.flag) {
      render_controls += "<input type=\"checkbox\" name=\"" + name + "\">";
    } else if (name == "preset") {
      render_controls += "<select name=\"preset\"><option value=\"\">(plain)</option>" +
                         options(preset_names) + "</select>";
    } else if (name == "bits") {
      render_controls +=
          "<select name=\"bits\"><option value=\"\">(8)</option><option>16</option></select>";
    } else if (name == "colormap") {
      // Text with suggestions: custom stops T:#RRGGBB,... survive a reload as well as names.
      render_controls +=
          "<input type=\"text\" name=\"colormap\" list=\"colormaps\" "
          "placeholder=\"preset\"><datalist id=\"colormaps\">" +
          options(colormap_names) + "</datalist>";
    } else {
      const std::string hint = name == "origin" || name == "offset" ? "0,0"
                               : name == "range"                    ? "typical"
                                                                    : "";
      render_controls += "<input type=\"text\" name=\"" + name + "\" placeholder=\"" + hint + "\">";
    }
    render_controls += "</label>\n";
  }
  const std::pair<const char*, std::string> fills[] = {
      {"@render@", render_controls},
      {"@field@", field_controls},
      {"@backend@", backend == page_backend::server ? "server" : "worker"},
  };
  std::string page = k_page;
  for (const auto& [token, html] : fills) {
    const auto at = page.find(token);
    if (at != std::string::npos) page.replace(at, std::string_view(token).size(), html);
  }
  return page;
}

}  // namespace perlin_cli
