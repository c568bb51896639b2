// The C API (include/perlin/perlin.h) over the C++ library: handles hold a field_spec and the
// field built from it; every call catches everything and turns it into a status and a
// thread-local message, so no exception crosses the boundary.
#define PERLIN_BUILDING_C_API
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/grid.hpp"
#include "perlin/option_table.hpp"
#include "perlin/perlin.h"
#include "perlin/shader.hpp"
#include "perlin/version.hpp"

struct perlin_field {
  perlin::field_spec spec;
  perlin::field field;
  std::vector<std::string> given;  // the options set, for the unused-option warnings
  std::string recipe_warning;  // the render settings its recipe carried (recipe_skipped_warning)
};

namespace {

thread_local std::string g_error;

int fail(int code, std::string message) {
  g_error = std::move(message);
  return code;
}

/// Runs `body`; the library's exceptions become status codes with their message.
template <class F>
int guarded(F&& body) noexcept {
  try {
    body();
    return PERLIN_OK;
  } catch (const perlin::invalid_argument& e) {
    switch (e.kind()) {
      case perlin::error_kind::unknown_option:
        return fail(PERLIN_E_OPTION, e.what());
      case perlin::error_kind::size:
        return fail(PERLIN_E_SIZE, e.what());
      case perlin::error_kind::value:
        break;
    }
    return fail(PERLIN_E_VALUE, e.what());
  } catch (const std::bad_alloc&) {
    return fail(PERLIN_E_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(PERLIN_E_INTERNAL, e.what());
  } catch (...) {
    return fail(PERLIN_E_INTERNAL, "unknown error");
  }
}

int check_dims(int dims) {
  if (dims < 1 || dims > 4)
    return fail(PERLIN_E_SIZE, "dims: must be 1 to 4, got " + std::to_string(dims));
  return PERLIN_OK;
}

/// A grid call; with `gradient` (not null), the values and the planar partials.
template <class T>
int fill(const perlin_field* f, int dims, const size_t* count, const double* origin,
         const double* step, T* out, size_t out_len, int threads, T* gradient = nullptr,
         size_t gradient_len = 0) {
  if (f == nullptr || count == nullptr || out == nullptr) {
    return fail(PERLIN_E_NULL, "field, count and out must not be null");
  }
  if (const int rc = check_dims(dims); rc != PERLIN_OK) return rc;
  if (threads < 0) return fail(PERLIN_E_VALUE, "threads: must be >= 0 (0 = every core)");
  return guarded([&] {
    perlin::grid g;
    g.dims = static_cast<std::size_t>(dims);
    for (int k = 0; k < dims; ++k) {
      g.count[k] = count[k];
      g.origin[k] = origin != nullptr ? origin[k] : 0.0;  // NULL: the library's defaults
      g.step[k] = step != nullptr ? step[k] : perlin::grid::k_default_step;
    }
    const perlin::bulk_options o{.threads = static_cast<unsigned>(threads)};
    if (gradient != nullptr) {
      (void)perlin::fill_grid_deriv(f->field, g, std::span<T>(out, out_len),
                                    std::span<T>(gradient, gradient_len), o);
    } else {
      (void)perlin::fill_grid(f->field, g, std::span<T>(out, out_len), o);
    }
  });
}

/// A point batch; with `gradient` (not null), the values and the planar partials (dims * n).
template <class T>
int points(const perlin_field* f, int dims, const T* const* coords, size_t n, T* out, int threads,
           T* gradient = nullptr) {
  if (f == nullptr || coords == nullptr || (out == nullptr && n > 0)) {
    return fail(PERLIN_E_NULL, "field, coords and out must not be null");
  }
  if (const int rc = check_dims(dims); rc != PERLIN_OK) return rc;
  if (threads < 0) return fail(PERLIN_E_VALUE, "threads: must be >= 0 (0 = every core)");
  for (int k = 0; k < dims; ++k) {
    if (coords[k] == nullptr && n > 0)
      return fail(PERLIN_E_NULL, "coords: axis " + std::to_string(k) + " is null");
  }
  if (n == 0) return PERLIN_OK;
  return guarded([&] {
    perlin::point_set<T> ps;
    std::span<const T>* axes[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
    for (int k = 0; k < dims; ++k) *axes[k] = std::span<const T>(coords[k], n);
    const perlin::bulk_options o{.threads = static_cast<unsigned>(threads)};
    if (gradient != nullptr) {
      perlin::eval_points_deriv(f->field, ps, std::span<T>(out, n),
                                std::span<T>(gradient, n * static_cast<std::size_t>(dims)), o);
    } else {
      perlin::eval_points(f->field, ps, std::span<T>(out, n), o);
    }
  });
}

/// snprintf-style: at most size - 1 characters and a NUL into buf (when it is not NULL and size
/// is not 0); returns the text's whole length.
size_t copy_out(const std::string& text, char* buf, size_t size) {
  if (buf != nullptr && size > 0) {
    const std::size_t n = std::min(size - 1, text.size());
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
  }
  return text.size();
}

/// The option table's rows as C strings that live as long as the program.
struct option_rows {
  struct row {
    std::string type, default_value, choices;
  };
  std::vector<row> rows;
  option_rows() {
    for (const auto& o : perlin::field_options()) {
      row r{std::string(perlin::to_string(o.type)), o.default_text(), {}};
      if (o.choices != nullptr) {
        for (const auto& c : o.choices()) r.choices += (r.choices.empty() ? "" : ",") + c;
      }
      rows.push_back(std::move(r));
    }
  }
};

const option_rows& c_rows() {
  static const option_rows rows;
  return rows;
}

/// A 2-D or 3-D single call with its coordinates by value: field::eval's own route (so its bits),
/// without the point copied through memory. NaN with the reason in perlin_last_error otherwise.
template <std::size_t D>
double eval_by_value(const perlin_field* field, const std::array<double, D>& p) noexcept {
  g_error.clear();  // a NaN value (a NaN coordinate) is not an error
  if (field == nullptr) {
    fail(PERLIN_E_NULL, "field must not be null");
    return std::numeric_limits<double>::quiet_NaN();
  }
  double v = std::numeric_limits<double>::quiet_NaN();
  guarded([&] { v = field->field.eval(std::span<const double>(p)); });
  return v;
}

}  // namespace

extern "C" {

int perlin_option_count(void) { return static_cast<int>(perlin::field_options().size()); }

int perlin_option_info(int index, perlin_option* out) {
  if (out == nullptr) return fail(PERLIN_E_NULL, "out must not be null");
  const auto rows = perlin::field_options();
  if (index < 0 || static_cast<std::size_t>(index) >= rows.size()) {
    return fail(PERLIN_E_SIZE, "index: must be 0 to " + std::to_string(rows.size() - 1) + ", got " +
                                   std::to_string(index));
  }
  return guarded([&] {
    const auto& o = rows[static_cast<std::size_t>(index)];
    const auto& c = c_rows().rows[static_cast<std::size_t>(index)];
    // The table's string_views point into string literals: NUL-terminated.
    out->name = o.name.data();
    out->alias = o.alias.empty() ? "" : o.alias.data();
    out->type = c.type.c_str();
    out->default_value = c.default_value.c_str();
    out->help = o.help.data();
    out->unit = o.unit.empty() ? "" : o.unit.data();
    out->choices = c.choices.c_str();
    out->has_range = o.has_range ? 1 : 0;
    out->min = o.min;
    out->max = o.max;
    out->min_exclusive = o.min_exclusive ? 1 : 0;
  });
}

perlin_field* perlin_field_from_recipe(const char* text) {
  if (text == nullptr) {
    fail(PERLIN_E_NULL, "text must not be null");
    return nullptr;
  }
  return perlin_field_from_recipe_n(text, std::strlen(text));
}

size_t perlin_field_warnings(const perlin_field* field, char* buf, size_t size) {
  if (field == nullptr) {
    fail(PERLIN_E_NULL, "field must not be null");
    return 0;
  }
  std::string text;
  if (guarded([&] {
        if (!field->recipe_warning.empty()) text += field->recipe_warning + "\n";
        for (const auto& w : perlin::unused_options(field->spec, field->given, ""))
          text += w + "\n";
      }) != PERLIN_OK) {
    return 0;
  }
  return copy_out(text, buf, size);
}

size_t perlin_field_recipe(const perlin_field* field, char* buf, size_t size) {
  if (field == nullptr) {
    fail(PERLIN_E_NULL, "field must not be null");
    return 0;
  }
  std::string text;
  if (guarded([&] {
        const perlin::graph* g = field->field.graph();
        text = g != nullptr ? g->recipe() : perlin::to_recipe(field->spec);
      }) != PERLIN_OK) {
    return 0;
  }
  return copy_out(text, buf, size);
}

perlin_field* perlin_field_from_recipe_n(const char* text, size_t length) {
  if (text == nullptr) {
    fail(PERLIN_E_NULL, "text must not be null");
    return nullptr;
  }
  perlin_field* out = nullptr;
  const int rc = guarded([&] {
    std::vector<std::pair<std::string, std::string>> skipped;
    perlin::field_spec spec;
    perlin::field f = perlin::field_from_text(std::string_view(text, length), &spec, &skipped);
    out = new perlin_field{std::move(spec), f, {}, perlin::recipe_skipped_warning(skipped)};
  });
  return rc == PERLIN_OK ? out : nullptr;
}

size_t perlin_field_shader(const perlin_field* field, const char* language, const char* precision,
                           int dims, int flags, char* buf, size_t size) {
  if (field == nullptr || language == nullptr || precision == nullptr) {
    fail(PERLIN_E_NULL, "field, language and precision must not be null");
    return 0;
  }
  std::string text;
  const int status = guarded([&] {
    if (dims < 1 || dims > 4)
      throw perlin::invalid_argument(perlin::error_kind::size, "dims",
                                     "must be 1 to 4, got " + std::to_string(dims));
    if (field->field.graph() != nullptr) (void)perlin::shader_source(field->field, {});  // refuses
    text = perlin::shader_source(field->spec,
                                 {.language = perlin::parse_shader_language(language),
                                  .double_precision = perlin::parse_shader_precision(precision),
                                  .dims = static_cast<std::size_t>(dims),
                                  .derivatives = (flags & PERLIN_SHADER_NO_DERIVATIVES) == 0,
                                  .split = (flags & PERLIN_SHADER_NO_SPLIT) == 0,
                                  .standalone = (flags & PERLIN_SHADER_STANDALONE) != 0});
  });
  return status == PERLIN_OK ? copy_out(text, buf, size) : 0;
}

int perlin_split_for_shader(double x, int32_t* cell, float* frac) {
  if (cell == nullptr || frac == nullptr)
    return fail(PERLIN_E_NULL, "cell and frac must not be null");
  return guarded([&] {
    const perlin::shader_coordinate c = perlin::split_for_shader(x);
    *cell = c.cell;
    *frac = c.frac;
  });
}

const char* perlin_version(void) { return perlin::version().data(); }

const char* perlin_last_error(void) { return g_error.c_str(); }

perlin_field* perlin_field_new(void) {
  try {
    return new perlin_field{};
  } catch (...) {
    fail(PERLIN_E_MEMORY, "out of memory");
    return nullptr;
  }
}

perlin_field* perlin_field_clone(const perlin_field* field) {
  if (field == nullptr) {
    fail(PERLIN_E_NULL, "field must not be null");
    return nullptr;
  }
  try {
    return new perlin_field(*field);
  } catch (...) {
    fail(PERLIN_E_MEMORY, "out of memory");
    return nullptr;
  }
}

void perlin_field_free(perlin_field* field) { delete field; }

int perlin_field_set(perlin_field* field, const char* option, const char* value) {
  if (field == nullptr || option == nullptr || value == nullptr) {
    return fail(PERLIN_E_NULL, "field, option and value must not be null");
  }
  return guarded([&] {
    if (field->field.graph() != nullptr) {
      throw perlin::invalid_argument(perlin::error_kind::value, option,
                                     "this field is a graph: its options are its nodes' (set them "
                                     "in its recipe, docs/graphs.md)");
    }
    perlin::field_spec spec = field->spec;
    spec.set(option, value);
    perlin::field built = perlin::make_field(spec);  // checks the whole spec
    field->spec = std::move(spec);
    field->field = built;
    field->given.emplace_back(perlin::option(option).name);
  });
}

double perlin_field_eval(const perlin_field* field, int dims, const double* coords) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  g_error.clear();  // a NaN value (a NaN coordinate) is not an error
  if (field == nullptr || coords == nullptr) {
    fail(PERLIN_E_NULL, "field and coords must not be null");
    return nan;
  }
  if (check_dims(dims) != PERLIN_OK) return nan;
  double v = nan;
  guarded([&] {
    v = field->field.eval(std::span<const double>(coords, static_cast<std::size_t>(dims)));
  });
  return v;
}

double perlin_field_eval2(const perlin_field* field, double x, double y) {
  return eval_by_value<2>(field, {x, y});
}

double perlin_field_eval3(const perlin_field* field, double x, double y, double z) {
  return eval_by_value<3>(field, {x, y, z});
}

int perlin_field_eval_deriv(const perlin_field* field, int dims, const double* coords,
                            double* value, double* gradient) {
  if (field == nullptr || coords == nullptr || value == nullptr || gradient == nullptr) {
    return fail(PERLIN_E_NULL, "field, coords, value and gradient must not be null");
  }
  if (const int rc = check_dims(dims); rc != PERLIN_OK) return rc;
  return guarded([&] {
    const auto d = static_cast<std::size_t>(dims);
    *value = field->field.eval(std::span<const double>(coords, d), std::span<double>(gradient, d));
  });
}

int perlin_fill_grid(const perlin_field* field, int dims, const size_t* count, const double* origin,
                     const double* step, float* out, size_t out_len, int threads) {
  return fill(field, dims, count, origin, step, out, out_len, threads);
}

int perlin_fill_grid_double(const perlin_field* field, int dims, const size_t* count,
                            const double* origin, const double* step, double* out, size_t out_len,
                            int threads) {
  return fill(field, dims, count, origin, step, out, out_len, threads);
}

int perlin_eval_points(const perlin_field* field, int dims, const float* const* coords, size_t n,
                       float* out, int threads) {
  return points(field, dims, coords, n, out, threads);
}

int perlin_eval_points_double(const perlin_field* field, int dims, const double* const* coords,
                              size_t n, double* out, int threads) {
  return points(field, dims, coords, n, out, threads);
}

int perlin_fill_grid_deriv(const perlin_field* field, int dims, const size_t* count,
                           const double* origin, const double* step, float* out, size_t out_len,
                           float* gradient, size_t gradient_len, int threads) {
  if (gradient == nullptr) return fail(PERLIN_E_NULL, "gradient must not be null");
  return fill(field, dims, count, origin, step, out, out_len, threads, gradient, gradient_len);
}

int perlin_fill_grid_deriv_double(const perlin_field* field, int dims, const size_t* count,
                                  const double* origin, const double* step, double* out,
                                  size_t out_len, double* gradient, size_t gradient_len,
                                  int threads) {
  if (gradient == nullptr) return fail(PERLIN_E_NULL, "gradient must not be null");
  return fill(field, dims, count, origin, step, out, out_len, threads, gradient, gradient_len);
}

int perlin_eval_points_deriv(const perlin_field* field, int dims, const float* const* coords,
                             size_t n, float* out, float* gradient, int threads) {
  if (gradient == nullptr && n > 0) return fail(PERLIN_E_NULL, "gradient must not be null");
  return points(field, dims, coords, n, out, threads, gradient);
}

int perlin_eval_points_deriv_double(const perlin_field* field, int dims,
                                    const double* const* coords, size_t n, double* out,
                                    double* gradient, int threads) {
  if (gradient == nullptr && n > 0) return fail(PERLIN_E_NULL, "gradient must not be null");
  return points(field, dims, coords, n, out, threads, gradient);
}

}  // extern "C"
