// The noise options' flags (CLI11).
#include "noise_flags.hpp"

#include "perlin/field.hpp"

namespace perlin_cli {

void add_noise_options(CLI::App& app, noise_options& o, bool with_frequency, bool preset_defaults) {
  // With presets, the defaults of the fractal options are the preset's: --help says so instead
  // of showing eval's.
  const auto shown = [preset_defaults](CLI::Option* opt) {
    if (!preset_defaults) opt->capture_default_str();
    return opt;
  };
  const std::string preset = preset_defaults ? " (default: the preset's)" : "";
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
  shown(app.add_option("--fractal", o.fractal, "none, fbm, turbulence, ridged or billow" + preset)
            ->check(CLI::IsMember(perlin::fractal_kind_names())));
  shown(app.add_option("--octaves", o.octaves, "Number of octaves, 1 to 32" + preset));
  if (with_frequency) {
    app.add_option("--frequency", o.frequency, "Frequency of the first octave (> 0)")
        ->capture_default_str();
  }
  shown(app.add_option("--lacunarity", o.lacunarity, "Frequency ratio between octaves (> 0)" + preset));
  shown(app.add_option("--persistence,--gain", o.persistence, "Amplitude ratio between octaves (>= 0)" + preset));
  app.add_flag("--normalize", o.normalize, "Divide the fractal by the sum of its amplitudes" + preset);
  app.add_flag("--decorrelate", o.decorrelate, "Offset each octave so they do not align" + preset);
  shown(app.add_option("--plane", o.plane,
                       "aligned (Ken Perlin's lattice axes) or rotated (no axis streaks in 2-D)" + preset)
            ->check(CLI::IsMember(perlin::plane_names())));
  shown(app.add_option("--warp", o.warp,
                       "Domain warp: none, basic, progressive or independent (docs/warp.md)" + preset)
            ->check(CLI::IsMember(perlin::warp_kind_names())));
  shown(app.add_option("--warp-amplitude", o.warp_amplitude,
                       "How far the warp moves points, in cells of the first octave (>= 0)" + preset));
  shown(app.add_option("--warp-frequency", o.warp_frequency,
                       "Frequency of the warp's first octave relative to --frequency (> 0)" + preset));
  shown(app.add_option("--warp-octaves", o.warp_octaves,
                       "Octaves of a progressive or independent warp, 1 to 32" + preset));
  app.add_option("--warp-seed", o.warp_seed,
                 "64-bit seed of the warp's permutation; default: the field's");
}

}  // namespace perlin_cli
