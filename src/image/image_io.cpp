// PNG through libspng, .npy by hand (its header is a few lines of text), and atomic files.
#include "perlin/image_io.hpp"

#include <spng.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "detail/error.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  detail::throw_io(path.string() + ": " + what);
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
  const auto parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

struct spng_deleter {
  void operator()(spng_ctx* c) const { spng_ctx_free(c); }
};

}  // namespace

void check_writable(const std::filesystem::path& path) {
  const auto folder = folder_of(path);
  std::error_code ec;
  if (!std::filesystem::exists(folder, ec))
    fail(path, "folder '" + folder.string() + "' does not exist");
  if (!std::filesystem::is_directory(folder, ec))
    fail(path, "'" + folder.string() + "' is not a folder");
  if (std::filesystem::is_directory(path, ec)) fail(path, "is a folder");
  pending_file probe(path);  // throws if the folder does not accept a new file; discarded
}

void write_png(pending_file& file, std::size_t width, std::size_t height, pixel_format format,
               std::span<const std::uint8_t> data, const png_options& options) {
  const auto png = encode_png(width, height, format, data, options);
  file.write(png.data(), png.size());
}

void write_png(const std::filesystem::path& path, std::size_t width, std::size_t height,
               pixel_format format, std::span<const std::uint8_t> data,
               const png_options& options) {
  pending_file file(path);
  write_png(file, width, height, format, data, options);
  file.publish();
}

std::vector<std::uint8_t> npy_header(std::span<const std::size_t> shape) {
  std::size_t n = 1;
  std::string dims;
  for (const std::size_t d : shape) {
    if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d) {
      detail::throw_size("shape", "the number of elements overflows std::size_t");
    }
    n *= d;
    dims += std::to_string(d) + ", ";
  }
  if (shape.size() == 1)
    dims.pop_back();  // "(5,)"
  else if (!dims.empty())
    dims.resize(dims.size() - 2);
  // NumPy format 1.0: magic, version, header length (uint16 LE), then a dict padded with spaces
  // and ending in '\n' so that the data starts at a multiple of 64 bytes.
  // Native byte order, said in the header: '<f4' little-endian, '>f4' big-endian.
  constexpr const char* descr = std::endian::native == std::endian::big ? ">f4" : "<f4";
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  if (header.size() > 65535) detail::throw_size("shape", "too many dimensions for a .npy header");
  std::string prefix = "\x93NUMPY";
  prefix.push_back('\x01');
  prefix.push_back('\x00');
  prefix.push_back(static_cast<char>(header.size() & 0xFF));
  prefix.push_back(static_cast<char>(header.size() >> 8));
  std::vector<std::uint8_t> out(prefix.size() + header.size());
  std::memcpy(out.data(), prefix.data(), prefix.size());
  std::memcpy(out.data() + prefix.size(), header.data(), header.size());
  return out;
}

std::vector<std::uint8_t> encode_npy(std::span<const std::size_t> shape,
                                     std::span<const float> data) {
  std::size_t n = 1;
  for (const std::size_t d : shape) {
    if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d) {
      detail::throw_size("shape", "the number of elements overflows std::size_t");
    }
    n *= d;
  }
  if (n != data.size()) detail::throw_size("data", "does not match the shape");
  std::vector<std::uint8_t> out = npy_header(shape);
  const std::size_t at = out.size();
  // One allocation and one copy (GCC 12 warns falsely, -Warray-bounds, on vector::insert here).
  out.resize(at + data.size() * sizeof(float));
  if (!data.empty()) std::memcpy(out.data() + at, data.data(), data.size() * sizeof(float));
  return out;
}

void write_npy(pending_file& file, std::span<const std::size_t> shape,
               std::span<const float> data) {
  const auto npy = encode_npy(shape, data);
  file.write(npy.data(), npy.size());
}

void write_npy(const std::filesystem::path& path, std::span<const std::size_t> shape,
               std::span<const float> data) {
  pending_file file(path);
  write_npy(file, shape, data);
  file.publish();
}

png_image read_png(const std::filesystem::path& path, std::size_t max_bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) fail(path, std::string("cannot open: ") + std::strerror(errno));
  const std::unique_ptr<std::FILE, decltype(&std::fclose)> file(f, &std::fclose);
  std::unique_ptr<spng_ctx, spng_deleter> ctx(spng_ctx_new(0));
  if (!ctx) fail(path, "cannot create a PNG decoder");
  spng_set_png_file(ctx.get(), f);
  // Untrusted input: a crafted header must not make us allocate without bound.
  spng_set_image_limits(ctx.get(), 1u << 24, 1u << 24);
  spng_set_chunk_limits(ctx.get(), 1u << 24, 1u << 26);
  spng_ihdr ihdr{};
  int rc = spng_get_ihdr(ctx.get(), &ihdr);
  if (rc != 0) fail(path, std::string("not a PNG: ") + spng_strerror(rc));
  png_image img;
  img.width = ihdr.width;
  img.height = ihdr.height;
  img.bit_depth = ihdr.bit_depth;
  switch (ihdr.color_type) {
    case SPNG_COLOR_TYPE_GRAYSCALE:
      img.channels = 1;
      break;
    case SPNG_COLOR_TYPE_TRUECOLOR:
      img.channels = 3;
      break;
    case SPNG_COLOR_TYPE_GRAYSCALE_ALPHA:
      img.channels = 2;
      break;
    case SPNG_COLOR_TYPE_TRUECOLOR_ALPHA:
      img.channels = 4;
      break;
    default:
      img.channels = 1;
      break;
  }
  std::size_t size = 0;
  rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_PNG, &size);
  if (rc == 0 && size > max_bytes) {
    fail(path, "the decoded image would take " + std::to_string(size) +
                   " bytes, over the limit of " + std::to_string(max_bytes));
  }
  if (rc == 0) {
    img.data.resize(size);
    rc = spng_decode_image(ctx.get(), img.data.data(), size, SPNG_FMT_PNG, 0);
  }
  if (rc != 0) fail(path, std::string("cannot decode: ") + spng_strerror(rc));
  return img;
}

}  // namespace perlin
