// KdotJPG's OpenSimplex2 (fast) and OpenSimplex2S (smooth) noise, float-exact (issue 51 item 2).
//
// Reference: java/OpenSimplex2.java and java/OpenSimplex2S.java of github.com/KdotJPG/OpenSimplex2,
// commit 4cd120d35bfc27096698de90d1bcbf4f9d359a3b (CC0 1.0). src/noise/opensimplex2.cpp repeats
// each of their operations in its order and type: float where Java computes in float, double
// where it computes in double (a float operand promoted), no fused multiply-adds (the project
// builds with -ffp-contract=off), Java's long arithmetic (two's complement, wrapping; done in
// std::uint64_t) for the seed and the hash, Java's int arithmetic (wrapping) and its saturating
// (int) casts (NaN gives 0) in fastFloor and fastRound. The gradient tables are the reference's
// literals normalised as its class initialisers do (float(literal / normaliser), then repeated to
// fill 128, 256 and 512 entries); the 4-D smooth lookup table is the reference's vertex lists.
// So every function below returns the reference's float bit for bit, for every input (NaN and
// infinities included); tests/data/opensimplex2{,s}_{2,3,4}d.txt hold its values (2,000 points
// per function over 5 seeds; tests/opensimplex2_test.cpp).
//
// Variants: the reference's public functions, one os2_variant each (names below). 2-D: noise2
// (standard orientation of the triangular lattice) and noise2_ImproveX (Y down the main
// diagonal). 3-D: noise3_ImproveXY, noise3_ImproveXZ and noise3_Fallback (the BCC lattice rotated
// so that Z, Y or the main diagonal is the "different" axis). 4-D: noise4_ImproveXYZ_ImproveXY,
// noise4_ImproveXYZ_ImproveXZ, noise4_ImproveXYZ, noise4_ImproveXY_ImproveZW, noise4_Fallback.
// Both families have all ten. The fast family sums few lattice points (2-D: the triangle's 3;
// 3-D: 2 on each of two cubic lattice copies; 4-D: 1 on each of five A4 lattice copies); the
// smooth one more of them (2-D: 4; 3-D: 2 and up to 9 more candidates; 4-D: 10 to 20 candidates
// from a lookup table) with a larger radius: r^2 = 2/3 instead of 1/2 (2-D), 3/4 instead of 0.6
// (3-D), 4/5 instead of 0.6 (4-D).
//
// Seeding: the seed is Java's long (std::int64_t; any value, e.g. -1 = 2^64-1 as unsigned); it
// enters only the hash of each lattice point: (seed ^ prime-multiplied coordinates) *
// 0x53A3F72DEEC546F5, the top bits picking the gradient. The 3-D functions flip the seed
// (^ -0x52D547B2E96ED629) for the second lattice copy, the fast 4-D one offsets it
// (+ 0xE83DC3E0DA7164D per copy).
//
// Output range: about [-1, 1]; the reference's normalisers scale the largest |value| to about 1.
// The largest |value| found, over all variants of a dimension (2 x 10^7 random points with random
// seeds and coordinates in [-1000, 1000), the best 1,000 each climbed by 6,000 random steps
// shrinking from 0.05 to 1e-7; 10^7 points and 200 climbs gave the same to 2e-5):
//               2-D                  3-D                  4-D
//   fast    1.0000019073486328   1.0000011920928955   0.99917697906494141
//   smooth  1.000001072883606    0.99950593709945679  0.9999890923500061
// (float rounding takes the 2-D and fast 3-D maxima a few ulps past 1). k_opensimplex2_bound and
// k_opensimplex2s_bound hold them; tests/opensimplex2_test.cpp checks 10^5 random points against
// them. Found by search, not proven: treat |value| <= 1 + 1e-5 as the working bound.
//
// Continuity: as in the reference, the fast 3-D and 4-D functions and the smooth 3-D ones are not
// continuous everywhere: they jump a little (4e-5 to 3e-4 seen) on some boundaries of their
// choice of lattice points (the Java values jump the same). The 2-D functions and the smooth 4-D
// ones showed no jump.
//
// Gradient: opensimplex2_gradient / opensimplex2s_gradient return the same float value and the
// analytic derivative with respect to the input coordinates, computed in double from the float
// kernel terms: each contributing lattice point adds a^4 g - 8 a^3 (g . d) d (a = r^2 - |d|^2 as
// the float code has it, d its float offset, g its gradient), mapped back through the exact
// (double) transpose of the variant's linear skew or rotation. It is the derivative of the
// function the float code approximates; tests compare it with central differences (tolerance in
// the test).
#pragma once

