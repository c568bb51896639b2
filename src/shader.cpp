// Shader code for a field (shader.hpp): the scalar path's operations, in its order, as shader code,
// with every octave's constants computed here by the same octave walk (detail/octaves.hpp), so that
// the double-precision shader gives the C++ double path's values (docs/gpu.md).
#include "perlin/shader.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "detail/error.hpp"
#include "detail/octaves.hpp"
#include "detail/primitives.hpp"
#include "detail/rotation.hpp"
#include "detail/warp.hpp"
#include "detail/wrap.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"
#include "shader/program.hpp"
#include "shader/writer.hpp"

namespace perlin {

namespace {

/// The largest period a shader's int arithmetic reduces by (modulo periods only).
constexpr std::uint64_t k_max_shader_period = 2147483647;

template <class V, class F>
std::string join(const std::vector<V>& v, F&& f) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i != 0) s += (i % 16 == 0) ? ",\n    " : ", ";
    s += f(v[i]);
  }
  return s;
}

}  // namespace

shader_coordinate split_for_shader(double x) {
  const double cell = std::floor(x);
  if (!(cell >= -2147483648.0 && cell <= 2147483647.0))
    detail::throw_invalid("x", "the cell of a split coordinate is a 32-bit int");
  shader_coordinate s{static_cast<std::int32_t>(cell), static_cast<float>(x - cell)};
  if (s.frac >= 1.0f) {  // rounded up to 1: the next cell's 0
    if (s.cell == 2147483647)
      detail::throw_invalid("x", "the cell of a split coordinate is a 32-bit int");
    ++s.cell;
    s.frac = 0.0f;
  }
  return s;
}

bool parse_shader_precision(std::string_view name) {
  if (name == "double") return true;
  if (name != "float") {
    std::string what = "'";  // appended: GCC 12 at -O3 warns falsely (-Wrestrict) otherwise
    what += name;
    what += "' is not float or double";
    detail::throw_invalid("precision", what);
  }
  return false;
}

double shader_float_tolerance(const field& f) noexcept {
  double bound = value_tolerance(f);
  if (f.warped()) bound += f.warp().amplitude() * gradient_tolerance(f);
  return 16 * bound;
}

shader_language parse_shader_language(std::string_view name) {
  if (name == "glsl") return shader_language::glsl;
  if (name == "glsl-es") return shader_language::glsl_es;
  if (name == "hlsl") return shader_language::hlsl;
  if (name == "wgsl") return shader_language::wgsl;
  std::string what = "'";  // appended: GCC 12 at -O3 warns falsely (-Wrestrict) on "'" + string
  what += name;
  what += "' is not glsl, glsl-es, hlsl or wgsl";
  detail::throw_invalid("lang", what);
}

