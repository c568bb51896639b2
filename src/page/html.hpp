// The preview page of `perlin serve` and of the npm package's static page: one HTML file with its
// CSS and JavaScript inside, no network needed. Its static parts are files, assets/index.html,
// page.css and page.js, embedded at build time (embed.cmake); the controls are generated here.
// The picture comes first and fills most of the window; the controls sit in a side panel (below
// it on narrow screens), in groups (field, fractal, warp, picture, output) with their advanced
// settings folded. Every control is named as the option it sets and generated, group and slider
// included, from the option table and the render settings (@controls@, html.cpp); the URL's
// query, a recipe, holds the whole state.
#pragma once

#include <string>
#include <string_view>

namespace perlin_page {

/// Where the page's pictures come from: `perlin serve` (fetch /render.png) or the page's own
/// Web Worker running the WebAssembly build of the same renderer (the static page, js/page).
enum class page_backend { server, worker };

/// The page with its choices filled in from the library's and the renderer's own tables, so
/// that it offers exactly what `perlin render` accepts.
std::string page_html(page_backend backend);

/// The page's own controls (not options of the tables) and the group each sits in, after the
/// group's table controls (or among its folded advanced settings): the z slice and the loop
/// player (the field's third and fourth dimensions), a recipe to paste, the exports.
struct page_extra {
  std::string_view group;
  bool advanced;
  const char* html;
};
inline constexpr page_extra k_group_extras[] = {
    {"field", false,
     R"HTML(<div class="ctl ranged" title="the slice z = Z of the 3-D field: the third value of --origin"><label for="z">z slice</label><input type="range" id="z" min="-4" max="4" step="0.01" value="0"><output id="z-value">0</output></div>
<div class="ctl" title="(z, w) around a circle through the 4-D field: the 48 frames of --frames 48 --loop"><label for="play">4-D loop</label><button type="button" id="play">play loop</button></div>
)HTML"},
    {"field", true,
     R"HTML(<input type="hidden" name="perlin"><!-- "1" when the URL is a recipe: it names the whole field -->
<div class="ctl" title="perlin=1&amp;...: the options above override it"><label for="c-recipe">recipe</label><input type="text" id="c-recipe" name="recipe" placeholder="paste a recipe"></div>
)HTML"},
    {"output", false,
     R"HTML(<div class="ctl pair" title="the picture's files at any size: the PNG as shown, the values as float32 .npy"><label for="export-size">export</label><input type="text" id="export-size" placeholder="size as shown"><span class="links"><a id="download-png" download="noise.png" href="#">PNG</a> <a id="download-npy" download="noise.npy" href="#">.npy</a></span></div>
)HTML"},
};

}  // namespace perlin_page
