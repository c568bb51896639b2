// PNG (formats.cpp's png row): 8- or 16-bit grey or RGB pixels through libspng, made in memory
// band by band (render_pixels); --animated's APNG of every frame.
#include "perlin/image_io.hpp"
#include "writer.hpp"

namespace perlin_cli::writers {

using namespace perlin_render;

namespace {

perlin::png_options png_options(const render_plan& r) {
  return {.compression = r.compression, .threads = r.bulk.threads, .recipe = r.recipe};
}

std::vector<std::uint8_t> png_file(const render_plan& r, std::size_t frame, frame_values& v,
                                   const progress_fn& progress,
                                   const std::function<void()>& encoding) {
  const auto pixels = render_pixels(r, frame, v, progress);
  encoding();
  return perlin::encode_png(r.width, r.height, pixel_format_of(r), pixels, png_options(r));
}

/// One APNG: each frame compressed as it comes.
std::vector<std::uint8_t> png_animation(const render_plan& r, frame_values& v,
                                        const std::function<void(std::size_t, double)>& progress,
                                        const std::function<void(std::size_t)>& encoding) {
  perlin::apng_writer apng(r.width, r.height, pixel_format_of(r), r.fps, png_options(r));
  for (std::size_t frame = 0; frame < r.files(); ++frame) {
    const auto pixels = render_pixels(r, frame, v, [&](double f) { progress(frame, f); });
    encoding(frame);
    apng.add_frame(pixels);
  }
  return apng.finish();
}

}  // namespace

const format_writer png{
    .format = file_format::png, .file = png_file, .stream = nullptr, .animation = png_animation};

}  // namespace perlin_cli::writers
