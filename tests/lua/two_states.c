/* Lua 5.4: two Lua states in one process each load the module; closing the first must leave the
 * second's perlin.noise whole (its default field belongs to its own state: it was one process-wide
 * field that the first closing state freed). Usage: two_states MODULE_DIR */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <string.h>

static lua_State* open_with_module(const char* dir) {
  char code[4096];
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  snprintf(code, sizeof code,
           "package.cpath = '%s/?.so;' .. package.cpath; perlin = require 'perlin'", dir);
  if (luaL_dostring(L, code) != LUA_OK) {
    fprintf(stderr, "two_states: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return NULL;
  }
  return L;
}

/* Ken Perlin's value at (3.14, 42, 7) through the state's perlin.noise, or -2 on an error. */
static double tutorial_value(lua_State* L) {
  double v = -2;
  if (luaL_dostring(L, "return perlin.noise(3.14, 42, 7)") != LUA_OK) {
    fprintf(stderr, "two_states: %s\n", lua_tostring(L, -1));
    return v;
  }
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

int main(int argc, char** argv) {
  const double want = 0.13691995878400012;
  lua_State* a;
  lua_State* b;
  int round;
  if (argc != 2) return 2;
  a = open_with_module(argv[1]);
  b = open_with_module(argv[1]);
  if (a == NULL || b == NULL) return 1;
  if (tutorial_value(a) != want || tutorial_value(b) != want) {
    fprintf(stderr, "two_states: a wrong value before closing\n");
    return 1;
  }
  lua_close(a); /* frees a's field, and only a's */
  for (round = 0; round < 3; ++round) {
    lua_gc(b, LUA_GCCOLLECT);
    a = open_with_module(argv[1]); /* a new state may reuse the freed memory */
    if (a == NULL) return 1;
    if (tutorial_value(b) != want || tutorial_value(a) != want) {
      fprintf(stderr, "two_states: perlin.noise of the other state is %.17g\n", tutorial_value(b));
      return 1;
    }
    lua_close(a);
  }
  lua_close(b);
  puts("two_states: ok");
  return 0;
}
