// perlin_gpu_probe: what this machine's OpenGL driver does with the constructs perlin's shaders
// and perlin::gpu_grid use, to find why a driver breaks the contract of gpu_test.cpp (docs/gpu.md,
// "On an NVIDIA GPU"). Three tables:
//   1. a volume dispatched plane by plane as gpu_grid does, read back with each barrier and read;
//   2. each double operation the double shaders use, alone, against C++;
//   3. the 3-D double field's source with one construct changed at a time (precise, the loop
//      that scales the coordinates unrolled), and what it returns at each intermediate step.
// Exits 1 where gpu_grid's way of reading or the double field as written differs from C++, 0
// otherwise; ctest runs it on llvmpipe (where every line agrees), and it runs alone on a machine
// with a GPU driver (EGL without a display).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gl_compute.hpp"
#include "perlin/perlin.hpp"
#include "perlin/shader.hpp"

namespace {

/// A compute program of `text`, or 0 (the driver's log printed).
GLuint compile(const std::string& text) {
  std::string log;
  const GLuint prog = perlin_test::compute_program(text, log);
  if (prog == 0) std::printf("  (not compiled: %s)\n", log.c_str());
  return prog;
}

constexpr int k_points = 4096;

/// Runs `main_body` (GLSL reading a, b, t: doubles of point i; writing vals[outputs * i + ...])
/// after `functions` on k_points points; the doubles it wrote.
std::vector<double> run_doubles(const std::string& functions, const std::string& main_body,
                                int outputs, const std::vector<double>& pts) {
  const std::string text =
      "#version 430\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) readonly buffer In { double pts[]; };\n"
      "layout(std430, binding = 1) writeonly buffer Out { double vals[]; };\n" +
      functions +
      "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  if (i >= " + std::to_string(k_points) +
      "u) return;\n  double a = pts[3 * i], b = pts[3 * i + 1], t = pts[3 * i + 2];\n" + main_body +
      "}\n";
  const GLuint prog = compile(text);
  if (prog == 0) return {};
  glUseProgram(prog);
  return perlin_test::run_compute(
      prog, pts, static_cast<std::size_t>(k_points) * static_cast<std::size_t>(outputs), k_points);
}

/// One line of a table: how many of `got` differ from `want(i)` and by how much at worst.
bool report(const char* what, const std::vector<double>& got, int outputs, int column,
            const std::function<double(int)>& want) {
  if (got.empty()) return false;
  int differ = 0;
  double worst = 0;
  for (int i = 0; i < k_points; ++i) {
    const double g = got[static_cast<std::size_t>(outputs * i + column)], w = want(i);
    if (g != w) {
      ++differ;
      worst = std::max(worst, std::abs(g - w));
    }
  }
  std::printf("  %-60s %4d of %d differ, worst %.3g\n", what, differ, k_points, worst);
  return differ == 0;
}

// C++ twins of the shader operations, one IEEE operation a statement (no contraction).
double fade(double t) {
  const double p = t * 6.0, q = p - 15.0, r = t * q, s = r + 10.0, c2 = t * t, c3 = c2 * t;
  return c3 * s;
}
double lerp(double t, double a, double b) {
  const double d = b - a, m = t * d;
  return a + m;
}

/// 1. A 40 x 24 x 6 volume of gpu_grid's standalone program, plane by plane; false where the way
/// gpu_grid reads (every barrier bit, glGetBufferSubData) gives a wrong plane.
bool probe_planes() {
  std::puts("1. a volume plane by plane (gpu_grid's loop), each barrier and read:");
  const perlin::field f =
      perlin::make_field(perlin::spec_from_recipe("perlin=1&fractal=fbm&octaves=5&seed=9"));
  const GLuint prog = compile(perlin::shader_source(f, {.language = perlin::shader_language::glsl,
                                                        .dims = 3,
                                                        .derivatives = false,
                                                        .split = false,
                                                        .standalone = true}));
  if (prog == 0) return false;
  const GLint origin = glGetUniformLocation(prog, "perlin_origin"),
              step = glGetUniformLocation(prog, "perlin_step"),
              size = glGetUniformLocation(prog, "perlin_size");
  constexpr int w = 40, h = 24, planes = 6;
  constexpr double ox = 0.5, oy = 0.25, oz = -3, st = 0.11;
  GLuint buf = 0;
  glGenBuffers(1, &buf);
  bool ours_ok = true;
  const std::pair<const char*, GLbitfield> ways[] = {
      {"GL_BUFFER_UPDATE_BARRIER_BIT, glGetBufferSubData", GL_BUFFER_UPDATE_BARRIER_BIT},
      {"GL_ALL_BARRIER_BITS, glGetBufferSubData (ours)", GL_ALL_BARRIER_BITS},
      {"GL_BUFFER_UPDATE_BARRIER_BIT, glMapBufferRange", GL_BUFFER_UPDATE_BARRIER_BIT},
  };
  for (std::size_t way = 0; way < std::size(ways); ++way) {
    glUseProgram(prog);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, w * h * sizeof(float), nullptr, GL_DYNAMIC_READ);
    glUniform2f(step, static_cast<float>(st), static_cast<float>(st));
    std::vector<float> out(w * h * planes);
    for (int k = 0; k < planes; ++k) {
      glUniform4f(origin, static_cast<float>(ox), static_cast<float>(oy),
                  static_cast<float>(oz + k * st), 0.0f);
      glUniform2ui(size, w, h);
      glDispatchCompute((w + 7) / 8, (h + 7) / 8, 1);
      glMemoryBarrier(ways[way].second);
      float* dst = out.data() + static_cast<std::ptrdiff_t>(k) * w * h;
      if (way == 2) {
        const void* m =
            glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, w * h * sizeof(float), GL_MAP_READ_BIT);
        std::memcpy(dst, m, w * h * sizeof(float));
        glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
      } else {
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, w * h * sizeof(float), dst);
      }
    }
    int bad = 0;
    double worst = 0;
    for (int k = 0; k < planes; ++k) {
      double plane_worst = 0;
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const double p[3] = {static_cast<float>(ox + x * st), static_cast<float>(oy + y * st),
                               static_cast<float>(oz + k * st)};
          plane_worst = std::max(plane_worst, std::abs(out[(k * h + y) * w + x] -
                                                       f.eval(std::span<const double>(p, 3))));
        }
      }
      bad += plane_worst > 1e-4;
      worst = std::max(worst, plane_worst);
    }
    std::printf("  %-50s %d of %d planes wrong, worst %.3g\n", ways[way].first, bad, planes, worst);
    if (way == 1) ours_ok = bad == 0;
  }
  glDeleteBuffers(1, &buf);
  glDeleteProgram(prog);
  return ours_ok;
}

