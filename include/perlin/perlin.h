/* perlin: Ken Perlin's improved noise, exact and fast. The C API (C99 and C++).
 *
 * A field is an opaque handle made with perlin_field_new() (Ken Perlin's improved noise, the
 * defaults of the `perlin` command) and changed with perlin_field_set(), which takes every option
 * of `perlin eval`/`perlin render` by its command-line name and syntax ("seed" "42", "octaves" "6",
 * "period" "16" or "16,8,4", "normalize" "1"), so a binding never changes when an option is added.
 *
 * Errors: functions that can fail return 0 or a negative PERLIN_E_* code, and
 * perlin_last_error() gives the library's message for the calling thread ("octaves: must be 1 to
 * 32, got 0"). No C++ exception crosses this boundary; null pointers and wrong sizes are errors,
 * not crashes. Evaluation is thread safe on a field nobody is changing.
 *
 * Link with `pkg-config --cflags --libs perlin` (the shared library exports perlin_* only).
 */
#ifndef PERLIN_PERLIN_H
#define PERLIN_PERLIN_H

#include <stddef.h>
#include <stdint.h>

#define PERLIN_VERSION_MAJOR 0
#define PERLIN_VERSION_MINOR 1
#define PERLIN_VERSION_PATCH 0

#if defined(_WIN32) && defined(PERLIN_BUILDING_C_API)
#define PERLIN_API __declspec(dllexport)
#elif defined(_WIN32)
#define PERLIN_API __declspec(dllimport)
#elif defined(__GNUC__)
#define PERLIN_API __attribute__((visibility("default")))
#else
#define PERLIN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define PERLIN_OK 0
#define PERLIN_E_NULL (-1)     /* a null pointer where one is required */
#define PERLIN_E_OPTION (-2)   /* an unknown option name */
#define PERLIN_E_VALUE (-3)    /* a value outside the option's domain, or malformed */
#define PERLIN_E_SIZE (-4)     /* dims not 1 to 4, a zero count, a buffer of the wrong length */
#define PERLIN_E_MEMORY (-5)   /* out of memory */
#define PERLIN_E_INTERNAL (-6) /* anything else (a bug: please report it) */

typedef struct perlin_field perlin_field;

/* "0.1.0": the library's version; PERLIN_VERSION_* are the header's. */
PERLIN_API const char* perlin_version(void);

/* The message of the last failed call on this thread ("" if none). Valid until the next call. */
PERLIN_API const char* perlin_last_error(void);

/* A new field: Ken Perlin's improved noise, no fractal (the defaults of `perlin eval`). NULL when
 * out of memory. */
PERLIN_API perlin_field* perlin_field_new(void);
/* A copy of `field` (NULL for NULL or out of memory). */
PERLIN_API perlin_field* perlin_field_clone(const perlin_field* field);
/* Frees the field; NULL is fine. */
PERLIN_API void perlin_field_free(perlin_field* field);

/* Sets one option by its name in the option table (perlin_option_info, docs/options.md; "_" may
 * stand for "-"). Values are text with the table's one parser per type; flags take "1"/"true"
 * or "0"/"false". On failure the field is unchanged. Returns PERLIN_OK, PERLIN_E_NULL,
 * PERLIN_E_OPTION (an unknown name; the message suggests the closest) or PERLIN_E_VALUE. */
PERLIN_API int perlin_field_set(perlin_field* field, const char* option, const char* value);

/* The option table: perlin_option_count() rows, each described by perlin_option_info. Every
 * string lives as long as the program. type: "integer", "number", "flag", "choice", "seed" or
 * "periods"; default_value: the default as text ("" for an unset seed or period); choices: the
 * valid names of a choice, comma-separated ("" otherwise); min/max (when has_range; max may be
 * infinite): the inclusive bounds, min excluded when min_exclusive. */
typedef struct perlin_option {
  const char* name;
  const char* alias;
  const char* type;
  const char* default_value;
  const char* help;
  const char* unit;
  const char* choices;
  int has_range;
  double min;
  double max;
  int min_exclusive;
} perlin_option;
PERLIN_API int perlin_option_count(void);
/* Fills *out with row `index` (0 to perlin_option_count() - 1). Returns PERLIN_OK, PERLIN_E_NULL or
 * PERLIN_E_SIZE. */
PERLIN_API int perlin_option_info(int index, perlin_option* out);

/* A field from a recipe ("perlin=1&fractal=fbm&octaves=8", docs/recipes.md): the same bits as
 * every other front. A page's or a render's recipe reads too: its field part is the field, and
 * perlin_field_warnings names the render settings it skipped. NULL, and perlin_last_error()
 * naming the bad pair, on failure. */
PERLIN_API perlin_field* perlin_field_from_recipe(const char* text);
/* The field's recipe, snprintf-style: writes at most size - 1 characters and a NUL into buf
 * (when buf is not NULL and size > 0) and returns the recipe's length; 0 for a NULL field. */
PERLIN_API size_t perlin_field_recipe(const perlin_field* field, char* buf, size_t size);

/* perlin_field_from_recipe of the `length` bytes at `text` (no NUL needed at the end): what the
 * bindings call, so that a NUL byte inside is refused at its position ("recipe: a NUL byte at
 * position 8 ...", PERLIN_E_VALUE) like every other front, never read as the recipe's end. */