#include <cstdint>

namespace perlin::detail {

/// The reference's public functions (the same ten in OpenSimplex2 and OpenSimplex2S).
enum class os2_variant : int {
  noise2,                         ///< 2-D, standard lattice orientation
  noise2_improve_x,               ///< 2-D, Y pointing down the main diagonal
  noise3_improve_xy,              ///< 3-D, better isotropy in (X, Y); Z the different axis
  noise3_improve_xz,              ///< 3-D, better isotropy in (X, Z); Y the different axis
  noise3_fallback,                ///< 3-D, rotated along the main diagonal
  noise4_improve_xyz_improve_xy,  ///< 4-D, XYZ as noise3_improve_xy, W extra
  noise4_improve_xyz_improve_xz,  ///< 4-D, XYZ as noise3_improve_xz, W extra
  noise4_improve_xyz,             ///< 4-D, XYZ as noise3_fallback, W extra
  noise4_improve_xy_improve_zw,   ///< 4-D, XY and ZW orthogonal triangular planes
  noise4_fallback,                ///< 4-D, the plain A4 skew
};

/// Number of variants (for tables and loops).
inline constexpr int k_os2_variant_count = 10;

/// Dimensions a variant reads from p: 2, 3 or 4.
int os2_dims(os2_variant v) noexcept;

/// The reference's Java name of the variant ("noise2", "noise2_ImproveX", "noise3_ImproveXY", ...).
const char* os2_java_name(os2_variant v) noexcept;

/// Largest |value| found for the fast family, by dimension (index 0: 2-D, 1: 3-D, 2: 4-D), over
/// all variants of that dimension (see the top of this file); a bound found by search, not proven.
inline constexpr double k_opensimplex2_bound[3] = {1.0000019073486328, 1.0000011920928955,
                                                   0.99917697906494141};
/// The same for the smooth family.
inline constexpr double k_opensimplex2s_bound[3] = {1.000001072883606, 0.99950593709945679,
                                                    0.9999890923500061};

/// OpenSimplex2 (fast) noise: the reference's OpenSimplex2.<variant>(seed, p[0], p[1] ...), with
/// os2_dims(v) coordinates read from p. Bit for bit the Java float. Thread safe.
float opensimplex2(os2_variant v, std::int64_t seed, const double* p) noexcept;

/// OpenSimplex2S (smooth) noise: the reference's OpenSimplex2S.<variant>(seed, p[0], ...). Bit
/// for bit the Java float. Thread safe.
float opensimplex2s(os2_variant v, std::int64_t seed, const double* p) noexcept;

/// opensimplex2(v, seed, p), and its analytic gradient with respect to p[0..os2_dims(v)-1] written
/// to grad[0..os2_dims(v)-1] (double, from the float kernel terms; see the top of this file).
float opensimplex2_gradient(os2_variant v, std::int64_t seed, const double* p,
                            double* grad) noexcept;

/// opensimplex2s(v, seed, p) and its analytic gradient, as opensimplex2_gradient.
float opensimplex2s_gradient(os2_variant v, std::int64_t seed, const double* p,
                             double* grad) noexcept;

}  // namespace perlin::detail