/// 2. Each double operation alone.
void probe_operations(const std::vector<double>& pts) {
  std::puts("2. double operations alone (a, b in [-40, 40), t in [0, 1)):");
  const std::string functions =
      "double fade(double t) { precise double r = t * t * t * (t * (t * 6.0LF - 15.0LF) + "
      "10.0LF); return r; }\n"
      "double lerp(double t, double a, double b) { precise double r = a + t * (b - a); return r; "
      "}\n";
  const std::pair<const char*, std::function<double(double, double, double)>> ops[] = {
      {"a + b", [](double a, double b, double) { return a + b; }},
      {"a * b", [](double a, double b, double) { return a * b; }},
      {"a / b", [](double a, double b, double) { return a / b; }},
      {"floor(a)", [](double a, double, double) { return std::floor(a); }},
      {"a - floor(a)", [](double a, double, double) { return a - std::floor(a); }},
      {"double(int(floor(a)))",
       [](double a, double, double) {
         return static_cast<double>(static_cast<int>(std::floor(a)));
       }},
      {"fade(t)", [](double, double, double t) { return fade(t); }},
      {"lerp(t, a, b)", [](double a, double b, double t) { return lerp(t, a, b); }},
  };
  const int n = static_cast<int>(std::size(ops));
  std::string body;
  for (int o = 0; o < n; ++o) {
    body += "  { precise double r = " + std::string(ops[o].first) + "; vals[" + std::to_string(n) +
            " * i + " + std::to_string(o) + "] = r; }\n";
  }
  const std::vector<double> got = run_doubles(functions, body, n, pts);
  for (int o = 0; o < n; ++o) {
    report(ops[o].first, got, n, o, [&](int i) {
      const auto k = static_cast<std::size_t>(3 * i);
      return ops[o].second(pts[k], pts[k + 1], pts[k + 2]);
    });
  }
}

