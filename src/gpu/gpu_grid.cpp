// perlin::gpu_grid (gpu_grid.hpp): an OpenGL 4.3 context through EGL without a display, and the
// field's standalone compute shader (shader_program.cpp) dispatched plane by plane.
#include "perlin/gpu_grid.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <cmath>
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
  GLint origin = -1, step = -1, size = -1;

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

void gpu_grid::fill(const field& f, const grid& g, std::span<float> out) {
  const std::size_t n = g.size();  // validates dims and counts
  if (out.size() != n) {
    throw invalid_argument(
        error_kind::size, "out",
        "holds " + std::to_string(out.size()) + " values, the grid " + std::to_string(n));
  }
  for (std::size_t a = 0; a < g.dims; ++a) {
    const double first = g.coordinate(a, 0), last = g.coordinate(a, g.count[a] - 1);
    if (!std::isfinite(first) || !std::isfinite(last))
      throw invalid_argument(error_kind::value, "grid", "its coordinates must be finite");
  }
  const std::string text = shader_source(f, {.language = shader_language::glsl,
                                             .dims = g.dims,
                                             .derivatives = false,
                                             .split = false,
                                             .standalone = true});
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
        glUniform4f(s.origin, at(0, x), at(1, y), at(2, k), at(3, l));
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
