// encode_png: PNG files written with zlib directly, in parallel. The filtered rows are cut into
// bands of a fixed size (so the bytes do not depend on the thread count); each band is deflated
// on its own (pigz's technique: raw deflate streams ended with a sync flush, the last with
// finish, concatenated into one zlib stream whose Adler-32 is combined from the bands').
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "detail/error.hpp"
#include "perlin/embedded_recipe.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"
#include "runtime/parallel.hpp"

namespace perlin {

namespace {

/// Raw bytes per band: large enough to compress well, small enough to spread over threads.
constexpr std::size_t k_band_bytes = std::size_t{1} << 19;

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(std::vector<std::uint8_t>& out, const char* type, const std::uint8_t* data,
           std::size_t size) {
  put32(out, static_cast<std::uint32_t>(size));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  if (size > 0) out.insert(out.end(), data, data + size);
  const auto crc = crc32(0, out.data() + start, static_cast<uInt>(size + 4));
  put32(out, static_cast<std::uint32_t>(crc));
}

struct band {
  std::size_t row_begin, row_end;
  std::vector<std::uint8_t> deflated;
  uLong adler = 1;
  std::size_t raw_size = 0;
};

/// Filters rows [b.row_begin, b.row_end) with the Sub filter (each byte minus the one a pixel
/// before it; 16-bit samples go big-endian) and deflates them as one raw deflate stream.
void deflate_band(band& b, std::size_t width, std::size_t bpp, bool sixteen,
                  std::span<const std::uint8_t> data, int level, bool last) {
  const std::size_t row_bytes = width * bpp;
  std::vector<std::uint8_t> raw((b.row_end - b.row_begin) * (row_bytes + 1));
  std::vector<std::uint8_t> line(row_bytes);
  for (std::size_t r = b.row_begin; r < b.row_end; ++r) {
    const std::uint8_t* src = data.data() + r * row_bytes;
    if (sixteen) {
      for (std::size_t i = 0; i < row_bytes; i += 2) {
        std::uint16_t v;
        std::memcpy(&v, src + i, 2);
        line[i] = static_cast<std::uint8_t>(v >> 8);
        line[i + 1] = static_cast<std::uint8_t>(v & 0xFF);
      }
      src = line.data();
    }
    std::uint8_t* dst = raw.data() + (r - b.row_begin) * (row_bytes + 1);
    dst[0] = 1;  // Sub
    for (std::size_t i = 0; i < row_bytes; ++i) {
      dst[1 + i] = static_cast<std::uint8_t>(src[i] - (i >= bpp ? src[i - bpp] : 0));
    }
  }
  b.raw_size = raw.size();
  b.adler = adler32(1, raw.data(), static_cast<uInt>(raw.size()));
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    detail::throw_io("PNG: cannot start zlib");
  }
  b.deflated.resize(deflateBound(&z, static_cast<uLong>(raw.size())) + 64);
  z.next_in = raw.data();
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = b.deflated.data();
  z.avail_out = static_cast<uInt>(b.deflated.size());
  const int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool ok = last ? rc == Z_STREAM_END : rc == Z_OK;
  // Shrink to what was written (erase, not resize: GCC 12 at -O1 under the sanitizers warns
  // falsely, -Wstringop-overflow, about the memset of a growing resize).
  const std::size_t used =
      b.deflated.size() - std::min<std::size_t>(z.avail_out, b.deflated.size());
  b.deflated.erase(b.deflated.begin() + static_cast<std::ptrdiff_t>(used), b.deflated.end());
  deflateEnd(&z);
  if (!ok || z.avail_in != 0) detail::throw_io("PNG: zlib failed");
}

}  // namespace

/// The zlib stream of the filtered image (the content of IDAT, or of fdAT after its number).
std::vector<std::uint8_t> compress_image(std::size_t width, std::size_t height, pixel_format format,
                                         std::span<const std::uint8_t> data,
                                         const png_options& options);

void ihdr_chunk(std::vector<std::uint8_t>& out, std::size_t width, std::size_t height,
                pixel_format format) {
  std::uint8_t ihdr[13];
  const auto be32 = [](std::uint8_t* p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 24);
    p[1] = static_cast<std::uint8_t>(v >> 16);
    p[2] = static_cast<std::uint8_t>(v >> 8);
    p[3] = static_cast<std::uint8_t>(v);
  };
  be32(ihdr, static_cast<std::uint32_t>(width));
  be32(ihdr + 4, static_cast<std::uint32_t>(height));
  const bool sixteen = format == pixel_format::gray16 || format == pixel_format::rgb16;
  const bool rgb = format == pixel_format::rgb8 || format == pixel_format::rgb16;
  ihdr[8] = sixteen ? 16 : 8;
  ihdr[9] = rgb ? 2 : 0;               // truecolour or greyscale
  ihdr[10] = ihdr[11] = ihdr[12] = 0;  // deflate, adaptive filters, no interlace
  chunk(out, "IHDR", ihdr, sizeof ihdr);
}

namespace {

/// The recipe as a tEXt chunk (keyword, NUL, text: Latin-1, which a recipe's ASCII is).
void recipe_chunk(std::vector<std::uint8_t>& out, const std::string& recipe) {
  if (recipe.empty()) return;
  std::vector<std::uint8_t> text(k_recipe_key.begin(), k_recipe_key.end());
  text.push_back(0);
  text.insert(text.end(), recipe.begin(), recipe.end());
  chunk(out, "tEXt", text.data(), text.size());
}

}  // namespace

