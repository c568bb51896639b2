// OpenEXR files in memory, and 16-bit RAW heightmaps: the formats that compositors and game
// engines read. Written into a buffer, so that the caller writes it atomically like every other
// file (TIFF: tiff_writer.cpp).
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfStdIO.h>
#include <ImfStringAttribute.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "detail/error.hpp"
#include "perlin/embedded_recipe.hpp"
#include "perlin/error.hpp"
#include "perlin/image_io.hpp"

namespace perlin {

namespace {

void check_size(std::size_t width, std::size_t height, std::size_t pages, std::size_t have,
                std::size_t per_pixel, const char* what) {
  if (width == 0 || height == 0 || pages == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
    detail::throw_size("size", std::string("a ") + what + " is 1 to 2^31-1 pixels on each side");
  }
  if (have != width * height * pages * per_pixel) {
    detail::throw_size("data", "does not match the size");
  }
}

}  // namespace

std::vector<std::uint8_t> encode_raw16(std::size_t width, std::size_t height,
                                       std::span<const std::uint16_t> data) {
  check_size(width, height, 1, data.size(), 1, "RAW");
  std::vector<std::uint8_t> out(data.size() * 2);
  for (std::size_t i = 0; i < data.size(); ++i) {
    out[2 * i] = static_cast<std::uint8_t>(data[i] & 0xFF);  // little-endian, whatever the host
    out[2 * i + 1] = static_cast<std::uint8_t>(data[i] >> 8);
  }
  return out;
}

std::vector<std::uint8_t> encode_exr(std::size_t width, std::size_t height,
                                     std::span<const float> data, int channels,
                                     const std::string& recipe) {
  if (channels != 1 && channels != 3)
    detail::throw_invalid("channels", "an EXR here holds Y or RGB");
  check_size(width, height, 1, data.size(), static_cast<std::size_t>(channels), "EXR");
  try {
    Imf::Header header(static_cast<int>(width), static_cast<int>(height));
    const char* names[3] = {"R", "G", "B"};
    if (channels == 1) names[0] = "Y";
    for (int c = 0; c < channels; ++c) header.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
    if (!recipe.empty()) header.insert(std::string(k_recipe_key), Imf::StringAttribute(recipe));
    Imf::StdOSStream stream;
    {
      Imf::OutputFile file(stream, header);
      Imf::FrameBuffer fb;
      const std::size_t xs = sizeof(float) * static_cast<std::size_t>(channels);
      for (int c = 0; c < channels; ++c) {
        fb.insert(names[c], Imf::Slice(Imf::FLOAT,
                                       reinterpret_cast<char*>(const_cast<float*>(data.data()) + c),
                                       xs, xs * width));
      }
      file.setFrameBuffer(fb);
      file.writePixels(static_cast<int>(height));
    }  // the file is complete once OutputFile is gone (it writes its line offsets then)
    const std::string bytes = stream.str();
    return {bytes.begin(), bytes.end()};
  } catch (const std::exception& e) {
    detail::throw_io(std::string("EXR: OpenEXR failed: ") + e.what());
  }
}

}  // namespace perlin
