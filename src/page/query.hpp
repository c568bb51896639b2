// What the preview page asks for (its query as render options), and the text written back about
// it: JSON strings and numbers, the `perlin render` command, the C++ and the Python that give the
// same picture. Shared by `perlin serve` and the static page's WebAssembly renderer
// (js/src/page_api.cpp). No HTTP here: the fuzzer drives it with plain pairs.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "options.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"

namespace perlin_page {

/// A request's query as render options: the field options of the option table and the render
/// settings (render_settings()), by name without "--"; the same pairs as a recipe.
struct query {
  perlin_render::render_options options;
  perlin_render::option_pairs given;  // in the order of the command it shows
  bool download = false;
};

/// The query's parameters (percent-decoded, as cpp-httplib gives them) as render options, for a
/// file of extension `ext`. Throws perlin::invalid_argument naming the parameter, without dashes (a
/// parameter given twice, a value over 4096 bytes, a bad flag, a bad value; a render setting's
/// as perlin_render::setting_error), or perlin::unknown_option (an unknown name).
query parse_query(const std::multimap<std::string, std::string>& params, const std::string& ext);

/// Refuses (perlin_render::setting_error) what the page cannot show, whichever renders it: tiles
/// (files, for perlin render), and previews above 2048x2048 without download=1 (an export,
/// checked against the CLI's own limits).
void check_servable(const query& q, const perlin_render::render_plan& plan);

/// The query made an export of the raw values (.npy): a picture's bits and colormap, which the
/// page's state may hold, do not apply to values and are dropped (not refused, as `perlin render
/// -o x.npy --bits 16` is: the page's .npy link carries the picture's whole state).
void drop_pixel_settings(query& q);

/// A JSON string, always valid JSON: control characters escaped, bytes that are not UTF-8 (a
/// client's query echoed in a message) replaced by U+FFFD.
std::string json_string(const std::string& s);
/// A JSON number (17 digits, so it reads back exactly), or null when not finite.
std::string json_number(double v);

/// The `perlin render` command line that writes the picture this query shows.
std::string command_of(const query& q, const std::string& ext);
/// C++ that computes the same values (the field and the pixel grid), from the resolved plan.
std::string cpp_of(const perlin_render::render_plan& r);
/// JavaScript (perlin-exact) that computes the same values, from the resolved plan.
std::string js_of(const perlin_render::render_plan& r);
/// The `perlin.render` call that gives the same pixels.
std::string python_of(const query& q);

/// The page's stats of a rendered picture (the X-Stats header): min, max, mean, the mapped bounds
/// and a 64-bin histogram of the values, the geometry, the command, recipe, C++ and Python, and
/// the values in force for the empty controls. `ms`: the render's time.
std::string stats_json(const query& q, const perlin_render::render_plan& plan,
                       const perlin_render::frame_values& values, double ms);

/// What the page's GPU mode needs to draw the picture of `plan` with WebGL2 and compare it with
/// the CPU's values: the field's standalone GLSL ES program (docs/gpu.md), the first sample's
/// point and the step, the size, the black and white (`stretch`: the page takes its own), whether
/// the picture's values are the field's (no marble or wood formula over them), and the float
/// shader's bound. Throws setting_error for a sphere projection and perlin::invalid_argument for
/// what shaders cannot express (the eroded fractal), naming it.
std::string shader_json(const perlin_render::render_plan& plan);

}  // namespace perlin_page
