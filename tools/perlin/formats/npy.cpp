// .npy (formats.cpp's npy row): the float32 values under NumPy's header, a volume's slices in
// order; streamed band by band to a file.
#include "perlin/image_io.hpp"
#include "writer.hpp"

namespace perlin_cli::writers {

using namespace perlin_render;

namespace {

std::vector<std::uint8_t> encode(const render_plan& r, const frame_values& v) {
  return perlin::encode_npy(values_shape(r), v.values);
}

std::vector<std::uint8_t> npy_file(const render_plan& r, std::size_t frame, frame_values& v,
                                   const progress_fn& progress,
                                   const std::function<void()>& encoding) {
  return from_values(r, frame, v, progress, encoding, encode);
}

void npy_stream(const render_plan& r, std::size_t frame, perlin::pending_file& file,
                const perlin::crs*, const progress_fn& progress) {
  const auto header = perlin::npy_header(values_shape(r));
  file.write(header.data(), header.size());
  render_bands(
      r, frame, [&](const frame_band& b) { file.write(b.values.data(), b.values.size_bytes()); },
      progress);
}

}  // namespace

const format_writer npy{.format = file_format::npy, .file = npy_file, .stream = npy_stream};

}  // namespace perlin_cli::writers