std::vector<std::uint8_t> encode_png(std::size_t width, std::size_t height, pixel_format format,
                                     std::span<const std::uint8_t> data,
                                     const png_options& options) {
  const auto z = compress_image(width, height, format, data, options);
  constexpr std::size_t k_idat = std::size_t{1} << 24;
  std::vector<std::uint8_t> out;
  out.reserve(8 + 25 + z.size() + (z.size() / k_idat + 1) * 12 + 12);
  out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  ihdr_chunk(out, width, height, format);
  recipe_chunk(out, options.recipe);
  for (std::size_t at = 0; at < z.size(); at += k_idat) {
    chunk(out, "IDAT", z.data() + at, std::min(k_idat, z.size() - at));
  }
  chunk(out, "IEND", nullptr, 0);
  return out;
}

std::vector<std::uint8_t> compress_image(std::size_t width, std::size_t height, pixel_format format,
                                         std::span<const std::uint8_t> data,
                                         const png_options& options) {
  const std::size_t bpp = bytes_per_pixel(format);
  if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    detail::throw_size("size", "a PNG is 1 to 2^31-1 pixels on each side");
  }
  const std::size_t expected = width * height * bpp;  // below 2^64: each side is below 2^31
  if (expected / bpp / height != width || data.size() != expected) {
    detail::throw_size("data", "expected width x height x " + std::to_string(bpp) + " bytes, got " +
                                   std::to_string(data.size()));
  }
  if (options.compression < 0 || options.compression > 9) {
    detail::throw_invalid("compression",
                          "must be 0 to 9, got " + std::to_string(options.compression));
  }
  // Bands of whole rows, about k_band_bytes each: fixed by the image, not by the threads.
  const std::size_t rows_per_band = std::max<std::size_t>(1, k_band_bytes / (width * bpp + 1));
  std::vector<band> bands;
  for (std::size_t r = 0; r < height; r += rows_per_band)
    bands.push_back({r, std::min(height, r + rows_per_band), {}, 1, 0});
  // Bands over the threads (the library's runner: contiguous chunks, same bytes for any count).
  detail::parallel_for(bands.size(), detail::thread_count(options.threads, bands.size()),
                       [&](std::size_t begin, std::size_t end) {
                         for (std::size_t b = begin; b < end; ++b) {
                           deflate_band(
                               bands[b], width, bpp,
                               format == pixel_format::gray16 || format == pixel_format::rgb16,
                               data, options.compression, b + 1 == bands.size());
                         }
                       });
  // The zlib stream: header, the bands' deflate data, the combined Adler-32.
  std::size_t size = 2 + 4;
  for (const auto& b : bands) size += b.deflated.size();
  std::vector<std::uint8_t> z;
  z.reserve(size);
  z = {0x78, 0x01};
  uLong adler = 1;
  for (const auto& b : bands) {
    z.insert(z.end(), b.deflated.begin(), b.deflated.end());
    adler = adler32_combine(adler, b.adler, static_cast<z_off_t>(b.raw_size));
  }
  put32(z, static_cast<std::uint32_t>(adler));
  return z;
}

apng_writer::apng_writer(std::size_t width, std::size_t height, pixel_format format, unsigned fps,
                         const png_options& options)
    : width_(width), height_(height), format_(format), fps_(fps), options_(options) {
  if (fps == 0 || fps > 1000)
    detail::throw_invalid("fps", "must be 1 to 1000, got " + std::to_string(fps));
}

void apng_writer::add_frame(std::span<const std::uint8_t> data) {
  // Frame control: sequence, size, offset 0,0, delay 1/fps, no disposal, no blending.
  std::vector<std::uint8_t> fctl;
  put32(fctl, sequence_++);
  put32(fctl, static_cast<std::uint32_t>(width_));
  put32(fctl, static_cast<std::uint32_t>(height_));
  put32(fctl, 0);
  put32(fctl, 0);
  fctl.push_back(0);
  fctl.push_back(1);  // delay numerator 1
  fctl.push_back(static_cast<std::uint8_t>(fps_ >> 8));
  fctl.push_back(static_cast<std::uint8_t>(fps_ & 0xFF));  // denominator fps
  fctl.push_back(0);                                       // APNG_DISPOSE_OP_NONE
  fctl.push_back(0);                                       // APNG_BLEND_OP_SOURCE
  chunk(body_, "fcTL", fctl.data(), fctl.size());
  const auto z = compress_image(width_, height_, format_, data, options_);
  if (frames_ == 0) {
    chunk(body_, "IDAT", z.data(), z.size());  // the first frame is the default image
  } else {
    std::vector<std::uint8_t> fdat;
    put32(fdat, sequence_++);
    fdat.insert(fdat.end(), z.begin(), z.end());
    chunk(body_, "fdAT", fdat.data(), fdat.size());
  }
  ++frames_;
}

std::vector<std::uint8_t> apng_writer::finish() {
  if (frames_ == 0) detail::throw_invalid("frames", "an animation needs at least one frame");
  std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  ihdr_chunk(out, width_, height_, format_);
  recipe_chunk(out, options_.recipe);
  std::vector<std::uint8_t> actl;
  put32(actl, frames_);
  put32(actl, 0);  // loop forever
  chunk(out, "acTL", actl.data(), actl.size());
  out.insert(out.end(), body_.begin(), body_.end());
  chunk(out, "IEND", nullptr, 0);
  return out;
}

}  // namespace perlin