PERLIN_API perlin_field* perlin_field_from_recipe_n(const char* text, size_t length);
/* The warnings of the options set so far that change nothing with the others ("octaves has no
 * effect without --fractal (the fractal is none)"), and of the render settings its recipe carried
 * ("recipe: size is a render setting, ..."), one a line, the CLI's and Python's text;
 * snprintf-style like perlin_field_recipe ("" when there are none). */
PERLIN_API size_t perlin_field_warnings(const perlin_field* field, char* buf, size_t size);

/* The field at a point of `dims` (1 to 4) coordinates: the exact double path, bit for bit the C++
 * library and `perlin eval`. NaN (and perlin_last_error set) for a null pointer or bad dims; a NaN
 * value (at a NaN coordinate) leaves perlin_last_error empty. */
PERLIN_API double perlin_field_eval(const perlin_field* field, int dims, const double* coords);

/* perlin_field_eval at a 2-D or 3-D point whose coordinates come by value: the same route and
 * bits, without a coordinate array (for fronts where filling one costs more than the noise, such
 * as JavaScript calling into WebAssembly). */
PERLIN_API double perlin_field_eval2(const perlin_field* field, double x, double y);
PERLIN_API double perlin_field_eval3(const perlin_field* field, double x, double y, double z);

/* The value and its `dims` analytic partial derivatives. Returns PERLIN_OK or an error. */
PERLIN_API int perlin_field_eval_deriv(const perlin_field* field, int dims, const double* coords,
                                       double* value, double* gradient);

/* A uniform grid of `dims` axes, x fastest: sample (i, j, ...) at (origin[0] + i*step[0], ...);
 * count, origin and step hold `dims` values (origin NULL: 0; step NULL: the library's default,
 * 1/64 on every axis); out_len must be the product of the counts. float:
 * the SIMD path, the same bits as the C++ fill_grid (within 2e-6 times the sum of the octave
 * amplitudes of the exact path); double: the exact path. threads: 0 = every core, 1 = the caller.
 * Results are the same for every thread count. */
PERLIN_API int perlin_fill_grid(const perlin_field* field, int dims, const size_t* count,
                                const double* origin, const double* step, float* out,
                                size_t out_len, int threads);
PERLIN_API int perlin_fill_grid_double(const perlin_field* field, int dims, const size_t* count,
                                       const double* origin, const double* step, double* out,
                                       size_t out_len, int threads);

/* A batch of n points: coords[k] points to the n values of axis k (k < dims). */
PERLIN_API int perlin_eval_points(const perlin_field* field, int dims, const float* const* coords,
                                  size_t n, float* out, int threads);
PERLIN_API int perlin_eval_points_double(const perlin_field* field, int dims,
                                         const double* const* coords, size_t n, double* out,
                                         int threads);

/* Values and analytic gradients: `gradient` receives dims arrays one after the other (planar:
 * the partial along axis k of sample i is gradient[k * N + i], N the number of samples or
 * points). Grids: gradient_len must be dims * out_len. float: the SIMD kernel of the C++
 * fill_grid_deriv and eval_points_deriv (their stated tolerance); double: the exact path, bit
 * for bit perlin_field_eval_deriv. */
PERLIN_API int perlin_fill_grid_deriv(const perlin_field* field, int dims, const size_t* count,
                                      const double* origin, const double* step, float* out,
                                      size_t out_len, float* gradient, size_t gradient_len,
                                      int threads);
PERLIN_API int perlin_fill_grid_deriv_double(const perlin_field* field, int dims,
                                             const size_t* count, const double* origin,
                                             const double* step, double* out, size_t out_len,
                                             double* gradient, size_t gradient_len, int threads);
PERLIN_API int perlin_eval_points_deriv(const perlin_field* field, int dims,
                                        const float* const* coords, size_t n, float* out,
                                        float* gradient, int threads);
PERLIN_API int perlin_eval_points_deriv_double(const perlin_field* field, int dims,
                                               const double* const* coords, size_t n, double* out,
                                               double* gradient, int threads);

/* Shader code for the field (docs/gpu.md): `perlin shader`'s text, the field's recipe on its
 * first line. language: "glsl", "glsl-es", "hlsl", "wgsl" or "js" (JavaScript: the value
 * function only, double only, improved and value noise); precision: "float" or "double" (desktop
 * GLSL and js only); dims 1 to 4; flags: PERLIN_SHADER_* or'ed. snprintf-style like
 * perlin_field_recipe: returns the source's length, or 0 with perlin_last_error() naming what
 * shaders cannot express (the eroded fractal, ...) or the bad argument. */
#define PERLIN_SHADER_STANDALONE 1     /* a complete program that fills a grid */
#define PERLIN_SHADER_NO_DERIVATIVES 2 /* leave out perlin_field_deriv */
#define PERLIN_SHADER_NO_SPLIT 4       /* leave out perlin_field_split */
PERLIN_API size_t perlin_field_shader(const perlin_field* field, const char* language,
                                      const char* precision, int dims, int flags, char* buf,
                                      size_t size);
/* A coordinate split for perlin_field_split (perlin::split_for_shader): x = cell + frac,
 * cell = floor(x), frac in [0, 1) rounded to float. PERLIN_E_VALUE for x that is not finite or
 * whose cell does not fit in 32 bits. */
PERLIN_API int perlin_split_for_shader(double x, int32_t* cell, float* frac);

#ifdef __cplusplus
}
#endif

#endif /* PERLIN_PERLIN_H */
