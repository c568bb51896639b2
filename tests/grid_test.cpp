// Grids on every SIMD target this machine runs: against the double scalar path, thread-count
// independence, strict mode, derivatives, tiles, wide grids, and the rule for steps and
// coordinates. Point batches are in points_test.cpp, the bulk calls' errors in bulk_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bulk/plans.hpp"
#include "bulk_cases.hpp"
#include "detail/kernel_registry.hpp"
#include "perlin/perlin.hpp"
#include "runtime/cpu_vendor.hpp"

namespace {

using bulk_cases::fields;
using bulk_cases::for_each_target;
using bulk_cases::tolerance;

/// The largest difference between the float grid `got` and the scalar path: field::eval<double>
/// at each sample's coordinates (grid::coordinate; x fastest, then y, z, w).
double worst_error(const perlin::field& f, const perlin::grid& g, const std::vector<float>& got) {
  double worst = 0;
  std::array<std::size_t, 4> at{0, 0, 0, 0};
  std::array<double, 4> p{};
  for (std::size_t i = 0; i < got.size(); ++i) {
    for (std::size_t a = 0; a < g.dims; ++a) p[a] = g.coordinate(a, at[a]);
    const double want = f.eval(std::span<const double>(p.data(), g.dims));
    worst = std::max(worst, std::abs(double(got[i]) - want));
    for (std::size_t a = 0; a < g.dims; ++a) {  // the next sample's indices
      if (++at[a] < g.count[a]) break;
      at[a] = 0;
    }
  }
  return worst;
}

TEST(Grid, MatchesTheScalarPathOnEveryTarget) {
  const auto all = fields();
  // Each vendor's choices (AVX3_DL hashes 2-D rows differently on Intel's cores and on AMD's,
  // simd/rows-inl.h), whatever this machine's CPU.
  struct own_vendor_again {
    ~own_vendor_again() { perlin::detail::force_cpu_vendor(std::nullopt); }
  } const reset;
  for (const auto vendor : {perlin::detail::cpu_vendor::intel, perlin::detail::cpu_vendor::amd}) {
    perlin::detail::force_cpu_vendor(vendor);
    SCOPED_TRACE(vendor == perlin::detail::cpu_vendor::intel ? "as on Intel" : "as on AMD");
    for_each_target([&](const std::string&) {
      for (std::size_t fi = 0; fi < all.size(); ++fi) {
        const perlin::field& f = all[fi];
        for (std::size_t dims = 1; dims <= 4; ++dims) {
          // Row lengths 1 .. 3N+1 for the widest vectors (16 floats) and past two blocks of 64 (the
          // byte-hashed rows of AVX3_DL), odd origins, negative
          // coordinates, steps from many samples per cell to several cells per sample.
          for (const std::size_t nx : {1u, 2u, 7u, 8u, 9u, 15u, 16u, 17u, 33u, 49u, 131u}) {
            for (const double step : {1.0 / 64, 0.23, -0.37, 1.7}) {
              perlin::grid g;
              g.dims = dims;
              g.count = {nx, 3, 2, 2};
              g.origin = {-5.3 - 0.01 * static_cast<double>(nx), 2.71, -1.13, 0.37};
              g.step = {step, 0.61, -0.29, 0.83};
              std::vector<float> got(g.size());
              perlin::fill_grid(f, g, got);
              ASSERT_LE(worst_error(f, g, got), tolerance(f))
                  << "field " << fi << " dims " << dims << " nx " << nx << " step " << step;
            }
          }
        }
      }
    });
  }
}

TEST(Grid, NarrowCellsMatchTheScalarPathOnEveryTarget) {
  // Rows with two or more cells a vector (simd/rows-inl.h: row_by_fused_cells where a vector's
  // cells and their sides fit N points, row_by_narrow_cells where they do not): rising and
  // falling rows, steps from 5 to about 1 sample a cell, 1-D to 4-D, plain and fBm, improved and
  // value noise, on rows long enough for many vectors and a partial last one.
  std::vector<perlin::field> some;
  some.emplace_back();
  some.emplace_back(perlin::improved_noise(3),
                    perlin::fractal().set_kind(perlin::fractal_kind::fbm).set_octaves(3));
  some.emplace_back(perlin::value_noise(5), perlin::fractal());
  for_each_target([&](const std::string&) {
    for (std::size_t fi = 0; fi < some.size(); ++fi) {
      for (std::size_t dims = 1; dims <= 4; ++dims) {
        for (const double step : {0.2, 0.45, 0.8, 0.97, 1.05, -0.6, -0.93}) {
          perlin::grid g;
          g.dims = dims;
          g.count = {301, 3, 2, 2};
          g.origin = {-41.3, 5.17, 2.6, -0.4};
          g.step = {step, 0.37, 0.71, -0.29};
          std::vector<float> got(g.size());
          perlin::fill_grid(some[fi], g, got);
          ASSERT_LE(worst_error(some[fi], g, got), tolerance(some[fi]))
              << "field " << fi << " dims " << dims << " step " << step;
        }
      }
    }
  });
}

TEST(Grid, ChunksOfOneOctaveMatchTheScalarPathWithTheirRangeOnEveryTarget) {
  // Short rows of one octave whose lattice points fit a vector take their own loop
  // (fill_register_rows in simd/rows-inl.h): improved noise and value noise of every
  // interpolation, periods, 1-D to 4-D, chunks 16 and 64 wide at steps of 2 to 16 samples a cell,
  // the range returned against the values written.
  std::vector<perlin::field> plain;
  plain.emplace_back();
  plain.emplace_back(perlin::improved_noise(9), perlin::fractal());
  for (const auto interp : {perlin::interpolation::linear, perlin::interpolation::cosine,
                            perlin::interpolation::cubic, perlin::interpolation::quintic}) {
    perlin::value_noise v(4, interp);
    v.lattice().set_period_all(5);
    plain.emplace_back(v, perlin::fractal());
  }
  for_each_target([&](const std::string&) {
    for (std::size_t fi = 0; fi < plain.size(); ++fi) {
      const perlin::field& f = plain[fi];
      for (std::size_t dims = 1; dims <= 4; ++dims) {
        for (const std::size_t nx : {16u, 64u}) {
          for (const double step : {1.0 / 16, 0.25, -0.5}) {
            perlin::grid g;
            g.dims = dims;
            g.count = {nx, 5, 4, 3};
            g.origin = {-3.1, 7.9, -2.6, 1.3};
            g.first = {64, -16, 3, 0};
            g.step = {step, 0.25, -0.3, 0.45};
            std::vector<float> got(g.size());
            const auto range = perlin::fill_grid(f, g, got);
            ASSERT_LE(worst_error(f, g, got), tolerance(f))
                << "field " << fi << " dims " << dims << " nx " << nx << " step " << step;
            const auto [lo, hi] = std::minmax_element(got.begin(), got.end());
            EXPECT_EQ(range.min, *lo) << "field " << fi << " dims " << dims << " nx " << nx;
            EXPECT_EQ(range.max, *hi) << "field " << fi << " dims " << dims << " nx " << nx;
          }
        }
      }
    }
  });
}

TEST(Grid, ChunksWithFewLatticeRowsPackedInVectorsMatchTheScalarPathOnEveryTarget) {
  // 3-D and 4-D chunks whose lattice rows along y fit a few vectors hash a plane's rows packed
  // together and move each into a vector of its own (packed_rows in simd/rows-inl.h): 6 and 10
  // lattice points a row, 3 to 14 lattice rows a plane (and 78, past what is packed), periods,
  // improved and value noise, one and two threads, against the scalar path with their range.
  // The self-check's grid reaches this path only where 10 points fit a vector (AVX-512).
  std::vector<perlin::field> fields;
  fields.emplace_back();
  perlin::improved_noise periodic(3);
  periodic.lattice().set_period_all(3);
  fields.emplace_back(periodic, perlin::fractal());
  fields.emplace_back(perlin::value_noise(7), perlin::fractal());
  for_each_target([&](const std::string&) {
    for (std::size_t fi = 0; fi < fields.size(); ++fi) {
      const perlin::field& f = fields[fi];
      for (std::size_t dims = 3; dims <= 4; ++dims) {
        for (const std::size_t nx : {16u, 32u}) {
          for (const auto& [ny, step_y] : {std::pair{16u, 0.25}, {40u, -0.3}, {70u, 1.1}}) {
            for (const unsigned threads : {1u, 2u}) {
              perlin::grid g;
              g.dims = dims;
              g.count = {nx, ny, 3, 2};
              g.origin = {-5.3, 2.05, 0.7, -1.4};
              g.step = {0.25, step_y, 0.35, 0.6};
              std::vector<float> got(g.size());
              const auto range = perlin::fill_grid(f, g, got, {.threads = threads});
              const std::string where = "field " + std::to_string(fi) + " dims " +
                                        std::to_string(dims) + " nx " + std::to_string(nx) +
                                        " ny " + std::to_string(ny);
              ASSERT_LE(worst_error(f, g, got), tolerance(f)) << where;
              const auto [lo, hi] = std::minmax_element(got.begin(), got.end());
              EXPECT_EQ(range.min, *lo) << where;
              EXPECT_EQ(range.max, *hi) << where;
            }
          }
        }
      }
    }
  });
}

TEST(Grid, ManySeedsInTurnFromManyThreadsEachGetTheirOwnTables) {
  // The kernels' hash tables are built once per permutation and kept for the last few used
  // (grid_plan.cpp): 12 seeds in turn, more than it keeps, from 4 threads at once, 2-D to 4-D,
  // each grid compared with the double scalar path of its own seed.
  std::vector<std::thread> threads;
  std::vector<double> worst(4, 0.0);
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([t, &worst] {
      for (std::uint64_t round = 0; round < 3; ++round) {
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
          const perlin::field f{perlin::improved_noise((seed * 7 + t) % 12),
                                perlin::fractal().set_kind(perlin::fractal_kind::none)};
          perlin::grid g;
          g.dims = 2 + (seed + t) % 3;
          g.count = {19, 5, 3, 2};
          g.origin = {0.3, -1.7, 2.2, 0.9};
          g.step = {0.27, 0.41, 0.33, 0.5};
          std::vector<float> got(g.size());
          perlin::fill_grid(f, g, got, {.threads = 1});
          for (std::size_t i = 0; i < got.size(); ++i) {
            std::size_t rest = i;
            double x[4] = {0, 0, 0, 0};
            for (std::size_t a = 0; a < g.dims; ++a) {
              x[a] = g.coordinate(a, rest % g.count[a]);
              rest /= g.count[a];
            }
            const double want = g.dims == 2   ? f(x[0], x[1])
                                : g.dims == 3 ? f(x[0], x[1], x[2])
                                              : f(x[0], x[1], x[2], x[3]);
            worst[t] = std::max(worst[t], std::abs(double(got[i]) - want));
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t t = 0; t < 4; ++t) EXPECT_LE(worst[t], tolerance(perlin::field())) << t;
}

TEST(Grid, DoubleGridIsTheSingleCallsBitForBit) {
  const perlin::field f;
  perlin::grid g;
  g.dims = 3;
  g.count = {11, 4, 3, 1};
  g.origin = {3.14, 41.5, 6.5, 0};
  g.step = {0.1, 0.25, 0.25, 1};
  std::vector<double> out(g.size());
  perlin::fill_grid(f, g, std::span<double>(out), {.threads = 2});
  const perlin::improved_noise n;
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t j = 0; j < 4; ++j) {
      for (std::size_t i = 0; i < 11; ++i) {
        EXPECT_EQ(
            out[(k * 4 + j) * 11 + i],
            n.noise3d(3.14 + double(i) * 0.1, 41.5 + double(j) * 0.25, 6.5 + double(k) * 0.25));
      }
    }
  }
}

TEST(Grid, DoubleGridsOfPlainNoiseAndFbmAreTheScalarPathBitForBitOnEveryTarget) {
  // 2-D and 3-D improved noise, plain or fBm, takes a SIMD kernel that must keep the scalar
  // path's bits: seeds, frequency and decorrelation (its + 0 turns -0 into +0, its offsets move
  // the octaves), periods as masks and as modulos (scaled per octave by an integer lacunarity),
  // a fractional lacunarity, normalisation, cells wider and narrower than a sample, negative
  // origins, lattice points.
  using perlin::fractal_kind;
  std::vector<perlin::field> fs;
  fs.emplace_back();
  fs.emplace_back(
      perlin::improved_noise(7),
      perlin::fractal().set_kind(fractal_kind::none).set_frequency(1.7).set_decorrelate(true));
  perlin::improved_noise periodic(3);
  periodic.lattice().set_period(0, 16).set_period(1, 5).set_period(2, 1000);
  fs.emplace_back(periodic, perlin::fractal().set_kind(fractal_kind::none).set_frequency(0.5));
  fs.emplace_back(perlin::improved_noise(9), perlin::fractal()
                                                 .set_kind(fractal_kind::fbm)
                                                 .set_octaves(5)
                                                 .set_normalize(true)
                                                 .set_decorrelate(true));
  fs.emplace_back(periodic, perlin::fractal().set_kind(fractal_kind::fbm).set_octaves(3));
  fs.emplace_back(perlin::improved_noise(), perlin::fractal()
                                                .set_kind(fractal_kind::fbm)
                                                .set_octaves(4)
                                                .set_lacunarity(2.5)
                                                .set_persistence(0.6));
  for_each_target([&](const std::string&) {
    for (const auto& f : fs) {
      for (const std::size_t dims : {2u, 3u}) {
        for (const double step : {1.0 / 64, 0.37, 1.3, 0.5, 1.0}) {
          perlin::grid g;
          g.dims = dims;
          g.count = {67, 5, dims == 3 ? 4u : 1u, 1};
          g.origin = {-3.0, -1.5, 2.25, 0};
          g.step = {step, step * 1.5, step * 0.75, 1};
          g.first = {-5, 3, 0, 0};
          std::vector<double> out(g.size());
          const auto range = perlin::fill_grid(f, g, std::span<double>(out), {.threads = 2});
          double lo = out[0], hi = out[0];
          for (std::size_t idx = 0; idx < out.size(); ++idx) {
            double p[3];
            std::size_t rem = idx;
            for (std::size_t a = 0; a < dims; ++a) {
              p[a] = g.coordinate(a, rem % g.count[a]);
              rem /= g.count[a];
            }
            const double want = f.eval<double>(std::span<const double>(p, dims));
            ASSERT_EQ(std::memcmp(&out[idx], &want, sizeof want), 0)
                << dims << "-D, step " << step << ", sample " << idx << ": " << out[idx]
                << " instead of " << want;
            lo = std::min(lo, want);
            hi = std::max(hi, want);
          }
          EXPECT_EQ(range.min, lo);
          EXPECT_EQ(range.max, hi);
        }
      }
    }
  });
}

TEST(Grid, SameBitsForEveryThreadCount) {
  const auto all = fields();
  perlin::grid g;
  g.dims = 2;
  g.count = {123, 77, 1, 1};
  g.origin = {-20.5, 3.25, 0, 0};
  g.step = {0.11, 0.13, 1, 1};
  for (const auto& f : {all[0], all[1], all[4]}) {
    std::vector<float> one(g.size()), many(g.size());
    perlin::fill_grid(f, g, one, {.threads = 1});
    for (const unsigned t : {0u, 2u, 3u, 7u, 200u}) {
      perlin::fill_grid(f, g, many, {.threads = t});
      EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0) << t;
    }
  }
}

TEST(Grid, StrictModeGivesTheSameBitsOnEveryTarget) {
  const auto all = fields();
  for (const auto& f : all) {
    perlin::grid g;
    g.dims = 3;
    g.count = {37, 5, 4, 1};
    g.origin = {-3.3, 1.7, 0.2, 0};
    g.step = {1.0 / 16, 0.37, 1.9, 1};
    std::vector<float> first;
    for_each_target([&](const std::string& t) {
      for (const double step : {1.0 / 16, 2.3}) {
        g.step[0] = step;
        std::vector<float> out(g.size());
        perlin::fill_grid(f, g, out, {.strict = true});
        std::vector<float> pts(11);
        std::vector<float> xs(11), ys(11), zs(11);
        for (std::size_t i = 0; i < 11; ++i) {
          xs[i] = -7.5f + 1.37f * float(i);
          ys[i] = 0.3f * float(i);
          zs[i] = 2.0f - 0.71f * float(i);
        }
        perlin::eval_points(f, {.x = xs, .y = ys, .z = zs}, pts, {.strict = true});
        out.insert(out.end(), pts.begin(), pts.end());
        if (first.size() < 2 * out.size()) {
          first.insert(first.end(), out.begin(), out.end());
        } else {
          const std::size_t off = step == 2.3 ? out.size() : 0;
          EXPECT_EQ(std::memcmp(first.data() + off, out.data(), out.size() * sizeof(float)), 0)
              << t << " step " << step;
        }
      }
    });
  }
}

/// grid.hpp's tolerance of the float gradients, written out here from its documentation (an
/// independent check of perlin::gradient_tolerance, which the test below compares with it).
double documented_gradient_tolerance(const perlin::field& f) {
  double scale = 0, amp = 1, freq = f.fractal().frequency();
  for (int i = 0; i < f.fractal().active_octaves(); ++i) {
    scale += amp * freq;
    amp *= f.fractal().persistence();
    freq *= f.fractal().lacunarity();
  }
  return perlin::k_gradient_tolerance *
         (f.fractal().normalize() ? scale / f.fractal().amplitude_sum() : scale);
}

double checked_gradient_tolerance(const perlin::field& f) {
  const double t = perlin::gradient_tolerance(f);
  EXPECT_NEAR(t, documented_gradient_tolerance(f), 1e-12 * t);
  return t;
}

/// True when the double path's partial along `axis` jumps near p (a kink of turbulence, ridged
/// or billow), where float and double may take either side.
bool at_kink(const perlin::field& f, const double* p, std::size_t dims, std::size_t axis,
             double tol) {
  double side[2][4];
  for (int s = 0; s < 2; ++s) {
    double q[4] = {p[0], p[1], p[2], p[3]};
    q[axis] += s == 0 ? -1e-7 : 1e-7;
    (void)f.eval<double>(std::span<const double>(q, dims), std::span<double>(side[s], dims));
  }
  return std::abs(side[0][axis] - side[1][axis]) > tol;
}

TEST(Grid, DerivativesAndRotatedPlanesAreWithinTheirToleranceOnEveryTarget) {
  // fill_grid_deriv (aligned and rotated, 1-D to 4-D) and fill_grid on rotated planes: values
  // within 2e-6 x the amplitude sum, gradients within gradient_tolerance, on every target, strict
  // or not; the same bits for any thread count. Cosine value noise, non-power-of-two periods and
  // 4-D take the double path: rounded, so within the same tolerances.
  std::vector<perlin::field> all = fields();
  perlin::improved_noise pow2(9);
  pow2.lattice().set_period_all(64);
  all.emplace_back(pow2, perlin::fractal().set_kind(perlin::fractal_kind::billow).set_octaves(3));
  std::size_t compared = 0, kinks = 0;
  double worst_value = 0, worst_gradient = 0;  // relative to the tolerances
  const std::string first_target = perlin::available_targets().front();
  for_each_target([&](const std::string& target) {
    for (std::size_t fi = 0; fi < all.size(); ++fi) {
      // The eroded field takes the scalar path whatever the target: checked once (it is the
      // slowest to evaluate, with every octave's Hessian).
      if (all[fi].fractal().kind() == perlin::fractal_kind::eroded && target != first_target)
        continue;
      for (const bool rotated : {false, true}) {
        perlin::field f = all[fi];
        bool periodic = false;
        for (std::size_t k = 0; k < 4; ++k) periodic |= f.lattice().period(k) != 0;
        if (rotated && periodic) continue;
        if (rotated) f.set_plane(perlin::plane::rotated);
        for (std::size_t dims = 1; dims <= 4; ++dims) {
          for (const bool strict : {false, true}) {
            perlin::grid g;
            g.dims = dims;
            g.count = {71, 4, 3, 2};  // rows of 64 + 7: the widest loops and a tail
            g.origin = {0.3, -0.7, 5.1, -2.25};
            g.step = {0.37, 0.41, 0.29, 0.5};
            const std::size_t n = g.size();
            std::vector<float> v(n), d(dims * n), v1(n), d1(dims * n), plain(n);
            perlin::fill_grid_deriv(f, g, v, d, {.threads = 2, .strict = strict});
            perlin::fill_grid_deriv(f, g, v1, d1, {.threads = 1, .strict = strict});
            ASSERT_EQ(v, v1);
            ASSERT_EQ(d, d1);
            perlin::fill_grid(f, g, plain, {.threads = 2, .strict = strict});
            const double tol = tolerance(f), gtol = checked_gradient_tolerance(f);
            for (std::size_t idx = 0; idx < n; ++idx) {
              double p[4] = {};
              std::size_t rem = idx;
              for (std::size_t a = 0; a < dims; ++a) {
                p[a] = g.coordinate(a, rem % g.count[a]);
                rem /= g.count[a];
              }
              double grad[4];
              const double want =
                  f.eval<double>(std::span<const double>(p, dims), std::span<double>(grad, dims));
              ASSERT_NEAR(v[idx], want, tol)
                  << "field " << fi << " dims " << dims << " rotated " << rotated;
              if (rotated) {
                ASSERT_NEAR(plain[idx], want, tol) << "field " << fi << " dims " << dims;
              }
              worst_value = std::max(worst_value, std::abs(v[idx] - want) / tol);
              for (std::size_t a = 0; a < dims; ++a) {
                if (at_kink(f, p, dims, a, gtol)) {
                  ++kinks;
                  continue;
                }
                ASSERT_NEAR(d[a * n + idx], grad[a], gtol)
                    << "field " << fi << " dims " << dims << " axis " << a << " rotated " << rotated
                    << " strict " << strict;
                worst_gradient =
                    std::max(worst_gradient, std::abs(d[a * n + idx] - grad[a]) / gtol);
                ++compared;
              }
            }
          }
        }
      }
    }
  });
  EXPECT_GT(compared, 10000u);
  EXPECT_LT(kinks, compared / 100);
  RecordProperty("worst_value_over_tolerance", std::to_string(worst_value));
  RecordProperty("worst_gradient_over_tolerance", std::to_string(worst_gradient));
  std::printf(
      "worst value error %.3f of its tolerance, gradient %.3f; %zu partials, %zu at kinks\n",
      worst_value, worst_gradient, compared, kinks);
}

/// Warped fields of every kind for the warp kernel (bulk_route::warp_kernel) and beside it the
/// ones it leaves to the scalar path: basic, progressive and independent warps, improved and value
/// noise, fractals, the warp's own seed, power-of-two periods (the kernel) and others (scalar),
/// the rotated plane.
std::vector<perlin::field> warped_fields() {
  std::vector<perlin::field> out;
  const auto with = [&](perlin::field f, perlin::warp_kind kind, double amplitude, double freq,
                        int octaves, std::optional<std::uint64_t> seed = std::nullopt) {
    f.set_warp(perlin::warp()
                   .set_kind(kind)
                   .set_amplitude(amplitude)
                   .set_frequency(freq)
                   .set_octaves(octaves)
                   .set_seed(seed));
    out.push_back(f);
  };
  const perlin::fractal fbm5 = perlin::fractal()
                                   .set_kind(perlin::fractal_kind::fbm)
                                   .set_octaves(5)
                                   .set_normalize(true)
                                   .set_decorrelate(true);
  // The warped preset's field (src/render/presets.cpp).
  with(perlin::field(perlin::improved_noise(), fbm5), perlin::warp_kind::progressive, 2.5, 0.25, 4);
  with(perlin::field(), perlin::warp_kind::basic, 1.0, 1.0, 1);
  with(perlin::field(perlin::improved_noise(7),
                     perlin::fractal().set_kind(perlin::fractal_kind::ridged).set_octaves(3)),
       perlin::warp_kind::independent, 1.5, 0.5, 3, 99);
  with(perlin::field(perlin::value_noise(3, perlin::interpolation::cubic),
                     perlin::fractal().set_kind(perlin::fractal_kind::turbulence).set_octaves(2)),
       perlin::warp_kind::progressive, 0.8, 2.0, 2);
  perlin::improved_noise tiled(5);
  tiled.lattice().set_period_all(64);
  with(perlin::field(tiled, fbm5), perlin::warp_kind::progressive, 2.0, 0.25, 3);
  perlin::value_noise odd(6, perlin::interpolation::quintic);
  odd.lattice().set_period_all(12);  // not a power of two: the scalar path
  with(perlin::field(odd, perlin::fractal().set_kind(perlin::fractal_kind::billow).set_octaves(2)),
       perlin::warp_kind::independent, 1.0, 0.5, 2);
  perlin::field turned(perlin::improved_noise(2), fbm5);
  turned.set_plane(perlin::plane::rotated);
  with(turned, perlin::warp_kind::progressive, 2.5, 0.25, 4);
  return out;
}

TEST(Grid, WarpedFieldsAreWithinTheirToleranceOnEveryTarget) {
  // fill_grid and fill_grid_deriv of warped fields, 1-D to 4-D (4-D and the odd periods take the
  // scalar path, rounded): values within value_tolerance, partials within gradient_tolerance of
  // the double path, on every target, strict or not; the same bits for any thread count.
  const auto all = warped_fields();
  std::size_t compared = 0, kinks = 0, on_kernel = 0;
  double worst_value = 0, worst_gradient = 0;  // relative to the tolerances
  for (std::size_t fi = 0; fi < all.size(); ++fi) {
    const perlin::field& f = all[fi];
    const double tol = tolerance(f), gtol = perlin::gradient_tolerance(f);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      if (perlin::detail::route_of(f, perlin::detail::bulk_call::grid_float, dims) ==
          perlin::detail::bulk_route::warp_kernel) {
        ++on_kernel;
      }
      perlin::grid g;
      g.dims = dims;
      g.count = {71, 4, 3, 2};  // rows of 64 + 7: the widest loops and a tail
      g.origin = {0.3, -0.7, 5.1, -2.25};
      g.step = {0.37, 0.41, 0.29, 0.5};
      const std::size_t n = g.size();
      // The double path once, and where its partials jump (the kinks of turbulence, ridged and
      // billow; a step of 1e-10, as a warp's steep Hessian moves them by more at 1e-7).
      std::vector<double> want(n), want_grad(dims * n);
      std::vector<char> kink(dims * n);
      for (std::size_t idx = 0; idx < n; ++idx) {
        double p[4] = {};
        std::size_t rem = idx;
        for (std::size_t a = 0; a < dims; ++a) {
          p[a] = g.coordinate(a, rem % g.count[a]);
          rem /= g.count[a];
        }
        double grad[4];
        want[idx] = f.eval<double>(std::span<const double>(p, dims), std::span<double>(grad, dims));
        for (std::size_t a = 0; a < dims; ++a) {
          want_grad[a * n + idx] = grad[a];
          double side[2][4];
          for (int s = 0; s < 2; ++s) {
            double q[4] = {p[0], p[1], p[2], p[3]};
            q[a] += s == 0 ? -1e-10 : 1e-10;
            (void)f.eval<double>(std::span<const double>(q, dims),
                                 std::span<double>(side[s], dims));
          }
          kink[a * n + idx] = std::abs(side[0][a] - side[1][a]) > gtol;
        }
      }
      for_each_target([&](const std::string&) {
        for (const bool strict : {false, true}) {
          std::vector<float> v(n), d(dims * n), v1(n), d1(dims * n), plain(n), plain1(n);
          perlin::fill_grid_deriv(f, g, v, d, {.threads = 2, .strict = strict});
          perlin::fill_grid_deriv(f, g, v1, d1, {.threads = 1, .strict = strict});
          ASSERT_EQ(v, v1);
          ASSERT_EQ(d, d1);
          perlin::fill_grid(f, g, plain, {.threads = 2, .strict = strict});
          perlin::fill_grid(f, g, plain1, {.threads = 1, .strict = strict});
          ASSERT_EQ(plain, plain1);
          for (std::size_t idx = 0; idx < n; ++idx) {
            ASSERT_NEAR(plain[idx], want[idx], tol) << "field " << fi << " dims " << dims;
            ASSERT_NEAR(v[idx], want[idx], tol) << "field " << fi << " dims " << dims;
            worst_value = std::max(worst_value, std::abs(plain[idx] - want[idx]) / tol);
            for (std::size_t a = 0; a < dims; ++a) {
              const std::size_t at = a * n + idx;
              if (kink[at]) {
                ++kinks;
                continue;
              }
              ASSERT_NEAR(d[at], want_grad[at], gtol)
                  << "field " << fi << " dims " << dims << " axis " << a << " strict " << strict;
              worst_gradient = std::max(worst_gradient, std::abs(d[at] - want_grad[at]) / gtol);
              ++compared;
            }
          }
        }
      });
    }
  }
  EXPECT_GE(on_kernel, 15u);
  EXPECT_LT(kinks, compared / 100);
  RecordProperty("worst_value_over_tolerance", std::to_string(worst_value));
  RecordProperty("worst_gradient_over_tolerance", std::to_string(worst_gradient));
  std::printf(
      "warped: worst value error %.3f of its tolerance, gradient %.3f; %zu partials, %zu at "
      "kinks\n",
      worst_value, worst_gradient, compared, kinks);
}

