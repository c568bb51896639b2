/* The C API from C99 (compiled with -std=c99 -Wall -Wextra -pedantic -Werror): Ken Perlin's
 * reference values bit for bit, options by name, bulk calls, and every error code with a
 * message that names the option, the option table, the golden recipes and the seed check values
 * (seeds.txt, beside recipes.txt) bit for bit, the graphs of graphs.txt (value and gradient), and
 * the version against the project() line of the top CMakeLists.txt (two folders above the data).
 * Usage: c_api_test PATH/improved_noise_3d.txt PATH/recipes.txt */
#include <math.h>
#include <perlin/perlin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

/* Every recipe of the golden file (recipe TAB point TAB value) gives its value bit for bit and
 * writes itself back unchanged. */
static void check_recipes(const char* path) {
  static char line[8192];
  char recipe[4096];
  int cases = 0;
  FILE* in = fopen(path, "r");
  CHECK(in != NULL);
  if (in == NULL) return;
  while (fgets(line, sizeof line, in) != NULL) {
    char* tab1 = strchr(line, '\t');
    char* tab2 = tab1 != NULL ? strchr(tab1 + 1, '\t') : NULL;
    char* s;
    double p[4], want, got;
    int dims = 0;
    size_t n;
    perlin_field* f;
    if (line[0] == '#' || tab1 == NULL || tab2 == NULL) continue;
    *tab1 = *tab2 = '\0';
    for (s = tab1 + 1; *s != '\0' && dims < 4;) p[dims++] = strtod(s, &s);
    want = strtod(tab2 + 1, NULL);
    f = perlin_field_from_recipe(line);
    CHECK(f != NULL);
    if (f == NULL) {
      fprintf(stderr, "%s: %s\n", line, perlin_last_error());
      continue;
    }
    got = perlin_field_eval(f, dims, p);
    if (memcmp(&got, &want, sizeof got) != 0) {
      fprintf(stderr, "%s: %.17g, want %.17g\n", line, got, want);
      ++failures;
    }
    /* The same value with the coordinates by value (perlin_field_eval2/3). */
    if (dims == 2 || dims == 3) {
      got = dims == 2 ? perlin_field_eval2(f, p[0], p[1]) : perlin_field_eval3(f, p[0], p[1], p[2]);
      if (memcmp(&got, &want, sizeof got) != 0) {
        fprintf(stderr, "%s by value: %.17g, want %.17g\n", line, got, want);
        ++failures;
      }
    }
    n = perlin_field_recipe(f, recipe, sizeof recipe);
    CHECK(n == strlen(line) && strcmp(recipe, line) == 0);
    CHECK(perlin_field_recipe(f, recipe, 5) == n && strlen(recipe) == 4); /* snprintf-style */
    perlin_field_free(f);
    ++cases;
  }
  fclose(in);
  CHECK(cases >= 120);
}

static void expect_error(int rc, int code, const char* mentions) {
  CHECK(rc == code);
  if (strstr(perlin_last_error(), mentions) == NULL) {
    fprintf(stderr, "message '%s' does not mention '%s'\n", perlin_last_error(), mentions);
    ++failures;
  }
}

/* perlin_field_from_recipe_n: a recipe of a given length (no NUL at its end needed), and a NUL
   inside refused at its position (a C string would have ended there: the default field). */
static void check_recipe_lengths(void) {
  static const char text[] = "perlin=1&seed=3&octaves=2";
  static const char nul[] = "perlin=1\0&seed=3";
  const double p[2] = {0.3, 0.7};
  perlin_field* whole = perlin_field_from_recipe(text);
  perlin_field* part = perlin_field_from_recipe_n(text, 15); /* "perlin=1&seed=3" */
  perlin_field* seeded = perlin_field_from_recipe("perlin=1&seed=3");
  CHECK(whole != NULL && part != NULL && seeded != NULL);
  CHECK(perlin_field_eval(part, 2, p) == perlin_field_eval(seeded, 2, p));
  CHECK(perlin_field_from_recipe_n(nul, sizeof nul - 1) == NULL);
  expect_error(PERLIN_E_VALUE, PERLIN_E_VALUE, "recipe: a NUL byte at position 8");
  CHECK(perlin_field_from_recipe_n(NULL, 3) == NULL);
  perlin_field_free(whole);
  perlin_field_free(part);
  perlin_field_free(seeded);
}

