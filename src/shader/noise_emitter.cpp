// shader_emitter (shader/emitter.hpp), the noise: one octave of L-D improved, value or simplex
// noise, the scalar path's operations in its order, as shader code (and as flat JavaScript).
#include <string>

#include "detail/error.hpp"
#include "detail/simplex.hpp"
#include "noise/noise_kinds.hpp"
#include "shader/emitter.hpp"

namespace perlin::detail {

// ---- The noise: one octave of L-D improved or value noise

// reference.hpp's improved<L> or value<L>, step for step; form::deriv: also its L partials into
// dq. form::split: the lattice cell of octave o from the caller's integer cell and float
// fraction (perlin_field_split). `pre`: "perlin_" for the field's lattice, "perlin_warp_" for the
// warp's (its own permutation and wraps; the same base noise).
void shader_emitter::emit_noise(form fm, const std::string& pre) {
  if (fm == form::value && w_.js()) {
    emit_noise_flat(pre);
    return;
  }
  const std::string &T = T_, &I = I_;
  if (fm == form::split) {
    w_.line(w_.function(T, "perlin_noise_split", {{I, "cell", 4}, {T, "frac", 4}, {I, "o"}}));
  } else if (fm == form::deriv) {
    w_.line(w_.function(T, pre + "noise_deriv", {{T, "q", 4}, {I, "o"}, {T, "dq", 4, true}}));
  } else {
    w_.line(w_.function(T, pre + "noise", {{T, "q", 4}, {I, "o"}}));
  }
  w_.line("  " + w_.arrays(I, {"i0", "i1"}, 4) + "\n  " + w_.arrays(T, {"f", "u"}, 4));
  w_.line("  " + w_.loop("k", Ls_));
  if (fm == form::split) {
    emit_noise_split_cells();
  } else {
    emit_noise_cells(pre);
  }
  emit_noise_hashes(pre);
  emit_noise_corners();
  if (fm == form::deriv) emit_noise_partials();
  emit_noise_value(fm == form::deriv);
}

// x mod P into [0, P) for an int x of either sign (P > 0), without overflow.
std::string shader_emitter::mod_p(const std::string& x) const {
  return w_.choose(x + " >= 0", x + " % P", "P - 1 - ((-(" + x + " + 1)) % P)");
}

// An axis's cells i0, i1 and fraction f of q[k], wrapped by a mask or reduced by a period.
void shader_emitter::emit_noise_cells(const std::string& pre) {
  const std::string &T = T_, &I = I_, at = "o * " + Ls_ + " + k";
  const std::string wrap_up = "(" + w_.choose("r + 1 == P", "0", "r + 1") + ") & 255";
  w_.line("    " + w_.decl(T, "fl", "floor(q[k])", true));
  w_.line("    f[k] = q[k] - fl;\n    u[k] = " + weight_ + ";\n    " +
          w_.decl(I, "i", w_.to_int("fl")));
  w_.line("    " + w_.decl(I, "m", pre + "mask[" + at + "]"));
  w_.line("    if (m >= 0) {\n      i0[k] = i & m;\n      i1[k] = (i + 1) & m;\n    } else {");
  w_.line("      " + w_.decl(I, "P", pre + "period[" + at + "]"));
  w_.line("      " + w_.decl(I, "r", w_.floor_mod(mod_p("i"), "fl", "P")));
  w_.line("      i0[k] = r & 255;\n      i1[k] = " + wrap_up + ";\n    }\n  }");
}

// The same from the split coordinates: the integer part in ints (wrapping is harmless under a
// mask; modulo periods reduce each factor first).
void shader_emitter::emit_noise_split_cells() {
  const std::string &T = T_, &I = I_, at = "o * " + Ls_ + " + k";
  const std::string wrap_up = "(" + w_.choose("r + 1 == P", "0", "r + 1") + ") & 255";
  w_.line("    " + w_.decl(T, "v", "frac[k] * perlin_freq[o] + perlin_foffset[" + at + "]", true));
  w_.line("    " + w_.decl(T, "fl", "floor(v)", true));
  w_.line("    f[k] = v - fl;\n    u[k] = " + weight_ + ";\n    " +
          w_.decl(I, "whole", w_.to_int("fl")));
  w_.line("    " + w_.decl(I, "m", "perlin_mask[" + at + "]"));
  w_.line("    if (m >= 0) {");
  w_.line("      " +
          w_.decl(I, "i", "cell[k] * perlin_ifreq[o] + perlin_ioffset[" + at + "] + whole"));
  w_.line("      i0[k] = i & m;\n      i1[k] = (i + 1) & m;\n    } else {");
  w_.line("      " + w_.decl(I, "P", "perlin_period[" + at + "]"));
  w_.line("      " + w_.decl(I, "cm", mod_p("cell[k]")));
  w_.line("      " + w_.decl(I, "wm", mod_p("whole")));
  w_.line("      " + w_.decl(I, "r",
                             "((cm * perlin_freq_mod[" + at + "]) % P + perlin_offset_mod[" + at +
                                 "] + wm) % P"));
  w_.line("      i0[k] = r & 255;\n      i1[k] = " + wrap_up + ";\n    }\n  }");
}

// The corners' hashes, axis by axis through the permutation.
void shader_emitter::emit_noise_hashes(const std::string& pre) {
  const std::string perm_table = pre + "p", depth = L_ <= 3 ? "3" : "4";
  w_.line("  " + w_.arrays(I_, {"h"}, 16) + "\n  h[0] = " + perm_table +
          "[i0[0]];\n  h[1] = " + perm_table + "[i1[0]];\n  " + w_.decl(I_, "n", "2"));
  w_.line("  " + w_.loop("k", depth, "1"));
  w_.line("    if (k < " + Ls_ + ") {");
  w_.line("      " + w_.loop("j", "n") + "\n        h[j + n] = " + perm_table + "[h[j] + i1[k]];");
  w_.line("        h[j] = " + perm_table + "[h[j] + i0[k]];\n      }\n      n *= 2;\n    } else {");
  w_.line("      " + w_.loop_over("j", "n", "0", "h[j] = " + perm_table + "[h[j]];") +
          "\n    }\n  }");
}

// The corners' values: the gradient's dot product with the offset, or the value level.
void shader_emitter::emit_noise_corners() {
  const std::string& T = T_;
  const std::string hmask = L_ == 4 ? "31" : "15", C = L_ == 4 ? "4" : "3";
  w_.line("  " + w_.arrays(T, {"c"}, 16));
  w_.line("  " + w_.loop("corner", corners_));
  if (!improved_) {
    w_.line("    c[corner] = perlin_level[h[corner]];\n  }");
    return;
  }
  w_.line("    " + w_.decl(I_, "g", "(h[corner] & " + hmask + ") * " + C));
  w_.line("    " + w_.decl(T, "dot",
                           w_.to_real("perlin_grad[g]") + " * (" +
                               w_.choose("(corner & 1) != 0", "f[0] - " + w_.lit(1), "f[0]") + ")",
                           true));
  w_.line("    " + w_.loop_over("k", Ls_, "1",
                                "\n      dot = dot + " + w_.to_real("perlin_grad[g + k]") + " * (" +
                                    w_.choose("((corner >> " + w_.shift("k") + ") & 1) != 0",
                                              "f[k] - " + w_.lit(1), "f[k]") +
                                    ");"));
  w_.line("    c[corner] = dot;\n  }");
}

// Improved: the blend of the corners' gradient components, then (both kinds) the blend weights'
// derivatives times the corner values (reference.hpp's improved and value).
void shader_emitter::emit_noise_partials() {
  const std::string& T = T_;
  const std::string dq = w_.deref("dq");
  w_.line("  " + w_.arrays(T, {"b"}, 16) + "\n  " + w_.decl(I_, "m", ""));
  w_.line("  " + w_.loop("k", Ls_));
  if (improved_) {
    const std::string hmask = L_ == 4 ? "31" : "15", C = L_ == 4 ? "4" : "3";
    emit_noise_blend(w_.to_real("perlin_grad[(h[c0] & " + hmask + ") * " + C + " + k]"), "-1");
    w_.line("    " + dq + "[k] = b[0];");
  } else {
    w_.line("    " + dq + "[k] = " + w_.lit(0) + ";");
  }
  emit_noise_blend("c[c0]", "k");
  w_.line("    " + w_.decl(T, "dw", dweight_, true));
  w_.line("    " + w_.decl(T, "e", dq + "[k] + b[0] * dw", true));
  w_.line("    " + dq + "[k] = e;\n  }");
}

// A blend on a copy of the corners `from`: reference.hpp's weight_sum, axis by axis, lerped, or
// differenced along the axis `d` of the derivative (inline: a function that takes the corners
// costs llvmpipe many times the time).
void shader_emitter::emit_noise_blend(const std::string& from, const std::string& d) {
  w_.line("    " + w_.loop_over("c0", corners_, "0", "b[c0] = " + from + ";"));
  w_.line("    m = " + corners_ + ";");
  w_.line("    " + w_.loop("a", Ls_) + "\n      m >>= " + w_.shift("1") + ";");
  w_.line("      " + w_.loop("j", "m"));
  w_.line("        " + w_.decl(T_, "e", "b[2 * j + 1] - b[2 * j]", true));
  w_.line("        b[j] = " +
          w_.choose("a == " + d, "e", "perlin_lerp(u[a], b[2 * j], b[2 * j + 1])") + ";");
  w_.line("      }\n    }");
}

// The value: reference.hpp's reduce, axis by axis.
void shader_emitter::emit_noise_value(bool deriv) {
  w_.line("  " + (deriv ? "m = " + corners_ + ";" : w_.decl(I_, "m", corners_)));
  w_.line("  " + w_.loop("k", Ls_) + "\n    m >>= " + w_.shift("1") + ";");
  w_.line("    " +
          w_.loop_over("j", "m", "0", "c[j] = perlin_lerp(u[k], c[2 * j], c[2 * j + 1]);") +
          "\n  }");
  w_.line("  return c[0];\n}");
}

// ---- Simplex noise: detail/simplex.hpp's cell and corners, step for step

// Skew, cell, unskew and the first offset d0; the ranks of the offsets (3-D: ties to the earlier
// axis, as the Java code's >= chain; 2-D and 4-D: to the later, its > comparisons); then each
// of the L + 1 corners (emit_simplex_corner), summed from the first, times the output scale.
void shader_emitter::emit_simplex(form fm, const std::string& pre) {
  const std::string &T = T_, &I = I_, &Ls = Ls_;
  const bool deriv = fm == form::deriv;
  const double F[] = {0, 0, k_simplex_f2, k_simplex_f3, k_simplex_f4};
  const double G[] = {0, 0, k_simplex_g2, k_simplex_g3, k_simplex_g4};
  if (deriv) {
    w_.line(w_.function(T, pre + "noise_deriv", {{T, "q", 4}, {I, "o"}, {T, "dq", 4, true}}));
  } else {
    w_.line(w_.function(T, pre + "noise", {{T, "q", 4}, {I, "o"}}));
  }
  w_.line("  // Gustavson's simplex noise (SimplexNoise.java, 2012-03-09), " + Ls + "-D.");
  w_.line("  " + w_.decl(T, "s", "q[0]", true));
  w_.line("  " + w_.loop_over("k", Ls, "1", "s = s + q[k];"));
  w_.line("  s = s * " + w_.lit(F[L_]) + ";");
  w_.line("  " + w_.arrays(I, {"cell", "rank", "off"}, 4) + "\n  " + w_.arrays(T, {"d0", "d"}, 4));
  w_.line("  " + w_.decl(I, "sum", "0"));
  w_.line("  " + w_.loop("k", Ls));
  w_.line("    " + w_.decl(T, "v", "q[k] + s", true));
  w_.line("    cell[k] = " + w_.to_int("floor(v)") +
          ";\n    sum = sum + cell[k];\n    rank[k] = 0;");
  w_.line("  }");
  w_.line("  " + w_.decl(T, "t0", w_.to_real("sum") + " * " + w_.lit(G[L_]), true));
  w_.line("  " + w_.loop("k", Ls));
  w_.line("    " + w_.decl(T, "e", "q[k] - (" + w_.to_real("cell[k]") + " - t0)", true));
  w_.line("    d0[k] = e;\n  }");
  const std::string cmp = L_ == 3 ? " >= " : " > ";
  w_.line("  " + w_.loop("a", Ls) + "\n    " + w_.loop("b", Ls, "a + 1"));
  w_.line("      if (d0[a]" + cmp + "d0[b]) {\n        rank[a] = rank[a] + 1;\n      } else {");
  w_.line("        rank[b] = rank[b] + 1;\n      }\n    }\n  }");
  w_.line("  " + w_.decl(T, "total", w_.lit(0), true));
  if (deriv) {
    w_.line("  " + w_.loop_over("k", "4", "0", w_.deref("dq") + "[k] = " + w_.lit(0) + ";"));
  }
  w_.line("  " + w_.loop("c", std::to_string(L_ + 1)));
  // The corner's step along each axis, its offset d (d0 - step + c G, c G one rounding as the
  // Java code's c * G) and its hash perm[i + o_0 + perm[j + o_1 + ...]] from the last axis.
  std::string cg = w_.lit(static_cast<double>(L_) * G[L_]);
  for (std::size_t c = L_; c-- > 1;) {
    cg = w_.choose("c == " + std::to_string(c), w_.lit(static_cast<double>(c) * G[L_]), cg);
  }
  w_.line("    " + w_.decl(T, "cg", cg, true));
  w_.line("    " + w_.decl(I, "hash", "0"));
  w_.line("    " + w_.loop("j", Ls));
  w_.line("      " + w_.decl(I, "k", Ls + " - 1 - j"));
  w_.line("      off[k] = " + w_.choose("rank[k] >= " + Ls + " - c", "1", "0") + ";");
  w_.line("      " + w_.decl(T, "e", "(d0[k] - " + w_.to_real("off[k]") + ") + cg", true));
  w_.line("      d[k] = " + w_.choose("c == 0", "d0[k]", "e") + ";");
  w_.line("      hash = " + pre + "p[(cell[k] & 255) + off[k] + hash];\n    }");
  w_.line("    " + w_.decl(I, "g",
                           "(hash % " + std::string(L_ == 4 ? "32" : "12") + ") * " +
                               std::string(L_ == 4 ? "4" : "3")));
  emit_simplex_corner(deriv);
  w_.line("  }");
  w_.line("  " + w_.decl(T, "r", w_.lit(simplex_scale()) + " * total", true));
  w_.line("  return r;\n}");
}

// One corner: t = r^2 - |d|^2 (left to right), its contribution (t^2)^2 (g . d) where t >= 0,
// the total's first term or added to it; with `deriv`, scale (t^4 g - 8 t^3 (g . d) d) added to
// dq (the dot product from 0), as simplex.cpp's derivatives do.
void shader_emitter::emit_simplex_corner(bool deriv) {
  const std::string &T = T_, &Ls = Ls_;
  const auto grad = [&](const std::string& a) { return w_.to_real("perlin_grad[g + " + a + "]"); };
  w_.line("    " + w_.decl(T, "t", w_.lit(L_ == 2 ? 0.5 : 0.6), true));
  w_.line("    " + w_.loop_over("k", Ls, "0", "t = t - d[k] * d[k];"));
  w_.line("    " + w_.decl(T, "dot", grad("0") + " * d[0]", true));
  w_.line("    " + w_.loop_over("k", Ls, "1", "dot = dot + " + grad("k") + " * d[k];"));
  w_.line("    " + w_.decl(T, "tt", "t * t", true));
  w_.line("    " + w_.decl(T, "n", "tt * tt * dot", true));
  w_.line("    " + w_.decl(T, "nc", w_.choose("t < " + w_.lit(0), w_.lit(0), "n"), true));
  w_.line("    " + w_.decl(T, "e", w_.choose("c == 0", "nc", "total + nc"), true));
  w_.line("    total = e;");
  if (!deriv) return;
  const std::string dq = w_.deref("dq");
  w_.line("    " + w_.decl(T, "dd", w_.lit(0), true));
  w_.line("    " + w_.loop_over("k", Ls, "0", "dd = dd + " + grad("k") + " * d[k];"));
  w_.line("    " + w_.decl(T, "t3", "tt * t", true) + "\n    " + w_.decl(T, "t4", "tt * tt", true));
  w_.line("    " + w_.loop("k", Ls));
  w_.line("      " +
          w_.decl(T, "pk", "t4 * " + grad("k") + " - " + w_.lit(8) + " * t3 * d[k] * dd", true));
  w_.line("      " + w_.decl(T, "sk", dq + "[k] + " + w_.lit(simplex_scale()) + " * pk", true));
  w_.line("      " + dq + "[k] = " + w_.choose("t < " + w_.lit(0), dq + "[k]", "sk") + ";\n    }");
}

// ---- The domain warp

// emit_noise's value form written out for JavaScript: emit_noise_cells, emit_noise_hashes,
// emit_noise_corners and emit_noise_value step for step, axis k's f[k], u[k], i0[k], i1[k] the
// locals fk, uk, i0k, i1k, the hashes and corners locals too (the same values: the hashes are
// integers, and each real is computed by the same operations from the same operands).
void shader_emitter::emit_noise_flat(const std::string& pre) {
  const std::string &T = T_, &I = I_, perm = pre + "p";
  const std::size_t L = L_;
  w_.line(w_.function(T, pre + "noise", {{T, "q", 4}, {I, "o"}}));
  for (std::size_t k = 0; k < L; ++k) {
    const std::string K = std::to_string(k), fk = "f" + K, at = "o * " + Ls_ + " + " + K;
    std::string weight = weight_;
    for (std::size_t at_f = weight.find("f[k]"); at_f != std::string::npos;
         at_f = weight.find("f[k]"))
      weight.replace(at_f, 4, fk);
    w_.line("  " + w_.decl(T, "fl" + K, "floor(q[" + K + "])", true));
    w_.line("  " + w_.decl(T, fk, "q[" + K + "] - fl" + K, true) + " " +
            w_.decl(T, "u" + K, weight, true));
    w_.line("  " + w_.decl(I, "i0" + K, "") + " " + w_.decl(I, "i1" + K, "") + " " +
            w_.decl(I, "m" + K, pre + "mask[" + at + "]"));
    w_.line("  if (m" + K + " >= 0) {\n    " + w_.decl(I, "i", w_.to_int("fl" + K)));
    w_.line("    i0" + K + " = i & m" + K + ";\n    i1" + K + " = (i + 1) & m" + K +
            ";\n  } else {");
    w_.line("    " + w_.decl(I, "P", pre + "period[" + at + "]"));
    w_.line("    " + w_.decl(I, "r", w_.floor_mod(mod_p("i"), "fl" + K, "P")));
    w_.line("    i0" + K + " = r & 255;\n    i1" + K + " = (" +
            w_.choose("r + 1 == P", "0", "r + 1") + ") & 255;\n  }");
  }
  // The hashes: h[j + n] from h[j] and i1 before h[j] from i0, axis by axis, then (below 4-D)
  // one more pass through the table.
  std::vector<std::string> h{"h_0", "h_1"};
  w_.line("  " + w_.decl(I, "h_0", perm + "[i00]") + " " + w_.decl(I, "h_1", perm + "[i10]"));
  const std::size_t depth = L <= 3 ? 3 : 4;
  for (std::size_t k = 1; k < depth; ++k) {
    const std::string K = std::to_string(k);
    const std::size_t n = h.size();
    std::string s = " ";
    std::vector<std::string> next(k < L ? 2 * n : n);
    for (std::size_t j = 0; j < n; ++j) {
      next[j] = "h" + K + "_" + std::to_string(j);
      if (k < L) {
        next[j + n] = "h" + K + "_" + std::to_string(j + n);
        s += " " + w_.decl(I, next[j + n], perm + "[" + h[j] + " + i1" + K + "]");
        s += " " + w_.decl(I, next[j], perm + "[" + h[j] + " + i0" + K + "]");
      } else {
        s += " " + w_.decl(I, next[j], perm + "[" + h[j] + "]");
      }
    }
    w_.line(s);
    h = next;
  }
  // The corners.
  const std::size_t corners = std::size_t{1} << L;
  std::vector<std::string> c(corners);
  const std::string hmask = L == 4 ? "31" : "15", C = L == 4 ? "4" : "3";
  for (std::size_t corner = 0; corner < corners; ++corner) {
    const std::string n = std::to_string(corner);
    c[corner] = "c" + n;
    if (!improved_) {
      w_.line("  " + w_.decl(T, c[corner], "perlin_level[" + h[corner] + "]"));
      continue;
    }
    std::string dot;
    w_.line("  " + w_.decl(I, "g" + n, "(" + h[corner] + " & " + hmask + ") * " + C));
    for (std::size_t k = 0; k < L; ++k) {
      const std::string K = std::to_string(k);
      const std::string term =
          w_.to_real("perlin_grad[g" + n + (k == 0 ? "" : " + " + K) + "]") + " * (" +
          (((corner >> k) & 1) != 0 ? "f" + K + " - " + w_.lit(1) : "f" + K) + ")";
      dot = k == 0 ? term : dot + " + " + term;  // left to right: the loop's running sum
    }
    w_.line("  " + w_.decl(T, c[corner], dot, true));
  }
  // The value: lerps axis by axis.
  for (std::size_t k = 0; k < L; ++k) {
    const std::string K = std::to_string(k);
    std::vector<std::string> next(c.size() / 2);
    std::string s = " ";
    for (std::size_t j = 0; j < next.size(); ++j) {
      next[j] = "l" + K + "_" + std::to_string(j);
      s += " " + w_.decl(T, next[j],
                         "perlin_lerp(u" + K + ", " + c[2 * j] + ", " + c[2 * j + 1] + ")", true);
    }
    w_.line(s);
    c = next;
  }
  w_.line("  return " + c[0] + ";\n}");
}

}  // namespace perlin::detail