TEST(Grid, ErodedGridsAreWithinTheirToleranceOnEveryTarget) {
  // The eroded fractal's float grids on the sample kernel (each octave's value and gradient in
  // float vectors, fractal.cpp's n / (1 + k |G|^2)), aligned and rotated, improved and value
  // noise, power-of-two periods, 1-D to 4-D (4-D and odd periods: the scalar path, rounded):
  // within value_tolerance of the double path on every target, strict or not; the same bits for
  // any thread count.
  std::vector<perlin::field> all;
  const auto eroded = [](int octaves, double erosion, bool decorrelate) {
    return perlin::fractal()
        .set_kind(perlin::fractal_kind::eroded)
        .set_octaves(octaves)
        .set_erosion(erosion)
        .set_normalize(true)
        .set_decorrelate(decorrelate);
  };
  all.emplace_back(perlin::improved_noise(), eroded(8, 1.0, true));
  all.emplace_back(perlin::improved_noise(3), eroded(4, 4.0, false));
  all.emplace_back(perlin::value_noise(6, perlin::interpolation::cubic), eroded(5, 0.5, true));
  perlin::improved_noise tiled(8);
  tiled.lattice().set_period_all(32);
  all.emplace_back(tiled, eroded(6, 1.5, false));
  perlin::improved_noise odd(9);
  odd.lattice().set_period_all(7);
  all.emplace_back(odd, eroded(3, 1.0, false));  // not a power of two: the scalar path
  perlin::field turned(perlin::improved_noise(4), eroded(8, 2.0, true));
  turned.set_plane(perlin::plane::rotated);
  all.push_back(turned);
  std::size_t on_kernel = 0;
  double worst = 0;  // relative to the tolerance
  for (std::size_t fi = 0; fi < all.size(); ++fi) {
    const perlin::field& f = all[fi];
    const double tol = tolerance(f);
    for (std::size_t dims = 1; dims <= 4; ++dims) {
      if (perlin::detail::route_of(f, perlin::detail::bulk_call::grid_float, dims) ==
          perlin::detail::bulk_route::sample_kernel) {
        ++on_kernel;
      }
      perlin::grid g;
      g.dims = dims;
      g.count = {71, 5, 3, 2};
      g.origin = {-3.3, 1.7, -5.1, 2.25};
      g.step = {0.137, 0.41, 0.29, 0.5};
      const std::size_t n = g.size();
      std::vector<double> want(n);
      for (std::size_t idx = 0; idx < n; ++idx) {
        double p[4] = {};
        std::size_t rem = idx;
        for (std::size_t a = 0; a < dims; ++a) {
          p[a] = g.coordinate(a, rem % g.count[a]);
          rem /= g.count[a];
        }
        want[idx] = f.eval<double>(std::span<const double>(p, dims));
      }
      for_each_target([&](const std::string&) {
        for (const bool strict : {false, true}) {
          std::vector<float> v(n), v1(n);
          perlin::fill_grid(f, g, v, {.threads = 2, .strict = strict});
          perlin::fill_grid(f, g, v1, {.threads = 1, .strict = strict});
          ASSERT_EQ(v, v1);
          for (std::size_t idx = 0; idx < n; ++idx) {
            ASSERT_NEAR(v[idx], want[idx], tol)
                << "field " << fi << " dims " << dims << " strict " << strict;
            worst = std::max(worst, std::abs(v[idx] - want[idx]) / tol);
          }
        }
      });
    }
  }
  EXPECT_GE(on_kernel, 14u);
  RecordProperty("worst_value_over_tolerance", std::to_string(worst));
  std::printf("eroded: worst value error %.3f of its tolerance\n", worst);
}