/* Shader source (docs/gpu.md): the recipe first (after a standalone program's #version), every
   language, the refusals with a message, snprintf-style lengths; the coordinate split. */
static int starts_with(const char* text, const char* prefix) {
  return strncmp(text, prefix, strlen(prefix)) == 0;
}

static void check_shaders(void) {
  static char text[200000];
  perlin_field* f = perlin_field_from_recipe("perlin=1&seed=42&fractal=fbm&octaves=3");
  perlin_field* too_long = perlin_field_from_recipe("perlin=1&period=3&fractal=fbm&octaves=32");
  size_t n;
  int32_t cell = 0;
  float frac = 0;
  CHECK(f != NULL && too_long != NULL);
  n = perlin_field_shader(f, "glsl", "double", 3, 0, text, sizeof text);
  CHECK(n > 1000 && n < sizeof text && strlen(text) == n);
  CHECK(starts_with(text, "// recipe: perlin=1&seed=42&fractal=fbm&octaves=3\n"));
  CHECK(strstr(text, "double perlin_field(dvec3 p)") != NULL);
  CHECK(strstr(text, "perlin_field_deriv") != NULL && strstr(text, "perlin_field_split") != NULL);
  n = perlin_field_shader(f, "wgsl", "float", 2, PERLIN_SHADER_NO_DERIVATIVES, text, sizeof text);
  CHECK(n > 0 && strstr(text, "fn perlin_field(p: vec2<f32>) -> f32") != NULL);
  CHECK(strstr(text, "perlin_field_deriv") == NULL);
  n = perlin_field_shader(f, "glsl-es", "float", 2, PERLIN_SHADER_STANDALONE, text, sizeof text);
  CHECK(n > 0 && starts_with(text, "#version 300 es\n// recipe: perlin=1"));
  CHECK(perlin_field_shader(f, "hlsl", "float", 4, 0, NULL, 0) > 0); /* the length only */
  CHECK(perlin_field_shader(f, "hlsl", "float", 4, 0, text, 8) > 8 && strlen(text) == 7);
  CHECK(perlin_field_shader(f, "wgsl", "double", 3, 0, text, sizeof text) == 0);
  expect_error(PERLIN_E_VALUE, PERLIN_E_VALUE, "double precision");
  CHECK(perlin_field_shader(f, "cuda", "float", 3, 0, text, sizeof text) == 0);
  expect_error(PERLIN_E_VALUE, PERLIN_E_VALUE, "cuda");
  CHECK(perlin_field_shader(f, "glsl", "float", 5, 0, text, sizeof text) == 0);
  expect_error(PERLIN_E_SIZE, PERLIN_E_SIZE, "dims");
  CHECK(perlin_field_shader(too_long, "glsl", "float", 3, 0, text, sizeof text) == 0);
  expect_error(PERLIN_E_VALUE, PERLIN_E_VALUE, "2^31 - 1"); /* octave 30: 3 x 2^30 */
  CHECK(perlin_field_shader(NULL, "glsl", "float", 3, 0, text, sizeof text) == 0);
  CHECK(perlin_split_for_shader(1000000.25, &cell, &frac) == PERLIN_OK);
  CHECK(cell == 1000000 && frac == 0.25f);
  CHECK(perlin_split_for_shader(-2.5, &cell, &frac) == PERLIN_OK && cell == -3 && frac == 0.5f);
  expect_error(perlin_split_for_shader(NAN, &cell, &frac), PERLIN_E_VALUE, "x");
  expect_error(perlin_split_for_shader(1e10, &cell, &frac), PERLIN_E_VALUE, "32-bit");
  perlin_field_free(f);
  perlin_field_free(too_long);
}

