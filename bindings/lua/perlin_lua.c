/* perlin for Lua 5.4: `local perlin = require "perlin"` (a C module over the C API).
 *
 *   perlin.noise(x [, y [, z [, w]]])      Ken Perlin's improved noise, 1 to 4-D, exact
 *   local f = perlin.new{seed = 42, fractal = "fbm", octaves = 6}   the option table's
 *                                          options (docs/options.md); unknown keys are errors
 *   f:eval(x [, y [, z [, w]]])            the field at a point (exact)
 *   f:grid(w, h [, {x0 =, y0 =, step =, threads =, out =}])
 *                                          w*h values (SIMD, every core) into a table, row by row
 *                                          (out: a table to reuse); one call for a whole map
 *   f:gradient(x [, y ...])                the value and its analytic partials (exact)
 *   f:points(xs [, ys [, zs [, ws]]])       a batch: one table per axis -> one value per point
 *   perlin.from_recipe(text), f:recipe()   the field of a recipe, and a field's (docs/recipes.md)
 *   perlin.version                         "0.1.0"
 *
 * Errors raise Lua errors with the library's message ("octaves: must be 1 to 32, got 0").
 * Fields are freed by __gc (Lua 5.4 runs it for full userdata). */
#include <lauxlib.h>
#include <locale.h>
#include <lua.h>
#include <math.h>
#include <perlin/perlin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD "perlin.field"

static perlin_field** check_field(lua_State* L) {
  perlin_field** f = (perlin_field**)luaL_checkudata(L, 1, FIELD);
  if (*f == NULL) luaL_error(L, "perlin: the field was freed");
  return f;
}

static int eval_at(lua_State* L, const perlin_field* f, int first) {
  double p[4];
  int dims = lua_gettop(L) - first + 1;
  int k;
  if (dims < 1 || dims > 4)
    return luaL_error(L, "point: must have 1 to 4 coordinates, got %d", dims);
  for (k = 0; k < dims; ++k) p[k] = luaL_checknumber(L, first + k);
  lua_pushnumber(L, perlin_field_eval(f, dims, p));
  return 1;
}

/* perlin.noise: Ken Perlin's noise, a field of this Lua state (its first upvalue), freed by its
 * __gc with the state: no field is shared between states or threads. */
static int l_noise(lua_State* L) {
  perlin_field** f = (perlin_field**)lua_touserdata(L, lua_upvalueindex(1));
  return eval_at(L, *f, 1);
}

/* A new field userdata on the stack (NULL field: error raised). */
static perlin_field** push_field(lua_State* L, perlin_field* made) {
  perlin_field** f = (perlin_field**)lua_newuserdatauv(L, sizeof(perlin_field*), 0);
  *f = made;
  if (*f == NULL) luaL_error(L, "%s", perlin_last_error());
  luaL_setmetatable(L, FIELD);
  return f;
}

/* The whole Lua string, its length given: a NUL inside is refused at its position. */
static int l_from_recipe(lua_State* L) {
  size_t length = 0;
  const char* text = luaL_checklstring(L, 1, &length);
  push_field(L, perlin_field_from_recipe_n(text, length));
  return 1;
}

/* f:warnings() -> a table of the CLI's warnings for options set that change nothing. */
static int l_warnings(lua_State* L) {
  perlin_field* f = *check_field(L);
  size_t n = perlin_field_warnings(f, NULL, 0), i, start = 0;
  char* text = (char*)malloc(n + 1);
  int k = 0;
  if (text == NULL) return luaL_error(L, "out of memory");
  perlin_field_warnings(f, text, n + 1);
  lua_newtable(L);
  for (i = 0; i < n; ++i) {
    if (text[i] == '\n') {
      lua_pushlstring(L, text + start, i - start);
      lua_rawseti(L, -2, ++k);
      start = i + 1;
    }
  }
  free(text);
  return 1;
}

static int l_recipe(lua_State* L) {
  perlin_field* f = *check_field(L);
  size_t n = perlin_field_recipe(f, NULL, 0);
  luaL_Buffer b;
  char* p = luaL_buffinitsize(L, &b, n + 1);
  perlin_field_recipe(f, p, n + 1);
  luaL_pushresultsize(&b, n);
  return 1;
}

static int l_eval(lua_State* L) { return eval_at(L, *check_field(L), 2); }

/* snprintf writes the C locale's decimal point (os.setlocale("de_DE.UTF-8") makes 0.5 "0,5");
 * the option table reads '.', whatever the locale. */