/// 3. The 3-D double field's source, one construct changed at a time; false where the source as
/// written differs from field::eval.
bool probe_field(const std::vector<double>& pts) {
  std::puts("3. the 3-D double field (perlin=1) at (a, b, t), a, b, t in [-40, 40):");
  const perlin::field f = perlin::make_field(perlin::spec_from_recipe("perlin=1"));
  const std::string base = perlin::shader_source(
      f, {.double_precision = true, .dims = 3, .derivatives = false, .split = false});
  const std::string scale = "      precise double v = x[k] * perlin_freq[o];\n      q[k] = v;\n";
  const std::string loop = "    for (int k = 0; k < 3; ++k) {\n" + scale + "    }\n";
  const std::string unrolled =
      "    precise double v0 = x[0] * perlin_freq[o]; q[0] = v0;\n"
      "    precise double v1 = x[1] * perlin_freq[o]; q[1] = v1;\n"
      "    precise double v2 = x[2] * perlin_freq[o]; q[2] = v2;\n";
  const std::string noise_end = "  return c[0];\n}";
  struct change {
    const char* name;
    std::vector<std::pair<std::string, std::string>> edits;  // "" for every "precise "
  };
  const change changes[] = {
      {"as written", {}},
      {"no precise", {{"precise ", ""}}},
      {"coordinates scaled by an unrolled loop", {{loop, unrolled}}},
      // precise kept only where a function computes one expression (fade, lerp): what a writer
      // that routed every exact operation through such functions would get.
      {"precise only in fade and lerp",
       {{"precise ", ""},
        {"  double r = t * t * t", "  precise double r = t * t * t"},
        {"  double r = a + t * (b - a);", "  precise double r = a + t * (b - a);"}}},
      {"precise only in fade, lerp and the dot products",
       {{"precise ", ""},
        {"  double r = t * t * t", "  precise double r = t * t * t"},
        {"  double r = a + t * (b - a);", "  precise double r = a + t * (b - a);"},
        {"    double dot = ", "    precise double dot = "}}},
  };
  // What noise returns: its value, or q[1] (the scaled coordinate), f[1] (its fraction), u[1].
  const std::pair<const char*, std::function<double(int)>> steps[] = {
      {"value", [&](int i) { return f.eval<double>(std::span<const double>(&pts[3 * i], 3)); }},
      {"q[1]", [&](int i) { return pts[3 * i + 1]; }},
      {"f[1]", [&](int i) { return pts[3 * i + 1] - std::floor(pts[3 * i + 1]); }},
      {"u[1]", [&](int i) { return fade(pts[3 * i + 1] - std::floor(pts[3 * i + 1])); }},
  };
  bool as_written_ok = true;
  for (const change& c : changes) {
    for (std::size_t s = 0; s < std::size(steps); ++s) {
      std::string src = base;
      auto edits = c.edits;
      if (s != 0) edits.emplace_back(noise_end, std::string("  return ") + steps[s].first + ";\n}");
      for (const auto& [from, to] : edits) {
        if (from == "precise ") {
          for (std::size_t at; (at = src.find(from)) != std::string::npos;) src.erase(at, 8);
        } else if (const std::size_t at = src.find(from); at != std::string::npos) {
          src.replace(at, from.size(), to);
        } else {
          std::printf("  (the source has no '%s': this probe is out of date)\n", from.c_str());
          return false;
        }
      }
      const std::vector<double> got =
          run_doubles(src, "  vals[i] = perlin_field(dvec3(a, b, t));\n", 1, pts);
      const std::string what = std::string(c.name) + ": " + steps[s].first;
      const bool ok = report(what.c_str(), got, 1, 0, steps[s].second);
      if (c.name == changes[0].name && s == 0) as_written_ok = ok;
    }
  }
  return as_written_ok;
}

}  // namespace

int main() {
  if (const std::string why = perlin_test::make_gl_context_current(); !why.empty()) {
    std::printf("perlin_gpu_probe: %s\n", why.c_str());
    return 77;  // ctest's SKIP_RETURN_CODE
  }
  std::printf("renderer: %s, OpenGL %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
              reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  std::vector<double> ops(3 * k_points), field(3 * k_points);
  std::uint64_t s = 88172645463325252ull;  // xorshift64: the same points everywhere
  const auto uniform = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<double>(s >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < 3 * k_points; ++i) {
    ops[i] = i % 3 == 2 ? uniform() : uniform() * 80 - 40;
    field[i] = uniform() * 80 - 40;
  }
  const bool planes_ok = probe_planes();
  probe_operations(ops);
  const bool field_ok = probe_field(field);
  return planes_ok && field_ok ? 0 : 1;
}