TEST(Grid, MinMaxIgnoresNaNOnEveryTarget) {
  for_each_target([&](const std::string&) {
    const auto& k = perlin::detail::active_kernels();
    for (const std::size_t n : {1u, 7u, 16u, 33u, 100u}) {
      std::vector<float> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(float(i) * 1.7f) * float(i);
      float want_lo = v[0], want_hi = v[0];
      for (float x : v) {
        want_lo = std::min(want_lo, x);
        want_hi = std::max(want_hi, x);
      }
      for (std::size_t i = 1; i < n; i += 3) v[i] = std::numeric_limits<float>::quiet_NaN();
      float lo = 0, hi = 0;
      k.min_max(v.data(), n, &lo, &hi);
      float l2 = std::numeric_limits<float>::infinity(), h2 = -l2;
      for (float x : v) {
        if (x == x) {
          l2 = std::min(l2, x);
          h2 = std::max(h2, x);
        }
      }
      EXPECT_EQ(lo, l2) << n;
      EXPECT_EQ(hi, h2) << n;
      std::vector<float> nan(n, std::numeric_limits<float>::quiet_NaN());
      k.min_max(nan.data(), n, &lo, &hi);
      EXPECT_EQ(lo, std::numeric_limits<float>::infinity());
      EXPECT_EQ(hi, -std::numeric_limits<float>::infinity());
    }
  });
}

