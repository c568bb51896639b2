// perlin::gpu_grid (gpu_grid.hpp): an OpenGL 4.3 context through EGL without a display, and the
// field's standalone compute shader (src/shader/program.cpp) dispatched plane by plane.
#include "perlin/gpu_grid.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/shader.hpp"

namespace perlin {

namespace {

/// The most samples one dispatch writes (a 16 MB buffer), and the most columns (the workgroup
/// count along x stays far below OpenGL's guaranteed 65535).
constexpr std::size_t k_max_dispatch = std::size_t{1} << 22;
constexpr std::size_t k_max_columns = std::size_t{1} << 18;

/// The split form's cells are 32-bit ints, and a dispatch adds whole steps to its first cell:
/// coordinates stay within 2^30 so that no sum passes 2^31.
constexpr double k_max_split_coordinate = 1073741824.0;

/// For a field without the split form: how far from the origin its grids may reach, over its
/// ratio of value_tolerance to gradient_tolerance (a coordinate's float rounding, about |x| 2^-24,
/// becomes a value error through the octaves' slopes, the sum of amplitude x frequency that
/// gradient_tolerance counts). Measured on llvmpipe (docs/gpu.md): at 0.95 of this reach the
/// worst of 11 such fields was 0.64 of the printed bound (billow; fBm 0.14-0.18, ridged 0.33);
/// at 4.6 and 6.2 times it, fBm and ridged fields were 1.07 and 2.05 times the bound.
constexpr double k_plain_reach = 1024;

/// The program around perlin_field_split: sample (i, j) of a dispatch is its first point, given
/// as an integer cell and a float fraction split in double on the CPU, plus (i, j) x step. The
/// offset i x step is split into whole and fraction too, so that a float never holds more than
/// a cell's fraction and the far-away cell stays exact in ints.
std::string split_main(std::size_t dims) {
  static const char* const k_cell[] = {"c.x", "c.xy", "c.xyz", "c"};
  static const char* const k_frac[] = {"fr.x", "fr.xy", "fr.xyz", "fr"};
  return std::string(
             "\n// gpu_grid's program: sample (i, j) at perlin_cell + perlin_frac + (i, j) * "
             "perlin_step.\n"
             "layout(local_size_x = 8, local_size_y = 8) in;\n"
             "layout(std430, binding = 0) writeonly buffer perlin_grid { float perlin_values[]; "
             "};\n"
             "uniform ivec4 perlin_cell;\nuniform vec4 perlin_frac;\nuniform vec2 perlin_step;\n"
             "uniform uvec2 perlin_size;\n"
             "void main() {\n  uvec2 id = gl_GlobalInvocationID.xy;\n"
             "  if (id.x >= perlin_size.x || id.y >= perlin_size.y) return;\n"
             "  precise vec2 t = vec2(id) * perlin_step;\n"
             "  precise vec2 whole = floor(t);\n"
             "  precise vec2 s = perlin_frac.xy + (t - whole);\n"
             "  precise vec2 carry = floor(s);\n"
             "  ivec4 c = perlin_cell;\n  vec4 fr = perlin_frac;\n"
             "  c.xy = c.xy + ivec2(whole) + ivec2(carry);\n"
             "  fr.xy = s - carry;\n"
             "  perlin_values[id.y * perlin_size.x + id.x] = perlin_field_split(") +
         k_cell[dims - 1] + ", " + k_frac[dims - 1] + ");\n}\n";
}

/// A display without a window: Mesa's surfaceless platform, else the first EGL device (a GPU
/// driver's own EGL), else the default display.
EGLDisplay open_display() {
  EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) return d;
  const auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(
      reinterpret_cast<void (*)()>(eglGetProcAddress("eglQueryDevicesEXT")));
  EGLDeviceEXT device{};
  EGLint found = 0;
  if (query != nullptr && query(1, &device, &found) && found > 0) {
    d = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) return d;
  }
  d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) return d;
  return EGL_NO_DISPLAY;
}

}  // namespace

struct gpu_grid::state {
  std::mutex m;
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string renderer;
  std::string source;  // of the compiled program
  GLuint program = 0, buffer = 0;
  GLint origin = -1, step = -1, size = -1, cell = -1, frac = -1;

  /// Makes the context current on the calling thread for its lifetime, then gives the thread
  /// back the API and context it had (a caller's own OpenGL context stays intact).
  class current {
   public:
    explicit current(const state& s)
        : display_(s.display),
          api_(eglQueryAPI()),
          prev_display_(eglGetCurrentDisplay()),
          prev_context_(eglGetCurrentContext()),
          prev_draw_(eglGetCurrentSurface(EGL_DRAW)),
          prev_read_(eglGetCurrentSurface(EGL_READ)) {
      if (!eglBindAPI(EGL_OPENGL_API) ||
          !eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, s.context)) {
        restore();
        throw io_error("gpu: cannot make the OpenGL context current on this thread");
      }
    }
    ~current() { restore(); }
    current(const current&) = delete;
    current& operator=(const current&) = delete;

