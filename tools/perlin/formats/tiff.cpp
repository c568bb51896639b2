// TIFF (formats.cpp's tiff row): the float32 values or 16-bit grey, a volume's slices as pages;
// to a file band by band through perlin::tiff_writer (strips or tiles, deflate, GeoTIFF tags), or
// in memory (-o -, --stretch).
#include <algorithm>

#include "perlin/image_io.hpp"
#include "writer.hpp"

namespace perlin_cli::writers {

using namespace perlin_render;

namespace {

std::vector<std::uint8_t> encode(const render_plan& r, const frame_values& v) {
  const std::size_t pages = std::max<std::size_t>(1, r.depth);
  if (r.png) {
    std::vector<std::uint16_t> samples;
    as_samples(to_pixels(r, v), samples);
    return perlin::encode_tiff(r.width, r.height, pages, std::span<const std::uint16_t>(samples),
                               r.recipe);
  }
  return perlin::encode_tiff(r.width, r.height, pages, std::span<const float>(v.values), r.recipe);
}

std::vector<std::uint8_t> tiff_file(const render_plan& r, std::size_t frame, frame_values& v,
                                    const progress_fn& progress,
                                    const std::function<void()>& encoding) {
  return from_values(r, frame, v, progress, encoding, encode);
}

perlin::tiff_layout layout_of(const render_plan& r, std::size_t frame, const perlin::crs* system) {
  perlin::tiff_layout layout;
  layout.width = r.width;
  layout.height = r.height;
  layout.pages = std::max<std::size_t>(1, r.depth);
  layout.float32 = !r.png;
  layout.tile = r.tiff_tile;
  layout.deflate = r.tiff_deflate;
  layout.description = r.recipe;
  if (system != nullptr) {
    // The tile's (or crop's) own corner: the whole map's pixel (first[0], first[1]).
    const perlin::grid g = r.frame_grid(frame);
    layout.geo = perlin::geo_reference{
        .system = *system,
        .origin_x = r.geo_origin[0] + static_cast<double>(g.first[0]) * r.geo_pixel[0],
        .origin_y = r.geo_origin[1] - static_cast<double>(g.first[1]) * r.geo_pixel[1],
        .pixel_x = r.geo_pixel[0],
        .pixel_y = r.geo_pixel[1]};
  }
  return layout;
}

void tiff_stream(const render_plan& r, std::size_t frame, perlin::pending_file& file,
                 const perlin::crs* system, const progress_fn& progress) {
  perlin::tiff_writer writer(file, layout_of(r, frame, system));
  std::vector<std::uint16_t> samples;
  render_bands(
      r, frame,
      [&](const frame_band& b) {
        if (r.png) {
          as_samples(b.pixels, samples);
          writer.write_rows(std::span<const std::uint16_t>(samples));
        } else {
          writer.write_rows(b.values);
        }
      },
      progress);
  writer.finish();
}

}  // namespace

const format_writer tiff{.format = file_format::tiff, .file = tiff_file, .stream = tiff_stream};

}  // namespace perlin_cli::writers
