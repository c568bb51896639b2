// The line format of `perlin eval`: 1 to 4 numbers separated by blanks.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string_view>

#include "perlin/lattice.hpp"

namespace perlin_cli {

/// A bad input line: exit status 1.
struct line_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Coordinates beyond perlin::k_max_coordinate (2^52) are refused.
using perlin::k_max_coordinate;

/// Parses up to 4 numbers of line `number` (counted from 1) into `out`; returns the count or
/// throws line_error ("line N: ..."), quoting at most 40 characters of a bad token.
int parse_line(std::string_view line, std::size_t number, double* out);

}  // namespace perlin_cli