/* A page's recipe: its field part, and the render settings it left out among the warnings. */
static void check_page_recipe(void) {
  static char text[1024];
  perlin_field* page =
      perlin_field_from_recipe("perlin=1&seed=42&fractal=fbm&octaves=5&size=64x48&step=0.015625");
  perlin_field* field = perlin_field_from_recipe("perlin=1&seed=42&fractal=fbm&octaves=5");
  const double p[2] = {0.3, 0.7};
  CHECK(page != NULL && field != NULL);
  CHECK(perlin_field_eval(page, 2, p) == perlin_field_eval(field, 2, p));
  CHECK(perlin_field_warnings(page, text, sizeof text) > 0);
  CHECK(starts_with(text, "recipe: size, step are render settings, not part of the field"));
  CHECK(perlin_field_warnings(field, text, sizeof text) == 0);
  CHECK(perlin_field_from_recipe("perlin=1&stpe=0.5") == NULL);
  CHECK(strstr(perlin_last_error(), "did you mean 'step'") != NULL);
  perlin_field_free(page);
  perlin_field_free(field);
}

/* The file `name` in the folder of `path` (which ends in its file name), into `out`. */
static void beside(const char* path, const char* name, char* out, size_t size) {
  const char* slash = strrchr(path, '/');
  const int dir = slash != NULL ? (int)(slash - path + 1) : 0;
  snprintf(out, size, "%.*s%s", dir, path, name);
}

/* The seed check values of docs/seeding.md: every noise line of seeds.txt
 * (SEED TAB improved|value TAB x y z [w] TAB VALUE TAB BITS) gives its value bit for bit. */
static void check_seeds(const char* recipes_path) {
  char path[4096], line[1024];
  int cases = 0;
  FILE* in;
  beside(recipes_path, "seeds.txt", path, sizeof path);
  in = fopen(path, "r");
  CHECK(in != NULL);
  if (in == NULL) return;
  while (fgets(line, sizeof line, in) != NULL) {
    char* col[5] = {NULL, NULL, NULL, NULL, NULL};
    char* s;
    double p[4], want, got;
    int n = 1, dims = 0;
    perlin_field* f;
    if (line[0] == '#' || line[0] == '\n') continue;
    col[0] = line;
    for (s = line; *s != '\0' && n < 5; ++s) {
      if (*s == '\t') {
        *s = '\0';
        col[n++] = s + 1;
      }
    }
    CHECK(n >= 3);
    if (n < 3 || strcmp(col[1], "permutation") == 0) continue;
    CHECK(n == 5);
    if (n != 5) continue;
    for (s = col[2]; *s != '\0' && dims < 4;) p[dims++] = strtod(s, &s);
    want = strtod(col[3], NULL);
    f = perlin_field_new();
    CHECK(perlin_field_set(f, "seed", col[0]) == 0 && perlin_field_set(f, "noise", col[1]) == 0);
    got = perlin_field_eval(f, dims, p);
    if (memcmp(&got, &want, sizeof got) != 0) {
      fprintf(stderr, "seed %s %s %s: %.17g, want %.17g\n", col[0], col[1], col[2], got, want);
      ++failures;
    }
    perlin_field_free(f);
    ++cases;
  }
  fclose(in);
  CHECK(cases >= 9);
}

/* The graphs of graphs.txt (beside recipes.txt; recipe TAB point TAB value TAB gradient TAB the
 * point's, value's and gradient's bits in hexadecimal) through perlin_field_from_recipe: each
 * gives its value and gradient bit for bit (from the hex bits) and writes itself back unchanged;
 * a graph with a cycle is refused with the library's message naming the node. */
static unsigned long long hex_bits(char** s) { return strtoull(*s, s, 16); }

