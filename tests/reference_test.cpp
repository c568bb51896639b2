// Ken Perlin's reference values (tests/data, made by his own Java code) reproduced bit for bit.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

std::vector<std::vector<double>> read_rows(const std::string& name) {
  std::ifstream in(std::string(PERLIN_TEST_DATA) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::vector<double>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::vector<double> row;
    double v;
    while (s >> v) row.push_back(v);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

TEST(Reference, ImprovedNoise3dBitExact) {
  const auto rows = read_rows("improved_noise_3d.txt");
  ASSERT_EQ(rows.size(), 1201u);
  const perlin::improved_noise n;
  int mismatches = 0;
  for (const auto& r : rows) {
    const double got = n.noise3d(r[0], r[1], r[2]);
    if (got != r[3]) {
      if (++mismatches < 10)
        ADD_FAILURE() << r[0] << " " << r[1] << " " << r[2] << ": " << got << " != " << r[3];
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Reference, TutorialValue) {
  EXPECT_EQ(perlin::improved_noise().noise3d(3.14, 42.0, 7.0), 0.13691995878400012);
}

TEST(Reference, Fbm3dBitExact) {
  const auto rows = read_rows("fbm_3d.txt");
  ASSERT_EQ(rows.size(), 300u);
  const perlin::improved_noise n;
  for (const auto& r : rows) {
    perlin::fractal f;
    f.set_octaves(static_cast<int>(r[3])).set_persistence(r[4]);
    EXPECT_EQ(perlin::field(n, f)(r[0], r[1], r[2]), r[5]) << r[0] << " " << r[1] << " " << r[2];
  }
}

}  // namespace
