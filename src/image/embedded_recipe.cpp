// read_embedded_recipe (embedded_recipe.hpp): the recipe a PNG, TIFF, OpenEXR, sidecar or recipe
// file carries. The writers (png_encoder.cpp, tiff_writer.cpp, exr_raw.cpp) put it there.
#include "perlin/embedded_recipe.hpp"

#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfStringAttribute.h>
#include <tiffio.h>

#include <array>
#include <cstdarg>
#include <cstdint>
#include <fstream>
#include <string>

#include "perlin/error.hpp"

namespace perlin {

namespace {

/// A recipe is at most 64 KiB (recipe_pairs refuses longer ones).
constexpr std::size_t k_max_recipe = 65536;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw io_error(path.string() + ": " + what);
}

std::uint32_t be32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

/// The tEXt chunk whose keyword is k_recipe_key, or "" (the chunks are walked to IEND, each
/// skipped by its length; a tEXt above the limit is refused).
std::string png_recipe(std::ifstream& in, const std::filesystem::path& path) {
  in.seekg(8);
  unsigned char head[8];
  while (in.read(reinterpret_cast<char*>(head), 8)) {
    const std::uint32_t length = be32(head);
    const std::string_view type(reinterpret_cast<const char*>(head + 4), 4);
    if (type == "IEND") break;
    if (type == "tEXt" && length > k_recipe_key.size() &&
        length <= k_max_recipe + k_recipe_key.size() + 1) {
      std::string text(length, '\0');
      if (!in.read(text.data(), length)) fail(path, "the PNG is cut short");
      if (text.compare(0, k_recipe_key.size() + 1, std::string(k_recipe_key) + '\0') == 0)
        return text.substr(k_recipe_key.size() + 1);
      in.seekg(4, std::ios::cur);  // the CRC
      continue;
    }
    in.seekg(static_cast<std::streamoff>(length) + 4, std::ios::cur);
  }
  return {};
}

void tiff_quiet(const char*, const char*, va_list) {}

std::string tiff_recipe(const std::filesystem::path& path) {
  TIFFSetErrorHandler(tiff_quiet);
  TIFFSetWarningHandler(tiff_quiet);
  TIFF* t = TIFFOpen(path.c_str(), "r");
  if (t == nullptr) fail(path, "libtiff cannot read it");
  std::string out;
  char* text = nullptr;
  if (TIFFGetField(t, TIFFTAG_IMAGEDESCRIPTION, &text) == 1 && text != nullptr) out = text;
  TIFFClose(t);
  if (out.size() > k_max_recipe) fail(path, "its ImageDescription is longer than a recipe");
  return out.rfind("perlin=", 0) == 0 ? out : std::string();
}

std::string exr_recipe(const std::filesystem::path& path) {
  try {
    Imf::InputFile file(path.c_str());
    const auto* a =
        file.header().findTypedAttribute<Imf::StringAttribute>(std::string(k_recipe_key));
    return a != nullptr && a->value().size() <= k_max_recipe ? a->value() : std::string();
  } catch (const std::exception& e) {
    fail(path, std::string("OpenEXR cannot read it: ") + e.what());
  }
}

/// The whole file as text when it is a recipe ("perlin=..."), else "".
std::string recipe_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(k_max_recipe + 2, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.rfind("perlin=", 0) != 0) return {};
  if (text.size() > k_max_recipe) fail(path, "longer than a recipe (64 KiB)");
  return text;
}

}  // namespace

std::filesystem::path recipe_sidecar(const std::filesystem::path& path) {
  return std::filesystem::path(path.string() + ".recipe");
}

std::string read_embedded_recipe(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot be read");
  std::array<unsigned char, 8> magic{};
  in.read(reinterpret_cast<char*>(magic.data()), magic.size());
  const std::size_t got = static_cast<std::size_t>(in.gcount());
  in.clear();
  std::string recipe;
  if (got == 8 && magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G') {
    recipe = png_recipe(in, path);
  } else if (got >= 4 &&
             ((magic[0] == 'I' && magic[1] == 'I') || (magic[0] == 'M' && magic[1] == 'M'))) {
    recipe = tiff_recipe(path);
  } else if (got >= 4 && magic[0] == 0x76 && magic[1] == 0x2f && magic[2] == 0x31 &&
             magic[3] == 0x01) {
    recipe = exr_recipe(path);
  } else {
    recipe = recipe_text(path);
  }
  if (!recipe.empty()) return recipe;
  const auto sidecar = recipe_sidecar(path);
  std::error_code ec;
  if (std::filesystem::exists(sidecar, ec)) {
    recipe = recipe_text(sidecar);
    if (recipe.empty()) fail(sidecar, "is not a recipe (it does not start with perlin=)");
    return recipe;
  }
  fail(path,
       "carries no recipe (perlin render writes one into PNG, TIFF and OpenEXR files; for .npy "
       "and RAW files give --write-recipe, which writes " +
           sidecar.filename().string() + " beside it)");
}

}  // namespace perlin