static double from_bits(unsigned long long b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static void check_graphs(const char* recipes_path) {
  static char line[16384], recipe[16384];
  char path[4096];
  int cases = 0;
  FILE* in;
  perlin_field* bad;
  beside(recipes_path, "graphs.txt", path, sizeof path);
  in = fopen(path, "r");
  CHECK(in != NULL);
  if (in == NULL) return;
  while (fgets(line, sizeof line, in) != NULL) {
    char* col[5] = {NULL, NULL, NULL, NULL, NULL};
    char* s;
    double p[4], want, want_grad[4], value, grad[4], got;
    int n = 1, dims = 0, i;
    perlin_field* f;
    if (line[0] == '#' || line[0] == '\n') continue;
    col[0] = line;
    for (s = line; *s != '\0' && n < 5; ++s) {
      if (*s == '\t') {
        *s = '\0';
        col[n++] = s + 1;
      }
    }
    CHECK(n == 5);
    if (n != 5) continue;
    for (s = col[1]; *s != '\0' && *s != '\t' && dims < 4; ++dims) strtod(s, &s);
    s = col[4];
    for (i = 0; i < dims; ++i) p[i] = from_bits(hex_bits(&s));
    want = from_bits(hex_bits(&s));
    for (i = 0; i < dims; ++i) want_grad[i] = from_bits(hex_bits(&s));
    f = perlin_field_from_recipe(line);
    CHECK(f != NULL);
    if (f == NULL) {
      fprintf(stderr, "%s: %s\n", line, perlin_last_error());
      continue;
    }
    got = perlin_field_eval(f, dims, p);
    if (memcmp(&got, &want, sizeof got) != 0) {
      fprintf(stderr, "%s: %.17g, want %.17g\n", line, got, want);
      ++failures;
    }
    CHECK(perlin_field_eval_deriv(f, dims, p, &value, grad) == PERLIN_OK);
    if (memcmp(&value, &want, sizeof value) != 0 ||
        memcmp(grad, want_grad, dims * sizeof(double))) {
      fprintf(stderr, "%s: the gradient's value or partials differ\n", line);
      ++failures;
    }
    /* Written back unchanged; a one-field graph is that field, written as its version-1 recipe
     * (field_from_text), which gives the same bits. */
    CHECK(perlin_field_recipe(f, recipe, sizeof recipe) < sizeof recipe);
    if (strcmp(recipe, line) != 0) {
      perlin_field* again = perlin_field_from_recipe(recipe);
      CHECK(starts_with(recipe, "perlin=1&") && again != NULL);
      if (again != NULL) {
        got = perlin_field_eval(again, dims, p);
        CHECK(memcmp(&got, &want, sizeof got) == 0);
        perlin_field_free(again);
      }
    }
    perlin_field_free(f);
    ++cases;
  }
  fclose(in);
  CHECK(cases >= 30);
  bad = perlin_field_from_recipe("perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a");
  CHECK(bad == NULL);
  if (strcmp(perlin_last_error(), "b.in: a cycle: a -> b -> a") != 0) {
    fprintf(stderr, "a cycle: %s\n", perlin_last_error());
    ++failures;
  }
  /* bad_graphs.txt (graph TAB the text the library's message contains): each refused by name. */
  beside(recipes_path, "bad_graphs.txt", path, sizeof path);
  in = fopen(path, "r");
  CHECK(in != NULL);
  if (in == NULL) return;
  cases = 0;
  while (fgets(line, sizeof line, in) != NULL) {
    char* tab = strchr(line, '\t');
    if (line[0] == '#' || tab == NULL) continue;
    *tab = '\0';
    tab[strcspn(tab + 1, "\n") + 1] = '\0';
    bad = perlin_field_from_recipe(line);
    CHECK(bad == NULL);
    if (strstr(perlin_last_error(), tab + 1) == NULL) {
      fprintf(stderr, "%s: '%s', want '%s'\n", line, perlin_last_error(), tab + 1);
      ++failures;
    }
    perlin_field_free(bad);
    ++cases;
  }
  fclose(in);
  CHECK(cases >= 15);
}

/* Stefan Gustavson's simplex noise through the recipe noise=simplex: the first rows of
 * simplex_gustavson_{2,3,4}d.txt (beside recipes.txt; "x y ... v TAB bits ..."), bit for bit
 * from the hex bits. */
static void check_simplex(const char* recipes_path) {
  char path[4096], line[1024], name[64];
  int dims, cases = 0;
  perlin_field* f = perlin_field_from_recipe("perlin=1&noise=simplex");
  CHECK(f != NULL);
  if (f == NULL) return;
  for (dims = 2; dims <= 4; ++dims) {
    int rows = 0;
    FILE* in;
    snprintf(name, sizeof name, "simplex_gustavson_%dd.txt", dims);
    beside(recipes_path, name, path, sizeof path);
    in = fopen(path, "r");
    CHECK(in != NULL);
    if (in == NULL) continue;
    while (rows < 60 && fgets(line, sizeof line, in) != NULL) {
      double p[5], got;
      char* s = strchr(line, '\t');
      int k;
      if (line[0] == '#' || s == NULL) continue;
      for (k = 0; k <= dims; ++k) {
        unsigned long long b = strtoull(s + 1, &s, 16);
        memcpy(&p[k], &b, sizeof p[k]);
      }
      got = perlin_field_eval(f, dims, p);
      if (memcmp(&got, &p[dims], sizeof got) != 0) {
        fprintf(stderr, "simplex %d-D at %.17g %.17g: %.17g, want %.17g\n", dims, p[0], p[1], got,
                p[dims]);
        ++failures;
      }
      ++rows;
      ++cases;
    }
    fclose(in);
  }
  CHECK(cases == 180);
  perlin_field_free(f);
}

/* The version is the project's: the project() line of the top CMakeLists.txt, two folders above
 * the data; the header's PERLIN_VERSION_* say the same. */
static void check_version(const char* recipes_path) {
  static char text[65536];
  char path[4096], version[64];
  const char* at;
  int major = -1, minor = -1, patch = -1;
  size_t n;
  FILE* in;
  beside(recipes_path, "../../CMakeLists.txt", path, sizeof path);
  in = fopen(path, "r");
  CHECK(in != NULL);
  if (in == NULL) return;
  n = fread(text, 1, sizeof text - 1, in);
  text[n] = '\0';
  fclose(in);
  at = strstr(text, "project(perlin VERSION ");
  CHECK(at != NULL);
  if (at == NULL) return;
  CHECK(sscanf(at, "project(perlin VERSION %63[0-9.]", version) == 1);
  CHECK(strcmp(perlin_version(), version) == 0);
  CHECK(sscanf(version, "%d.%d.%d", &major, &minor, &patch) == 3);
  CHECK(PERLIN_VERSION_MAJOR == major && PERLIN_VERSION_MINOR == minor &&
        PERLIN_VERSION_PATCH == patch);
}

int main(int argc, char** argv) {
  perlin_field* f = perlin_field_new();
  perlin_field* g;
  FILE* data;
  double p[4], v, want, grad[4], value;
  int rows = 0;
  size_t count[2] = {33, 17};
  double origin[2] = {-3.5, 1.25}, step[2] = {0.1, 0.07};
  float grid[33 * 17];
  double grid_exact[33 * 17];
  float xs[5] = {0.5f, 1.5f, -2.25f, 3.0f, 100.75f}, ys[5] = {0.25f, 0.5f, 0.75f, 1.0f, -7.5f};
  const float* axes[2];
  float out[5];
  size_t i;

  if (argc < 3) return 2;
  CHECK(f != NULL);
  check_version(argv[2]);
  check_seeds(argv[2]);
  check_graphs(argv[2]);
  check_simplex(argv[2]);
  check_shaders();
  check_recipe_lengths();
  check_page_recipe();

  /* Every reference value, bit for bit. */
  data = fopen(argv[1], "r");
  CHECK(data != NULL);
  while (data != NULL && fscanf(data, "%lf %lf %lf %lf", &p[0], &p[1], &p[2], &want) == 4) {
    v = perlin_field_eval(f, 3, p);
    if (v != want) {
      fprintf(stderr, "noise(%.17g, %.17g, %.17g) = %.17g, want %.17g\n", p[0], p[1], p[2], v,
              want);
      ++failures;
    }
    ++rows;
  }
  if (data != NULL) fclose(data);
  CHECK(rows == 1201);
  p[0] = 3.14;
  p[1] = 42;
  p[2] = 7;
  CHECK(perlin_field_eval(f, 3, p) == 0.13691995878400012);

  /* Options by their command-line names. */
  CHECK(perlin_field_set(f, "seed", "42") == PERLIN_OK);
  CHECK(perlin_field_set(f, "fractal", "fbm") == PERLIN_OK);
  CHECK(perlin_field_set(f, "octaves", "6") == PERLIN_OK);
  CHECK(perlin_field_set(f, "period", "16,8") == PERLIN_OK);
  CHECK(perlin_field_set(f, "normalize", "1") == PERLIN_OK);
  CHECK(perlin_field_set(f, "gain", "0.6") == PERLIN_OK);
  g = perlin_field_clone(f);
  CHECK(g != NULL);
  p[0] = 0.3;
  p[1] = 0.7;
  CHECK(perlin_field_eval(f, 2, p) == perlin_field_eval(g, 2, p));
  p[0] += 16; /* period 16 along x, at every octave */
  CHECK(perlin_field_eval(f, 2, p) == perlin_field_eval(g, 2, p));
  CHECK(perlin_field_eval_deriv(f, 2, p, &value, grad) == PERLIN_OK);
  CHECK(value == perlin_field_eval(f, 2, p));
  CHECK(isfinite(grad[0]) && isfinite(grad[1]));

  /* A domain warp by the same option strings ("_" may stand for "-"): it moves the values and
     keeps the period of 16. */
  CHECK(perlin_field_set(f, "warp", "progressive") == PERLIN_OK);
  CHECK(perlin_field_set(f, "warp-amplitude", "2") == PERLIN_OK);
  CHECK(perlin_field_set(f, "warp_frequency", "0.5") == PERLIN_OK);
  p[0] = 0.3;
  p[1] = 0.7;
  value = perlin_field_eval(f, 2, p);
  CHECK(value != perlin_field_eval(g, 2, p));
  p[0] += 16;
  CHECK(fabs(perlin_field_eval(f, 2, p) - value) < 1e-12);
  expect_error(perlin_field_set(f, "warp-frequency", "0.3"), PERLIN_E_VALUE,
               "warp-frequency: the field tiles every 16 cells");
  expect_error(perlin_field_set(f, "warp-octaves", "0"), PERLIN_E_VALUE,
               "warp-octaves: must be 1 to 32");
  CHECK(perlin_field_set(f, "warp", "none") == PERLIN_OK);

  /* Bulk: the float grid within the tolerance of the exact one; points. */
  CHECK(perlin_fill_grid(f, 2, count, origin, step, grid, 33 * 17, 0) == PERLIN_OK);
  CHECK(perlin_fill_grid_double(f, 2, count, origin, step, grid_exact, 33 * 17, 2) == PERLIN_OK);
  for (i = 0; i < 33 * 17; ++i) CHECK(fabs(grid[i] - grid_exact[i]) <= 2e-6 * 2);
  p[0] = origin[0] + 5 * step[0];
  p[1] = origin[1] + 3 * step[1];
  CHECK(grid_exact[3 * 33 + 5] == perlin_field_eval(f, 2, p));
  axes[0] = xs;
  axes[1] = ys;
  CHECK(perlin_eval_points(f, 2, axes, 5, out, 1) == PERLIN_OK);
  for (i = 0; i < 5; ++i) {
    p[0] = xs[i];
    p[1] = ys[i];
    CHECK(fabs(out[i] - perlin_field_eval(f, 2, p)) <= 2e-6 * 2);
  }
  CHECK(perlin_eval_points(f, 2, axes, 0, NULL, 1) == PERLIN_OK); /* an empty batch */

  /* Every error: a code, a message naming what was wrong, and the field unchanged. */
  expect_error(perlin_field_set(f, "octaves", "0"), PERLIN_E_VALUE, "octaves");
  expect_error(perlin_field_set(f, "octaves", "six"), PERLIN_E_VALUE, "octaves");
  expect_error(perlin_field_set(f, "seed", "-1"), PERLIN_E_VALUE, "seed");
  expect_error(perlin_field_set(f, "period", "0"), PERLIN_E_VALUE, "period");
  expect_error(perlin_field_set(f, "fractal", "pink"), PERLIN_E_VALUE, "fractal");
  expect_error(perlin_field_set(f, "normalize", "maybe"), PERLIN_E_VALUE, "normalize");
  expect_error(perlin_field_set(f, "lacunarity", "1e300"), PERLIN_E_VALUE, "lacunarity");
  expect_error(perlin_field_set(f, "octavez", "3"), PERLIN_E_OPTION, "octavez");
  expect_error(perlin_field_set(NULL, "octaves", "3"), PERLIN_E_NULL, "null");
  expect_error(perlin_field_set(f, NULL, "3"), PERLIN_E_NULL, "null");
  p[0] = 0.3;
  p[1] = 0.7;
  CHECK(perlin_field_eval(f, 2, p) == perlin_field_eval(g, 2, p)); /* unchanged */
  CHECK(isnan(perlin_field_eval(f, 5, p)));
  CHECK(strstr(perlin_last_error(), "dims") != NULL);
  CHECK(isnan(perlin_field_eval(NULL, 2, p)));
  CHECK(isnan(perlin_field_eval2(NULL, 1, 2)) && strstr(perlin_last_error(), "null") != NULL);
  CHECK(isnan(perlin_field_eval3(NULL, 1, 2, 3)));
  expect_error(perlin_fill_grid(f, 2, count, origin, step, grid, 10, 1), PERLIN_E_SIZE, "out");
  count[0] = 0;
  expect_error(perlin_fill_grid(f, 2, count, origin, step, grid, 0, 1), PERLIN_E_SIZE, "count");
  count[0] = 33;
  expect_error(perlin_fill_grid(f, 0, count, origin, step, grid, 33 * 17, 1), PERLIN_E_SIZE,
               "dims");
  expect_error(perlin_fill_grid(f, 2, NULL, origin, step, grid, 33 * 17, 1), PERLIN_E_NULL, "null");
  expect_error(perlin_fill_grid(f, 2, count, origin, step, grid, 33 * 17, -1), PERLIN_E_VALUE,
               "threads");
  origin[0] = NAN;
  expect_error(perlin_fill_grid(f, 2, count, origin, step, grid, 33 * 17, 1), PERLIN_E_VALUE,
               "origin");

  /* Gradients in bulk: the double calls are perlin_field_eval_deriv bit for bit, the float
     calls within their tolerance of it; planar layout; a short gradient is PERLIN_E_SIZE. */
  {
    size_t c2[2] = {9, 5};
    double o2[2] = {0.25, -1.5}, s2[2] = {0.3, 0.7};
    double vd[45], gd[90];
    float vf[45], gf[90];
    double xs[45], ys[45];
    float xf[45], yf[45];
    const double* pd[2];
    const float* pf[2];
    double q[2], v, dg[2];
    perlin_field* h = perlin_field_from_recipe("perlin=1&fractal=fbm&octaves=4&seed=3");
    int i, j, bad = 0;
    CHECK(h != NULL);
    CHECK(perlin_fill_grid_deriv_double(h, 2, c2, o2, s2, vd, 45, gd, 90, 2) == PERLIN_OK);
    CHECK(perlin_fill_grid_deriv(h, 2, c2, o2, s2, vf, 45, gf, 90, 2) == PERLIN_OK);
    for (j = 0; j < 5; ++j) {
      for (i = 0; i < 9; ++i) {
        const int n = j * 9 + i;
        q[0] = o2[0] + i * s2[0];
        q[1] = o2[1] + j * s2[1];
        CHECK(perlin_field_eval_deriv(h, 2, q, &v, dg) == PERLIN_OK);
        bad += vd[n] != v || gd[n] != dg[0] || gd[45 + n] != dg[1];
        bad +=
            fabs(vf[n] - v) > 4e-6 || fabs(gf[n] - dg[0]) > 1e-3 || fabs(gf[45 + n] - dg[1]) > 1e-3;
        xs[n] = q[0];
        ys[n] = q[1];
        xf[n] = (float)q[0];
        yf[n] = (float)q[1];
      }
    }
    CHECK(bad == 0);
    pd[0] = xs;
    pd[1] = ys;
    pf[0] = xf;
    pf[1] = yf;
    CHECK(perlin_eval_points_deriv_double(h, 2, pd, 45, vd, gd, 1) == PERLIN_OK);
    CHECK(perlin_eval_points_deriv(h, 2, pf, 45, vf, gf, 1) == PERLIN_OK);
    for (i = 0; i < 45; ++i) {
      q[0] = xs[i];
      q[1] = ys[i];
      perlin_field_eval_deriv(h, 2, q, &v, dg);
      bad += vd[i] != v || gd[i] != dg[0] || gd[45 + i] != dg[1];
      q[0] = xf[i];
      q[1] = yf[i];
      perlin_field_eval_deriv(h, 2, q, &v, dg);
      bad +=
          fabs(vf[i] - v) > 4e-6 || fabs(gf[i] - dg[0]) > 1e-3 || fabs(gf[45 + i] - dg[1]) > 1e-3;
    }
    CHECK(bad == 0);
    expect_error(perlin_fill_grid_deriv(h, 2, c2, o2, s2, vf, 45, gf, 89, 1), PERLIN_E_SIZE,
                 "gradient");
    expect_error(perlin_eval_points_deriv(h, 2, pf, 45, vf, NULL, 1), PERLIN_E_NULL, "gradient");
    perlin_field_free(h);
  }

  /* The option table: every row, and one parser behind perlin_field_set. */
  {
    perlin_option o;
    int k, found = 0;
    CHECK(perlin_option_count() >= 19);
    for (k = 0; k < perlin_option_count(); ++k) {
      CHECK(perlin_option_info(k, &o) == PERLIN_OK);
      CHECK(o.name != NULL && o.name[0] != '\0' && o.help[0] != '\0' && o.type[0] != '\0');
      if (strcmp(o.name, "octaves") == 0) {
        found = 1;
        CHECK(strcmp(o.type, "integer") == 0 && strcmp(o.default_value, "1") == 0);
        CHECK(o.has_range && o.min == 1 && o.max == 32);
      }
      if (strcmp(o.name, "fractal") == 0)
        CHECK(strcmp(o.choices, "none,fbm,turbulence,ridged,billow,eroded") == 0);
    }
    CHECK(found);
    expect_error(perlin_option_info(perlin_option_count(), &o), PERLIN_E_SIZE, "index");
    expect_error(perlin_option_info(0, NULL), PERLIN_E_NULL, "null");
    expect_error(perlin_field_set(f, "octave", "3"), PERLIN_E_OPTION, "did you mean 'octaves'");
    expect_error(perlin_field_set(f, "octaves", " 3"), PERLIN_E_VALUE, "is not an integer");
    CHECK(perlin_field_from_recipe("perlin=9") == NULL);
    CHECK(strstr(perlin_last_error(), "unknown version") != NULL);
    CHECK(perlin_field_from_recipe(NULL) == NULL);
  }
  {
    char w[256];
    perlin_field* u = perlin_field_new();
    CHECK(perlin_field_set(u, "octaves", "3") == PERLIN_OK);
    CHECK(perlin_field_warnings(u, w, sizeof w) > 0);
    CHECK(strcmp(w, "octaves has no effect without --fractal (the fractal is none)\n") == 0);
    CHECK(perlin_field_set(u, "fractal", "fbm") == PERLIN_OK);
    CHECK(perlin_field_warnings(u, w, sizeof w) == 0 && w[0] == '\0');
    perlin_field_free(u);
  }
  if (argc > 2) check_recipes(argv[2]);

  perlin_field_free(g);
  perlin_field_free(f);
  perlin_field_free(NULL);
  if (failures == 0) printf("c_api_test: ok\n");
  return failures == 0 ? 0 : 1;
}