TEST(Grid, StrictDerivativesAreTheSameOnEveryTarget) {
  perlin::field f(perlin::improved_noise(4),
                  perlin::fractal().set_kind(perlin::fractal_kind::ridged).set_octaves(5));
  f.set_plane(perlin::plane::rotated);
  const auto g = perlin::grid::plane(77, 9, 0.13, -4.1, 2.2);
  std::vector<float> first_v, first_d;
  for_each_target([&](const std::string& t) {
    std::vector<float> v(g.size()), d(2 * g.size());
    perlin::fill_grid_deriv(f, g, v, d, {.strict = true});
    if (first_v.empty()) {
      first_v = v;
      first_d = d;
    } else {
      EXPECT_EQ(v, first_v) << t;
      EXPECT_EQ(d, first_d) << t;
    }
  });
}

}  // namespace

namespace {

TEST(Grid, ATileWithFirstIsTheCropOfTheWholeGrid) {
  const auto all = fields();
  for (const auto& f : {all[0], all[1], all[5]}) {
    perlin::grid whole;
    whole.dims = 2;
    whole.count = {64, 40, 1, 1};
    whole.origin = {-3.7, 12.1, 0, 0};
    whole.step = {0.093, 0.071, 1, 1};
    std::vector<float> big(whole.size());
    perlin::fill_grid(f, whole, big);
    perlin::grid tile = whole;
    tile.count = {21, 13, 1, 1};
    tile.first = {37, 19, 0, 0};
    std::vector<float> small(tile.size());
    perlin::fill_grid(f, tile, small, {.threads = 2});
    for (std::size_t j = 0; j < 13; ++j) {
      for (std::size_t i = 0; i < 21; ++i) {
        ASSERT_EQ(small[j * 21 + i], big[(j + 19) * 64 + (i + 37)]) << i << " " << j;
      }
    }
  }
  perlin::grid bad;
  bad.first = {std::int64_t{1} << 53, 0, 0, 0};
  std::vector<float> out(1);
  bad.count = {1, 1, 1, 1};
  EXPECT_THROW(perlin::fill_grid(perlin::field(), bad, out), perlin::invalid_argument);
}

}  // namespace

