// 16-bit RAW (formats.cpp's raw row): the 16-bit grey samples, little-endian, no header; streamed
// band by band to a file.
#include "perlin/image_io.hpp"
#include "writer.hpp"

namespace perlin_cli::writers {

using namespace perlin_render;

namespace {

std::vector<std::uint8_t> encode(const render_plan& r, const frame_values& v) {
  std::vector<std::uint16_t> samples;
  as_samples(to_pixels(r, v), samples);
  return perlin::encode_raw16(r.width, r.height, samples);
}

std::vector<std::uint8_t> raw16_file(const render_plan& r, std::size_t frame, frame_values& v,
                                     const progress_fn& progress,
                                     const std::function<void()>& encoding) {
  return from_values(r, frame, v, progress, encoding, encode);
}

void raw16_stream(const render_plan& r, std::size_t frame, perlin::pending_file& file,
                  const perlin::crs*, const progress_fn& progress) {
  std::vector<std::uint16_t> samples;
  render_bands(
      r, frame,
      [&](const frame_band& b) {
        as_samples(b.pixels, samples);
        const auto bytes = perlin::encode_raw16(r.width, b.lines, samples);
        file.write(bytes.data(), bytes.size());
      },
      progress);
}

}  // namespace

const format_writer raw16{.format = file_format::raw16, .file = raw16_file, .stream = raw16_stream};

}  // namespace perlin_cli::writers
