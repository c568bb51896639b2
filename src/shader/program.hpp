// The complete program that shader_options::standalone wraps around perlin_field
// (shader/program.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "shader/writer.hpp"

namespace perlin::detail {

/// What must come before anything else in the language (GLSL's #version line), or nothing.
[[nodiscard]] std::string standalone_head(const shader_writer& w);
/// The buffers, parameters and entry point that fill a grid with perlin_field (dims 1 to 4).
[[nodiscard]] std::string standalone_main(const shader_writer& w, std::size_t dims);

}  // namespace perlin::detail
