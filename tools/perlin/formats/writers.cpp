// The join of the formats' rows (src/render/formats.cpp) and their writers (one file each here).
#include <cstring>
#include <stdexcept>

#include "writer.hpp"

namespace perlin_cli {

using namespace perlin_render;

const format_writer& writer_of(file_format f) {
  static const format_writer* const all[] = {&writers::png, &writers::npy, &writers::raw16,
                                             &writers::tiff, &writers::exr};
  for (const format_writer* w : all)
    if (w->format == f) return *w;
  throw std::logic_error("writer_of: a format without a writer");
}

namespace writers {

std::vector<std::uint8_t> from_values(const render_plan& r, std::size_t frame, frame_values& v,
                                      const progress_fn& progress,
                                      const std::function<void()>& encoding,
                                      std::vector<std::uint8_t> (*encode)(const render_plan&,
                                                                          const frame_values&)) {
  render_frame(r, frame, v, progress);
  apply_formula(r, v);
  encoding();
  return encode(r, v);
}

void as_samples(std::span<const std::uint8_t> bytes, std::vector<std::uint16_t>& samples) {
  samples.resize(bytes.size() / 2);
  std::memcpy(samples.data(), bytes.data(), bytes.size());
}

std::vector<std::size_t> values_shape(const render_plan& r) {
  std::vector<std::size_t> shape;
  if (r.depth > 0) shape.push_back(r.depth);
  shape.push_back(r.height);
  shape.push_back(r.width);
  return shape;
}

}  // namespace writers

}  // namespace perlin_cli
