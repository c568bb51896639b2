// Shared noise options of the perlin subcommands.
#include "options.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "perlin/error.hpp"

namespace perlin_cli {

void add_noise_options(CLI::App& app, noise_options& o, bool with_frequency) {
  app.add_option("--noise", o.noise, "Base noise: improved (Ken Perlin 2002) or value")
      ->check(CLI::IsMember(perlin::noise_kind_names()))
      ->capture_default_str();
  app.add_option("--interp", o.interp, "Value-noise interpolation: linear, cosine, cubic, quintic")
      ->check(CLI::IsMember(perlin::interpolation_names()))
      ->capture_default_str();
  app.add_option("--seed", o.seed,
                 "64-bit seed of the permutation (docs/seeding.md); default: Ken Perlin's table");
  app.add_option("--period", o.period,
                 "Tiling period in lattice cells, 1 to 2147483647: P for every axis, or P,P,P");
  app.add_option("--fractal", o.fractal, "none, fbm, turbulence, ridged or billow")
      ->check(CLI::IsMember(perlin::fractal_kind_names()))
      ->capture_default_str();
  app.add_option("--octaves", o.octaves, "Number of octaves, 1 to 32")->capture_default_str();
  if (with_frequency) {
    app.add_option("--frequency", o.frequency, "Frequency of the first octave (> 0)")
        ->capture_default_str();
  }
  app.add_option("--lacunarity", o.lacunarity, "Frequency ratio between octaves (> 0)")
      ->capture_default_str();
  app.add_option("--persistence,--gain", o.persistence, "Amplitude ratio between octaves (>= 0)")
      ->capture_default_str();
  app.add_flag("--normalize", o.normalize, "Divide the fractal by the sum of its amplitudes");
  app.add_flag("--decorrelate", o.decorrelate, "Offset each octave so they do not align");
}

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
  perlin::lattice lat;
  if (!o.seed.empty()) {
    std::uint64_t seed = 0;
    const char* end = o.seed.data() + o.seed.size();
    const auto [ptr, ec] = std::from_chars(o.seed.data(), end, seed);
    if (ec != std::errc() || ptr != end) {
      throw usage_error("--seed: '" + o.seed + "' is not an integer from 0 to 18446744073709551615");
    }
    lat = perlin::lattice(seed);
  }
  if (!o.period.empty()) {
    const auto periods = parse_periods(o.period);
    if (periods.size() == 1) {
      lat.set_period_all(periods[0]);
    } else {
      for (std::size_t k = 0; k < periods.size(); ++k) lat.set_period(k, periods[k]);
    }
  }
  perlin::fractal f;
  f.set_kind(perlin::parse_fractal_kind(o.fractal))
      .set_octaves(o.octaves)
      .set_frequency(o.frequency)
      .set_lacunarity(o.lacunarity)
      .set_persistence(o.persistence)
      .set_normalize(o.normalize)
      .set_decorrelate(o.decorrelate);
  if (perlin::parse_noise_kind(o.noise) == perlin::noise_kind::value) {
    return {perlin::value_noise(lat, perlin::parse_interpolation(o.interp)), f};
  }
  return {perlin::improved_noise(lat), f};
}

}  // namespace perlin_cli
