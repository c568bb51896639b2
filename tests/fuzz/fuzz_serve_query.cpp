// libFuzzer: the bytes of a `perlin serve` query string, parsed as the server parses it
// (cpp-httplib's query parser, then parse_query and resolve). Every query is either refused with
// a usage error or an invalid_argument, or gives a plan; every text the server sends back about
// it (the error body, the command, the Python call, the C++) is a valid JSON string.
#include <httplib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "page/query.hpp"
#include "perlin/error.hpp"
#include "render_plan.hpp"

namespace {

/// Aborts unless `j` is one JSON string: quoted, no raw control character, escapes well formed,
/// and valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
void check_json_string(const std::string& j) {
  if (j.size() < 2 || j.front() != '"' || j.back() != '"') std::abort();
  for (std::size_t i = 1; i + 1 < j.size(); ++i) {
    const auto c = static_cast<unsigned char>(j[i]);
    if (c < 0x20 || c == 0x7F || c == '"') std::abort();
    if (c == '\\') {
      const char e = j[++i];
      if (e == 'u') {
        if (i + 4 >= j.size()) std::abort();
        for (int k = 1; k <= 4; ++k) {
          if (std::string_view("0123456789abcdefABCDEF").find(j[i + k]) == std::string::npos)
            std::abort();
        }
        i += 4;
      } else if (std::string_view("\"\\/bfnrt").find(e) == std::string::npos) {
        std::abort();
      }
      continue;
    }
    if (c < 0x80) continue;
    const std::size_t n = c >= 0xF0 && c <= 0xF4  ? 4
                          : c >= 0xE0 && c < 0xF0 ? 3
                          : c >= 0xC2 && c < 0xE0 ? 2
                                                  : 0;
    if (n == 0 || i + n >= j.size()) std::abort();
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(j[i + k]) & 0xC0) != 0x80) std::abort();
    }
    const auto c1 = static_cast<unsigned char>(j[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 >= 0x90))
      std::abort();
    i += n - 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): libFuzzer's bytes as text
  const std::string text(reinterpret_cast<const char*>(data), size);
  httplib::Params params;
  httplib::detail::parse_query_text(text, params);
  for (const char* ext : {".png", ".npy"}) {
    try {
      const perlin_page::query q = perlin_page::parse_query(params, ext);
      const perlin_render::render_plan plan = perlin_render::resolve(q.options);
      if (plan.samples() == 0) std::abort();
      check_json_string(perlin_page::json_string(perlin_page::command_of(q, ext)));
      check_json_string(perlin_page::json_string(perlin_page::python_of(q)));
      check_json_string(perlin_page::json_string(perlin_page::cpp_of(plan)));
    } catch (const perlin::invalid_argument& e) {
      check_json_string(perlin_page::json_string(e.what()));
    }
  }
  return 0;
}