static void c_decimal_point(char* buf) {
  const char* point = localeconv()->decimal_point;
  const size_t n = strlen(point);
  char* at;
  if (n == 0 || strcmp(point, ".") == 0 || (at = strstr(buf, point)) == NULL) return;
  *at = '.';
  memmove(at + 1, at + n, strlen(at + n) + 1);
}

/* An option value as the command line writes it: integers plainly, other numbers with 17
 * significant digits (the exact double), booleans as 1 or 0, strings as they are. */
static const char* option_text(lua_State* L, int idx, char* buf, size_t size) {
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
      return lua_toboolean(L, idx) ? "1" : "0";
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        snprintf(buf, size, "%lld", (long long)lua_tointeger(L, idx));
      } else {
        /* An integral float below 2^64 (a seed of 2^60 written 2^60) exactly, digit for digit. */
        const double v = (double)lua_tonumber(L, idx);
        if (v == floor(v) && fabs(v) < 18446744073709551616.0) {
          snprintf(buf, size, "%.0f", v);
        } else {
          snprintf(buf, size, "%.17g", v);
          c_decimal_point(buf);
        }
      }
      return buf;
    case LUA_TSTRING:
      return lua_tostring(L, idx);
    default:
      return NULL;
  }
}

/* perlin.new{...}, or perlin.new() for the defaults (the argument is checked before the field is
 * pushed, which would otherwise be taken for it). */
static int l_new(lua_State* L) {
  perlin_field** f;
  char buf[64];
  const int has_options = !lua_isnoneornil(L, 1);
  if (has_options) luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  f = push_field(L, perlin_field_new());
  if (!has_options) return 1;
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const char* name;
    const char* value;
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_error(L, "perlin.new: option names are strings");
    name = lua_tostring(L, -2);
    value = option_text(L, -1, buf, sizeof buf);
    if (value == NULL) return luaL_error(L, "%s: must be a number, a string or a boolean", name);
    if (perlin_field_set(*f, name, value) != PERLIN_OK)
      return luaL_error(L, "%s", perlin_last_error());
    lua_pop(L, 1);
  }
  return 1;
}

static double opt_number(lua_State* L, int t, const char* key, double fallback) {
  double v;
  lua_getfield(L, t, key);
  v = luaL_optnumber(L, -1, fallback);
  lua_pop(L, 1);
  return v;
}

/* f:grid(w, h [, {x0 =, y0 =, step =, threads =, out =}]): the origin, step and thread count
 * default to the library's (NULL and 0 to the C API); the sizes are the C API's to check. */
static int l_grid(lua_State* L) {
  perlin_field* f = *check_field(L);
  lua_Integer w = luaL_checkinteger(L, 2), h = luaL_checkinteger(L, 3);
  double origin[2] = {0, 0}, step[2];
  const double* step_p = NULL;
  size_t count[2];
  int threads = 0, out, rc;
  float* values;
  lua_Integer i, n;
  if (w < 1 || h < 1 || w > (lua_Integer)(((size_t)-1 / sizeof(float)) / (size_t)h)) {
    return luaL_error(L, "size: w and h must be at least 1 and w*h floats must fit in memory");
  }
  if (lua_istable(L, 4)) {
    origin[0] = opt_number(L, 4, "x0", 0);
    origin[1] = opt_number(L, 4, "y0", 0);
    lua_getfield(L, 4, "step");
    if (!lua_isnil(L, -1)) {
      step[0] = step[1] = luaL_checknumber(L, -1);
      step_p = step;
    }
    lua_pop(L, 1);
    lua_getfield(L, 4, "threads");
    if (!lua_isnil(L, -1)) {
      lua_Integer t = luaL_checkinteger(L, -1);
      if (t < 0 || t > 65535) return luaL_error(L, "threads: must be 0 (every core) to 65535");
      threads = (int)t;
    }
    lua_pop(L, 1);
    lua_getfield(L, 4, "out");
  } else {
    lua_pushnil(L);
  }
  if (lua_istable(L, -1)) {
    out = lua_gettop(L);
  } else {
    lua_pop(L, 1);
    lua_createtable(L, w * h <= 0x7fffffff ? (int)(w * h) : 0, 0);
    out = lua_gettop(L);
  }
  count[0] = (size_t)w;
  count[1] = (size_t)h;
  n = w * h;
  values = (float*)malloc((size_t)n * sizeof(float));
  if (values == NULL) return luaL_error(L, "out of memory");
  rc = perlin_fill_grid(f, 2, count, origin, step_p, values, (size_t)n, threads);
  if (rc != PERLIN_OK) {
    free(values);
    return luaL_error(L, "%s", perlin_last_error());
  }
  for (i = 0; i < n; ++i) {
    lua_pushnumber(L, values[i]);
    lua_rawseti(L, out, i + 1);
  }
  free(values);
  lua_pushvalue(L, out);
  return 1;
}

