// The recipe an output file carries: every image and array `perlin render` writes names the field
// it holds, so that `perlin recipe --from FILE` gives it back and `perlin eval --recipe` computes
// its values. PNG: a tEXt chunk; TIFF: the ImageDescription tag; OpenEXR: a string attribute;
// .npy and RAW (which have no room for text): a sidecar FILE.recipe (render --write-recipe).
// Part of the perlin::image library.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace perlin {

/// The PNG tEXt keyword and the OpenEXR attribute name of the recipe.
inline constexpr std::string_view k_recipe_key = "perlin-recipe";

/// The sidecar of `path`: the same name with ".recipe" appended (map.npy.recipe).
[[nodiscard]] std::filesystem::path recipe_sidecar(const std::filesystem::path& path);

/// The recipe `path` carries: a PNG's tEXt chunk, a TIFF's ImageDescription, an OpenEXR
/// attribute, else the sidecar's text, or the file's own text when it is a recipe. The file is
/// untrusted: a text above 64 KiB is refused. Throws perlin::io_error when it cannot be read or
/// carries no recipe, naming the file and how to give it one.
[[nodiscard]] std::string read_embedded_recipe(const std::filesystem::path& path);

}  // namespace perlin
