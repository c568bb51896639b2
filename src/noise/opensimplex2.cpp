// KdotJPG's OpenSimplex2 and OpenSimplex2S noise, float-exact (src/detail/opensimplex2.hpp): the
// operations of java/OpenSimplex2.java and java/OpenSimplex2S.java (KdotJPG/OpenSimplex2, commit
// 4cd120d35bfc27096698de90d1bcbf4f9d359a3b, CC0 1.0) in their order and types, with Java's int and
// long semantics. The gradient literals and the 4-D lookup lists below are that code's data.
#include "detail/opensimplex2.hpp"

#include <cstdint>

#include "noise/opensimplex2_kernel.hpp"

namespace perlin::detail {

namespace {

using namespace os2;

// ---- The public functions: each variant's skew or rotation, then the family's base ----------

// The constants of the variants that differ between the files.
struct family {
  bool smooth;
  double rotate_xz_orthogonalizer;  // noise3_ImproveXZ: UNSKEW_2D, or -0.211324865405187 (2S)
  double w_scale;                   // noise4_ImproveXYZ*: 0.2236067977499788, or 1.118033988749894
  double zw_s_xy, zw_s_zw, zw_t_zw, zw_t_xy;  // noise4_ImproveXY_ImproveZW
  float skew_4d, unskew_4d;                   // noise4_Fallback, the 4-D base
};
constexpr family k_fast = {false,
                           k_unskew_2d,
                           0.2236067977499788,
                           -0.178275657951399372,
                           0.215623393288842828,
                           -0.403949762580207112,
                           -0.375199083010075342,
                           k_fast_skew_4d,
                           k_fast_unskew_4d};
constexpr family k_smooth = {true,
                             -0.211324865405187,
                             1.118033988749894,
                             -0.28522513987434876941,
                             0.83897065470611435718,
                             0.21939749883706435719,
                             -0.48214856493302476942,
                             k_smooth_skew_4d,
                             k_smooth_unskew_4d};

// The lattice (skewed or rotated) coordinates the base receives, and the base's linear map from
// them to its kernel offsets: d = q + unskew * (sum of q) (2-D and 4-D), d = q (3-D).
struct lattice_point {
  int n;
  double q[4];
  double jacobian[4][4];  // d q[i] / d p[j], the exact (double) derivative of the variant's map
};

lattice_point to_lattice2([[maybe_unused]] const family& f, os2_variant v,
                          const double* p) noexcept {
  lattice_point l{};
  switch (v) {
    case os2_variant::noise2: {
      const double x = p[0], y = p[1];
      const double s = k_skew_2d * (x + y);
      l = {2, {x + s, y + s}, {{1 + k_skew_2d, k_skew_2d}, {k_skew_2d, 1 + k_skew_2d}}};
      return l;
    }
    case os2_variant::noise2_improve_x: {
      const double x = p[0], y = p[1];
      const double xx = x * k_root2over2;
      const double yy = y * (k_root2over2 * (1 + 2 * k_skew_2d));
      const double c = k_root2over2 * (1 + 2 * k_skew_2d);
      l = {2, {yy + xx, yy - xx}, {{k_root2over2, c}, {-k_root2over2, c}}};
      return l;
    }
    default:
      break;
  }
  return l;
}

lattice_point to_lattice3(const family& f, os2_variant v, const double* p) noexcept {
  lattice_point l{};
  auto& j = l.jacobian;
  switch (v) {
    case os2_variant::noise3_improve_xy: {
      const double x = p[0], y = p[1], z = p[2];
      const double o = k_unskew_2d;
      const double xy = x + y;
      const double s2 = xy * o;
      const double zz = z * k_root3over3;
      l.n = 3;
      l.q[0] = x + s2 + zz;
      l.q[1] = y + s2 + zz;
      l.q[2] = xy * -k_root3over3 + zz;
      j[0][0] = 1 + o, j[0][1] = o, j[0][2] = k_root3over3;
      j[1][0] = o, j[1][1] = 1 + o, j[1][2] = k_root3over3;
      j[2][0] = -k_root3over3, j[2][1] = -k_root3over3, j[2][2] = k_root3over3;
      return l;
    }
    case os2_variant::noise3_improve_xz: {
      const double x = p[0], y = p[1], z = p[2];
      const double o = f.rotate_xz_orthogonalizer;
      const double xz = x + z;
      const double s2 = xz * o;
      const double yy = y * k_root3over3;
      l.n = 3;
      l.q[0] = x + s2 + yy;
      l.q[2] = z + s2 + yy;
      l.q[1] = xz * -k_root3over3 + yy;
      j[0][0] = 1 + o, j[0][1] = k_root3over3, j[0][2] = o;
      j[1][0] = -k_root3over3, j[1][1] = k_root3over3, j[1][2] = -k_root3over3;
      j[2][0] = o, j[2][1] = k_root3over3, j[2][2] = 1 + o;
      return l;
    }
    case os2_variant::noise3_fallback: {
      const double x = p[0], y = p[1], z = p[2];
      const double r = k_fallback_rotate_3d * (x + y + z);
      l.n = 3;
      l.q[0] = r - x, l.q[1] = r - y, l.q[2] = r - z;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) j[a][b] = k_fallback_rotate_3d - (a == b ? 1.0 : 0.0);
      return l;
    }
    default:
      break;
  }
  return l;
}

lattice_point to_lattice4(const family& f, os2_variant v, const double* p) noexcept {
  lattice_point l{};
  auto& j = l.jacobian;
  switch (v) {
    case os2_variant::noise4_improve_xyz_improve_xy: {
      const double x = p[0], y = p[1], z = p[2], w = p[3];
      const double xy = x + y;
      const double s2 = xy * -0.21132486540518699998;
      const double zz = z * 0.28867513459481294226;
      const double ww = w * f.w_scale;
      l.n = 4;
      l.q[0] = x + (zz + ww + s2), l.q[1] = y + (zz + ww + s2);
      l.q[2] = xy * -0.57735026918962599998 + (zz + ww);
      l.q[3] = z * -0.866025403784439 + ww;
      const double a = -0.21132486540518699998, b = 0.28867513459481294226, c = f.w_scale;
      const double e = -0.57735026918962599998, g = -0.866025403784439;
      const double rows[4][4] = {{1 + a, a, b, c}, {a, 1 + a, b, c}, {e, e, b, c}, {0, 0, g, c}};
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) j[r][k] = rows[r][k];
      return l;
    }
    case os2_variant::noise4_improve_xyz_improve_xz: {
      const double x = p[0], y = p[1], z = p[2], w = p[3];
      const double xz = x + z;
      const double s2 = xz * -0.21132486540518699998;
      const double yy = y * 0.28867513459481294226;
      const double ww = w * f.w_scale;
      l.n = 4;
      l.q[0] = x + (yy + ww + s2), l.q[2] = z + (yy + ww + s2);
      l.q[1] = xz * -0.57735026918962599998 + (yy + ww);
      l.q[3] = y * -0.866025403784439 + ww;
      const double a = -0.21132486540518699998, b = 0.28867513459481294226, c = f.w_scale;
      const double e = -0.57735026918962599998, g = -0.866025403784439;
      const double rows[4][4] = {{1 + a, b, a, c}, {e, b, e, c}, {a, b, 1 + a, c}, {0, g, 0, c}};
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) j[r][k] = rows[r][k];
      return l;
    }
    case os2_variant::noise4_improve_xyz: {
      const double x = p[0], y = p[1], z = p[2], w = p[3];
      const double xyz = x + y + z;
      const double ww = w * f.w_scale;
      const double s2 = xyz * -0.16666666666666666 + ww;
      l.n = 4;
      l.q[0] = x + s2, l.q[1] = y + s2, l.q[2] = z + s2, l.q[3] = -0.5 * xyz + ww;
      const double a = -0.16666666666666666, c = f.w_scale;
      const double rows[4][4] = {
          {1 + a, a, a, c}, {a, 1 + a, a, c}, {a, a, 1 + a, c}, {-0.5, -0.5, -0.5, c}};
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) j[r][k] = rows[r][k];
      return l;
    }
    case os2_variant::noise4_improve_xy_improve_zw: {
      const double x = p[0], y = p[1], z = p[2], w = p[3];
      const double s2 = (x + y) * f.zw_s_xy + (z + w) * f.zw_s_zw;
      const double t2 = (z + w) * f.zw_t_zw + (x + y) * f.zw_t_xy;
      l.n = 4;
      l.q[0] = x + s2, l.q[1] = y + s2, l.q[2] = z + t2, l.q[3] = w + t2;
      const double a = f.zw_s_xy, b = f.zw_s_zw, c = f.zw_t_zw, e = f.zw_t_xy;
      const double rows[4][4] = {
          {1 + a, a, b, b}, {a, 1 + a, b, b}, {e, e, 1 + c, c}, {e, e, c, 1 + c}};
      for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) j[r][k] = rows[r][k];
      return l;
    }
    case os2_variant::noise4_fallback:
    default: {
      const double x = p[0], y = p[1], z = p[2], w = p[3];
      const double s = f.skew_4d * (x + y + z + w);
      l.n = 4;
      l.q[0] = x + s, l.q[1] = y + s, l.q[2] = z + s, l.q[3] = w + s;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) j[a][b] = static_cast<double>(f.skew_4d) + (a == b ? 1.0 : 0.0);
      return l;
    }
  }
  return l;
}

