// KdotJPG's OpenSimplex2 and OpenSimplex2S noise, float-exact (src/detail/opensimplex2.hpp): the
// operations of java/OpenSimplex2.java and java/OpenSimplex2S.java (KdotJPG/OpenSimplex2, commit
// 4cd120d35bfc27096698de90d1bcbf4f9d359a3b, CC0 1.0) in their order and types, with Java's int and
// long semantics. The gradient literals and the 4-D lookup lists below are that code's data.
#include "detail/opensimplex2.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace perlin::detail {

namespace {

using jint = std::int32_t;    // Java's int
using ulong = std::uint64_t;  // Java's long, wrapping (reinterpreted where it is shifted)

// The hash primes and multiplier, and the seed changes between lattice copies (both files).
constexpr ulong k_prime_x = 0x5205402B9270C86FULL;
constexpr ulong k_prime_y = 0x598CD327003817B5ULL;
constexpr ulong k_prime_z = 0x5BCC226E9FA0BACBULL;
constexpr ulong k_prime_w = 0x56CC5227E58F554BULL;
constexpr ulong k_hash_multiplier = 0x53A3F72DEEC546F5ULL;
constexpr ulong k_seed_flip_3d = static_cast<ulong>(-0x52D547B2E96ED629LL);
constexpr ulong k_seed_offset_4d = 0xE83DC3E0DA7164DULL;

// The double constants of both files (decimal literals as written there).
constexpr double k_root2over2 = 0.7071067811865476;
constexpr double k_skew_2d = 0.366025403784439;
constexpr double k_unskew_2d = -0.21132486540518713;
constexpr double k_root3over3 = 0.577350269189626;
constexpr double k_fallback_rotate_3d = 2.0 / 3.0;

// Java's int arithmetic: two's complement, wrapping.
constexpr jint jadd(jint a, jint b) noexcept {
  return static_cast<jint>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
constexpr jint jsub(jint a, jint b) noexcept {
  return static_cast<jint>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
constexpr jint jshl(jint a, int n) noexcept {
  return static_cast<jint>(static_cast<std::uint32_t>(a) << n);
}
// Java's int -> long widening, as the wrapping unsigned type.
constexpr ulong jlong(jint a) noexcept { return static_cast<ulong>(static_cast<std::int64_t>(a)); }
// Java's long >> n (arithmetic; C++20 defines it on the signed type).
constexpr ulong jsar(ulong a, int n) noexcept {
  return static_cast<ulong>(static_cast<std::int64_t>(a) >> n);
}
// Java's (int) of a long: its low 32 bits.
constexpr jint jlow(ulong a) noexcept { return static_cast<jint>(static_cast<std::uint32_t>(a)); }

// Java's (int) cast of a double (and of a float, whose widening is exact): NaN gives 0, values
// past the int range saturate, the others truncate toward zero.
jint java_int(double v) noexcept {
  if (std::isnan(v)) return 0;
  if (v >= 2147483647.0) return std::numeric_limits<jint>::max();
  if (v <= -2147483648.0) return std::numeric_limits<jint>::min();
  return static_cast<jint>(v);
}

// Java's (float) cast of a double: round to nearest even; past the float range, infinity (written
// out so that the conversion is defined in C++ too).
float java_float(double v) noexcept {
  constexpr double overflow = 0x1.ffffffp127;  // FLT_MAX + half an ulp: rounds to infinity
  if (v >= overflow) return std::numeric_limits<float>::infinity();
  if (v <= -overflow) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

// fastFloor and fastRound of both files.
jint fast_floor(double x) noexcept {
  const jint xi = java_int(x);
  return x < static_cast<double>(xi) ? jadd(xi, -1) : xi;
}
jint fast_round(double x) noexcept { return x < 0 ? java_int(x - 0.5) : java_int(x + 0.5); }

// The unnormalised gradients, shared by both files (their grad2, grad3 and grad4 literals; the
// 3-D rows' fourth component, always 0.0f there, is left out).
// clang-format off
constexpr float k_grad2_literals[] = {
    0.38268343236509f, 0.923879532511287f,
    0.923879532511287f, 0.38268343236509f,
    0.923879532511287f, -0.38268343236509f,
    0.38268343236509f, -0.923879532511287f,
    -0.38268343236509f, -0.923879532511287f,
    -0.923879532511287f, -0.38268343236509f,
    -0.923879532511287f, 0.38268343236509f,
    -0.38268343236509f, 0.923879532511287f,
    0.130526192220052f, 0.99144486137381f,
    0.608761429008721f, 0.793353340291235f,
    0.793353340291235f, 0.608761429008721f,
    0.99144486137381f, 0.130526192220051f,
    0.99144486137381f, -0.130526192220051f,
    0.793353340291235f, -0.60876142900872f,
    0.608761429008721f, -0.793353340291235f,
    0.130526192220052f, -0.99144486137381f,
    -0.130526192220052f, -0.99144486137381f,
    -0.608761429008721f, -0.793353340291235f,
    -0.793353340291235f, -0.608761429008721f,
    -0.99144486137381f, -0.130526192220052f,
    -0.99144486137381f, 0.130526192220051f,
    -0.793353340291235f, 0.608761429008721f,
    -0.608761429008721f, 0.793353340291235f,
    -0.130526192220052f, 0.99144486137381f,
};
constexpr float k_grad3_literals[] = {
    2.22474487139f, 2.22474487139f, -1.0f,
    2.22474487139f, 2.22474487139f, 1.0f,
    3.0862664687972017f, 1.1721513422464978f, 0.0f,
    1.1721513422464978f, 3.0862664687972017f, 0.0f,
    -2.22474487139f, 2.22474487139f, -1.0f,
    -2.22474487139f, 2.22474487139f, 1.0f,
    -1.1721513422464978f, 3.0862664687972017f, 0.0f,
    -3.0862664687972017f, 1.1721513422464978f, 0.0f,
    -1.0f, -2.22474487139f, -2.22474487139f,
    1.0f, -2.22474487139f, -2.22474487139f,
    0.0f, -3.0862664687972017f, -1.1721513422464978f,
    0.0f, -1.1721513422464978f, -3.0862664687972017f,
    -1.0f, -2.22474487139f, 2.22474487139f,
    1.0f, -2.22474487139f, 2.22474487139f,
    0.0f, -1.1721513422464978f, 3.0862664687972017f,
    0.0f, -3.0862664687972017f, 1.1721513422464978f,
    -2.22474487139f, -2.22474487139f, -1.0f,
    -2.22474487139f, -2.22474487139f, 1.0f,
    -3.0862664687972017f, -1.1721513422464978f, 0.0f,
    -1.1721513422464978f, -3.0862664687972017f, 0.0f,
    -2.22474487139f, -1.0f, -2.22474487139f,
    -2.22474487139f, 1.0f, -2.22474487139f,
    -1.1721513422464978f, 0.0f, -3.0862664687972017f,
    -3.0862664687972017f, 0.0f, -1.1721513422464978f,
    -2.22474487139f, -1.0f, 2.22474487139f,
    -2.22474487139f, 1.0f, 2.22474487139f,
    -3.0862664687972017f, 0.0f, 1.1721513422464978f,
    -1.1721513422464978f, 0.0f, 3.0862664687972017f,
    -1.0f, 2.22474487139f, -2.22474487139f,
    1.0f, 2.22474487139f, -2.22474487139f,
    0.0f, 1.1721513422464978f, -3.0862664687972017f,
    0.0f, 3.0862664687972017f, -1.1721513422464978f,
    -1.0f, 2.22474487139f, 2.22474487139f,
    1.0f, 2.22474487139f, 2.22474487139f,
    0.0f, 3.0862664687972017f, 1.1721513422464978f,
    0.0f, 1.1721513422464978f, 3.0862664687972017f,
    2.22474487139f, -2.22474487139f, -1.0f,
    2.22474487139f, -2.22474487139f, 1.0f,
    1.1721513422464978f, -3.0862664687972017f, 0.0f,
    3.0862664687972017f, -1.1721513422464978f, 0.0f,
    2.22474487139f, -1.0f, -2.22474487139f,
    2.22474487139f, 1.0f, -2.22474487139f,
    3.0862664687972017f, 0.0f, -1.1721513422464978f,
    1.1721513422464978f, 0.0f, -3.0862664687972017f,
    2.22474487139f, -1.0f, 2.22474487139f,
    2.22474487139f, 1.0f, 2.22474487139f,
    1.1721513422464978f, 0.0f, 3.0862664687972017f,
    3.0862664687972017f, 0.0f, 1.1721513422464978f,
};
constexpr float k_grad4_literals[] = {
    -0.6740059517812944f, -0.3239847771997537f, -0.3239847771997537f, 0.5794684678643381f,
    -0.7504883828755602f, -0.4004672082940195f, 0.15296486218853164f, 0.5029860367700724f,
    -0.7504883828755602f, 0.15296486218853164f, -0.4004672082940195f, 0.5029860367700724f,
    -0.8828161875373585f, 0.08164729285680945f, 0.08164729285680945f, 0.4553054119602712f,
    -0.4553054119602712f, -0.08164729285680945f, -0.08164729285680945f, 0.8828161875373585f,
    -0.5029860367700724f, -0.15296486218853164f, 0.4004672082940195f, 0.7504883828755602f,
    -0.5029860367700724f, 0.4004672082940195f, -0.15296486218853164f, 0.7504883828755602f,
    -0.5794684678643381f, 0.3239847771997537f, 0.3239847771997537f, 0.6740059517812944f,
    -0.6740059517812944f, -0.3239847771997537f, 0.5794684678643381f, -0.3239847771997537f,
    -0.7504883828755602f, -0.4004672082940195f, 0.5029860367700724f, 0.15296486218853164f,
    -0.7504883828755602f, 0.15296486218853164f, 0.5029860367700724f, -0.4004672082940195f,
    -0.8828161875373585f, 0.08164729285680945f, 0.4553054119602712f, 0.08164729285680945f,
    -0.4553054119602712f, -0.08164729285680945f, 0.8828161875373585f, -0.08164729285680945f,
    -0.5029860367700724f, -0.15296486218853164f, 0.7504883828755602f, 0.4004672082940195f,
    -0.5029860367700724f, 0.4004672082940195f, 0.7504883828755602f, -0.15296486218853164f,
    -0.5794684678643381f, 0.3239847771997537f, 0.6740059517812944f, 0.3239847771997537f,
    -0.6740059517812944f, 0.5794684678643381f, -0.3239847771997537f, -0.3239847771997537f,
    -0.7504883828755602f, 0.5029860367700724f, -0.4004672082940195f, 0.15296486218853164f,
    -0.7504883828755602f, 0.5029860367700724f, 0.15296486218853164f, -0.4004672082940195f,
    -0.8828161875373585f, 0.4553054119602712f, 0.08164729285680945f, 0.08164729285680945f,
    -0.4553054119602712f, 0.8828161875373585f, -0.08164729285680945f, -0.08164729285680945f,
    -0.5029860367700724f, 0.7504883828755602f, -0.15296486218853164f, 0.4004672082940195f,
    -0.5029860367700724f, 0.7504883828755602f, 0.4004672082940195f, -0.15296486218853164f,
    -0.5794684678643381f, 0.6740059517812944f, 0.3239847771997537f, 0.3239847771997537f,
    0.5794684678643381f, -0.6740059517812944f, -0.3239847771997537f, -0.3239847771997537f,
    0.5029860367700724f, -0.7504883828755602f, -0.4004672082940195f, 0.15296486218853164f,
    0.5029860367700724f, -0.7504883828755602f, 0.15296486218853164f, -0.4004672082940195f,
    0.4553054119602712f, -0.8828161875373585f, 0.08164729285680945f, 0.08164729285680945f,
    0.8828161875373585f, -0.4553054119602712f, -0.08164729285680945f, -0.08164729285680945f,
    0.7504883828755602f, -0.5029860367700724f, -0.15296486218853164f, 0.4004672082940195f,
    0.7504883828755602f, -0.5029860367700724f, 0.4004672082940195f, -0.15296486218853164f,
    0.6740059517812944f, -0.5794684678643381f, 0.3239847771997537f, 0.3239847771997537f,
    -0.753341017856078f, -0.37968289875261624f, -0.37968289875261624f, -0.37968289875261624f,
    -0.7821684431180708f, -0.4321472685365301f, -0.4321472685365301f, 0.12128480194602098f,
    -0.7821684431180708f, -0.4321472685365301f, 0.12128480194602098f, -0.4321472685365301f,
    -0.7821684431180708f, 0.12128480194602098f, -0.4321472685365301f, -0.4321472685365301f,
    -0.8586508742123365f, -0.508629699630796f, 0.044802370851755174f, 0.044802370851755174f,
    -0.8586508742123365f, 0.044802370851755174f, -0.508629699630796f, 0.044802370851755174f,
    -0.8586508742123365f, 0.044802370851755174f, 0.044802370851755174f, -0.508629699630796f,
    -0.9982828964265062f, -0.03381941603233842f, -0.03381941603233842f, -0.03381941603233842f,
    -0.37968289875261624f, -0.753341017856078f, -0.37968289875261624f, -0.37968289875261624f,
    -0.4321472685365301f, -0.7821684431180708f, -0.4321472685365301f, 0.12128480194602098f,
    -0.4321472685365301f, -0.7821684431180708f, 0.12128480194602098f, -0.4321472685365301f,
    0.12128480194602098f, -0.7821684431180708f, -0.4321472685365301f, -0.4321472685365301f,
    -0.508629699630796f, -0.8586508742123365f, 0.044802370851755174f, 0.044802370851755174f,
    0.044802370851755174f, -0.8586508742123365f, -0.508629699630796f, 0.044802370851755174f,
    0.044802370851755174f, -0.8586508742123365f, 0.044802370851755174f, -0.508629699630796f,
    -0.03381941603233842f, -0.9982828964265062f, -0.03381941603233842f, -0.03381941603233842f,
    -0.37968289875261624f, -0.37968289875261624f, -0.753341017856078f, -0.37968289875261624f,
    -0.4321472685365301f, -0.4321472685365301f, -0.7821684431180708f, 0.12128480194602098f,
    -0.4321472685365301f, 0.12128480194602098f, -0.7821684431180708f, -0.4321472685365301f,
    0.12128480194602098f, -0.4321472685365301f, -0.7821684431180708f, -0.4321472685365301f,
    -0.508629699630796f, 0.044802370851755174f, -0.8586508742123365f, 0.044802370851755174f,
    0.044802370851755174f, -0.508629699630796f, -0.8586508742123365f, 0.044802370851755174f,
    0.044802370851755174f, 0.044802370851755174f, -0.8586508742123365f, -0.508629699630796f,
    -0.03381941603233842f, -0.03381941603233842f, -0.9982828964265062f, -0.03381941603233842f,
    -0.37968289875261624f, -0.37968289875261624f, -0.37968289875261624f, -0.753341017856078f,
    -0.4321472685365301f, -0.4321472685365301f, 0.12128480194602098f, -0.7821684431180708f,
    -0.4321472685365301f, 0.12128480194602098f, -0.4321472685365301f, -0.7821684431180708f,
    0.12128480194602098f, -0.4321472685365301f, -0.4321472685365301f, -0.7821684431180708f,
    -0.508629699630796f, 0.044802370851755174f, 0.044802370851755174f, -0.8586508742123365f,
    0.044802370851755174f, -0.508629699630796f, 0.044802370851755174f, -0.8586508742123365f,
    0.044802370851755174f, 0.044802370851755174f, -0.508629699630796f, -0.8586508742123365f,
    -0.03381941603233842f, -0.03381941603233842f, -0.03381941603233842f, -0.9982828964265062f,
    -0.3239847771997537f, -0.6740059517812944f, -0.3239847771997537f, 0.5794684678643381f,
    -0.4004672082940195f, -0.7504883828755602f, 0.15296486218853164f, 0.5029860367700724f,
    0.15296486218853164f, -0.7504883828755602f, -0.4004672082940195f, 0.5029860367700724f,
    0.08164729285680945f, -0.8828161875373585f, 0.08164729285680945f, 0.4553054119602712f,
    -0.08164729285680945f, -0.4553054119602712f, -0.08164729285680945f, 0.8828161875373585f,
    -0.15296486218853164f, -0.5029860367700724f, 0.4004672082940195f, 0.7504883828755602f,
    0.4004672082940195f, -0.5029860367700724f, -0.15296486218853164f, 0.7504883828755602f,
    0.3239847771997537f, -0.5794684678643381f, 0.3239847771997537f, 0.6740059517812944f,
    -0.3239847771997537f, -0.3239847771997537f, -0.6740059517812944f, 0.5794684678643381f,
    -0.4004672082940195f, 0.15296486218853164f, -0.7504883828755602f, 0.5029860367700724f,
    0.15296486218853164f, -0.4004672082940195f, -0.7504883828755602f, 0.5029860367700724f,
    0.08164729285680945f, 0.08164729285680945f, -0.8828161875373585f, 0.4553054119602712f,
    -0.08164729285680945f, -0.08164729285680945f, -0.4553054119602712f, 0.8828161875373585f,
    -0.15296486218853164f, 0.4004672082940195f, -0.5029860367700724f, 0.7504883828755602f,
    0.4004672082940195f, -0.15296486218853164f, -0.5029860367700724f, 0.7504883828755602f,
    0.3239847771997537f, 0.3239847771997537f, -0.5794684678643381f, 0.6740059517812944f,
    -0.3239847771997537f, -0.6740059517812944f, 0.5794684678643381f, -0.3239847771997537f,
    -0.4004672082940195f, -0.7504883828755602f, 0.5029860367700724f, 0.15296486218853164f,
    0.15296486218853164f, -0.7504883828755602f, 0.5029860367700724f, -0.4004672082940195f,
    0.08164729285680945f, -0.8828161875373585f, 0.4553054119602712f, 0.08164729285680945f,
    -0.08164729285680945f, -0.4553054119602712f, 0.8828161875373585f, -0.08164729285680945f,
    -0.15296486218853164f, -0.5029860367700724f, 0.7504883828755602f, 0.4004672082940195f,
    0.4004672082940195f, -0.5029860367700724f, 0.7504883828755602f, -0.15296486218853164f,
    0.3239847771997537f, -0.5794684678643381f, 0.6740059517812944f, 0.3239847771997537f,
    -0.3239847771997537f, -0.3239847771997537f, 0.5794684678643381f, -0.6740059517812944f,
    -0.4004672082940195f, 0.15296486218853164f, 0.5029860367700724f, -0.7504883828755602f,
    0.15296486218853164f, -0.4004672082940195f, 0.5029860367700724f, -0.7504883828755602f,
    0.08164729285680945f, 0.08164729285680945f, 0.4553054119602712f, -0.8828161875373585f,
    -0.08164729285680945f, -0.08164729285680945f, 0.8828161875373585f, -0.4553054119602712f,
    -0.15296486218853164f, 0.4004672082940195f, 0.7504883828755602f, -0.5029860367700724f,
    0.4004672082940195f, -0.15296486218853164f, 0.7504883828755602f, -0.5029860367700724f,
    0.3239847771997537f, 0.3239847771997537f, 0.6740059517812944f, -0.5794684678643381f,
    -0.3239847771997537f, 0.5794684678643381f, -0.6740059517812944f, -0.3239847771997537f,
    -0.4004672082940195f, 0.5029860367700724f, -0.7504883828755602f, 0.15296486218853164f,
    0.15296486218853164f, 0.5029860367700724f, -0.7504883828755602f, -0.4004672082940195f,
    0.08164729285680945f, 0.4553054119602712f, -0.8828161875373585f, 0.08164729285680945f,
    -0.08164729285680945f, 0.8828161875373585f, -0.4553054119602712f, -0.08164729285680945f,
    -0.15296486218853164f, 0.7504883828755602f, -0.5029860367700724f, 0.4004672082940195f,
    0.4004672082940195f, 0.7504883828755602f, -0.5029860367700724f, -0.15296486218853164f,
    0.3239847771997537f, 0.6740059517812944f, -0.5794684678643381f, 0.3239847771997537f,
    -0.3239847771997537f, 0.5794684678643381f, -0.3239847771997537f, -0.6740059517812944f,
    -0.4004672082940195f, 0.5029860367700724f, 0.15296486218853164f, -0.7504883828755602f,
    0.15296486218853164f, 0.5029860367700724f, -0.4004672082940195f, -0.7504883828755602f,
    0.08164729285680945f, 0.4553054119602712f, 0.08164729285680945f, -0.8828161875373585f,
    -0.08164729285680945f, 0.8828161875373585f, -0.08164729285680945f, -0.4553054119602712f,
    -0.15296486218853164f, 0.7504883828755602f, 0.4004672082940195f, -0.5029860367700724f,
    0.4004672082940195f, 0.7504883828755602f, -0.15296486218853164f, -0.5029860367700724f,
    0.3239847771997537f, 0.6740059517812944f, 0.3239847771997537f, -0.5794684678643381f,
    0.5794684678643381f, -0.3239847771997537f, -0.6740059517812944f, -0.3239847771997537f,
    0.5029860367700724f, -0.4004672082940195f, -0.7504883828755602f, 0.15296486218853164f,
    0.5029860367700724f, 0.15296486218853164f, -0.7504883828755602f, -0.4004672082940195f,
    0.4553054119602712f, 0.08164729285680945f, -0.8828161875373585f, 0.08164729285680945f,
    0.8828161875373585f, -0.08164729285680945f, -0.4553054119602712f, -0.08164729285680945f,
    0.7504883828755602f, -0.15296486218853164f, -0.5029860367700724f, 0.4004672082940195f,
    0.7504883828755602f, 0.4004672082940195f, -0.5029860367700724f, -0.15296486218853164f,
    0.6740059517812944f, 0.3239847771997537f, -0.5794684678643381f, 0.3239847771997537f,
    0.5794684678643381f, -0.3239847771997537f, -0.3239847771997537f, -0.6740059517812944f,
    0.5029860367700724f, -0.4004672082940195f, 0.15296486218853164f, -0.7504883828755602f,
    0.5029860367700724f, 0.15296486218853164f, -0.4004672082940195f, -0.7504883828755602f,
    0.4553054119602712f, 0.08164729285680945f, 0.08164729285680945f, -0.8828161875373585f,
    0.8828161875373585f, -0.08164729285680945f, -0.08164729285680945f, -0.4553054119602712f,
    0.7504883828755602f, -0.15296486218853164f, 0.4004672082940195f, -0.5029860367700724f,
    0.7504883828755602f, 0.4004672082940195f, -0.15296486218853164f, -0.5029860367700724f,
    0.6740059517812944f, 0.3239847771997537f, 0.3239847771997537f, -0.5794684678643381f,
    0.03381941603233842f, 0.03381941603233842f, 0.03381941603233842f, 0.9982828964265062f,
    -0.044802370851755174f, -0.044802370851755174f, 0.508629699630796f, 0.8586508742123365f,
    -0.044802370851755174f, 0.508629699630796f, -0.044802370851755174f, 0.8586508742123365f,
    -0.12128480194602098f, 0.4321472685365301f, 0.4321472685365301f, 0.7821684431180708f,
    0.508629699630796f, -0.044802370851755174f, -0.044802370851755174f, 0.8586508742123365f,
    0.4321472685365301f, -0.12128480194602098f, 0.4321472685365301f, 0.7821684431180708f,
    0.4321472685365301f, 0.4321472685365301f, -0.12128480194602098f, 0.7821684431180708f,
    0.37968289875261624f, 0.37968289875261624f, 0.37968289875261624f, 0.753341017856078f,
    0.03381941603233842f, 0.03381941603233842f, 0.9982828964265062f, 0.03381941603233842f,
    -0.044802370851755174f, 0.044802370851755174f, 0.8586508742123365f, 0.508629699630796f,
    -0.044802370851755174f, 0.508629699630796f, 0.8586508742123365f, -0.044802370851755174f,
    -0.12128480194602098f, 0.4321472685365301f, 0.7821684431180708f, 0.4321472685365301f,
    0.508629699630796f, -0.044802370851755174f, 0.8586508742123365f, -0.044802370851755174f,
    0.4321472685365301f, -0.12128480194602098f, 0.7821684431180708f, 0.4321472685365301f,
    0.4321472685365301f, 0.4321472685365301f, 0.7821684431180708f, -0.12128480194602098f,
    0.37968289875261624f, 0.37968289875261624f, 0.753341017856078f, 0.37968289875261624f,
    0.03381941603233842f, 0.9982828964265062f, 0.03381941603233842f, 0.03381941603233842f,
    -0.044802370851755174f, 0.8586508742123365f, -0.044802370851755174f, 0.508629699630796f,
    -0.044802370851755174f, 0.8586508742123365f, 0.508629699630796f, -0.044802370851755174f,
    -0.12128480194602098f, 0.7821684431180708f, 0.4321472685365301f, 0.4321472685365301f,
    0.508629699630796f, 0.8586508742123365f, -0.044802370851755174f, -0.044802370851755174f,
    0.4321472685365301f, 0.7821684431180708f, -0.12128480194602098f, 0.4321472685365301f,
    0.4321472685365301f, 0.7821684431180708f, 0.4321472685365301f, -0.12128480194602098f,
    0.37968289875261624f, 0.753341017856078f, 0.37968289875261624f, 0.37968289875261624f,
    0.9982828964265062f, 0.03381941603233842f, 0.03381941603233842f, 0.03381941603233842f,
    0.8586508742123365f, -0.044802370851755174f, -0.044802370851755174f, 0.508629699630796f,
    0.8586508742123365f, -0.044802370851755174f, 0.508629699630796f, -0.044802370851755174f,
    0.7821684431180708f, -0.12128480194602098f, 0.4321472685365301f, 0.4321472685365301f,
    0.8586508742123365f, 0.508629699630796f, -0.044802370851755174f, -0.044802370851755174f,
    0.7821684431180708f, 0.4321472685365301f, -0.12128480194602098f, 0.4321472685365301f,
    0.7821684431180708f, 0.4321472685365301f, 0.4321472685365301f, -0.12128480194602098f,
    0.753341017856078f, 0.37968289875261624f, 0.37968289875261624f, 0.37968289875261624f,
};
// clang-format on

// The class initialisers' tables: grad[i] = (float)(grad[i] / NORMALIZER) (a double division),
// repeated to fill N_GRADS entries of 2 (2-D) or 4 (3-D and 4-D) floats.
template <std::size_t N, std::size_t Stride, std::size_t Width, std::size_t M>
constexpr std::array<float, N * Stride> make_gradients(const float (&lit)[M], double normalizer) {
  std::array<float, N * Stride> out{};
  constexpr std::size_t rows = M / Width;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t k = 0; k < Width; ++k)
      out[i * Stride + k] = static_cast<float>(lit[(i % rows) * Width + k] / normalizer);
  return out;
}

struct gradient_tables {
  std::array<float, 128 * 2> g2;
  std::array<float, 256 * 4> g3;
  std::array<float, 512 * 4> g4;
};

// NORMALIZER_2D/3D/4D of OpenSimplex2.java and of OpenSimplex2S.java.
constexpr gradient_tables k_fast_tables = {
    make_gradients<128, 2, 2>(k_grad2_literals, 0.01001634121365712),
    make_gradients<256, 4, 3>(k_grad3_literals, 0.07969837668935331),
    make_gradients<512, 4, 4>(k_grad4_literals, 0.0220065933241897)};
constexpr gradient_tables k_smooth_tables = {
    make_gradients<128, 2, 2>(k_grad2_literals, 0.05481866495625118),
    make_gradients<256, 4, 3>(k_grad3_literals, 0.2781926117527186),
    make_gradients<512, 4, 4>(k_grad4_literals, 0.11127401889945551)};

// The gradient index of a lattice point (grad() of both files).
constexpr jint grad_index2(ulong seed, ulong xp, ulong yp) noexcept {
  ulong hash = seed ^ xp ^ yp;
  hash *= k_hash_multiplier;
  hash ^= jsar(hash, 64 - 7 + 1);
  return jlow(hash) & ((128 - 1) << 1);
}
constexpr jint grad_index3(ulong seed, ulong xp, ulong yp, ulong zp) noexcept {
  ulong hash = (seed ^ xp) ^ (yp ^ zp);
  hash *= k_hash_multiplier;
  hash ^= jsar(hash, 64 - 8 + 2);
  return jlow(hash) & ((256 - 1) << 2);
}
constexpr jint grad_index4(ulong seed, ulong xp, ulong yp, ulong zp, ulong wp) noexcept {
  ulong hash = seed ^ (xp ^ yp) ^ (zp ^ wp);
  hash *= k_hash_multiplier;
  hash ^= jsar(hash, 64 - 9 + 2);
  return jlow(hash) & ((512 - 1) << 2);
}

// The derivative of the sum of a^4 (g . d) with respect to the kernel offset d, accumulated in
// double from the float terms: a^4 g - 8 a^3 (g . d) d. Null where only the value is wanted.
template <int N>
struct kernel_derivative {
  double sum[N] = {};
  void add(double a, const float* g, const float* d, float dot) noexcept {
    const double a2 = a * a;
    const double a3 = a2 * a;
    const double a4 = a2 * a2;
    for (int k = 0; k < N; ++k) sum[k] += a4 * g[k] - 8.0 * a3 * dot * d[k];
  }
};
using deriv2 = kernel_derivative<2>;
using deriv3 = kernel_derivative<3>;
using deriv4 = kernel_derivative<4>;

// One lattice point's term (a*a)*(a*a)*grad(...), grad's dot product in the reference's order.
float term2(const gradient_tables& t, float a, ulong seed, ulong xp, ulong yp, float dx, float dy,
            deriv2* dv) noexcept {
  const float* g = &t.g2[static_cast<std::size_t>(grad_index2(seed, xp, yp))];
  const float dot = g[0] * dx + g[1] * dy;
  if (dv != nullptr) {
    const float d[2] = {dx, dy};
    dv->add(a, g, d, dot);
  }
  return (a * a) * (a * a) * dot;
}
float term3(const gradient_tables& t, float a, ulong seed, ulong xp, ulong yp, ulong zp, float dx,
            float dy, float dz, deriv3* dv) noexcept {
  const float* g = &t.g3[static_cast<std::size_t>(grad_index3(seed, xp, yp, zp))];
  const float dot = g[0] * dx + g[1] * dy + g[2] * dz;
  if (dv != nullptr) {
    const float d[3] = {dx, dy, dz};
    dv->add(a, g, d, dot);
  }
  return (a * a) * (a * a) * dot;
}
// 4-D: the reference squares (a - r^2) twice: a*a*grad with a = (|d|^2 - r^2)^2.
float term4(const gradient_tables& t, float a_minus_r2, ulong seed, ulong xp, ulong yp, ulong zp,
            ulong wp, float dx, float dy, float dz, float dw, deriv4* dv) noexcept {
  const float* g = &t.g4[static_cast<std::size_t>(grad_index4(seed, xp, yp, zp, wp))];
  const float dot = (g[0] * dx + g[1] * dy) + (g[2] * dz + g[3] * dw);
  if (dv != nullptr) {
    const float d[4] = {dx, dy, dz, dw};
    dv->add(-static_cast<double>(a_minus_r2), g, d, dot);
  }
  const float a = a_minus_r2 * a_minus_r2;
  return a * a * dot;
}

// ---- OpenSimplex2 (fast) -------------------------------------------------------------------

constexpr float k_fast_rsquared_2d = 0.5f;
constexpr float k_fast_rsquared_3d = 0.6f;
constexpr float k_fast_rsquared_4d = 0.6f;
constexpr float k_fast_skew_4d = -0.138196601125011f;
constexpr float k_fast_unskew_4d = 0.309016994374947f;
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

// ---- OpenSimplex2S (smooth) ----------------------------------------------------------------

constexpr float k_smooth_rsquared_2d = 2.0f / 3.0f;
constexpr float k_smooth_rsquared_3d = 3.0f / 4.0f;
constexpr float k_smooth_rsquared_4d = 4.0f / 5.0f;
constexpr float k_smooth_skew_4d = 0.309016994374947f;
constexpr float k_smooth_unskew_4d = -0.138196601125011f;

// noise2_UnskewedBase of OpenSimplex2S.java: the triangle's three points and one more beside
// each of two of its edges.
float smooth_base2(ulong seed, double xs, double ys, deriv2* dv) noexcept {
  const gradient_tables& t = k_smooth_tables;
  constexpr float r2 = k_smooth_rsquared_2d;
  const jint xsb = fast_floor(xs), ysb = fast_floor(ys);
  const float xi = java_float(xs - xsb), yi = java_float(ys - ysb);
  const ulong xsbp = jlong(xsb) * k_prime_x, ysbp = jlong(ysb) * k_prime_y;

  const float tt = (xi + yi) * static_cast<float>(k_unskew_2d);
  const float dx0 = xi + tt, dy0 = yi + tt;

  const float a0 = r2 - dx0 * dx0 - dy0 * dy0;
  float value = term2(t, a0, seed, xsbp, ysbp, dx0, dy0, dv);

  constexpr float c1 = static_cast<float>(2 * (1 + 2 * k_unskew_2d) * (1 / k_unskew_2d + 2));
  constexpr float c2 = static_cast<float>(-2 * (1 + 2 * k_unskew_2d) * (1 + 2 * k_unskew_2d));
  const float a1 = c1 * tt + (c2 + a0);
  const float dx1 = dx0 - static_cast<float>(1 + 2 * k_unskew_2d);
  const float dy1 = dy0 - static_cast<float>(1 + 2 * k_unskew_2d);
  value += term2(t, a1, seed, xsbp + k_prime_x, ysbp + k_prime_y, dx1, dy1, dv);

  // One more point: offsets (ox, oy) from the first, at lattice step (px, py).
  auto more = [&](float ex, float ey, ulong px, ulong py) {
    const float a = r2 - ex * ex - ey * ey;
    if (a > 0) value += term2(t, a, seed, px, py, ex, ey, dv);
  };

  const float xmyi = xi - yi;
  if (tt < k_unskew_2d) {
    if (xi + xmyi > 1) {
      more(dx0 - static_cast<float>(3 * k_unskew_2d + 2),
           dy0 - static_cast<float>(3 * k_unskew_2d + 1), xsbp + (k_prime_x << 1),
           ysbp + k_prime_y);
    } else {
      more(dx0 - static_cast<float>(k_unskew_2d), dy0 - static_cast<float>(k_unskew_2d + 1), xsbp,
           ysbp + k_prime_y);
    }
    if (yi - xmyi > 1) {
      more(dx0 - static_cast<float>(3 * k_unskew_2d + 1),
           dy0 - static_cast<float>(3 * k_unskew_2d + 2), xsbp + k_prime_x,
           ysbp + (k_prime_y << 1));
    } else {
      more(dx0 - static_cast<float>(k_unskew_2d + 1), dy0 - static_cast<float>(k_unskew_2d),
           xsbp + k_prime_x, ysbp);
    }
  } else {
    if (xi + xmyi < 0) {
      more(dx0 + static_cast<float>(1 + k_unskew_2d), dy0 + static_cast<float>(k_unskew_2d),
           xsbp - k_prime_x, ysbp);
    } else {
      more(dx0 - static_cast<float>(k_unskew_2d + 1), dy0 - static_cast<float>(k_unskew_2d),
           xsbp + k_prime_x, ysbp);
    }
    if (yi < xmyi) {
      more(dx0 + static_cast<float>(k_unskew_2d), dy0 + static_cast<float>(k_unskew_2d + 1), xsbp,
           ysbp - k_prime_y);
    } else {
      more(dx0 - static_cast<float>(k_unskew_2d), dy0 - static_cast<float>(k_unskew_2d + 1), xsbp,
           ysbp + k_prime_y);
    }
  }
  return value;
}

// noise3_UnrotatedBase of OpenSimplex2S.java: the closest point of each of the two lattice
// copies, then the neighbours whose falloff the masks show to be positive.
float smooth_base3(ulong seed, double xr, double yr, double zr, deriv3* dv) noexcept {
  const gradient_tables& t = k_smooth_tables;
  constexpr float r2 = k_smooth_rsquared_3d;
  const jint xrb = fast_floor(xr), yrb = fast_floor(yr), zrb = fast_floor(zr);
  const float xi = java_float(xr - xrb), yi = java_float(yr - yrb), zi = java_float(zr - zrb);

  const ulong xrbp = jlong(xrb) * k_prime_x, yrbp = jlong(yrb) * k_prime_y,
              zrbp = jlong(zrb) * k_prime_z;
  const ulong seed2 = seed ^ k_seed_flip_3d;

  // -1 if positive, 0 if negative.
  const jint xm = java_int(-0.5f - xi), ym = java_int(-0.5f - yi), zm = java_int(-0.5f - zi);
  const float xs1 = static_cast<float>(xm | 1), ys1 = static_cast<float>(ym | 1),
              zs1 = static_cast<float>(zm | 1);

  const float x0 = xi + static_cast<float>(xm);
  const float y0 = yi + static_cast<float>(ym);
  const float z0 = zi + static_cast<float>(zm);
  const float a0 = r2 - x0 * x0 - y0 * y0 - z0 * z0;
  float value = term3(t, a0, seed, xrbp + (jlong(xm) & k_prime_x), yrbp + (jlong(ym) & k_prime_y),
                      zrbp + (jlong(zm) & k_prime_z), x0, y0, z0, dv);

  const float x1 = xi - 0.5f;
  const float y1 = yi - 0.5f;
  const float z1 = zi - 0.5f;
  const float a1 = r2 - x1 * x1 - y1 * y1 - z1 * z1;
  value +=
      term3(t, a1, seed2, xrbp + k_prime_x, yrbp + k_prime_y, zrbp + k_prime_z, x1, y1, z1, dv);

  const float x_flip0 = static_cast<float>(jshl(xm | 1, 1)) * x1;
  const float y_flip0 = static_cast<float>(jshl(ym | 1, 1)) * y1;
  const float z_flip0 = static_cast<float>(jshl(zm | 1, 1)) * z1;
  const float x_flip1 = static_cast<float>(jsub(-2, jshl(xm, 2))) * x1 - 1.0f;
  const float y_flip1 = static_cast<float>(jsub(-2, jshl(ym, 2))) * y1 - 1.0f;
  const float z_flip1 = static_cast<float>(jsub(-2, jshl(zm, 2))) * z1 - 1.0f;

  // The hash coordinates: the first copy's base point plus (mask & prime) or (~mask & prime);
  // the second copy's plus a prime or (mask & 2 prime).
  const ulong x_near = xrbp + (jlong(xm) & k_prime_x), x_far = xrbp + (jlong(~xm) & k_prime_x);
  const ulong y_near = yrbp + (jlong(ym) & k_prime_y), y_far = yrbp + (jlong(~ym) & k_prime_y);
  const ulong z_near = zrbp + (jlong(zm) & k_prime_z), z_far = zrbp + (jlong(~zm) & k_prime_z);
  const ulong x_next = xrbp + k_prime_x, x_back = xrbp + (jlong(xm) & (k_prime_x * 2));
  const ulong y_next = yrbp + k_prime_y, y_back = yrbp + (jlong(ym) & (k_prime_y << 1));
  const ulong z_next = zrbp + k_prime_z, z_back = zrbp + (jlong(zm) & (k_prime_z << 1));
  // (PRIME_X * 2 and PRIME_X << 1 are the same long.)

  bool skip5 = false;
  const float a2 = x_flip0 + a0;
  if (a2 > 0) {
    value += term3(t, a2, seed, x_far, y_near, z_near, x0 - xs1, y0, z0, dv);
  } else {
    const float a3 = y_flip0 + z_flip0 + a0;
    if (a3 > 0) value += term3(t, a3, seed, x_near, y_far, z_far, x0, y0 - ys1, z0 - zs1, dv);
    const float a4 = x_flip1 + a1;
    if (a4 > 0) {
      value += term3(t, a4, seed2, x_back, y_next, z_next, xs1 + x1, y1, z1, dv);
      skip5 = true;
    }
  }

  bool skip9 = false;
  const float a6 = y_flip0 + a0;
  if (a6 > 0) {
    value += term3(t, a6, seed, x_near, y_far, z_near, x0, y0 - ys1, z0, dv);
  } else {
    const float a7 = x_flip0 + z_flip0 + a0;
    if (a7 > 0) value += term3(t, a7, seed, x_far, y_near, z_far, x0 - xs1, y0, z0 - zs1, dv);
    const float a8 = y_flip1 + a1;
    if (a8 > 0) {
      value += term3(t, a8, seed2, x_next, y_back, z_next, x1, ys1 + y1, z1, dv);
      skip9 = true;
    }
  }

  bool skip_d = false;
  const float a_a = z_flip0 + a0;
  if (a_a > 0) {
    value += term3(t, a_a, seed, x_near, y_near, z_far, x0, y0, z0 - zs1, dv);
  } else {
    const float a_b = x_flip0 + y_flip0 + a0;
    if (a_b > 0) value += term3(t, a_b, seed, x_far, y_far, z_near, x0 - xs1, y0 - ys1, z0, dv);
    const float a_c = z_flip1 + a1;
    if (a_c > 0) {
      value += term3(t, a_c, seed2, x_next, y_next, z_back, x1, y1, zs1 + z1, dv);
      skip_d = true;
    }
  }

  if (!skip5) {
    const float a5 = y_flip1 + z_flip1 + a1;
    if (a5 > 0) value += term3(t, a5, seed2, x_next, y_back, z_back, x1, ys1 + y1, zs1 + z1, dv);
  }
  if (!skip9) {
    const float a9 = x_flip1 + z_flip1 + a1;
    if (a9 > 0) value += term3(t, a9, seed2, x_back, y_next, z_back, xs1 + x1, y1, zs1 + z1, dv);
  }
  if (!skip_d) {
    const float a_d = x_flip1 + y_flip1 + a1;
    if (a_d > 0) value += term3(t, a_d, seed2, x_back, y_back, z_next, xs1 + x1, ys1 + y1, z1, dv);
  }
  return value;
}

// OpenSimplex2S.java's lookup4DVertexCodes: for each of the 256 sub-cells (index: the quarter
// of the unit cell on each skewed axis, x in bits 0-1 ... w in bits 6-7), the lattice points that
// may contribute, each as a code whose bit pairs hold its skewed offset + 1 (x in bits 0-1).
// clang-format off
constexpr std::uint8_t k_lookup_4d_counts[256] = {
    20, 15, 16, 17, 15, 16, 12, 15, 16, 12, 10, 14, 17, 15, 14, 17,
    15, 16, 12, 15, 16, 14, 14, 13, 12, 14, 11, 12, 15, 13, 12, 14,
    16, 12, 10, 14, 12, 14, 11, 12, 10, 11, 10, 13, 14, 12, 13, 15,
    17, 15, 14, 17, 15, 13, 12, 14, 14, 12, 13, 15, 17, 14, 15, 17,
    15, 16, 12, 15, 16, 14, 14, 13, 12, 14, 11, 12, 15, 13, 12, 14,
    16, 14, 14, 13, 14, 16, 16, 10, 14, 16, 19, 11, 13, 10, 11, 10,
    12, 14, 11, 12, 14, 16, 19, 11, 11, 19, 13, 14, 12, 11, 14, 13,
    15, 13, 12, 14, 13, 10, 11, 10, 12, 11, 14, 13, 14, 10, 13, 13,
    16, 12, 10, 14, 12, 14, 11, 12, 10, 11, 10, 13, 14, 12, 13, 15,
    12, 14, 11, 12, 14, 16, 19, 11, 11, 19, 13, 14, 12, 11, 14, 13,
    10, 11, 10, 13, 11, 19, 13, 14, 10, 13, 16, 14, 13, 14, 14, 16,
    14, 12, 13, 15, 12, 11, 14, 13, 13, 14, 14, 16, 15, 13, 16, 15,
    17, 15, 14, 17, 15, 13, 12, 14, 14, 12, 13, 15, 17, 14, 15, 17,
    15, 13, 12, 14, 13, 10, 11, 10, 12, 11, 14, 13, 14, 10, 13, 13,
    14, 12, 13, 15, 12, 11, 14, 13, 13, 14, 14, 16, 15, 13, 16, 15,
    17, 14, 15, 17, 14, 10, 13, 13, 15, 13, 16, 15, 17, 13, 15, 20,
};
constexpr std::uint8_t k_lookup_4d_codes[] = {
    0x15, 0x45, 0x51, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96,
        0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x15, 0x45, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA6, 0xAA,
    0x01, 0x05, 0x11, 0x15, 0x41, 0x45, 0x51, 0x55, 0x56, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xA6, 0xAA,
    0x01, 0x15, 0x16, 0x45, 0x46, 0x51, 0x52, 0x55, 0x56, 0x5A, 0x66, 0x6A, 0x96, 0x9A,
        0xA6, 0xAA, 0xAB,
    0x15, 0x45, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA9, 0xAA,
    0x05, 0x15, 0x45, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xAA,
    0x05, 0x15, 0x45, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xAA,
    0x05, 0x15, 0x16, 0x45, 0x46, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xAA, 0xAB,
    0x04, 0x05, 0x14, 0x15, 0x44, 0x45, 0x54, 0x55, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA,
    0x05, 0x15, 0x45, 0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xAA,
    0x05, 0x15, 0x45, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x9A, 0xAA,
    0x05, 0x15, 0x16, 0x45, 0x46, 0x55, 0x56, 0x59, 0x5A, 0x5B, 0x6A, 0x9A, 0xAA, 0xAB,
    0x04, 0x15, 0x19, 0x45, 0x49, 0x54, 0x55, 0x58, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A,
        0xA9, 0xAA, 0xAE,
    0x05, 0x15, 0x19, 0x45, 0x49, 0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xAA, 0xAE,
    0x05, 0x15, 0x19, 0x45, 0x49, 0x55, 0x56, 0x59, 0x5A, 0x5E, 0x6A, 0x9A, 0xAA, 0xAE,
    0x05, 0x15, 0x1A, 0x45, 0x4A, 0x55, 0x56, 0x59, 0x5A, 0x5B, 0x5E, 0x6A, 0x9A, 0xAA,
        0xAB, 0xAE, 0xAF,
    0x15, 0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0xA5, 0xA6, 0xA9, 0xAA,
    0x11, 0x15, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0xA5, 0xA6, 0xAA,
    0x11, 0x15, 0x51, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x96, 0xA6, 0xAA,
    0x11, 0x15, 0x16, 0x51, 0x52, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x96, 0xA6, 0xAA, 0xAB,
    0x14, 0x15, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x99, 0xA5, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x9A, 0xA6, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x15, 0x16, 0x55, 0x56, 0x5A, 0x66, 0x6A, 0x6B, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x14, 0x15, 0x54, 0x55, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x99, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x9A, 0xAA,
    0x15, 0x16, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x6B, 0x9A, 0xAA, 0xAB,
    0x14, 0x15, 0x19, 0x54, 0x55, 0x58, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x99, 0xA9, 0xAA, 0xAE,
    0x15, 0x19, 0x55, 0x59, 0x5A, 0x69, 0x6A, 0x6E, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x15, 0x19, 0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x6E, 0x9A, 0xAA, 0xAE,
    0x15, 0x1A, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x6B, 0x6E, 0x9A, 0xAA, 0xAB, 0xAE, 0xAF,
    0x10, 0x11, 0x14, 0x15, 0x50, 0x51, 0x54, 0x55, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x11, 0x15, 0x51, 0x55, 0x56, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xAA,
    0x11, 0x15, 0x51, 0x55, 0x56, 0x65, 0x66, 0x6A, 0xA6, 0xAA,
    0x11, 0x15, 0x16, 0x51, 0x52, 0x55, 0x56, 0x65, 0x66, 0x67, 0x6A, 0xA6, 0xAA, 0xAB,
    0x14, 0x15, 0x54, 0x55, 0x59, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA6, 0xAA,
    0x15, 0x16, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x6B, 0xA6, 0xAA, 0xAB,
    0x14, 0x15, 0x54, 0x55, 0x59, 0x65, 0x69, 0x6A, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xAA,
    0x15, 0x16, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x6B, 0xAA, 0xAB,
    0x14, 0x15, 0x19, 0x54, 0x55, 0x58, 0x59, 0x65, 0x69, 0x6A, 0x6D, 0xA9, 0xAA, 0xAE,
    0x15, 0x19, 0x55, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x6E, 0xA9, 0xAA, 0xAE,
    0x15, 0x19, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x6E, 0xAA, 0xAE,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x69, 0x6A, 0x6B, 0x6E, 0x9A, 0xAA, 0xAB, 0xAE, 0xAF,
    0x10, 0x15, 0x25, 0x51, 0x54, 0x55, 0x61, 0x64, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6,
        0xA9, 0xAA, 0xBA,
    0x11, 0x15, 0x25, 0x51, 0x55, 0x56, 0x61, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xAA, 0xBA,
    0x11, 0x15, 0x25, 0x51, 0x55, 0x56, 0x61, 0x65, 0x66, 0x6A, 0x76, 0xA6, 0xAA, 0xBA,
    0x11, 0x15, 0x26, 0x51, 0x55, 0x56, 0x62, 0x65, 0x66, 0x67, 0x6A, 0x76, 0xA6, 0xAA,
        0xAB, 0xBA, 0xBB,
    0x14, 0x15, 0x25, 0x54, 0x55, 0x59, 0x64, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA9, 0xAA, 0xBA,
    0x15, 0x25, 0x55, 0x65, 0x66, 0x69, 0x6A, 0x7A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x25, 0x55, 0x56, 0x65, 0x66, 0x69, 0x6A, 0x7A, 0xA6, 0xAA, 0xBA,
    0x15, 0x26, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x6B, 0x7A, 0xA6, 0xAA, 0xAB, 0xBA, 0xBB,
    0x14, 0x15, 0x25, 0x54, 0x55, 0x59, 0x64, 0x65, 0x69, 0x6A, 0x79, 0xA9, 0xAA, 0xBA,
    0x15, 0x25, 0x55, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x7A, 0xA9, 0xAA, 0xBA,
    0x15, 0x25, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x7A, 0xAA, 0xBA,
    0x15, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x6B, 0x7A, 0xA6, 0xAA, 0xAB, 0xBA, 0xBB,
    0x14, 0x15, 0x29, 0x54, 0x55, 0x59, 0x65, 0x68, 0x69, 0x6A, 0x6D, 0x79, 0xA9, 0xAA,
        0xAE, 0xBA, 0xBE,
    0x15, 0x29, 0x55, 0x59, 0x65, 0x69, 0x6A, 0x6E, 0x7A, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x15, 0x55, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x6E, 0x7A, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x6B, 0x6E, 0x7A, 0xAA, 0xAB,
        0xAE, 0xBA, 0xBF,
    0x45, 0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xAA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x5A, 0x66, 0x95, 0x96, 0x9A, 0xA6, 0xAA,
    0x41, 0x45, 0x46, 0x51, 0x52, 0x55, 0x56, 0x5A, 0x66, 0x95, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x44, 0x45, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x69, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xAA, 0xAB,
    0x45, 0x46, 0x55, 0x56, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0x9B, 0xA6, 0xAA, 0xAB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x5A, 0x69, 0x95, 0x99, 0x9A, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xAA,
    0x45, 0x46, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x96, 0x9A, 0x9B, 0xAA, 0xAB,
    0x44, 0x45, 0x49, 0x54, 0x55, 0x58, 0x59, 0x5A, 0x69, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x45, 0x49, 0x55, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0x9E, 0xA9, 0xAA, 0xAE,
    0x45, 0x49, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x99, 0x9A, 0x9E, 0xAA, 0xAE,
    0x45, 0x4A, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x9A, 0x9B, 0x9E, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x66, 0x69, 0x95, 0x96, 0x99, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x59, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xAA, 0xAB,
    0x51, 0x52, 0x55, 0x56, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xA6, 0xA7, 0xAA, 0xAB,
    0x54, 0x55, 0x56, 0x59, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x15, 0x45, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x55, 0x56, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xAE,
    0x15, 0x45, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x15, 0x45, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A,
        0xA6, 0xA9, 0xAA, 0xAB, 0xAE,
    0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x58, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAD, 0xAE,
    0x55, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x55, 0x56, 0x59, 0x5A, 0x6A, 0x9A, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x66, 0x69, 0x95, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x95, 0x96, 0xA5, 0xA6, 0xAA,
    0x51, 0x52, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x96, 0xA6, 0xA7, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x9A, 0xA5,
        0xA6, 0xA9, 0xAA, 0xAB, 0xBA,
    0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x6A, 0x95, 0x99, 0xA5, 0xA9, 0xAA,
    0x15, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5,
        0xA6, 0xA9, 0xAA, 0xAE, 0xBA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x9A, 0xA6, 0xA9, 0xAA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x58, 0x59, 0x65, 0x69, 0x6A, 0x99, 0xA9, 0xAA, 0xAD, 0xAE,
    0x55, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x69, 0x6A, 0x9A, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x61, 0x64, 0x65, 0x66, 0x69, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x51, 0x55, 0x61, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xB6, 0xBA,
    0x51, 0x55, 0x56, 0x61, 0x65, 0x66, 0x6A, 0xA5, 0xA6, 0xAA, 0xB6, 0xBA,
    0x51, 0x55, 0x56, 0x62, 0x65, 0x66, 0x6A, 0xA6, 0xA7, 0xAA, 0xAB, 0xB6, 0xBA, 0xBB,
    0x54, 0x55, 0x64, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xB9, 0xBA,
    0x55, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x55, 0x56, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x55, 0x56, 0x65, 0x66, 0x6A, 0xA6, 0xAA, 0xAB, 0xBA, 0xBB,
    0x54, 0x55, 0x59, 0x64, 0x65, 0x69, 0x6A, 0xA5, 0xA9, 0xAA, 0xB9, 0xBA,
    0x55, 0x59, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x15, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA6, 0xAA, 0xAB, 0xBA, 0xBB,
    0x54, 0x55, 0x59, 0x65, 0x68, 0x69, 0x6A, 0xA9, 0xAA, 0xAD, 0xAE, 0xB9, 0xBA, 0xBE,
    0x55, 0x59, 0x65, 0x69, 0x6A, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x15, 0x55, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0xAA, 0xAB, 0xAE, 0xBA, 0xBF,
    0x40, 0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xAA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x95, 0x96, 0x9A, 0xA6, 0xAA,
    0x41, 0x45, 0x46, 0x51, 0x52, 0x55, 0x56, 0x95, 0x96, 0x97, 0x9A, 0xA6, 0xAA, 0xAB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xAA,
    0x45, 0x46, 0x55, 0x56, 0x5A, 0x95, 0x96, 0x9A, 0x9B, 0xA6, 0xAA, 0xAB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x95, 0x99, 0x9A, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xAA,
    0x45, 0x46, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0x9B, 0xAA, 0xAB,
    0x44, 0x45, 0x49, 0x54, 0x55, 0x58, 0x59, 0x95, 0x99, 0x9A, 0x9D, 0xA9, 0xAA, 0xAE,
    0x45, 0x49, 0x55, 0x59, 0x5A, 0x95, 0x99, 0x9A, 0x9E, 0xA9, 0xAA, 0xAE,
    0x45, 0x49, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0x9E, 0xAA, 0xAE,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x96, 0x99, 0x9A, 0x9B, 0x9E, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x95, 0x96, 0x99, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xAA,
    0x51, 0x52, 0x55, 0x56, 0x66, 0x95, 0x96, 0x9A, 0xA6, 0xA7, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x45, 0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x45, 0x51, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5,
        0xA6, 0xA9, 0xAA, 0xAB, 0xEA,
    0x55, 0x56, 0x5A, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA,
    0x45, 0x54, 0x55, 0x56, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5,
        0xA6, 0xA9, 0xAA, 0xAE, 0xEA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xA9, 0xAA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x66, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x58, 0x59, 0x69, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xAD, 0xAE,
    0x55, 0x59, 0x5A, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA9, 0xAA, 0xAE,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x6A, 0x96, 0x99, 0x9A, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x95, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xAA,
    0x51, 0x52, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xA7, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x54, 0x55, 0x56, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5,
        0xA6, 0xA9, 0xAA, 0xBA, 0xEA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x51, 0x55, 0x56, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xAA, 0xAB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA9, 0xAA,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA6, 0xA9, 0xAA, 0xAB,
    0x54, 0x55, 0x58, 0x59, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA9, 0xAA, 0xAD, 0xAE,
    0x54, 0x55, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xAE,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA6, 0xA9, 0xAA, 0xAE,
    0x55, 0x56, 0x59, 0x5A, 0x66, 0x69, 0x6A, 0x96, 0x99, 0x9A, 0xA6, 0xA9, 0xAA, 0xAB, 0xAE, 0xAF,
    0x50, 0x51, 0x54, 0x55, 0x61, 0x64, 0x65, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xB5, 0xBA,
    0x51, 0x55, 0x61, 0x65, 0x66, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xB6, 0xBA,
    0x51, 0x55, 0x56, 0x61, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xAA, 0xB6, 0xBA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x96, 0xA5, 0xA6, 0xA7, 0xAA, 0xAB, 0xB6, 0xBA, 0xBB,
    0x54, 0x55, 0x64, 0x65, 0x69, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xB9, 0xBA,
    0x55, 0x65, 0x66, 0x69, 0x6A, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x6A, 0x96, 0xA5, 0xA6, 0xAA, 0xAB, 0xBA, 0xBB,
    0x54, 0x55, 0x59, 0x64, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA9, 0xAA, 0xB9, 0xBA,
    0x54, 0x55, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x55, 0x56, 0x59, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA,
    0x55, 0x56, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x96, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAB, 0xBA, 0xBB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x6A, 0x99, 0xA5, 0xA9, 0xAA, 0xAD, 0xAE, 0xB9, 0xBA, 0xBE,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x6A, 0x99, 0xA5, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x55, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAE, 0xBA, 0xBE,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x9A, 0xA6, 0xA9, 0xAA, 0xAB, 0xAE, 0xBA,
    0x40, 0x45, 0x51, 0x54, 0x55, 0x85, 0x91, 0x94, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6,
        0xA9, 0xAA, 0xEA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x85, 0x91, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xAA, 0xEA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x85, 0x91, 0x95, 0x96, 0x9A, 0xA6, 0xAA, 0xD6, 0xEA,
    0x41, 0x45, 0x51, 0x55, 0x56, 0x86, 0x92, 0x95, 0x96, 0x97, 0x9A, 0xA6, 0xAA, 0xAB,
        0xD6, 0xEA, 0xEB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x85, 0x94, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xEA,
    0x45, 0x55, 0x85, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xDA, 0xEA,
    0x45, 0x55, 0x56, 0x85, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xAA, 0xDA, 0xEA,
    0x45, 0x55, 0x56, 0x86, 0x95, 0x96, 0x9A, 0x9B, 0xA6, 0xAA, 0xAB, 0xDA, 0xEA, 0xEB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x85, 0x94, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xD9, 0xEA,
    0x45, 0x55, 0x59, 0x85, 0x95, 0x96, 0x99, 0x9A, 0xA9, 0xAA, 0xDA, 0xEA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x85, 0x95, 0x96, 0x99, 0x9A, 0xAA, 0xDA, 0xEA,
    0x45, 0x55, 0x56, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0x9B, 0xA6, 0xAA, 0xAB, 0xDA, 0xEA, 0xEB,
    0x44, 0x45, 0x54, 0x55, 0x59, 0x89, 0x95, 0x98, 0x99, 0x9A, 0x9D, 0xA9, 0xAA, 0xAE,
        0xD9, 0xEA, 0xEE,
    0x45, 0x55, 0x59, 0x89, 0x95, 0x99, 0x9A, 0x9E, 0xA9, 0xAA, 0xAE, 0xDA, 0xEA, 0xEE,
    0x45, 0x55, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0x9E, 0xA9, 0xAA, 0xAE, 0xDA, 0xEA, 0xEE,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0x9B, 0x9E, 0xAA, 0xAB, 0xAE,
        0xDA, 0xEA, 0xEF,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x91, 0x94, 0x95, 0x96, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x51, 0x55, 0x91, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xE6, 0xEA,
    0x51, 0x55, 0x56, 0x91, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xAA, 0xE6, 0xEA,
    0x51, 0x55, 0x56, 0x92, 0x95, 0x96, 0x9A, 0xA6, 0xA7, 0xAA, 0xAB, 0xE6, 0xEA, 0xEB,
    0x54, 0x55, 0x94, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xE9, 0xEA,
    0x55, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x55, 0x56, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x55, 0x56, 0x95, 0x96, 0x9A, 0xA6, 0xAA, 0xAB, 0xEA, 0xEB,
    0x54, 0x55, 0x59, 0x94, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xE9, 0xEA,
    0x55, 0x59, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x45, 0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x45, 0x55, 0x56, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xAA, 0xAB, 0xEA, 0xEB,
    0x54, 0x55, 0x59, 0x95, 0x98, 0x99, 0x9A, 0xA9, 0xAA, 0xAD, 0xAE, 0xE9, 0xEA, 0xEE,
    0x55, 0x59, 0x95, 0x99, 0x9A, 0xA9, 0xAA, 0xAE, 0xEA, 0xEE,
    0x45, 0x55, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xA9, 0xAA, 0xAE, 0xEA, 0xEE,
    0x55, 0x56, 0x59, 0x5A, 0x95, 0x96, 0x99, 0x9A, 0xAA, 0xAB, 0xAE, 0xEA, 0xEF,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x91, 0x94, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xE5, 0xEA,
    0x51, 0x55, 0x65, 0x91, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA, 0xE6, 0xEA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x91, 0x95, 0x96, 0xA5, 0xA6, 0xAA, 0xE6, 0xEA,
    0x51, 0x55, 0x56, 0x66, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xA7, 0xAA, 0xAB, 0xE6, 0xEA, 0xEB,
    0x54, 0x55, 0x65, 0x94, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xE9, 0xEA,
    0x55, 0x65, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x51, 0x55, 0x56, 0x66, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xAA, 0xAB, 0xEA, 0xEB,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x94, 0x95, 0x99, 0xA5, 0xA9, 0xAA, 0xE9, 0xEA,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x55, 0x56, 0x59, 0x65, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xEA,
    0x55, 0x56, 0x5A, 0x66, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAB, 0xEA, 0xEB,
    0x54, 0x55, 0x59, 0x69, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xAD, 0xAE, 0xE9, 0xEA, 0xEE,
    0x54, 0x55, 0x59, 0x69, 0x95, 0x99, 0x9A, 0xA5, 0xA9, 0xAA, 0xAE, 0xEA, 0xEE,
    0x55, 0x59, 0x5A, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAE, 0xEA, 0xEE,
    0x55, 0x56, 0x59, 0x5A, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA6, 0xA9, 0xAA, 0xAB, 0xAE, 0xEA,
    0x50, 0x51, 0x54, 0x55, 0x65, 0x95, 0xA1, 0xA4, 0xA5, 0xA6, 0xA9, 0xAA, 0xB5, 0xBA,
        0xE5, 0xEA, 0xFA,
    0x51, 0x55, 0x65, 0x95, 0xA1, 0xA5, 0xA6, 0xA9, 0xAA, 0xB6, 0xBA, 0xE6, 0xEA, 0xFA,
    0x51, 0x55, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA, 0xB6, 0xBA, 0xE6, 0xEA, 0xFA,
    0x51, 0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xA7, 0xAA, 0xAB, 0xB6, 0xBA,
        0xE6, 0xEA, 0xFB,
    0x54, 0x55, 0x65, 0x95, 0xA4, 0xA5, 0xA6, 0xA9, 0xAA, 0xB9, 0xBA, 0xE9, 0xEA, 0xFA,
    0x55, 0x65, 0x95, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA, 0xEA, 0xFA,
    0x51, 0x55, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA, 0xEA, 0xFA,
    0x55, 0x56, 0x65, 0x66, 0x95, 0x96, 0xA5, 0xA6, 0xAA, 0xAB, 0xBA, 0xEA, 0xFB,
    0x54, 0x55, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xB9, 0xBA, 0xE9, 0xEA, 0xFA,
    0x54, 0x55, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA, 0xEA, 0xFA,
    0x55, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xBA, 0xEA, 0xFA,
    0x55, 0x56, 0x65, 0x66, 0x6A, 0x95, 0x96, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAB, 0xBA, 0xEA,
    0x54, 0x55, 0x59, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA9, 0xAA, 0xAD, 0xAE, 0xB9, 0xBA,
        0xE9, 0xEA, 0xFE,
    0x55, 0x59, 0x65, 0x69, 0x95, 0x99, 0xA5, 0xA9, 0xAA, 0xAE, 0xBA, 0xEA, 0xFE,
    0x55, 0x59, 0x65, 0x69, 0x6A, 0x95, 0x99, 0x9A, 0xA5, 0xA6, 0xA9, 0xAA, 0xAE, 0xBA, 0xEA,
    0x55, 0x56, 0x59, 0x5A, 0x65, 0x66, 0x69, 0x6A, 0x95, 0x96, 0x99, 0x9A, 0xA5, 0xA6,
        0xA9, 0xAA, 0xAB, 0xAE, 0xBA, 0xEA,
};
// clang-format on

// LatticeVertex4D of OpenSimplex2S.java: a lattice point's prime-multiplied skewed offset and its
// unskewed offset from the cell's base (negated).
struct lattice_vertex4 {
  float dx, dy, dz, dw;
  ulong xsvp, ysvp, zsvp, wsvp;
};

constexpr lattice_vertex4 make_vertex4(int code) {
  const jint xsv = ((code >> 0) & 3) - 1, ysv = ((code >> 2) & 3) - 1, zsv = ((code >> 4) & 3) - 1,
             wsv = ((code >> 6) & 3) - 1;
  const float ssv = static_cast<float>(xsv + ysv + zsv + wsv) * k_smooth_unskew_4d;
  return {static_cast<float>(-xsv) - ssv, static_cast<float>(-ysv) - ssv,
          static_cast<float>(-zsv) - ssv, static_cast<float>(-wsv) - ssv,
          jlong(xsv) * k_prime_x,         jlong(ysv) * k_prime_y,
          jlong(zsv) * k_prime_z,         jlong(wsv) * k_prime_w};
}

struct lookup4 {
  std::array<std::uint16_t, 257> start{};  // the lists of sub-cell i: [start[i], start[i + 1])
  std::array<lattice_vertex4, sizeof(k_lookup_4d_codes)> vertex{};
};

constexpr lookup4 make_lookup4() {
  lookup4 l;
  for (std::size_t i = 0; i < 256; ++i)
    l.start[i + 1] = static_cast<std::uint16_t>(l.start[i] + k_lookup_4d_counts[i]);
  for (std::size_t j = 0; j < sizeof(k_lookup_4d_codes); ++j)
    l.vertex[j] = make_vertex4(k_lookup_4d_codes[j]);
  return l;
}
constexpr lookup4 k_lookup4 = make_lookup4();
static_assert(k_lookup4.start[256] == sizeof(k_lookup_4d_codes));

// noise4_UnskewedBase of OpenSimplex2S.java.
float smooth_base4(ulong seed, double xs, double ys, double zs, double ws, deriv4* dv) noexcept {
  const gradient_tables& t = k_smooth_tables;
  const jint xsb = fast_floor(xs), ysb = fast_floor(ys), zsb = fast_floor(zs), wsb = fast_floor(ws);
  const float xsi = java_float(xs - xsb), ysi = java_float(ys - ysb), zsi = java_float(zs - zsb),
              wsi = java_float(ws - wsb);

  const float ssi = (xsi + ysi + zsi + wsi) * k_smooth_unskew_4d;
  const float xi = xsi + ssi, yi = ysi + ssi, zi = zsi + ssi, wi = wsi + ssi;

  const ulong xsvp = jlong(xsb) * k_prime_x, ysvp = jlong(ysb) * k_prime_y,
              zsvp = jlong(zsb) * k_prime_z, wsvp = jlong(wsb) * k_prime_w;

  const jint index = ((fast_floor(xs * 4) & 3) << 0) | ((fast_floor(ys * 4) & 3) << 2) |
                     ((fast_floor(zs * 4) & 3) << 4) | ((fast_floor(ws * 4) & 3) << 6);

  float value = 0;
  const auto start = k_lookup4.start[static_cast<std::size_t>(index)];
  const auto stop = k_lookup4.start[static_cast<std::size_t>(index) + 1];
  for (std::size_t i = start; i < stop; i++) {
    const lattice_vertex4& c = k_lookup4.vertex[i];
    const float dx = xi + c.dx, dy = yi + c.dy, dz = zi + c.dz, dw = wi + c.dw;
    const float a = (dx * dx + dy * dy) + (dz * dz + dw * dw);
    if (a < k_smooth_rsquared_4d) {
      value += term4(t, a - k_smooth_rsquared_4d, seed, xsvp + c.xsvp, ysvp + c.ysvp, zsvp + c.zsvp,
                     wsvp + c.wsvp, dx, dy, dz, dw, dv);
    }
  }
  return value;
}

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

lattice_point to_lattice(const family& f, os2_variant v, const double* p) noexcept {
  lattice_point l{};
  auto& j = l.jacobian;
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