/* f:gradient(x [, y [, z [, w]]]) -> value, d/dx, ...: the analytic gradient (exact path). */
static int l_gradient(lua_State* L) {
  perlin_field* f = *check_field(L);
  double p[4], g[4], v;
  int dims = lua_gettop(L) - 1, k;
  if (dims < 1 || dims > 4)
    return luaL_error(L, "point: must have 1 to 4 coordinates, got %d", dims);
  for (k = 0; k < dims; ++k) p[k] = luaL_checknumber(L, 2 + k);
  if (perlin_field_eval_deriv(f, dims, p, &v, g) != PERLIN_OK)
    return luaL_error(L, "%s", perlin_last_error());
  lua_pushnumber(L, v);
  for (k = 0; k < dims; ++k) lua_pushnumber(L, g[k]);
  return dims + 1;
}

/* f:points(xs [, ys [, zs [, ws]]]) -> values: a batch of points given as one table per axis
 * (the exact double path, every core), one value per point. */
static int l_points(lua_State* L) {
  perlin_field* f = *check_field(L);
  int dims = lua_gettop(L) - 1, k, rc;
  lua_Integer n, i;
  double* buf;
  const double* axes[4];
  if (dims < 1 || dims > 4)
    return luaL_error(L, "points: give 1 to 4 tables of coordinates, got %d", dims);
  for (k = 0; k < dims; ++k) luaL_checktype(L, 2 + k, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 2);
  for (k = 1; k < dims; ++k) {
    if ((lua_Integer)lua_rawlen(L, 2 + k) != n)
      return luaL_error(L, "points: the tables must have the same length");
  }
  buf = (double*)malloc(((size_t)n * (size_t)(dims + 1) + 1) * sizeof(double));
  if (buf == NULL) return luaL_error(L, "out of memory");
  for (k = 0; k < dims; ++k) {
    for (i = 0; i < n; ++i) {
      lua_rawgeti(L, 2 + k, i + 1);
      if (!lua_isnumber(L, -1)) {
        free(buf);
        return luaL_error(L, "points: coordinate %d of point %d is not a number", k + 1,
                          (int)(i + 1));
      }
      buf[(size_t)k * (size_t)n + (size_t)i] = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
    axes[k] = buf + (size_t)k * (size_t)n;
  }
  rc = perlin_eval_points_double(f, dims, axes, (size_t)n, buf + (size_t)dims * (size_t)n, 0);
  if (rc != PERLIN_OK) {
    free(buf);
    return luaL_error(L, "%s", perlin_last_error());
  }
  lua_createtable(L, n <= 0x7fffffff ? (int)n : 0, 0);
  for (i = 0; i < n; ++i) {
    lua_pushnumber(L, buf[(size_t)dims * (size_t)n + (size_t)i]);
    lua_rawseti(L, -2, i + 1);
  }
  free(buf);
  return 1;
}

static int l_gc(lua_State* L) {
  perlin_field** f = (perlin_field**)luaL_checkudata(L, 1, FIELD);
  perlin_field_free(*f);
  *f = NULL;
  return 0;
}

int luaopen_perlin(lua_State* L) {
  static const luaL_Reg methods[] = {
      {"eval", l_eval},     {"grid", l_grid},     {"gradient", l_gradient},
      {"points", l_points}, {"recipe", l_recipe}, {"warnings", l_warnings},
      {NULL, NULL}};
  static const luaL_Reg functions[] = {
      {"new", l_new}, {"from_recipe", l_from_recipe}, {NULL, NULL}};
  luaL_newmetatable(L, FIELD);
  lua_pushcfunction(L, l_gc);
  lua_setfield(L, -2, "__gc");
  luaL_newlib(L, methods);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  luaL_newlib(L, functions);
  lua_pushstring(L, perlin_version());
  lua_setfield(L, -2, "version");
  push_field(L, perlin_field_new());
  lua_pushcclosure(L, l_noise, 1);
  lua_setfield(L, -2, "noise");
  return 1;
}
