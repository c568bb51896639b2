// The complete program around perlin_field (shader_options::standalone, docs/gpu.md): a grid of
// the field in a buffer (a compute shader; GLSL ES, which has none, a fragment shader that writes
// each value's bits to an R32UI target). Sample (i, j) is at perlin_origin plus (i, j) times
// perlin_step on the first two axes, computed as origin + i * step without fused multiply-adds.
#include "shader/program.hpp"

namespace perlin::detail {

namespace {

/// The swizzle that passes the first `dims` coordinates of a 4-vector p.
std::string point_of(std::size_t dims) {
  static const char* const k_swizzle[] = {"p.x", "p.xy", "p.xyz", "p"};
  return k_swizzle[dims - 1];
}

/// p's x (and y) moved to sample (ix, iy): `ix` and `iy` are the indices as reals.
std::string place(std::size_t dims, const std::string& ix, const std::string& iy,
                  const std::string& step) {
  std::string s = "  p.x = p.x + " + ix + " * " + step + ".x;\n";
  if (dims >= 2) s += "  p.y = p.y + " + iy + " * " + step + ".y;\n";
  return s;
}

}  // namespace

std::string standalone_head(const shader_writer& w) {
  switch (w.language()) {
    case shader_language::glsl:
      return "#version 430";
    case shader_language::glsl_es:
      return "#version 300 es";
    case shader_language::hlsl:
    case shader_language::wgsl:
    case shader_language::js:  // shader_source refuses a standalone JavaScript program
      break;
  }
  return {};
}

std::string standalone_main(const shader_writer& w, std::size_t dims) {
  const std::string T = w.real(), call = "perlin_field(" + point_of(dims) + ")";
  std::string s =
      "\n// The standalone program: a grid of perlin_field, sample (i, j) at perlin_origin + (i, "
      "j) "
      "* perlin_step.\n";
  switch (w.language()) {
    case shader_language::glsl:
      s += "layout(local_size_x = 8, local_size_y = 8) in;\n"
           "layout(std430, binding = 0) writeonly buffer perlin_grid { " +
           T + " perlin_values[]; };\nuniform " + w.vec(4) + " perlin_origin;\nuniform " +
           w.vec(2) + " perlin_step;\nuniform uvec2 perlin_size;\n" +
           "void main() {\n  uvec2 id = gl_GlobalInvocationID.xy;\n"
           "  if (id.x >= perlin_size.x || id.y >= perlin_size.y) return;\n  precise " +
           w.vec(4) + " p = perlin_origin;\n" +
           place(dims, T + "(id.x)", T + "(id.y)", "perlin_step") +
           "  perlin_values[id.y * perlin_size.x + id.x] = " + call + ";\n}\n";
      break;
    case shader_language::glsl_es:
      s += "uniform vec4 perlin_origin;\nuniform vec2 perlin_step;\n"
           "layout(location = 0) out highp uint perlin_bits;  // to an R32UI target\n"
           "void main() {\n  vec2 id = gl_FragCoord.xy - 0.5;  // pixel (i, j), j from the bottom\n"
           "  vec4 p = perlin_origin;\n" +
           place(dims, "id.x", "id.y", "perlin_step") + "  perlin_bits = floatBitsToUint(" + call +
           ");\n}\n";
      break;
    case shader_language::hlsl:
      s += "RWStructuredBuffer<float> perlin_values : register(u0);\n"
           "cbuffer perlin_grid : register(b0) {\n  float4 perlin_origin;\n  float2 perlin_step;\n"
           "  uint2 perlin_size;\n};\n[numthreads(8, 8, 1)]\n"
           "void main(uint3 id : SV_DispatchThreadID) {\n"
           "  if (id.x >= perlin_size.x || id.y >= perlin_size.y) return;\n"
           "  precise float4 p = perlin_origin;\n" +
           place(dims, "float(id.x)", "float(id.y)", "perlin_step") +
           "  perlin_values[id.y * perlin_size.x + id.x] = " + call + ";\n}\n";
      break;
    case shader_language::wgsl:
      s += "struct perlin_grid_params {\n  origin: vec4<f32>,\n  step: vec2<f32>,\n"
           "  size: vec2<u32>,\n}\n"
           "@group(0) @binding(0) var<storage, read_write> perlin_values: array<f32>;\n"
           "@group(0) @binding(1) var<uniform> perlin_grid: perlin_grid_params;\n"
           "@compute @workgroup_size(8, 8)\n"
           "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
           "  if (id.x >= perlin_grid.size.x || id.y >= perlin_grid.size.y) { return; }\n"
           "  var p = perlin_grid.origin;\n" +
           place(dims, "f32(id.x)", "f32(id.y)", "perlin_grid.step") +
           "  perlin_values[id.y * perlin_grid.size.x + id.x] = " + call + ";\n}\n";
      break;
    case shader_language::js:  // shader_source refuses a standalone JavaScript program
      break;
  }
  return s;
}

}  // namespace perlin::detail