lattice_point to_lattice(const family& f, os2_variant v, const double* p) noexcept {
  switch (os2_dims(v)) {
    case 2:
      return to_lattice2(f, v, p);
    case 3:
      return to_lattice3(f, v, p);
    default:
      return to_lattice4(f, v, p);
  }
}

float evaluate(const family& f, os2_variant v, std::int64_t seed_in, const double* p,
               double* grad) noexcept {
  const lattice_point l = to_lattice(f, v, p);
  const ulong seed = static_cast<ulong>(seed_in);
  const double* q = l.q;
  double dq[4] = {};  // d value / d q
  float value = 0;
  if (l.n == 2) {
    deriv2 d;
    deriv2* dv = grad != nullptr ? &d : nullptr;
    value = f.smooth ? smooth_base2(seed, q[0], q[1], dv) : fast_base2(seed, q[0], q[1], dv);
    // d = q + unskew_2d * (q0 + q1): d value / d q = dd + unskew_2d * (sum of dd).
    const double s = d.sum[0] + d.sum[1];
    for (int k = 0; k < 2; ++k) dq[k] = d.sum[k] + k_unskew_2d * s;
  } else if (l.n == 3) {
    deriv3 d;
    deriv3* dv = grad != nullptr ? &d : nullptr;
    value = f.smooth ? smooth_base3(seed, q[0], q[1], q[2], dv)
                     : fast_base3(seed, q[0], q[1], q[2], dv);
    for (int k = 0; k < 3; ++k) dq[k] = d.sum[k];
  } else {
    deriv4 d;
    deriv4* dv = grad != nullptr ? &d : nullptr;
    value = f.smooth ? smooth_base4(seed, q[0], q[1], q[2], q[3], dv)
                     : fast_base4(seed, q[0], q[1], q[2], q[3], dv);
    const double s = d.sum[0] + d.sum[1] + d.sum[2] + d.sum[3];
    for (int k = 0; k < 4; ++k) dq[k] = d.sum[k] + static_cast<double>(f.unskew_4d) * s;
  }
  if (grad != nullptr) {
    for (int k = 0; k < l.n; ++k) {
      double g = 0;
      for (int r = 0; r < l.n; ++r) g += l.jacobian[r][k] * dq[r];
      grad[k] = g;
    }
  }
  return value;
}

}  // namespace

