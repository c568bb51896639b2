// The constants of a field's shader as rows of data (shader/tables.hpp): each computed here, in
// C++, so that a GPU's own arithmetic (its division, its cos) never enters them.
#include "shader/tables.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "detail/error.hpp"
#include "detail/octaves.hpp"
#include "detail/primitives.hpp"
#include "detail/simplex.hpp"
#include "detail/wrap.hpp"
#include "field/warp_displacement.hpp"

namespace perlin::detail {

namespace {

/// The largest period a shader's int arithmetic reduces by (modulo periods only).
constexpr std::uint64_t k_max_shader_period = 2147483647;

shader_table ints(std::string name, std::vector<int> v, bool own_line = false) {
  return {std::move(name), true, std::move(v), {}, own_line};
}

shader_table reals(std::string name, std::vector<double> v, bool own_line = false) {
  return {std::move(name), false, {}, std::move(v), own_line};
}

/// The wrap of an axis as the shader reads it: a mask (period 0), or mask -1 and a period.
void push_wrap(const axis_wrap& a, const std::string& octave, std::vector<int>& mask,
               std::vector<int>& period) {
  if (!a.modulo) {
    mask.push_back(static_cast<int>(a.mask));
    period.push_back(0);
    return;
  }
  if (a.period > k_max_shader_period) {
    throw_invalid("shader", octave + " tiles with period " + std::to_string(a.period) +
                                ", beyond what shader code reduces by (2^31 - 1)");
  }
  mask.push_back(-1);
  period.push_back(static_cast<int>(a.period));
}

/// The field's lattice: its permutation, and the gradients (improved noise; 4-D or 3-D) or value
/// noise's corner levels h / 127.5 - 1 (a GPU's division need not be correctly rounded, a
/// table's entries are exact).
void lattice_tables(const field& f, std::size_t L, std::vector<shader_table>& rows) {
  const auto& perm = f.lattice().perm();
  std::vector<int> p(512);
  for (std::size_t i = 0; i < 512; ++i) p[i] = perm[i];
  rows.push_back(ints("perlin_p", std::move(p), true));
  if (f.kind() == noise_kind::simplex) {
    // Gustavson's gradients: the 12 cube edges (2-D reads x and y) or the 32 of 4-D.
    std::vector<int> grad;
    if (L == 4) {
      for (const auto& g : k_simplex_grad4)
        for (const double c : g) grad.push_back(static_cast<int>(c));
    } else {
      for (std::size_t h = 0; h < 12; ++h)
        for (const auto c : k_grad3[h]) grad.push_back(c);
    }
    rows.push_back(ints("perlin_grad", std::move(grad), true));
  } else if (f.kind() == noise_kind::improved) {
    std::vector<int> grad;
    if (L == 4) {
      for (const auto& g : k_grad4)
        for (const auto c : g) grad.push_back(c);
    } else {
      for (const auto& g : k_grad3)
        for (const auto c : g) grad.push_back(c);
    }
    rows.push_back(ints("perlin_grad", std::move(grad), true));
  } else {
    std::vector<double> level(256);
    for (std::size_t h = 0; h < 256; ++h) level[h] = static_cast<double>(h) / 127.5 - 1.0;
    rows.push_back(reals("perlin_level", std::move(level), true));
  }
}

/// Per octave: frequency, amplitude, offsets, and the wrap of each axis (mask, or a period).
struct octave_columns {
  std::vector<double> freq, amp, off;
  std::vector<int> mask, period;
};

octave_columns octave_tables(const field& f, std::size_t L, int octaves) {
  octave_columns c;
  for (octave_walk walk(f.fractal(), f.lattice()); walk.index < octaves; walk.next()) {
    c.freq.push_back(walk.freq);
    c.amp.push_back(walk.amp);
    for (std::size_t k = 0; k < L; ++k) {
      c.off.push_back(walk.offset(k));
      push_wrap(walk.wraps[k], "octave " + std::to_string(walk.index), c.mask, c.period);
    }
  }
  return c;
}

/// The domain warp (warp.cpp's displace on the L lattice coordinates): per warp octave i its
/// frequency u_i, displacement scale (A / f) a_i and their product, the offsets o_ik along
/// each axis, and the warp lattice's wraps (its periods double per octave).
void warp_tables(const field& f, std::size_t L, int warp_octaves, std::vector<shader_table>& rows) {
  const warp& wp = f.warp();
  const fractal& fr = f.fractal();
  std::vector<double> warp_freq, warp_scale, warp_su, warp_off;
  std::vector<int> warp_mask, warp_period, warp_p;
  const lattice wl = warp_lattice(wp, f.lattice());
  auto wraps = wraps_of(wl);
  double u = fr.frequency() * wp.frequency(), scale = wp.amplitude() / fr.frequency();
  for (int i = 0; i < warp_octaves; ++i) {
    warp_freq.push_back(u);
    warp_scale.push_back(scale);
    warp_su.push_back(scale * u);
    for (std::size_t k = 0; k < L; ++k) {
      for (std::size_t c = 0; c < L; ++c) warp_off.push_back(warp_offset(i, k, c));
      push_wrap(wraps[k], "warp octave " + std::to_string(i), warp_mask, warp_period);
    }
    u *= 2;
    scale *= 0.5;
    scale_periods(wraps, 2);
  }
  for (std::size_t i = 0; i < 512; ++i) warp_p.push_back(wl.perm()[i]);
  rows.push_back(ints("perlin_warp_p", std::move(warp_p), true));
  rows.push_back(reals("perlin_warp_freq", std::move(warp_freq)));
  rows.push_back(reals("perlin_warp_scale", std::move(warp_scale)));
  rows.push_back(reals("perlin_warp_su", std::move(warp_su)));
  rows.push_back(reals("perlin_warp_offset", std::move(warp_off)));
  rows.push_back(ints("perlin_warp_mask", std::move(warp_mask)));
  rows.push_back(ints("perlin_warp_period", std::move(warp_period)));
}

/// Why the split form (perlin_field_split) cannot be written, or empty. It needs every octave
/// frequency a whole number the float type holds exactly, the lattice axes the caller's (no
/// rotation), and modulo periods whose products stay in 32-bit ints.
std::string no_split_reason(const field& f, bool rotated, int warp_octaves,
                            const octave_columns& c) {
  std::string no_split;
  if (f.kind() == noise_kind::simplex)
    no_split = "simplex noise's skewed cells are not split by axis";
  if (rotated) no_split = "the rotated plane mixes the axes";
  if (warp_octaves > 0) no_split = "the domain warp moves the points in float";
  if (f.fractal().kind() == fractal_kind::eroded)
    no_split = "the eroded fractal needs each octave's gradient";
  for (const double v : c.freq) {
    if (v != std::floor(v) || v > 16777216.0)
      no_split = "an octave frequency is not a whole number up to 2^24";
  }
  for (const int P : c.period) {
    if (P > 46340) no_split = "a period above 46340 (its products would pass 2^31)";
  }
  return no_split;
}

/// The split form's tables: octave i's lattice coordinate of cell + frac is the integer
/// cell * F_i + floor(offset) plus the float frac * F_i + fract(offset), exact in the integer
/// part; modulo periods reduce each factor first.
void split_tables(const field& f, std::size_t L, const octave_columns& c,
                  std::vector<shader_table>& rows) {
  std::vector<int> ifreq, ioff, freq_mod, off_mod;
  std::vector<double> foff;
  for (std::size_t i = 0; i < c.freq.size(); ++i) {
    ifreq.push_back(static_cast<int>(c.freq[i]));
    for (std::size_t k = 0; k < L; ++k) {
      const double v = f.fractal().decorrelate() ? c.off[i * L + k] : 0.0;
      const double whole = std::floor(v);
      ioff.push_back(static_cast<int>(whole));
      foff.push_back(v - whole);
      const int P = c.period[i * L + k];
      freq_mod.push_back(P > 0 ? static_cast<int>(static_cast<std::int64_t>(c.freq[i]) % P) : 0);
      off_mod.push_back(P > 0 ? static_cast<int>(static_cast<std::int64_t>(whole) % P) : 0);
    }
  }
  rows.push_back(ints("perlin_ifreq", std::move(ifreq)));
  rows.push_back(ints("perlin_ioffset", std::move(ioff)));
  rows.push_back(reals("perlin_foffset", std::move(foff)));
  rows.push_back(ints("perlin_freq_mod", std::move(freq_mod)));
  rows.push_back(ints("perlin_offset_mod", std::move(off_mod)));
}

}  // namespace

shader_tables make_shader_tables(const field& f, std::size_t dims, bool split) {
  shader_tables t;
  t.rotated = f.plane() == plane::rotated && dims >= 2;
  const std::size_t L = t.rotated && dims < 4 ? 3 : dims;
  t.lattice_dims = L;
  t.octaves = f.fractal().active_octaves();
  t.warp_octaves = f.warped() ? f.warp().active_octaves() : 0;
  octave_columns c = octave_tables(f, L, t.octaves);
  std::vector<shader_table> warp_rows;
  if (t.warp_octaves > 0) warp_tables(f, L, t.warp_octaves, warp_rows);
  t.no_split = no_split_reason(f, t.rotated, t.warp_octaves, c);
  t.split = split && t.no_split.empty();

  lattice_tables(f, L, t.rows);
  std::vector<shader_table> split_rows;
  if (t.split) split_tables(f, L, c, split_rows);
  t.rows.push_back(reals("perlin_freq", std::move(c.freq)));
  t.rows.push_back(reals("perlin_amp", std::move(c.amp)));
  t.rows.push_back(reals("perlin_offset", std::move(c.off)));
  t.rows.push_back(ints("perlin_mask", std::move(c.mask)));
  t.rows.push_back(ints("perlin_period", std::move(c.period)));
  for (auto& row : warp_rows) t.rows.push_back(std::move(row));
  for (auto& row : split_rows) t.rows.push_back(std::move(row));
  return t;
}

}  // namespace perlin::detail
