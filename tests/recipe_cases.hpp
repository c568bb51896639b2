// Random option sets over every row of the option table (seeded: the same sets on every machine)
// and the golden file tests/data/recipes.txt made from them: "recipe<TAB>x y ...<TAB>value", the
// value of the recipe's field at the point on the exact double path, in shortest round-trip text.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "perlin/perlin.hpp"

namespace recipe_cases {

/// One of `n` values, from the generator's raw bits (std::mt19937_64 is fully specified; the
/// standard's distributions are not).
inline std::size_t pick(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % n);
}

inline std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

/// The vocabulary of the golden file: the field options and the fractal kinds of the table it
/// was written from (perlin 0.1, 2026-12-01). Its recipes are drawn from these alone, so that
/// rows and kinds added since (erosion, eroded) leave them as they were.
inline bool in_golden_vocabulary(std::string_view name) {
  static const std::vector<std::string_view> names = {
      "noise",          "interp",         "seed",         "period",      "fractal",
      "octaves",        "frequency",      "lacunarity",   "persistence", "normalize",
      "decorrelate",    "ridged-offset",  "ridged-gain",  "plane",       "warp",
      "warp-amplitude", "warp-frequency", "warp-octaves", "warp-seed"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// A random value for a row, as text (with `golden`, from the golden file's vocabulary).
inline std::string random_value(std::mt19937_64& rng, const perlin::option_info& row,
                                bool golden = false) {
  const std::string name(row.name);
  const auto one_of = [&](std::initializer_list<const char*> v) {
    return std::string(v.begin()[pick(rng, v.size())]);
  };
  switch (row.type) {
    case perlin::option_type::choice: {
      auto c = row.choices();
      if (golden && row.name == "fractal") c = {"none", "fbm", "turbulence", "ridged", "billow"};
      if (golden && row.name == "noise") c = {"improved", "value"};
      return c[pick(rng, c.size())];
    }
    case perlin::option_type::flag:
      return pick(rng, 2) ? "true" : "false";
    case perlin::option_type::seed:
      return std::to_string(rng());
    case perlin::option_type::periods: {
      std::string out;
      const std::size_t n = 1 + pick(rng, 4);
      for (std::size_t k = 0; k < n; ++k) out += (k ? "," : "") + std::to_string(1 + pick(rng, 64));
      return out;
    }
    case perlin::option_type::integer:
      return std::to_string(1 + pick(rng, 6));
    case perlin::option_type::number:
      break;
  }
  if (name == "frequency") return one_of({"0.5", "0.015625", "0.3", "2.5", "1.75"});
  if (name == "lacunarity") return one_of({"2", "3", "1.7", "2.5"});
  if (name == "persistence") return one_of({"0.5", "0.3", "0.65", "0"});
  if (name == "ridged-offset") return one_of({"1", "0.8", "1.2", "0.95"});
  if (name == "ridged-gain") return one_of({"2", "1.5", "3", "0.75"});
  if (name == "warp-amplitude") return one_of({"1", "0.5", "2.5", "0.125"});
  if (name == "warp-frequency") return one_of({"1", "0.5", "0.25", "2"});
  // A row added later: a value inside its range.
  return number_text(row.has_range ? (row.min_exclusive ? row.min + 0.5 : row.min) : 0.5);
}

/// A spec with about half the rows set, that make_field accepts (with `golden`, from the golden
/// file's vocabulary).
inline perlin::field_spec random_spec(std::mt19937_64& rng, bool golden = false) {
  for (;;) {
    perlin::field_spec s;
    for (const auto& row : perlin::field_options()) {
      if (golden && !in_golden_vocabulary(row.name)) continue;
      if (pick(rng, 2) == 0) row.set(s, random_value(rng, row, golden));
    }
    try {
      (void)perlin::make_field(s);
      return s;
    } catch (const perlin::invalid_argument&) {
      // a rotated plane with periods, a warp that does not tile ...: draw again
    }
  }
}

struct golden_case {
  std::string recipe;
  std::vector<double> point;
  double value = 0;
};

/// 30 recipes with 4 points each (1 to 4 coordinates).
inline std::vector<golden_case> golden_cases() {
  std::mt19937_64 rng(20261201);
  std::vector<golden_case> out;
  for (int i = 0; i < 30; ++i) {
    const perlin::field_spec spec = random_spec(rng, /*golden=*/true);
    const perlin::field f = perlin::make_field(spec);
    for (int k = 0; k < 4; ++k) {
      golden_case c;
      c.recipe = perlin::to_recipe(spec);
      const std::size_t dims = 1 + pick(rng, 4);
      for (std::size_t d = 0; d < dims; ++d) {
        const double whole =
            static_cast<double>(static_cast<std::int64_t>(pick(rng, 4001)) - 2000) / 16.0;
        c.point.push_back(whole + static_cast<double>(rng() >> 11) * 0x1p-53);
      }
      c.value = f.eval(std::span<const double>(c.point.data(), dims));
      out.push_back(std::move(c));
    }
  }
  return out;
}

inline std::string hex_bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(b));
  return buf;
}

inline std::string golden_text() {
  std::string out =
      "# Recipes written by perlin 0.1 with their fields' values (the exact double path): recipe, "
      "a\n"
      "# point (1 to 4 coordinates), the value, in shortest round-trip text, then the point's and "
      "the\n"
      "# value's bit patterns in hexadecimal. Every later\n"
      "# version reads each recipe to these bits and writes it back unchanged "
      "(tests/recipe_test.cpp;\n"
      "# Python, C, C#, Lua and `perlin eval --recipe` read it too).\n";
  for (const auto& c : golden_cases()) {
    out += c.recipe + "\t";
    for (std::size_t d = 0; d < c.point.size(); ++d)
      out += (d ? " " : "") + number_text(c.point[d]);
    out += "\t" + number_text(c.value) + "\t";
    // The same doubles as bit patterns, for readers whose decimal parser is not exact (Mono's).
    for (const double x : c.point) out += hex_bits(x) + " ";
    out += hex_bits(c.value) + "\n";
  }
  return out;
}

inline golden_case parse_line(const std::string& line) {
  golden_case c;
  const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
  c.recipe = line.substr(0, t1);
  const std::string pts = line.substr(t1 + 1, t2 - t1 - 1);
  std::size_t start = 0;
  while (start < pts.size()) {
    const auto sp = std::min(pts.find(' ', start), pts.size());
    double v = 0;
    std::from_chars(pts.data() + start, pts.data() + sp, v);
    c.point.push_back(v);
    start = sp + 1;
  }
  const auto t3 = line.find('\t', t2 + 1);
  const std::string val =
      line.substr(t2 + 1, t3 == std::string::npos ? std::string::npos : t3 - t2 - 1);
  std::from_chars(val.data(), val.data() + val.size(), c.value);
  return c;
}

}  // namespace recipe_cases