std::string shader_source(const field& f, const shader_options& o) {
  if (o.dims < 1 || o.dims > 4)
    detail::throw_invalid("dims", "must be 1 to 4, got " + std::to_string(o.dims));
  const bool improved = f.kind() == noise_kind::improved;
  const interpolation interp =
      improved ? interpolation::quintic : std::get<value_noise>(f.base()).interp();
  if (interp == interpolation::cosine && o.double_precision) {
    detail::throw_invalid("shader",
                          "value noise with the cosine interpolation needs cos, which GLSL has "
                          "for float only: use --precision float or another --interp");
  }
  // Eroded fBm (fractal.cpp): each octave's value is damped by the sum of the octaves' own
  // gradients so far, so its value needs perlin_noise_deriv; its derivatives would need each
  // octave's Hessian, which no shader function computes: perlin_field_deriv is left out.
  const bool eroded = f.fractal().kind() == fractal_kind::eroded;
  const bool rotated = f.plane() == plane::rotated && o.dims >= 2;
  const std::size_t L = rotated && o.dims < 4 ? 3 : o.dims;  // the lattice's dimensions
  const fractal& fr = f.fractal();
  const int octaves = fr.active_octaves();
  if (o.language != shader_language::glsl && o.double_precision) {
    detail::throw_invalid("precision",
                          "double precision is written for desktop GLSL (4.00+) only: GLSL ES, "
                          "WebGL and WGSL have no doubles, and HLSL's doubles have no floor");
  }
  detail::shader_writer w(o.language, o.double_precision);
  const std::string T = w.real(), I = w.integer();

  // The wrap of an axis as the shader reads it: a mask (period 0), or mask -1 and a period.
  const auto push_wrap = [](const detail::axis_wrap& a, const std::string& octave,
                            std::vector<int>& mask, std::vector<int>& period) {
    if (!a.modulo) {
      mask.push_back(static_cast<int>(a.mask));
      period.push_back(0);
      return;
    }
    if (a.period > k_max_shader_period) {
      detail::throw_invalid("shader", octave + " tiles with period " + std::to_string(a.period) +
                                          ", beyond what shader code reduces by (2^31 - 1)");
    }
    mask.push_back(-1);
    period.push_back(static_cast<int>(a.period));
  };
  // Per octave: frequency, amplitude, offsets, and the wrap of each axis (mask, or a period).
  std::vector<double> freq, amp, off;
  std::vector<int> mask, period;
  for (detail::octave_walk walk(fr, f.lattice()); walk.index < octaves; walk.next()) {
    freq.push_back(walk.freq);
    amp.push_back(walk.amp);
    for (std::size_t k = 0; k < L; ++k) {
      off.push_back(walk.offset(k));
      push_wrap(walk.wraps[k], "octave " + std::to_string(walk.index), mask, period);
    }
  }
  // The domain warp (warp.cpp's displace on the L lattice coordinates): per warp octave i its
  // frequency u_i, displacement scale (A / f) a_i and their product, the offsets o_ik along
  // each axis, and the warp lattice's wraps (its periods double per octave).
  const warp& wp = f.warp();
  const int warp_octaves = f.warped() ? wp.active_octaves() : 0;
  std::vector<double> warp_freq, warp_scale, warp_su, warp_off;
  std::vector<int> warp_mask, warp_period, warp_p;
  if (warp_octaves > 0) {
    const lattice wl = detail::warp_lattice(wp, f.lattice());
    auto wraps = detail::wraps_of(wl);
    double u = fr.frequency() * wp.frequency(), scale = wp.amplitude() / fr.frequency();
    for (int i = 0; i < warp_octaves; ++i) {
      warp_freq.push_back(u);
      warp_scale.push_back(scale);
      warp_su.push_back(scale * u);
      for (std::size_t k = 0; k < L; ++k) {
        for (std::size_t c = 0; c < L; ++c) warp_off.push_back(detail::warp_offset(i, k, c));
        push_wrap(wraps[k], "warp octave " + std::to_string(i), warp_mask, warp_period);
      }
      u *= 2;
      scale *= 0.5;
      detail::scale_periods(wraps, 2);
    }
    for (std::size_t i = 0; i < 512; ++i) warp_p.push_back(wl.perm()[i]);
  }
  // The split form (perlin_field_split): every octave frequency a whole number the float type
  // holds exactly, the lattice axes the caller's (no rotation), modulo periods whose products stay
  // in 32-bit ints. Then octave i's lattice coordinate of cell + frac is the integer
  // cell * F_i + floor(offset) plus the float frac * F_i + fract(offset), exact in the integer
  // part.
  std::string no_split;
  if (rotated) no_split = "the rotated plane mixes the axes";
  if (warp_octaves > 0) no_split = "the domain warp moves the points in float";
  if (eroded) no_split = "the eroded fractal needs each octave's gradient";
  for (const double v : freq) {
    if (v != std::floor(v) || v > 16777216.0)
      no_split = "an octave frequency is not a whole number up to 2^24";
  }
  for (const int P : period) {
    if (P > 46340) no_split = "a period above 46340 (its products would pass 2^31)";
  }
  std::vector<int> ifreq, ioff, freq_mod, off_mod;
  std::vector<double> foff;
  if (o.split && no_split.empty()) {
    for (std::size_t i = 0; i < freq.size(); ++i) {
      ifreq.push_back(static_cast<int>(freq[i]));
      for (std::size_t k = 0; k < L; ++k) {
        const double v = fr.decorrelate() ? off[i * L + k] : 0.0;
        const double whole = std::floor(v);
        ioff.push_back(static_cast<int>(whole));
        foff.push_back(v - whole);
        const int P = period[i * L + k];
        freq_mod.push_back(P > 0 ? static_cast<int>(static_cast<std::int64_t>(freq[i]) % P) : 0);
        off_mod.push_back(P > 0 ? static_cast<int>(static_cast<std::int64_t>(whole) % P) : 0);
      }
    }
  }
  const bool split = o.split && no_split.empty();
  const auto& perm = f.lattice().perm();
  std::vector<int> p(512);
  for (std::size_t i = 0; i < 512; ++i) p[i] = perm[i];
  const auto num = [](int v) { return std::to_string(v); };
  const auto real = [&](double v) { return w.lit(v); };

  const char* needs = o.language == shader_language::hlsl      ? "HLSL shader model 4.0"
                      : o.language == shader_language::glsl_es ? "GLSL ES 3.00 (WebGL2)"
                      : o.language == shader_language::wgsl    ? "WGSL (WebGPU 1.0)"
                      : o.double_precision                     ? "GLSL 4.00"
                                                               : "GLSL 1.30";
  if (const std::string head = o.standalone ? detail::standalone_head(w) : ""; !head.empty())
    w.line(head);
  w.line("// perlin_field: " + std::string(o.double_precision ? "double" : "float") + ", " +
         std::to_string(o.dims) + "-D, generated by perlin shader (docs/gpu.md). Needs " + needs +
         " or later.");
  if (o.language == shader_language::glsl_es) {
    // ES's default int precision in fragment shaders is mediump (16 bits): the hashes and
    // lattice cells need 32. These set the defaults for what follows.
    w.line("precision highp float;\nprecision highp int;");
  }
  w.line(w.const_array(I, "perlin_p", 512, "\n    " + join(p, num)));
  std::vector<int> grad;
  if (L == 4) {
    for (const auto& g : detail::k_grad4)
      for (const auto c : g) grad.push_back(c);
  } else {
    for (const auto& g : detail::k_grad3)
      for (const auto c : g) grad.push_back(c);
  }
  const std::size_t cols = L == 4 ? 4 : 3;
  if (improved) {
    w.line(w.const_array(I, "perlin_grad", grad.size(), "\n    " + join(grad, num)));
  } else {
    // Value noise's corner levels h / 127.5 - 1, computed here: a GPU's division need not be
    // correctly rounded, a table's entries are exact.
    std::vector<double> level(256);
    for (std::size_t h = 0; h < 256; ++h) level[h] = static_cast<double>(h) / 127.5 - 1.0;
    w.line(w.const_array(T, "perlin_level", 256, "\n    " + join(level, real)));
  }
  const std::string N = std::to_string(octaves);
  const auto n_oct = static_cast<std::size_t>(octaves), n_off = n_oct * L;
  w.line(w.const_array(T, "perlin_freq", n_oct, join(freq, real)));
  w.line(w.const_array(T, "perlin_amp", n_oct, join(amp, real)));
  w.line(w.const_array(T, "perlin_offset", n_off, join(off, real)));
  w.line(w.const_array(I, "perlin_mask", n_off, join(mask, num)));
  w.line(w.const_array(I, "perlin_period", n_off, join(period, num)));
  if (warp_octaves > 0) {
    const auto n_warp = static_cast<std::size_t>(warp_octaves);
    w.line(w.const_array(I, "perlin_warp_p", 512, "\n    " + join(warp_p, num)));
    w.line(w.const_array(T, "perlin_warp_freq", n_warp, join(warp_freq, real)));
    w.line(w.const_array(T, "perlin_warp_scale", n_warp, join(warp_scale, real)));
    w.line(w.const_array(T, "perlin_warp_su", n_warp, join(warp_su, real)));
    w.line(w.const_array(T, "perlin_warp_offset", n_warp * L * L, join(warp_off, real)));
    w.line(w.const_array(I, "perlin_warp_mask", n_warp * L, join(warp_mask, num)));
    w.line(w.const_array(I, "perlin_warp_period", n_warp * L, join(warp_period, num)));
  }
  if (split) {
    w.line(w.const_array(I, "perlin_ifreq", n_oct, join(ifreq, num)));
    w.line(w.const_array(I, "perlin_ioffset", n_off, join(ioff, num)));
    w.line(w.const_array(T, "perlin_foffset", n_off, join(foff, real)));
    w.line(w.const_array(I, "perlin_freq_mod", n_off, join(freq_mod, num)));
    w.line(w.const_array(I, "perlin_offset_mod", n_off, join(off_mod, num)));
  }

  // Ken Perlin's fade and lerp in his order; `precise` forbids fused multiply-adds.
  w.function_of_t("perlin_fade", "t * t * t * (t * (t * " + w.lit(6) + " - " + w.lit(15) + ") + " +
                                     w.lit(10) + ")");
  w.line(w.function(T, "perlin_lerp", {{T, "t"}, {T, "a"}, {T, "b"}}) + "\n  " +
         w.decl(T, "r", "a + t * (b - a)", true) + "\n  return r;\n}");
  // Inside a function of t: x = pi min(t, 1 - t) and x2 = x * x, and the Horner form of
  // sum_k c_k x2^k (coefficients from the constant term up): the cosine interpolation's series.
  constexpr double k_pi = 3.14159265358979323846;
  const auto mirrored_series = [&](std::initializer_list<double> c) {
    w.line("  " + w.decl(T, "a", w.choose("t <= " + w.lit(0.5), "t", w.lit(1) + " - t"), true));
    w.line("  " + w.decl(T, "x", w.lit(k_pi) + " * a", true) + "\n  " +
           w.decl(T, "x2", "x * x", true));
    const std::vector<double> v(c);
    std::string series = w.lit(v.back());
    for (std::size_t k = v.size() - 1; k-- > 0;) series = w.lit(v[k]) + " + x2 * (" + series + ")";
    return series;
  };
  // The blend weight of an axis (reference.hpp's interp_weight for value noise).
  std::string weight = "perlin_fade(f[k])";
  switch (interp) {
    case interpolation::linear:
      weight = "f[k]";
      break;
    case interpolation::cosine: {
      // (1 - cos(pi t)) / 2 with cos from its Taylor series on [0, pi/2], mirrored for t > 1/2
      // (1 - t is exact there): a GPU's cos need not be accurate (SwiftShader's is off by 2e-4;
      // the series, by 7e-9).
      w.line(w.function(T, "perlin_cos_half", {{T, "t"}}));
      const std::string series =
          mirrored_series({1.0, -0.5, 1.0 / 24.0, -1.0 / 720.0, 1.0 / 40320.0, -1.0 / 3628800.0,
                           1.0 / 479001600.0});
      w.line("  " + w.decl(T, "c", series, true));
      w.line("  return " + w.choose("t <= " + w.lit(0.5), "c", "-c") + ";\n}");
      w.function_of_t("perlin_cosine", w.lit(0.5) + " - " + w.lit(0.5) + " * perlin_cos_half(t)");
      weight = "perlin_cosine(f[k])";
      break;
    }
    case interpolation::cubic:
      w.function_of_t("perlin_cubic", "t * t * (" + w.lit(3) + " - " + w.lit(2) + " * t)");
      weight = "perlin_cubic(f[k])";
      break;
    case interpolation::quintic:
      break;
  }

  // The derivative of an axis's blend weight (reference.hpp's dfade and interp_weight), for
  // the derivatives.
  std::string dweight = "perlin_dfade(f[k])";
  if (o.derivatives || eroded) {  // eroded fBm reads each octave's gradient
    w.function_of_t("perlin_dfade",
                    w.lit(30) + " * t * t * (t - " + w.lit(1) + ") * (t - " + w.lit(1) + ")");
    switch (interp) {
      case interpolation::linear:
        dweight = w.lit(1);
        break;
      case interpolation::cosine: {
        // (pi / 2) sin(pi t), sin(pi t) = sin(pi min(t, 1 - t)) from its Taylor series.
        w.line(w.function(T, "perlin_dcosine", {{T, "t"}}));
        const std::string series =
            mirrored_series({1.0, -1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362880.0,
                             -1.0 / 39916800.0, 1.0 / 6227020800.0});
        w.line("  " + w.decl(T, "r", w.lit(0.5 * k_pi) + " * (x * (" + series + "))", true));
        w.line("  return r;\n}");
        dweight = "perlin_dcosine(f[k])";
        break;
      }
      case interpolation::cubic:
        w.function_of_t("perlin_dcubic", w.lit(6) + " * t * (" + w.lit(1) + " - t)");
        dweight = "perlin_dcubic(f[k])";
        break;
      case interpolation::quintic:
        break;
    }
  }
  const std::string Ls = std::to_string(L), depth = L <= 3 ? "3" : "4";
  const std::string corners = std::to_string(1 << L);
  // x mod P into [0, P) for an int x of either sign (P > 0), without overflow.
  const auto mod_p = [&](const std::string& x) {
    return w.choose(x + " >= 0", x + " % P", "P - 1 - ((-(" + x + " + 1)) % P)");
  };
  const std::string wrap_up = "(" + w.choose("r + 1 == P", "0", "r + 1") + ") & 255";

  // One octave of L-D improved or value noise: reference.hpp's improved<L> or value<L>, step for
  // step; with `deriv`, also its L partials into dq.
  // With `split`: the lattice cell of octave o from the caller's integer cell and float fraction
  // (perlin_field_split), the integer part in ints (wrapping is harmless under a mask; modulo
  // periods reduce each factor first).
  // `pre`: "perlin_" for the field's lattice, "perlin_warp_" for the warp's (its own
  // permutation and wraps; the same base noise).
  const auto emit_noise = [&](bool deriv, bool split_form = false,
                              const std::string& pre = "perlin_") {
    const std::string perm_table = pre + "p", mask_table = pre + "mask",
                      period_table = pre + "period";
    if (split_form) {
      w.line(w.function(T, "perlin_noise_split", {{I, "cell", 4}, {T, "frac", 4}, {I, "o"}}));
    } else if (deriv) {
      w.line(w.function(T, pre + "noise_deriv", {{T, "q", 4}, {I, "o"}, {T, "dq", 4, true}}));
    } else {
      w.line(w.function(T, pre + "noise", {{T, "q", 4}, {I, "o"}}));
    }
    w.line("  " + w.arrays(I, {"i0", "i1"}, 4) + "\n  " + w.arrays(T, {"f", "u"}, 4));
    w.line("  " + w.loop("k", Ls));
    const std::string at = "o * " + Ls + " + k";
    if (split_form) {
      w.line("    " +
             w.decl(T, "v", "frac[k] * perlin_freq[o] + perlin_foffset[" + at + "]", true));
      w.line("    " + w.decl(T, "fl", "floor(v)", true));
      w.line("    f[k] = v - fl;\n    u[k] = " + weight + ";\n    " +
             w.decl(I, "whole", w.to_int("fl")));
      w.line("    " + w.decl(I, "m", mask_table + "[" + at + "]"));
      w.line("    if (m >= 0) {");
      w.line("      " +
             w.decl(I, "i", "cell[k] * perlin_ifreq[o] + perlin_ioffset[" + at + "] + whole"));
      w.line("      i0[k] = i & m;\n      i1[k] = (i + 1) & m;\n    } else {");
      w.line("      " + w.decl(I, "P", period_table + "[" + at + "]"));
      w.line("      " + w.decl(I, "cm", mod_p("cell[k]")));
      w.line("      " + w.decl(I, "wm", mod_p("whole")));
      w.line("      " + w.decl(I, "r",
                               "((cm * perlin_freq_mod[" + at + "]) % P + perlin_offset_mod[" + at +
                                   "] + wm) % P"));
      w.line("      i0[k] = r & 255;\n      i1[k] = " + wrap_up + ";\n    }\n  }");
    } else {
      w.line("    " + w.decl(T, "fl", "floor(q[k])", true));
      w.line("    f[k] = q[k] - fl;\n    u[k] = " + weight + ";\n    " +
             w.decl(I, "i", w.to_int("fl")));
      w.line("    " + w.decl(I, "m", mask_table + "[" + at + "]"));
      w.line("    if (m >= 0) {\n      i0[k] = i & m;\n      i1[k] = (i + 1) & m;\n    } else {");
      w.line("      " + w.decl(I, "P", period_table + "[" + at + "]"));
      w.line("      " + w.decl(I, "r", mod_p("i")));
      w.line("      i0[k] = r & 255;\n      i1[k] = " + wrap_up + ";\n    }\n  }");
    }
    w.line("  " + w.arrays(I, {"h"}, 16) + "\n  h[0] = " + perm_table +
           "[i0[0]];\n  h[1] = " + perm_table + "[i1[0]];\n  " + w.decl(I, "n", "2"));
    w.line("  " + w.loop("k", depth, "1"));
    w.line("    if (k < " + Ls + ") {");
    w.line("      " + w.loop("j", "n") + "\n        h[j + n] = " + perm_table + "[h[j] + i1[k]];");
    w.line("        h[j] = " + perm_table +
           "[h[j] + i0[k]];\n      }\n      n *= 2;\n    } else {");
    w.line("      " + w.loop_over("j", "n", "0", "h[j] = " + perm_table + "[h[j]];") +
           "\n    }\n  }");
    const std::string hmask = L == 4 ? "31" : "15", C = std::to_string(cols);
    w.line("  " + w.arrays(T, {"c"}, 16));
    w.line("  " + w.loop("corner", corners));
    if (improved) {
      w.line("    " + w.decl(I, "g", "(h[corner] & " + hmask + ") * " + C));
      w.line("    " + w.decl(T, "dot",
                             w.to_real("perlin_grad[g]") + " * (" +
                                 w.choose("(corner & 1) != 0", "f[0] - " + w.lit(1), "f[0]") + ")",
                             true));
      w.line("    " +
             w.loop_over("k", Ls, "1",
                         "\n      dot = dot + " + w.to_real("perlin_grad[g + k]") + " * (" +
                             w.choose("((corner >> " + w.shift("k") + ") & 1) != 0",
                                      "f[k] - " + w.lit(1), "f[k]") +
                             ");"));
      w.line("    c[corner] = dot;\n  }");
    } else {
      w.line("    c[corner] = perlin_level[h[corner]];\n  }");
    }
    if (deriv) {
      // Improved: the blend of the corners' gradient components, then (both kinds) the blend
      // weights' derivatives times the corner values (reference.hpp's improved and value).
      // Each blend on a copy of its corners: reference.hpp's weight_sum, axis by axis, lerped,
      // or differenced along the axis of the derivative (inline: a function that takes the
      // corners costs llvmpipe many times the time).
      const auto blend = [&](const std::string& from, const std::string& d) {
        w.line("    " + w.loop_over("c0", corners, "0", "b[c0] = " + from + ";"));
        w.line("    m = " + corners + ";");
        w.line("    " + w.loop("a", Ls) + "\n      m >>= " + w.shift("1") + ";");
        w.line("      " + w.loop("j", "m"));
        w.line("        " + w.decl(T, "e", "b[2 * j + 1] - b[2 * j]", true));
        w.line("        b[j] = " +
               w.choose("a == " + d, "e", "perlin_lerp(u[a], b[2 * j], b[2 * j + 1])") + ";");
        w.line("      }\n    }");
      };
      const std::string dq = w.deref("dq");
      w.line("  " + w.arrays(T, {"b"}, 16) + "\n  " + w.decl(I, "m", ""));
      w.line("  " + w.loop("k", Ls));
      if (improved) {
        blend(w.to_real("perlin_grad[(h[c0] & " + hmask + ") * " + C + " + k]"), "-1");
        w.line("    " + dq + "[k] = b[0];");
      } else {
        w.line("    " + dq + "[k] = " + w.lit(0) + ";");
      }
      blend("c[c0]", "k");
      w.line("    " + w.decl(T, "dw", dweight, true));
      w.line("    " + w.decl(T, "e", dq + "[k] + b[0] * dw", true));
      w.line("    " + dq + "[k] = e;\n  }");
    }
    // The value: reference.hpp's reduce, axis by axis.
    w.line("  " + (deriv ? "m = " + corners + ";" : w.decl(I, "m", corners)));
    w.line("  " + w.loop("k", Ls) + "\n    m >>= " + w.shift("1") + ";");
    w.line("    " +
           w.loop_over("j", "m", "0", "c[j] = perlin_lerp(u[k], c[2 * j], c[2 * j + 1]);") +
           "\n  }");
    w.line("  return c[0];\n}");
  };
  emit_noise(false);
  if (o.derivatives || eroded) emit_noise(true);
  if (split) emit_noise(false, true);
  if (warp_octaves > 0) {
    emit_noise(false, false, "perlin_warp_");
    if (o.derivatives) emit_noise(true, false, "perlin_warp_");
  }

  // The domain warp on the lattice coordinates x (warp.cpp's displace, step for step); with
  // `deriv`, also the Jacobian jac (L x L, row-major) of the warped point.
  const auto emit_warp = [&](bool deriv) {
    const std::string LL = std::to_string(L * L);
    const bool progressive = wp.kind() == warp_kind::progressive;
    w.line("  // The domain warp (docs/warp.md): each octave " +
           std::string(progressive ? "moves the point the octaves before it moved."
                                   : "reads the original point."));
    if (!progressive) {
      w.line("  " + w.arrays(T, {"w0"}, 4));
      w.line("  " + w.loop_over("k", "4", "0", "w0[k] = x[k];"));
    }
    if (deriv) {
      w.line("  " + w.arrays(T, {"jac"}, 16));
      w.line("  " +
             w.loop_over(
                 "e", LL, "0",
                 "jac[e] = " +
                     w.choose("e % " + std::to_string(L + 1) + " == 0", w.lit(1), w.lit(0)) + ";"));
    }
    const std::string from = progressive ? "x" : "w0";
    w.line("  " + w.loop("i", std::to_string(warp_octaves)));
    w.line("    " + w.arrays(T, {"disp"}, 4));
    if (deriv) w.line("    " + w.arrays(T, {"wm"}, 16));
    w.line("    " + w.loop("k", Ls));
    w.line("      " + w.arrays(T, {"q"}, 4));
    w.line("      " + w.loop("c", Ls));
    w.line("        " + w.decl(T, "v", from + "[c] * perlin_warp_freq[i]", true));
    w.line("        v = v + perlin_warp_offset[(i * " + Ls + " + k) * " + Ls + " + c];");
    w.line("        q[c] = v;\n      }");
    if (deriv) {
      w.line("      " + w.arrays(T, {"dq"}, 4));
      w.line("      disp[k] = perlin_warp_noise_deriv(q, i, " + w.ref("dq") + ");");
      w.line("      " + w.loop_over("c", Ls, "0", "wm[k * 4 + c] = dq[c];"));
    } else {
      w.line("      disp[k] = perlin_warp_noise(q, i);");
    }
    w.line("    }");
    if (deriv) {
      // J <- (I + s u M) J (progressive: into a copy, every entry reads a column of J) or
      // J + s u M (independent: in place), M the noises' partials.
      if (progressive) w.line("    " + w.arrays(T, {"jn"}, 16));
      w.line("    " + w.loop("r", Ls) + "\n      " + w.loop("c", Ls));
      if (progressive) {
        w.line("        " + w.decl(T, "acc", w.lit(0), true));
        w.line("        " +
               w.loop_over("j", Ls, "0",
                           "\n          acc = acc + wm[r * 4 + j] * jac[j * " + Ls + " + c];"));
        w.line("        " +
               w.decl(T, "e", "jac[r * " + Ls + " + c] + perlin_warp_su[i] * acc", true));
      } else {
        w.line("        " +
               w.decl(T, "e", "jac[r * " + Ls + " + c] + perlin_warp_su[i] * wm[r * 4 + c]", true));
      }
      w.line("        " + std::string(progressive ? "jn" : "jac") + "[r * " + Ls +
             " + c] = e;\n      }\n    }");
      if (progressive) w.line("    " + w.loop_over("e", LL, "0", "jac[e] = jn[e];"));
    }
    w.line("    " + w.loop("k", Ls) + "\n      " +
           w.decl(T, "e", "x[k] + perlin_warp_scale[i] * disp[k]", true) + "\n      x[k] = e;");
    w.line("    }\n  }");
  };

  // The field: the plane, then fractal.cpp's octave loop for the kind; with `deriv`, the
  // gradient accumulated as fractal.cpp does and turned back from the rotated plane (field.cpp).
  const std::string arg = w.vec(o.dims);
  const auto emit_field = [&](bool deriv, bool split_form = false) {
    const char* comp[4] = {"x", "y", "z", "w"};
    const auto spread = [&](const std::string& v, const std::string& zero) {
      std::string init;
      for (std::size_t k = 0; k < 4; ++k) {
        if (k != 0) init += ", ";
        init += k < o.dims ? (o.dims == 1 ? v : v + "." + comp[k]) : zero;
      }
      return init;
    };
    if (split_form) {
      w.line(w.function(T, "perlin_field_split", {{w.ivec(o.dims), "cell"}, {arg, "frac"}}));
      w.line("  " + w.array(I, "c", 4, w.array4(I, spread("cell", "0"))));
      w.line("  " + w.array(T, "fr", 4, w.array4(T, spread("frac", w.lit(0)))));
    } else {
      std::vector<detail::shader_param> params{{arg, "p"}};
      if (deriv) params.push_back({arg, "gradient", 0, true});
      w.line(w.function(T, deriv ? "perlin_field_deriv" : "perlin_field", params));
      w.line("  " + w.array(T, "x", 4, w.array4(T, spread("p", w.lit(0)))));
    }
    if (rotated && !split_form) {
      // detail::rotated: lattice j = sum over k < min(3, dims) of x_k k_rot[k][j], from 0.
      for (std::size_t j = 0; j < 3; ++j) {
        std::string s = w.lit(0);
        for (std::size_t k = 0; k < std::min<std::size_t>(3, o.dims); ++k)
          s += " + x[" + std::to_string(k) + "] * " + w.lit(detail::k_rot[k][j]);
        w.line("  " + w.decl(T, "r" + std::to_string(j), s, true));
      }
      w.line("  x[0] = r0;\n  x[1] = r1;\n  x[2] = r2;");
    }
    if (warp_octaves > 0 && !split_form) emit_warp(deriv);
    const std::string zero4 =
        w.array4(T, w.lit(0) + ", " + w.lit(0) + ", " + w.lit(0) + ", " + w.lit(0));
    w.line("  " + w.decl(T, "total", w.lit(0), true));
    w.line("  " + w.decl(T, "weight", w.lit(1), true));
    if (eroded) w.line("  " + w.array(T, "sg", 4, zero4));  // the sum of the octaves' gradients
    if (deriv) {
      w.line("  " + w.array(T, "g", 4, zero4));
      w.line("  " + w.array(T, "dweight", 4, zero4));
    }
    w.line("  " + w.loop("o", N));
    if (!split_form) {
      w.line("    " + w.arrays(T, {"q"}, 4));
      w.line("    " + w.loop("k", Ls));
      w.line("      " + w.decl(T, "v", "x[k] * perlin_freq[o]", true));
      if (fr.decorrelate()) w.line("      v = v + perlin_offset[o * " + Ls + " + k];");
      w.line("      q[k] = v;\n    }");
    }
    if (split_form) {
      w.line("    " + w.decl(T, "n", "perlin_noise_split(c, fr, o)", true));
    } else if (deriv) {
      w.line("    " + w.arrays(T, {"dn"}, 4));
      w.line("    " + w.decl(T, "n", "perlin_noise_deriv(q, o, " + w.ref("dn") + ")", true));
      w.line("    " + w.arrays(T, {"ds"}, 4));
      w.line("    " + w.loop("k", Ls) + "\n      " +
             w.decl(T, "e", "dn[k] * perlin_freq[o]", true) + "\n      ds[k] = e;\n    }");
    } else if (eroded) {
      w.line("    " + w.arrays(T, {"dn"}, 4));
      w.line("    " + w.decl(T, "n", "perlin_noise_deriv(q, o, " + w.ref("dn") + ")", true));
    } else {
      w.line("    " + w.decl(T, "n", "perlin_noise(q, o)", true));
    }
    w.line("    " + w.decl(T, "s", "n", true));
    const auto each = [&](const std::string& body) {
      if (deriv) w.line("    " + w.loop("k", Ls) + "\n" + body + "\n    }");
    };
    switch (fr.kind()) {
      case fractal_kind::none:
      case fractal_kind::fbm:
        break;
      case fractal_kind::turbulence:
        w.line("    s = abs(n);");
        each("      " + w.decl(T, "e", "ds[k] * sign(n)", true) + "\n      ds[k] = e;");
        break;
      case fractal_kind::billow:
        w.line("    s = " + w.lit(2) + " * abs(n) - " + w.lit(1) + ";");
        each("      " + w.decl(T, "e", "ds[k] * (" + w.lit(2) + " * sign(n))", true) +
             "\n      ds[k] = e;");
        break;
      case fractal_kind::ridged:
        w.line("    " + w.decl(T, "r", w.lit(fr.ridged_offset()) + " - abs(n)", true));
        w.line("    " + w.decl(T, "s0", "r * r", true) + "\n    s = s0 * weight;");
        each("      " +
             w.decl(T, "e", w.lit(-2) + " * r * sign(n) * ds[k] * weight + s0 * dweight[k]", true) +
             "\n      ds[k] = e;");
        w.line("    " + w.decl(T, "next", "s * " + w.lit(fr.ridged_gain()), true));
        if (deriv) {
          w.line("    " +
                 w.decl("bool", "inside", "next > " + w.lit(0) + " && next < " + w.lit(1)));
        }
        w.line("    weight = clamp(next, " + w.lit(0) + ", " + w.lit(1) + ");");
        each("      " + w.decl(T, "e", w.lit(fr.ridged_gain()) + " * ds[k]", true) +
             "\n      dweight[k] = " + w.choose("inside", "e", w.lit(0)) + ";");
        break;
      case fractal_kind::eroded:
        // s = n / (1 + k |G|^2), G the octaves' own gradients so far (in lattice units).
        w.line("    " + w.loop("k", Ls) + "\n      " + w.decl(T, "e", "sg[k] + dn[k]", true) +
               "\n      sg[k] = e;\n    }");
        w.line("    " + w.decl(T, "g2", w.lit(0), true));
        w.line("    " + w.loop_over("k", Ls, "0", "g2 = g2 + sg[k] * sg[k];"));
        w.line("    " + w.decl(T, "dd", w.lit(1) + " + " + w.lit(fr.erosion()) + " * g2", true));
        w.line("    s = n / dd;");
        break;
    }
    w.line("    total = total + s * perlin_amp[o];");
    each("      " + w.decl(T, "e", "g[k] + ds[k] * perlin_amp[o]", true) + "\n      g[k] = e;");
    w.line("  }");
    if (fr.normalize()) {
      w.line("  total = total / " + w.lit(fr.amplitude_sum()) + ";");
      if (deriv) {
        w.line("  " + w.loop("k", Ls) + "\n    " +
               w.decl(T, "e", "g[k] / " + w.lit(fr.amplitude_sum()), true) +
               "\n    g[k] = e;\n  }");
      }
    }
    if (deriv && warp_octaves > 0) {
      // Through the warp (field.cpp's eval_unturned): d v / d q_c = sum_r g_r J_rc.
      w.line("  " + w.arrays(T, {"gw"}, 4));
      w.line("  " + w.loop("c", Ls) + "\n    " + w.decl(T, "acc", w.lit(0), true));
      w.line("    " +
             w.loop_over("r", Ls, "0", "\n      acc = acc + g[r] * jac[r * " + Ls + " + c];"));
      w.line("    gw[c] = acc;\n  }");
      w.line("  " + w.loop_over("c", Ls, "0", "g[c] = gw[c];"));
    }
    if (deriv) {
      // The gradient in the caller's coordinates: field.cpp's R^T g for the rotated plane (in
      // double there; a float shader rounds each step).
      for (std::size_t k = 0; k < o.dims; ++k) {
        std::string value;
        if (rotated && k < 3) {
          value = w.lit(0);
          for (std::size_t j = 0; j < 3; ++j)
            value += " + " + w.lit(detail::k_rot[k][j]) + " * g[" + std::to_string(j) + "]";
        } else {
          value = "g[" + std::to_string(k) + "]";
        }
        const std::string target =
            w.deref("gradient") + (o.dims == 1 ? std::string() : std::string(".") + comp[k]);
        w.line("  " + w.decl(T, "gc" + std::to_string(k), value, true));
        w.line("  " + target + " = gc" + std::to_string(k) + ";");
      }
    }
    w.line("  return total;\n}");
  };
  emit_field(false);
  if (o.derivatives && !eroded) {
    emit_field(true);
  } else if (o.derivatives) {
    w.line(
        "// perlin_field_deriv is not written for the eroded fractal: its chain rule needs each "
        "octave's Hessian.");
  }
  if (split) {
    emit_field(false, true);
  } else if (o.split) {
    w.line("// perlin_field_split is not written for this field: " + no_split + ".");
  }
  if (o.standalone) w.line(detail::standalone_main(w, o.dims));
  return w.text();
}

std::string shader_source(const field_spec& spec, const shader_options& o) {
  const std::string src = shader_source(make_field(spec), o);
  // The recipe first, or after a #version line, which must open a GLSL ES program.
  const std::string recipe = "// recipe: " + to_recipe(spec) + "\n";
  const std::size_t at = src.rfind("#version", 0) == 0 ? src.find('\n') + 1 : 0;
  return src.substr(0, at) + recipe + src.substr(at);
}

}  // namespace perlin
