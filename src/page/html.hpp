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

namespace perlin_page {

/// Where the page's pictures come from: `perlin serve` (fetch /render.png) or the page's own
/// Web Worker running the WebAssembly build of the same renderer (the static page, js/page).
enum class page_backend { server, worker };

/// The page with its choices filled in from the library's and the renderer's own tables, so
/// that it offers exactly what `perlin render` accepts.
std::string page_html(page_backend backend);

}  // namespace perlin_page
