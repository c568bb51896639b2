// The output formats' table (formats.hpp): one row per format. The writers are the CLI's
// (tools/perlin/formats/), one file each.
#include "formats.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "options.hpp"
#include "render_plan.hpp"

namespace perlin_render {

void format_refusal::raise() const {
  if (use) bad_use(setting, text);
  bad_setting(setting, text);
}

namespace {

const std::array<format_info, 5>& table() {
  static const std::array<format_info, 5> rows = {{
      {.id = file_format::png,
       .name = "png",
       .extensions = {".png"},
       .label = "PNG",
       .title = "PNG",
       .holds = "",
       .description = "8- or 16-bit grey, or 8-bit RGB with a colormap (16-bit RGB for a normal "
                      "map); one animated PNG (APNG) of the frames with `animated`",
       .pixels = pixel_rule::always,
       .bits = {8, 16},
       .volumes = "",
       .normals = "PNG (RGB, `bits` 8 or 16)",
       .compression = true,
       .animated = true,
       .peak_bytes =
           [](const render_plan&, std::uint64_t values, std::uint64_t pixel_bytes) {
             return values + 2 * pixel_bytes;  // the pixels and the file
           }},
      {.id = file_format::npy,
       .name = "npy",
       .extensions = {".npy"},
       .label = ".npy",
       .title = ".npy",
       .holds = "",
       .description = "the float32 values (NumPy's format), a volume's slices with `depth`",
       .pixels = pixel_rule::never,
       .bits = {},
       .bits_refusal = {"`bits` and `colormap`", "apply to .png output; .npy holds the raw values",
                        true},
       .colormaps = colormap_rule::none,
       .colormap_refusal = {"`bits` and `colormap`",
                            "apply to .png output; .npy holds the raw values", true},
       .volumes = ".npy",
       .streams = true,
       .peak_bytes =
           [](const render_plan&, std::uint64_t values, std::uint64_t) {
             return values + 4;  // the .npy copy of the values
           }},
      {.id = file_format::raw16,
       .name = "raw",
       .extensions = {".r16", ".raw"},
       .label = "RAW",
       .title = "16-bit RAW",
       .holds = "16-bit RAW",
       .description = "a 16-bit grey heightmap: unsigned little-endian samples, rows top to "
                      "bottom, no header",
       .pixels = pixel_rule::always,
       .bits = {16},
       .bits_refusal = {"bits", "a RAW heightmap is 16-bit"},
       .fixed_bits = 16,
       .colormaps = colormap_rule::grey,
       .colormap_refusal = {"colormap", "a RAW heightmap is one grey channel"},
       .streams = true,
       .peak_bytes =
           [](const render_plan&, std::uint64_t values, std::uint64_t pixel_bytes) {
             return values + 3 * pixel_bytes;  // pixels, 16-bit samples, the file
           }},
      {.id = file_format::tiff,
       .name = "tiff",
       .extensions = {".tif", ".tiff"},
       .label = "TIFF",
       .title = "TIFF",
       .holds = "float32",
       .description = "the float32 values, or 16-bit grey with `bits` 16; a volume's slices as "
                      "pages; strips or tiles (`tiff-tiles`), deflate (`compression`), GeoTIFF "
                      "tags (`crs`)",
       .pixels = pixel_rule::with_bits16,
       .bits = {16},
       .bits_refusal = {"bits", "a TIFF holds the float32 values, or 16-bit grey with `bits` 16"},
       .colormaps = colormap_rule::grey,
       .colormap_refusal = {"colormap", "a TIFF here is one sample per pixel"},
       .volumes = ".tif (pages)",
       .max_depth = 65535,
       .streams = true,
       .compression = true,
       .tiled = true,
       .georeferenced = true,
       .peak_bytes =
           [](const render_plan& r, std::uint64_t values, std::uint64_t pixel_bytes) {
             return r.png ? values + 3 * pixel_bytes : values + 4;
           }},
      {.id = file_format::exr,
       .name = "exr",
       .extensions = {".exr"},
       .label = "EXR",
       .title = "OpenEXR",
       .holds = "float32",
       .description = "the float32 values as a Y channel, or float RGB with `colormap` or "
                      "`normals`",
       .pixels = pixel_rule::with_colormap,
       .bits = {},
       .bits_refusal = {"bits", "an EXR holds float32 values (Y, or RGB with `colormap`)"},
       .normals = "EXR (float RGB)",
       .peak_bytes =
           [](const render_plan& r, std::uint64_t values, std::uint64_t) {
             // RGB as floats, the file (24 bytes a pixel, twice), or the values' copies.
             return r.cmap != nullptr || r.normals != 0 ? values + 27 : values + 4;
           }},
  }};
  return rows;
}

}  // namespace

std::span<const format_info> formats() { return table(); }

const format_info& format_row(file_format f) {
  const auto& rows = table();
  const auto i = static_cast<std::size_t>(f);
  if (i >= rows.size() || rows[i].id != f)
    throw std::logic_error("format_row: the rows are not in file_format's order");
  return rows[i];
}

const format_info* find_format(std::string_view name) {
  for (const auto& f : table())
    if (f.name == name) return &f;
  return nullptr;
}

const format_info* find_format_by_extension(std::string_view extension) {
  for (const auto& f : table()) {
    if (std::find(f.extensions.begin(), f.extensions.end(), extension) != f.extensions.end())
      return &f;
  }
  return nullptr;
}

std::string join_or(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? std::string_view(" or ") : sep;
    out += items[i];
  }
  return out;
}

namespace {

std::string joined(const std::vector<std::string_view>& parts, std::string_view sep) {
  std::string out;
  for (const auto p : parts) out += (out.empty() ? "" : std::string(sep)) + std::string(p);
  return out;
}

}  // namespace

std::string format_extensions_text() {
  std::string out;
  for (const auto& f : table()) out += (out.empty() ? "" : ", ") + joined(f.extensions, " or ");
  return out;
}

std::string format_names_text() {
  std::vector<std::string> names;
  for (const auto& f : table()) names.emplace_back(f.name);
  return join_or(names);
}

std::string format_output_help() {
  std::string out;
  for (const auto& f : table()) {
    out += (out.empty() ? "" : ", ") + joined(f.extensions, "/");
    if (!f.holds.empty()) out += " (" + std::string(f.holds) + ")";
  }
  return out;
}

std::string formats_markdown() {
  const auto yes = [](bool b) { return b ? "yes" : ""; };
  std::string out =
      "| format | extensions | holds | `bits` | `colormap` | `depth` | `normals` | streamed | "
      "`compression` |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& f : table()) {
    std::string bits;
    if (f.fixed_bits != 0) {
      bits = std::to_string(f.fixed_bits);
    } else if (f.bits.empty()) {
      bits = "float32";
    } else {
      for (const int b : f.bits) bits += (bits.empty() ? "" : ", ") + std::to_string(b);
      if (f.pixels != pixel_rule::always) bits = "float32, or " + bits;
    }
    const char* cmap = f.colormaps == colormap_rule::any    ? "any"
                       : f.colormaps == colormap_rule::grey ? "grey"
                                                            : "";
    std::string extensions;
    for (const auto e : f.extensions)
      extensions += (extensions.empty() ? "`" : ", `") + std::string(e) + "`";
    out += "| `" + std::string(f.name) + "` | " + extensions + " | " + std::string(f.description) +
           " | " + bits + " | " + cmap + " | " + yes(!f.volumes.empty()) + " | " +
           yes(!f.normals.empty()) + " | " + yes(f.streams) + " | " + yes(f.compression) + " |\n";
  }
  return out;
}

}  // namespace perlin_render
