// OpenSimplex2 (fast): the bases of java/OpenSimplex2.java (KdotJPG/OpenSimplex2, commit
// 4cd120d35bfc27096698de90d1bcbf4f9d359a3b, CC0 1.0) in their operations' order and types.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "noise/opensimplex2_kernel.hpp"

namespace perlin::detail::os2 {

// ---- OpenSimplex2 (fast) -------------------------------------------------------------------

constexpr float k_fast_rsquared_2d = 0.5f;
constexpr float k_fast_rsquared_3d = 0.6f;
constexpr float k_fast_rsquared_4d = 0.6f;
constexpr float k_fast_lattice_step_4d = 0.2f;

// noise2_UnskewedBase of OpenSimplex2.java.
float fast_base2(ulong seed, double xs, double ys, deriv2* dv) noexcept {
  const gradient_tables& t = k_fast_tables;
  const jint xsb = fast_floor(xs), ysb = fast_floor(ys);
  const float xi = java_float(xs - xsb), yi = java_float(ys - ysb);
  const ulong xsbp = jlong(xsb) * k_prime_x, ysbp = jlong(ysb) * k_prime_y;

  const float tt = (xi + yi) * static_cast<float>(k_unskew_2d);
  const float dx0 = xi + tt, dy0 = yi + tt;

  float value = 0;
  const float a0 = k_fast_rsquared_2d - dx0 * dx0 - dy0 * dy0;
  if (a0 > 0) value = term2(t, a0, seed, xsbp, ysbp, dx0, dy0, dv);

  constexpr float c1 = static_cast<float>(2 * (1 + 2 * k_unskew_2d) * (1 / k_unskew_2d + 2));
  constexpr float c2 = static_cast<float>(-2 * (1 + 2 * k_unskew_2d) * (1 + 2 * k_unskew_2d));
  const float a1 = c1 * tt + (c2 + a0);
  if (a1 > 0) {
    const float dx1 = dx0 - static_cast<float>(1 + 2 * k_unskew_2d);
    const float dy1 = dy0 - static_cast<float>(1 + 2 * k_unskew_2d);
    value += term2(t, a1, seed, xsbp + k_prime_x, ysbp + k_prime_y, dx1, dy1, dv);
  }

  if (dy0 > dx0) {
    const float dx2 = dx0 - static_cast<float>(k_unskew_2d);
    const float dy2 = dy0 - static_cast<float>(k_unskew_2d + 1);
    const float a2 = k_fast_rsquared_2d - dx2 * dx2 - dy2 * dy2;
    if (a2 > 0) value += term2(t, a2, seed, xsbp, ysbp + k_prime_y, dx2, dy2, dv);
  } else {
    const float dx2 = dx0 - static_cast<float>(k_unskew_2d + 1);
    const float dy2 = dy0 - static_cast<float>(k_unskew_2d);
    const float a2 = k_fast_rsquared_2d - dx2 * dx2 - dy2 * dy2;
    if (a2 > 0) value += term2(t, a2, seed, xsbp + k_prime_x, ysbp, dx2, dy2, dv);
  }
  return value;
}

// noise3_UnrotatedBase of OpenSimplex2.java: two lattice copies, on each the closest point and
// the second-closest along the largest offset.
float fast_base3(ulong seed, double xr, double yr, double zr, deriv3* dv) noexcept {
  const gradient_tables& t = k_fast_tables;
  const jint xrb = fast_round(xr), yrb = fast_round(yr), zrb = fast_round(zr);
  float xri = java_float(xr - xrb), yri = java_float(yr - yrb), zri = java_float(zr - zrb);

  // -1 if positive, 1 if negative.
  jint x_nsign = java_int(-1.0f - xri) | 1, y_nsign = java_int(-1.0f - yri) | 1,
       z_nsign = java_int(-1.0f - zri) | 1;
  float ax0 = static_cast<float>(x_nsign) * -xri, ay0 = static_cast<float>(y_nsign) * -yri,
        az0 = static_cast<float>(z_nsign) * -zri;

  ulong xrbp = jlong(xrb) * k_prime_x, yrbp = jlong(yrb) * k_prime_y, zrbp = jlong(zrb) * k_prime_z;

  float value = 0;
  float a = (k_fast_rsquared_3d - xri * xri) - (yri * yri + zri * zri);
  for (int l = 0;; l++) {
    if (a > 0) value += term3(t, a, seed, xrbp, yrbp, zrbp, xri, yri, zri, dv);

    if (ax0 >= ay0 && ax0 >= az0) {
      float b = a + ax0 + ax0;
      if (b > 1) {
        b -= 1;
        value += term3(t, b, seed, xrbp - jlong(x_nsign) * k_prime_x, yrbp, zrbp,
                       xri + static_cast<float>(x_nsign), yri, zri, dv);
      }
    } else if (ay0 > ax0 && ay0 >= az0) {
      float b = a + ay0 + ay0;
      if (b > 1) {
        b -= 1;
        value += term3(t, b, seed, xrbp, yrbp - jlong(y_nsign) * k_prime_y, zrbp, xri,
                       yri + static_cast<float>(y_nsign), zri, dv);
      }
    } else {
      float b = a + az0 + az0;
      if (b > 1) {
        b -= 1;
        value += term3(t, b, seed, xrbp, yrbp, zrbp - jlong(z_nsign) * k_prime_z, xri, yri,
                       zri + static_cast<float>(z_nsign), dv);
      }
    }

    if (l == 1) break;

    ax0 = 0.5f - ax0;
    ay0 = 0.5f - ay0;
    az0 = 0.5f - az0;

    xri = static_cast<float>(x_nsign) * ax0;
    yri = static_cast<float>(y_nsign) * ay0;
    zri = static_cast<float>(z_nsign) * az0;

    a += (0.75f - ax0) - (ay0 + az0);

    xrbp += jlong(x_nsign >> 1) & k_prime_x;
    yrbp += jlong(y_nsign >> 1) & k_prime_y;
    zrbp += jlong(z_nsign >> 1) & k_prime_z;

    x_nsign = jsub(0, x_nsign);
    y_nsign = jsub(0, y_nsign);
    z_nsign = jsub(0, z_nsign);

    seed ^= k_seed_flip_3d;
  }
  return value;
}

// noise4_UnskewedBase of OpenSimplex2.java: one point on each of five copies of the A4 lattice.
float fast_base4(ulong seed, double xs, double ys, double zs, double ws, deriv4* dv) noexcept {
  const gradient_tables& t = k_fast_tables;
  const jint xsb = fast_floor(xs), ysb = fast_floor(ys), zsb = fast_floor(zs), wsb = fast_floor(ws);
  float xsi = java_float(xs - xsb), ysi = java_float(ys - ysb), zsi = java_float(zs - zsb),
        wsi = java_float(ws - wsb);

  const float si_sum = (xsi + ysi) + (zsi + wsi);
  const jint starting_lattice = java_int(si_sum * 1.25);

  seed += jlong(starting_lattice) * k_seed_offset_4d;

  const float starting_lattice_offset =
      static_cast<float>(starting_lattice) * -k_fast_lattice_step_4d;
  xsi += starting_lattice_offset;
  ysi += starting_lattice_offset;
  zsi += starting_lattice_offset;
  wsi += starting_lattice_offset;

  float ssi = (si_sum + starting_lattice_offset * 4) * k_fast_unskew_4d;

  ulong xsvp = jlong(xsb) * k_prime_x, ysvp = jlong(ysb) * k_prime_y, zsvp = jlong(zsb) * k_prime_z,
        wsvp = jlong(wsb) * k_prime_w;

  constexpr double score_factor = -1.0 / static_cast<double>(k_fast_unskew_4d);
  constexpr float ssi_step = k_fast_lattice_step_4d * 4 * k_fast_unskew_4d;
  float value = 0;
  for (int i = 0;; i++) {
    const double score0 = 1.0 + static_cast<double>(ssi) * score_factor;
    if (xsi >= ysi && xsi >= zsi && xsi >= wsi && xsi >= score0) {
      xsvp += k_prime_x;
      xsi -= 1;
      ssi -= k_fast_unskew_4d;
    } else if (ysi > xsi && ysi >= zsi && ysi >= wsi && ysi >= score0) {
      ysvp += k_prime_y;
      ysi -= 1;
      ssi -= k_fast_unskew_4d;
    } else if (zsi > xsi && zsi > ysi && zsi >= wsi && zsi >= score0) {
      zsvp += k_prime_z;
      zsi -= 1;
      ssi -= k_fast_unskew_4d;
    } else if (wsi > xsi && wsi > ysi && wsi > zsi && wsi >= score0) {
      wsvp += k_prime_w;
      wsi -= 1;
      ssi -= k_fast_unskew_4d;
    }

    const float dx = xsi + ssi, dy = ysi + ssi, dz = zsi + ssi, dw = wsi + ssi;
    const float a = (dx * dx + dy * dy) + (dz * dz + dw * dw);
    if (a < k_fast_rsquared_4d) {
      value += term4(t, a - k_fast_rsquared_4d, seed, xsvp, ysvp, zsvp, wsvp, dx, dy, dz, dw, dv);
    }

    if (i == 4) break;

    xsi += k_fast_lattice_step_4d;
    ysi += k_fast_lattice_step_4d;
    zsi += k_fast_lattice_step_4d;
    wsi += k_fast_lattice_step_4d;
    ssi += ssi_step;
    seed -= k_seed_offset_4d;

    // The copy the loop started on wraps around: its base point is one lower.
    if (i == starting_lattice) {
      xsvp -= k_prime_x;
      ysvp -= k_prime_y;
      zsvp -= k_prime_z;
      wsvp -= k_prime_w;
      seed += k_seed_offset_4d * 5;
    }
  }
  return value;
}

}  // namespace perlin::detail::os2
