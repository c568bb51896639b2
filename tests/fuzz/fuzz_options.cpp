// libFuzzer: the option parsers of `perlin render` and `perlin eval` (sizes, lists, periods,
// seeds, presets, colormaps, counts) through resolve(). Lines of the input fill the options; any
// result is a plan or a usage error naming an option, never another exception or a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "render_plan.hpp"

namespace {

std::vector<std::string> lines(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      out.emplace_back();
    } else {
      out.back().push_back(static_cast<char>(data[i]));
    }
  }
  out.resize(16);
  return out;
}

std::int64_t to_int(const std::string& s) { return std::strtoll(s.c_str(), nullptr, 10); }
double to_double(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto l = lines(data, size);
  perlin_render::render_options o;
  o.output = "out" + l[0];
  o.size = l[1];
  if (!l[2].empty()) o.depth = to_int(l[2]);
  if (!l[3].empty()) o.frames = to_int(l[3]);
  o.origin = l[4];
  o.offset = l[5];
  o.range = l[6];
  o.noise.period = l[7];
  o.noise.seed = l[8];
  o.preset = l[9].empty() ? "plain" : l[9];
  if (!l[10].empty()) o.colormap = l[10];
  o.noise.octaves = static_cast<int>(to_int(l[11]) % 64);
  if (!l[12].empty()) o.frequency = to_double(l[12]);
  o.noise.lacunarity = l[13].empty() ? 2.0 : to_double(l[13]);
  o.noise.persistence = l[14].empty() ? 0.5 : to_double(l[14]);
  o.tileable = !l[15].empty() && l[15][0] == 't';
  o.loop = !l[15].empty() && l[15].back() == 'l';
  try {
    const auto plan = perlin_render::resolve(o, [](const char*) { return true; });
    // A plan that passed resolve() fits the memory limit and has consistent sizes.
    if (plan.samples() == 0 || plan.width == 0 || plan.height == 0) std::abort();
    (void)plan.frame_grid(0).size();
    (void)plan.frame_path(plan.frames > 0 ? plan.frames - 1 : 0);
  } catch (const perlin_render::usage_error&) {
  } catch (const perlin::invalid_argument&) {
  }
  try {
    (void)perlin_render::parse_list(l[4], "--origin", 2, 4);
  } catch (const perlin_render::usage_error&) {
  }
  try {
    (void)perlin_render::parse_periods(l[7]);
  } catch (const perlin_render::usage_error&) {
  }
  return 0;
}