int os2_dims(os2_variant v) noexcept {
  switch (v) {
    case os2_variant::noise2:
    case os2_variant::noise2_improve_x:
      return 2;
    case os2_variant::noise3_improve_xy:
    case os2_variant::noise3_improve_xz:
    case os2_variant::noise3_fallback:
      return 3;
    default:
      return 4;
  }
}

const char* os2_java_name(os2_variant v) noexcept {
  switch (v) {
    case os2_variant::noise2:
      return "noise2";
    case os2_variant::noise2_improve_x:
      return "noise2_ImproveX";
    case os2_variant::noise3_improve_xy:
      return "noise3_ImproveXY";
    case os2_variant::noise3_improve_xz:
      return "noise3_ImproveXZ";
    case os2_variant::noise3_fallback:
      return "noise3_Fallback";
    case os2_variant::noise4_improve_xyz_improve_xy:
      return "noise4_ImproveXYZ_ImproveXY";
    case os2_variant::noise4_improve_xyz_improve_xz:
      return "noise4_ImproveXYZ_ImproveXZ";
    case os2_variant::noise4_improve_xyz:
      return "noise4_ImproveXYZ";
    case os2_variant::noise4_improve_xy_improve_zw:
      return "noise4_ImproveXY_ImproveZW";
    case os2_variant::noise4_fallback:
      return "noise4_Fallback";
  }
  return "";
}

float opensimplex2(os2_variant v, std::int64_t seed, const double* p) noexcept {
  return evaluate(k_fast, v, seed, p, nullptr);
}
float opensimplex2s(os2_variant v, std::int64_t seed, const double* p) noexcept {
  return evaluate(k_smooth, v, seed, p, nullptr);
}
float opensimplex2_gradient(os2_variant v, std::int64_t seed, const double* p,
                            double* grad) noexcept {
  return evaluate(k_fast, v, seed, p, grad);
}
float opensimplex2s_gradient(os2_variant v, std::int64_t seed, const double* p,
                             double* grad) noexcept {
  return evaluate(k_smooth, v, seed, p, grad);
}

}  // namespace perlin::detail
