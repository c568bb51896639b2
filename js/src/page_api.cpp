// The static preview page's renderer (js/page/worker.js): what `perlin serve` answers to
// /render.png and /render.npy, without HTTP, in the WebAssembly build: the same query parser,
// the same render pipeline, the same stats, command, recipe and code. The worker writes the
// files (PNG, .npy) from the pixels and values given here.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "page/html.hpp"
#include "page/query.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"

namespace {

using namespace perlin_render;

/// What the last call made, read by the worker through the functions below.
struct page_result {
  std::string html;
  std::string error;
  std::string stats;
  std::vector<std::uint8_t> data;  // pixels (16-bit samples in host order) or float values
  std::size_t width = 0, height = 0, channels = 0, bits = 0;
};
page_result g_result;

/// Pairs "name\0value\0name\0value\0" (URLSearchParams' decoding) as cpp-httplib's Params.
std::multimap<std::string, std::string> pairs_of(const char* text, std::size_t length) {
  std::multimap<std::string, std::string> out;
  std::vector<std::string> parts;
  std::string part;
  for (std::size_t i = 0; i < length; ++i) {
    if (text[i] == '\0') {
      parts.push_back(part);
      part.clear();
    } else {
      part += text[i];
    }
  }
  for (std::size_t i = 0; i + 1 < parts.size(); i += 2) out.emplace(parts[i], parts[i + 1]);
  return out;
}

void render(const char* pairs, std::size_t length, bool npy) {
  perlin_page::query q = perlin_page::parse_query(pairs_of(pairs, length), npy ? ".npy" : ".png");
  if (npy) {
    perlin_page::drop_pixel_settings(q);
  }
  const auto start = std::chrono::steady_clock::now();
  const render_plan plan = resolve(q.options);
  perlin_page::check_servable(q, plan);
  frame_values values;
  render_frame(plan, 0, values);
  apply_formula(plan, values);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  g_result.width = plan.width;
  g_result.height = plan.height;
  if (npy) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.values.data());
    g_result.data.assign(bytes, bytes + values.values.size() * sizeof(float));
    g_result.channels = 1;
    g_result.bits = 32;
  } else {
    const auto pixels = to_pixels(plan, values);
    g_result.data.assign(pixels.begin(), pixels.end());
    const perlin::pixel_format f = pixel_format_of(plan);
    const bool rgb = f == perlin::pixel_format::rgb8 || f == perlin::pixel_format::rgb16;
    const bool wide = f == perlin::pixel_format::gray16 || f == perlin::pixel_format::rgb16;
    g_result.channels = rgb ? 3 : 1;
    g_result.bits = wide ? 16 : 8;
  }
  g_result.stats = perlin_page::stats_json(q, plan, values, ms);
}

/// Runs `body` on a fresh result: 0, or the HTTP status the server would give (400 for a bad
/// option, 413 for too much memory, 500 otherwise) with the message in perlin_page_error().
template <class F>
int answer(F&& body) {
  g_result = page_result{};
  try {
    body();
    return 0;
  } catch (const perlin::invalid_argument& e) {
    g_result.error = e.what();
    return 400;
  } catch (const std::bad_alloc&) {
    g_result.error = "out of memory: try a smaller size";
    return 413;
  } catch (const std::exception& e) {
    g_result.error = e.what();
    return 500;
  }
}

}  // namespace

extern "C" {

/// The page (its controls from the option table), computing in its worker.
const char* perlin_page_html() {
  g_result.html = perlin_page::page_html(perlin_page::page_backend::worker);
  return g_result.html.c_str();
}

/// Renders the picture (npy = 0: pixels for a PNG; 1: the float values for a .npy) that the
/// query, given as NUL-separated decoded pairs, names. Returns 0, or the HTTP status the server
/// would give (400 for a bad option, 413 for too much memory, 500 otherwise) with the message
/// in perlin_page_error().
int perlin_page_render(const char* pairs, std::size_t length, int npy) {
  return answer([&] { render(pairs, length, npy != 0); });
}

/// The page's GPU mode: shader_json of the query's plan (perlin serve's /shader.json) into
/// perlin_page_stats(); the status as perlin_page_render's.
int perlin_page_shader(const char* pairs, std::size_t length) {
  return answer([&] {
    const perlin_page::query q = perlin_page::parse_query(pairs_of(pairs, length), ".png");
    const render_plan plan = resolve(q.options);
    perlin_page::check_servable(q, plan);
    g_result.stats = perlin_page::shader_json(plan);
  });
}

const char* perlin_page_error() { return g_result.error.c_str(); }
const char* perlin_page_stats() { return g_result.stats.c_str(); }
const std::uint8_t* perlin_page_data() { return g_result.data.data(); }
std::size_t perlin_page_size() { return g_result.data.size(); }
std::size_t perlin_page_width() { return g_result.width; }
std::size_t perlin_page_height() { return g_result.height; }
std::size_t perlin_page_channels() { return g_result.channels; }
std::size_t perlin_page_bits() { return g_result.bits; }

}  // extern "C"
