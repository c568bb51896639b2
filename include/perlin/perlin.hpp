// Umbrella header: everything the perlin library offers.
#pragma once

#include "perlin/error.hpp"
#include "perlin/field.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/fractal.hpp"
#include "perlin/graph.hpp"
#include "perlin/graph_grid.hpp"
#include "perlin/grid.hpp"
#include "perlin/improved_noise.hpp"
#include "perlin/lattice.hpp"
#include "perlin/option_table.hpp"
#include "perlin/range.hpp"
#include "perlin/shader.hpp"
#include "perlin/targets.hpp"
#include "perlin/value_noise.hpp"
#include "perlin/version.hpp"
