// What the GPU tests (gpu_test.cpp) and the driver probe (driver_probe.cpp) share: an OpenGL 4.3
// context without a display, and compute programs linked from GLSL text.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <string>
#include <vector>

namespace perlin_test {

/// Makes an OpenGL 4.3 context current on this thread, through Mesa's surfaceless EGL or else
/// the first EGL device (a GPU driver's own EGL). Returns "" or why there is none.
inline std::string make_gl_context_current() {
  EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (d == EGL_NO_DISPLAY || !eglInitialize(d, nullptr, nullptr)) {
    const auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(
        reinterpret_cast<void (*)()>(eglGetProcAddress("eglQueryDevicesEXT")));
    EGLDeviceEXT device{};
    EGLint found = 0;
    if (query == nullptr || !query(1, &device, &found) || found == 0)
      return "no EGL display without a window";
    d = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, nullptr, nullptr))
      return "no EGL display without a window";
  }
  if (!eglBindAPI(EGL_OPENGL_API)) return "EGL has no desktop OpenGL";
  const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  const EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
  if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
    return "no OpenGL 4.3 context";
  return "";
}

/// The linked compute program of `text`, or 0 with the driver's compile log in `log`.
inline GLuint compute_program(const std::string& text, std::string& log) {
  const GLuint s = glCreateShader(GL_COMPUTE_SHADER);
  const char* p = text.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::vector<char> buffer(8192);
    glGetShaderInfoLog(s, static_cast<GLsizei>(buffer.size()), nullptr, buffer.data());
    log = buffer.data();
    glDeleteShader(s);
    return 0;
  }
  const GLuint prog = glCreateProgram();
  glAttachShader(prog, s);
  glLinkProgram(prog);
  glDeleteShader(s);  // stays attached, and goes with the program
  return prog;
}

/// Runs `prog` (current, its uniforms set; 64 invocations a workgroup) over `invocations`
/// invocations with `in` in the storage buffer at binding 0 and `outputs` values of T at binding
/// 1; returns those values and deletes the program.
template <class T>
std::vector<T> run_compute(GLuint prog, const std::vector<T>& in, std::size_t outputs,
                           std::size_t invocations) {
  GLuint b[2];
  glGenBuffers(2, b);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b[0]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(in.size() * sizeof(T)), in.data(),
               GL_STATIC_DRAW);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, b[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(outputs * sizeof(T)), nullptr,
               GL_STATIC_READ);
  glDispatchCompute(static_cast<GLuint>((invocations + 63) / 64), 1, 1);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  std::vector<T> out(outputs);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(outputs * sizeof(T)),
                     out.data());
  glDeleteBuffers(2, b);
  glDeleteProgram(prog);
  return out;
}

}  // namespace perlin_test
