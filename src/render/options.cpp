// Parsers of the text options, and the field they describe.
#include "options.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"

namespace perlin_render {

std::vector<std::int64_t> parse_periods(const std::string& text) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                             : comma - start);
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size()) {
      throw usage_error("--period: '" + text +
                        "' is not an integer or a comma-separated list of 1 to 4 integers");
    }
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() > 4) throw usage_error("--period: at most 4 periods, got " + std::to_string(out.size()));
  return out;
}

std::vector<double> parse_list(const std::string& text, const std::string& option,
                               std::size_t min, std::size_t max) {
  std::vector<double> out;
  std::size_t start = 0;
  const auto bad = [&] {
    return usage_error(option + ": '" + text + "' is not a comma-separated list of " +
                       std::to_string(min) + " to " + std::to_string(max) + " finite numbers");
  };
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    double v = 0;
    const char* first = item.data();
    if (!item.empty() && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || !std::isfinite(v)) {
      throw bad();
    }
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() < min || out.size() > max) throw bad();
  return out;
}

perlin::field make_field(const noise_options& o) {
  perlin::field_spec spec;
  spec.noise = o.noise;
  spec.interp = o.interp;
  if (!o.seed.empty()) {
    std::uint64_t seed = 0;
    const char* end = o.seed.data() + o.seed.size();
    const auto [ptr, ec] = std::from_chars(o.seed.data(), end, seed);
    if (ec != std::errc() || ptr != end) {
      throw usage_error("--seed: '" + o.seed + "' is not an integer from 0 to 18446744073709551615");
    }
    spec.seed = seed;
  }
  if (!o.period.empty()) spec.period = parse_periods(o.period);
  spec.fractal = o.fractal;
  spec.octaves = o.octaves;
  spec.frequency = o.frequency;
  spec.lacunarity = o.lacunarity;
  spec.persistence = o.persistence;
  spec.normalize = o.normalize;
  spec.decorrelate = o.decorrelate;
  spec.plane = o.plane;
  spec.warp = o.warp;
  spec.warp_amplitude = o.warp_amplitude;
  spec.warp_frequency = o.warp_frequency;
  spec.warp_octaves = o.warp_octaves;
  if (!o.warp_seed.empty()) spec.set("warp-seed", o.warp_seed);
  return perlin::make_field(spec);
}

std::vector<std::string> unused_noise_options(const noise_options& o,
                                              const std::function<bool(const char*)>& given) {
  std::vector<std::string> out;
  if (o.fractal == "none") {
    for (const char* name : {"--octaves", "--lacunarity", "--persistence", "--normalize", "--decorrelate"}) {
      if (given(name)) out.push_back(std::string(name) + " has no effect without --fractal (the fractal is none)");
    }
  }
  if (o.noise != "value" && given("--interp")) {
    out.emplace_back("--interp has no effect on improved noise (it is for --noise value)");
  }
  if (o.warp == "none") {
    for (const char* name : {"--warp-amplitude", "--warp-frequency", "--warp-octaves", "--warp-seed"}) {
      if (given(name)) out.push_back(std::string(name) + " has no effect without --warp (the warp is none)");
    }
  } else if (o.warp == "basic" && given("--warp-octaves")) {
    out.emplace_back("--warp-octaves has no effect on a basic warp (one octave; use progressive or independent)");
  }
  return out;
}

}  // namespace perlin_render