   private:
    void restore() {
      if (prev_context_ != EGL_NO_CONTEXT) {
        eglMakeCurrent(prev_display_, prev_draw_, prev_read_, prev_context_);
      } else {
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      }
      eglBindAPI(api_);
    }
    EGLDisplay display_;
    EGLenum api_;
    EGLDisplay prev_display_;
    EGLContext prev_context_;
    EGLSurface prev_draw_, prev_read_;
  };

  void compile(const std::string& text) {
    if (text == source) return;
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    const char* p = text.c_str();
    glShaderSource(shader, 1, &p, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      std::vector<char> log(8192);
      glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
      glDeleteShader(shader);
      throw io_error("gpu: " + renderer +
                     " did not compile the field's shader: " + std::string(log.data()));
    }
    const GLuint prog = glCreateProgram();
    glAttachShader(prog, shader);
    glLinkProgram(prog);
    glDeleteShader(shader);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
      glDeleteProgram(prog);
      throw io_error("gpu: " + renderer + " did not link the field's shader");
    }
    if (program != 0) glDeleteProgram(program);
    program = prog;
    source = text;
    origin = glGetUniformLocation(program, "perlin_origin");
    step = glGetUniformLocation(program, "perlin_step");
    size = glGetUniformLocation(program, "perlin_size");
    cell = glGetUniformLocation(program, "perlin_cell");
    frac = glGetUniformLocation(program, "perlin_frac");
  }
};

