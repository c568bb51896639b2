// OpenEXR (formats.cpp's exr row): the float32 values as Y, or float RGB (a colormap's pixels
// widened to float, or a normal map), made in memory.
#include "perlin/image_io.hpp"
#include "writer.hpp"

namespace perlin_cli::writers {

using namespace perlin_render;

namespace {

std::vector<std::uint8_t> encode(const render_plan& r, const frame_values& v) {
  if (r.normals != 0) return perlin::encode_exr(r.width, r.height, to_normals(r, v), 3, r.recipe);
  if (r.cmap == nullptr) return perlin::encode_exr(r.width, r.height, v.values, 1, r.recipe);
  const auto rgb = to_pixels(r, v);
  std::vector<float> f(rgb.size());
  for (std::size_t i = 0; i < rgb.size(); ++i) f[i] = static_cast<float>(rgb[i]) / 255.0f;
  return perlin::encode_exr(r.width, r.height, f, 3, r.recipe);
}

std::vector<std::uint8_t> exr_file(const render_plan& r, std::size_t frame, frame_values& v,
                                   const progress_fn& progress,
                                   const std::function<void()>& encoding) {
  return from_values(r, frame, v, progress, encoding, encode);
}

}  // namespace

const format_writer exr{.format = file_format::exr, .file = exr_file};

}  // namespace perlin_cli::writers