namespace {

TEST(Grid, WideGridsAreFilledInBandsWithTheSameValues) {
  // 20,000 columns: more than one band of columns; each column must still be the scalar value.
  const auto all = fields();
  for (const auto& f : {all[0], all[1]}) {
    perlin::grid g;
    g.dims = 2;
    g.count = {20000, 3, 1, 1};
    g.origin = {-100.3, 0.7, 0, 0};
    g.step = {0.0173, 0.5, 1, 1};
    std::vector<float> got(g.size());
    std::vector<double> want(g.size());
    perlin::fill_grid(f, g, got, {.threads = 2});
    perlin::fill_grid(f, g, std::span<double>(want));
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, std::abs(got[i] - want[i]));
    EXPECT_LE(worst, tolerance(f));
  }
}

}  // namespace

namespace {

TEST(Grid, StepsAndCoordinatesFollowTheOneRule) {
  const perlin::field f;
  std::vector<float> out(8);
  perlin::grid g = perlin::grid::plane(4, 2, 0.0);
  EXPECT_THROW((void)perlin::fill_grid(f, g, out), perlin::invalid_argument);
  g = perlin::grid::plane(4, 2, 1.0 / 64, 1e300, 0);
  try {
    (void)perlin::fill_grid(f, g, out);
    FAIL() << "accepted";
  } catch (const perlin::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond 2^52"), std::string::npos) << e.what();
  }
  g = perlin::grid::plane(4, 2, -1.0 / 64, 4503599627370496.0, 0);  // a negative step, at the edge
  EXPECT_NO_THROW((void)perlin::fill_grid(f, g, out));
}

}  // namespace