gpu_grid::gpu_grid() : s_(std::make_unique<state>()) {
  state& s = *s_;
  s.display = open_display();
  if (s.display == EGL_NO_DISPLAY)
    throw io_error("gpu: no EGL display without a window (Mesa's libegl-mesa0, or a GPU driver)");
  // The display stays initialised (never eglTerminate'd): it is the process's, and other
  // contexts on it (the caller's) would go with it.
  const EGLenum api = eglQueryAPI();
  if (!eglBindAPI(EGL_OPENGL_API)) throw io_error("gpu: EGL offers no desktop OpenGL here");
  const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  s.context = eglCreateContext(s.display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
  eglBindAPI(api);
  if (s.context == EGL_NO_CONTEXT)
    throw io_error("gpu: no OpenGL 4.3 context (compute shaders) on this machine");
  const state::current c(s);
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  s.renderer = name != nullptr ? name : "an unnamed OpenGL renderer";
  glGenBuffers(1, &s.buffer);
}

gpu_grid::~gpu_grid() {
  state& s = *s_;
  try {
    const state::current c(s);
    if (s.program != 0) glDeleteProgram(s.program);
    glDeleteBuffers(1, &s.buffer);
  } catch (const io_error&) {  // the context is going anyway
  }
  eglDestroyContext(s.display, s.context);
}

std::string gpu_grid::renderer() const { return s_->renderer; }

namespace {

/// The compute program of `f` on `g` (`split`: the split form, else the plain program). The
/// split form where the field has it; else the plain program where its float coordinates keep
/// the bound; refused with the reason otherwise.
std::string program_for(const field& f, const grid& g, bool& split) {
  // The largest magnitude of a coordinate on each axis (a grid's extremes are its corners).
  double reach2 = 0, widest = 0;
  for (std::size_t a = 0; a < g.dims; ++a) {
    const double first = g.coordinate(a, 0), last = g.coordinate(a, g.count[a] - 1);
    if (!std::isfinite(first) || !std::isfinite(last))
      throw invalid_argument(error_kind::value, "grid", "its coordinates must be finite");
    const double m = std::max(std::abs(first), std::abs(last));
    reach2 += m * m;
    widest = std::max(widest, m);
  }
  // The split form where the field has it (aligned plane, whole octave frequencies, no warp):
  // every dispatch's first point split into a cell and a fraction in double, so that the float
  // shader keeps its bound at any distance from the origin. Otherwise the plain program, whose
  // float coordinates lose the fraction far out: refused there.
  std::string text = shader_source(f, {.language = shader_language::glsl,
                                       .dims = g.dims,
                                       .derivatives = false,
                                       .split = true,
                                       .standalone = false});
  split = text.find("perlin_field_split(") != std::string::npos;
  if (split) {
    if (widest >= k_max_split_coordinate) {
      throw invalid_argument(error_kind::value, "grid",
                             "the GPU draws coordinates up to 2^30 (1073741824) in magnitude; "
                             "this grid reaches " +
                                 std::to_string(widest));
    }
    text = "#version 430\n" + text + split_main(g.dims);
  } else {
    const double reach =
        std::sqrt(reach2) + (f.warped() ? f.warp().amplitude() : 0.0);  // the rotated plane mixes
    const double limit = k_plain_reach * value_tolerance(f) / gradient_tolerance(f);
    if (reach > limit) {
      char text_limit[96];
      std::snprintf(text_limit, sizeof text_limit,
                    "at most %.4g from the origin; this grid reaches %.4g", limit, reach);
      // The source says why it has no split form, in a comment.
      const std::string says = "perlin_field_split is not written for this field: ";
      const std::size_t at = text.find(says);
      const std::string why =
          at == std::string::npos
              ? "no split form"
              : "no split form: " +
                    text.substr(at + says.size(),
                                text.find_first_of(".\n", at + says.size()) - at - says.size());
      throw invalid_argument(error_kind::value, "grid",
                             "the GPU's float shader of this field (" + why +
                                 ") keeps its bound only for points " + text_limit +
                                 " (draw it on the CPU, or nearer the origin)");
    }
    text = shader_source(f, {.language = shader_language::glsl,
                             .dims = g.dims,
                             .derivatives = false,
                             .split = false,
                             .standalone = true});
  }
  return text;
}

}  // namespace

void gpu_grid::fill(const field& f, const grid& g, std::span<float> out) {
  if (f.graph() != nullptr) {
    throw invalid_argument(error_kind::value, "device",
                           "a graph has no shader yet: render it on the CPU (--device cpu)");
  }
  const std::size_t n = g.size();  // validates dims and counts
  if (out.size() != n) {
    throw invalid_argument(
        error_kind::size, "out",
        "holds " + std::to_string(out.size()) + " values, the grid " + std::to_string(n));
  }
  bool split = false;
  const std::string text = program_for(f, g, split);
  state& s = *s_;
  const std::lock_guard lock(s.m);
  const state::current c(s);
  s.compile(text);
  glUseProgram(s.program);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s.buffer);
  const std::size_t w = g.count[0], h = g.dims >= 2 ? g.count[1] : 1;
  const std::size_t cols = std::min(w, k_max_columns);
  const std::size_t rows = std::max<std::size_t>(1, std::min(h, k_max_dispatch / cols));
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(cols * rows * sizeof(float)),
               nullptr, GL_DYNAMIC_READ);
  std::vector<float> part(cols * rows);
  glUniform2f(s.step, static_cast<float>(g.step[0]),
              g.dims >= 2 ? static_cast<float>(g.step[1]) : 0.0f);
  const auto at = [&](std::size_t axis, std::size_t i) {  // a sample's coordinate, in double
    return axis < g.dims ? static_cast<float>(g.coordinate(axis, i)) : 0.0f;
  };
  const std::size_t planes = (g.dims >= 3 ? g.count[2] : 1) * (g.dims >= 4 ? g.count[3] : 1);
  for (std::size_t plane = 0; plane < planes; ++plane) {
    const std::size_t k = g.dims >= 3 ? plane % g.count[2] : 0;
    const std::size_t l = g.dims >= 4 ? plane / g.count[2] : 0;
    for (std::size_t y = 0; y < h; y += rows) {
      for (std::size_t x = 0; x < w; x += cols) {
        const std::size_t cw = std::min(cols, w - x), ch = std::min(rows, h - y);
        if (split) {
          const std::size_t index[4] = {x, y, k, l};
          GLint cell[4] = {0, 0, 0, 0};
          float frac[4] = {0, 0, 0, 0};
          for (std::size_t a = 0; a < g.dims; ++a) {
            const shader_coordinate sc = split_for_shader(g.coordinate(a, index[a]));
            cell[a] = sc.cell;
            frac[a] = sc.frac;
          }
          glUniform4i(s.cell, cell[0], cell[1], cell[2], cell[3]);
          glUniform4f(s.frac, frac[0], frac[1], frac[2], frac[3]);
        } else {
          glUniform4f(s.origin, at(0, x), at(1, y), at(2, k), at(3, l));
        }
        glUniform2ui(s.size, static_cast<GLuint>(cw), static_cast<GLuint>(ch));
        glDispatchCompute(static_cast<GLuint>((cw + 7) / 8), static_cast<GLuint>((ch + 7) / 8), 1);
        // Every barrier bit, not only GL_BUFFER_UPDATE_BARRIER_BIT (which the specification names
        // for glGetBufferSubData): with that bit alone, NVIDIA's driver (580.159, an H200) read
        // every plane after the first back as the first plane's values, glFinish or not.
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                           static_cast<GLsizeiptr>(cw * ch * sizeof(float)), part.data());
        if (const GLenum e = glGetError(); e != GL_NO_ERROR)
          throw io_error("gpu: " + s.renderer + " failed to run the field's shader (OpenGL error " +
                         std::to_string(e) + ")");
        for (std::size_t r = 0; r < ch; ++r) {
          std::copy_n(part.data() + r * cw, cw, out.data() + plane * w * h + (y + r) * w + x);
        }
      }
    }
  }
}

}  // namespace perlin
