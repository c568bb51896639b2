// Writes the static page's index.html with its own renderer (perlin_page.js), so that its
// controls are generated from the option table by the same code as perlin serve's page.
// Usage: node make_page.mjs PERLIN_PAGE_JS OUT_HTML
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [renderer, out] = process.argv.slice(2);
const { default: createPerlinPage } = await import(pathToFileURL(renderer));
const page = await createPerlinPage();
writeFileSync(out, page.UTF8ToString(page._perlin_page_html()));
