// The preview page's HTML: the template (assets/index.html with page.css and page.js inside,
// embedded at build time as page_template.hpp) with its controls generated from the option table
// and the render settings, for `perlin serve` and for the static page of the npm package
// (js/page), which computes in a Web Worker instead of asking a server.
#include "page/html.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "page/page_template.hpp"
#include "perlin/option_table.hpp"
#include "presets.hpp"
#include "render_plan.hpp"
#include "runtime/text.hpp"

namespace perlin_page {

using namespace perlin_render;

namespace {

/// The page's groups of controls, in the panel's order.
struct control_group {
  std::string_view id, title;
};
constexpr control_group k_groups[] = {
    {"field", "Field"},     {"fractal", "Fractal"}, {"warp", "Warp"},
    {"picture", "Picture"}, {"output", "Output"},
};

/// Where an option's control sits: its group ("" for none: the animation's settings are the loop
/// player's, a volume is not a picture), whether it is folded among the group's advanced
/// settings, and the span its slider covers where the table's range is open or far wider than a
/// slider can show (0, 0: the table's own bounds). The render settings' table holds no ranges:
/// their sliders span what is given here. A number whose span covers two decades or more gets a
/// logarithmic slider. Typed values outside the span are taken as the table allows.
/// One row per option: the page's grouping is defined here, once, keyed by the tables' names;
/// an option missing here still gets a control (folded: "field" or "picture").
struct control_place {
  std::string_view name, group;
  bool advanced = false;
  double low = 0, high = 0;
};
constexpr control_place k_places[] = {
    // The option table.
    {"noise", "field"},
    {"seed", "field"},
    {"frequency", "field", false, 1.0 / 64, 64},
    {"plane", "field"},
    {"interp", "field", true},
    {"orientation", "field"},
    {"cellular-distance", "field"},
    {"cellular-return", "field"},
    {"cellular-jitter", "field", true},
    {"voronoi-displacement", "field", true, -4, 4},
    {"voronoi-distance", "field", true},
    {"period", "field", true, 1, 1024},
    {"fractal", "fractal"},
    {"octaves", "fractal"},
    {"lacunarity", "fractal", false, 1, 4},
    {"persistence", "fractal", false, 0, 1},
    {"normalize", "fractal", true},
    {"decorrelate", "fractal", true},
    {"ridged-offset", "fractal", true},
    {"ridged-gain", "fractal", true},
    {"erosion", "fractal", true, 0.01, 1000},
    {"warp", "warp"},
    {"warp-amplitude", "warp", false, 0, 4},
    {"warp-frequency", "warp", false, 1.0 / 16, 16},
    {"warp-octaves", "warp"},
    {"warp-seed", "warp", true},
    // The render settings.
    {"preset", "picture"},
    {"size", "picture"},
    {"step", "picture", false, 1.0 / 4096, 1.0 / 4},
    {"colormap", "picture"},
    {"range", "picture"},
    {"invert", "picture"},
    {"scale", "picture", true, 4, 4096},
    {"origin", "picture", true},
    {"offset", "picture", true},
    {"stretch", "picture", true},
    {"tileable", "picture", true},
    {"projection", "picture", true},
    {"radius", "picture", true, 1.0 / 4, 64},
    {"normals", "picture", true},
    {"height-scale", "picture", true, 1.0 / 16, 16},
    {"bits", "output"},
    {"tiff-tiles", "output", true},
    {"crs", "output", true},
    {"geo-origin", "output", true},
    {"geo-pixel-size", "output", true},
    {"depth", ""},
    {"frames", ""},
    {"loop", ""},
    {"loop-radius", ""},
    {"time-step", ""},
    {"animated", ""},
    {"fps", ""},
    {"tiles", ""},
};

control_place place_of(std::string_view name, std::string_view fallback_group) {
  for (const auto& p : k_places) {
    if (p.name == name) return p;
  }
  return {name, fallback_group, true};
}

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

std::string number_attr(double v) { return perlin::detail::number_text(v); }

/// The slider beside a number box: linear sliders carry the values themselves, logarithmic ones
/// positions 0 to 1000 between data-low and data-high (the page's script maps them).
std::string slider_html(const std::string& name, double low, double high, bool integer) {
  const bool log = low > 0 && high / low >= 100;
  std::string out = "<input type=\"range\" class=\"slider\" data-for=\"" + name +
                    "\" aria-label=\"" + name + " slider\" data-low=\"" + number_attr(low) +
                    "\" data-high=\"" + number_attr(high) + "\"";
  if (log) {
    out += " data-scale=\"log\" min=\"0\" max=\"1000\" step=\"1\"";
  } else {
    out += " data-scale=\"linear\" min=\"" + number_attr(low) + "\" max=\"" + number_attr(high) +
           "\" step=\"" +
           // about 1000 steps, each a power of ten: values as short as they are typed
           number_attr(integer ? 1 : std::pow(10.0, std::floor(std::log10((high - low) / 1000)))) +
           "\"";
  }
  if (integer) out += " data-int=\"1\"";
  return out + ">";
}

/// One control: its label, a slider where it has one, and the input named as the option. The
/// label leaves out the group's name ("amplitude" for warp-amplitude under Warp).
std::string control_html(const std::string& name, std::string_view group, const std::string& title,
                         const std::string& input, const std::string& slider) {
  std::string label = name;
  if (!group.empty() && label.size() > group.size() && label.starts_with(group) &&
      label[group.size()] == '-') {
    label.erase(0, group.size() + 1);
  }
  std::replace(label.begin(), label.end(), '-', ' ');
  return "<div class=\"ctl" + std::string(slider.empty() ? "" : " ranged") + "\" title=\"" +
         html_escape(title) + "\"><label for=\"c-" + name + "\">" + label + "</label>" + slider +
         input + "</div>\n";
}

/// The page's own controls (assets/controls.html), in the file's order: each block follows a
/// line "<!-- group NAME -->" (after the group's table controls) or "<!-- group NAME, folded -->"
/// (among its advanced settings).
struct own_control {
  std::string_view group;
  bool folded;
  std::string_view html;
};
std::vector<own_control> own_controls() {
  constexpr std::string_view open = "<!-- group ", close = " -->\n", folded = ", folded";
  const std::string_view text = k_controls;
  std::vector<own_control> out;
  for (auto at = text.find(open); at != std::string_view::npos;) {
    const auto name_end = text.find(close, at);
    if (name_end == std::string_view::npos) break;
    std::string_view name = text.substr(at + open.size(), name_end - at - open.size());
    const auto body = name_end + close.size();
    const auto next = text.find(open, body);
    const bool is_folded = name.ends_with(folded);
    if (is_folded) name.remove_suffix(folded.size());
    out.push_back(
        {name, is_folded, text.substr(body, next == std::string_view::npos ? next : next - body)});
    at = next;
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
  // The controls of each group, basic and folded: [group][advanced].
  std::vector<std::pair<std::string, std::string>> groups(std::size(k_groups));
  const auto add = [&](const control_place& at, const std::string& html) {
    for (std::size_t g = 0; g < std::size(k_groups); ++g) {
      if (k_groups[g].id != at.group) continue;
      (at.advanced ? groups[g].second : groups[g].first) += html;
    }
  };
  // One control per row of the option table: a choice or a flag is a select whose empty entry
  // keeps the preset's value (a preset's normalize can be switched off), the rest text inputs
  // whose placeholder is the default, with a slider where the row has a range; the title is the
  // table's help and domain.
  for (const perlin::option_info& row : perlin::field_options()) {
    const std::string name(row.name);
    const control_place at = place_of(row.name, "field");
    const std::string id = " id=\"c-" + name + "\" name=\"" + name + "\"";
    std::string input, slider;
    if (row.type == perlin::option_type::choice || row.type == perlin::option_type::flag) {
      const auto names = row.type == perlin::option_type::flag
                             ? std::vector<std::string>{"true", "false"}
                             : row.choices();
      input =
          "<select" + id + "><option value=\"\">(preset)</option>" + options(names) + "</select>";
    } else {
      const std::string def = row.default_text().empty() ? "none" : row.default_text();
      input = "<input type=\"text\"" + id + " placeholder=\"" + html_escape(def) + "\">";
      if (row.has_range) {
        double low = row.min, high = row.max;
        if (at.low != 0 || at.high != 0) {  // the span within the table's range
          low = std::max(low, at.low);
          high = std::min(high, at.high);
        }
        if (std::isfinite(low) && std::isfinite(high) && low < high) {
          slider = slider_html(name, low, high, row.type != perlin::option_type::number);
        }
      }
    }
    add(at, control_html(name, at.group, std::string(row.help) + " (" + row.domain() + ")", input,
                         slider));
  }
  // The render settings a picture uses, from their table.
  for (const render_setting& rs : render_settings()) {
    const std::string name(rs.name);
    const control_place at = place_of(rs.name, "picture");
    if (at.group.empty()) continue;
    const std::string id = " id=\"c-" + name + "\" name=\"" + name + "\"";
    std::string input, slider;
    if (rs.is_flag()) {
      input = "<input type=\"checkbox\"" + id + ">";
    } else if (name == "preset") {
      input = "<select" + id + "><option value=\"\">(" + rs.default_text() + ")</option>" +
              options(preset_names) + "</select>";
    } else if (name == "bits") {
      input = "<select" + id + "><option value=\"\">(" + rs.default_text() +
              ")</option><option>16</option></select>";
    } else if (name == "colormap") {
      // Text with suggestions: custom stops T:#RRGGBB,... survive a reload as well as names.
      input = "<input type=\"text\"" + id +
              " list=\"colormaps\" placeholder=\"preset\"><datalist id=\"colormaps\">" +
              options(colormap_names) + "</datalist>";
    } else {
      const std::string hint = name == "origin" || name == "offset" ? "0,0"
                               : name == "range"                    ? "typical"
                                                                    : "";
      input = "<input type=\"text\"" + id + " placeholder=\"" + hint + "\">";
      if (at.low < at.high) slider = slider_html(name, at.low, at.high, false);
    }
    add(at, control_html(name, at.group, rs.help_with_default(), input, slider));
  }
  // The groups, each with the page's own controls of that group (assets/controls.html) after its
  // table's, and its advanced settings folded.
  const std::vector<own_control> own = own_controls();
  std::string controls;
  for (std::size_t g = 0; g < std::size(k_groups); ++g) {
    const std::string id(k_groups[g].id);
    std::string basic = groups[g].first, folded = groups[g].second;
    for (const own_control& c : own) {
      if (c.group == k_groups[g].id) (c.folded ? folded : basic) += c.html;
    }
    controls += "<section class=\"group\" id=\"group-" + id + "\" data-group=\"" + id + "\"><h2>" +
                std::string(k_groups[g].title) + "</h2>\n" + basic;
    if (!folded.empty()) {
      controls += "<details class=\"advanced\"><summary>more " + id +
                  " settings <span class=\"set-count\"></span></summary>\n" + folded +
                  "</details>\n";
    }
    controls += "</section>\n";
  }
  const std::pair<const char*, std::string> fills[] = {
      {"@controls@", controls},
      {"@backend@", backend == page_backend::server ? "server" : "worker"},
  };
  std::string page = k_page;
  for (const auto& [token, html] : fills) {
    const auto at = page.find(token);
    if (at != std::string::npos) page.replace(at, std::string_view(token).size(), html);
  }
  return page;
}

}  // namespace perlin_page
