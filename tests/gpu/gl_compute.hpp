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

}  // namespace perlin_test
