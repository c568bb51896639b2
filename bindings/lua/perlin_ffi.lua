-- perlin for LuaJIT over the C API with the FFI: the same functions as the Lua 5.4 module.
--   local perlin = require "perlin_ffi"
--   perlin.noise(x [, y [, z [, w]]]); local f = perlin.new{seed = 42, fractal = "fbm"}
--   f:eval(x, y); f:grid(w, h, {x0 =, y0 =, step =, threads =}) -> a float[w*h] cdata, 0-based
--   perlin.from_recipe(text), f:recipe(): recipes (docs/recipes.md)
-- Fields are freed by ffi.gc (LuaJIT never runs a table's __gc). Errors raise the library's
-- message. The library is PERLIN_LIB if set, else the libperlin-c.so installed with this file
-- (cmake --install, any prefix), else libperlin-c.so.0 on the library path.
local ffi = require "ffi"

ffi.cdef [[
typedef struct perlin_field perlin_field;
const char* perlin_version(void);
const char* perlin_last_error(void);
perlin_field* perlin_field_new(void);
void perlin_field_free(perlin_field* field);
int perlin_field_set(perlin_field* field, const char* option, const char* value);
double perlin_field_eval(const perlin_field* field, int dims, const double* coords);
int perlin_field_eval_deriv(const perlin_field* field, int dims, const double* coords, double* value,
                            double* gradient);
int perlin_eval_points_double(const perlin_field* field, int dims, const double* const* coords, size_t n,
                              double* out, int threads);
perlin_field* perlin_field_from_recipe(const char* text);
perlin_field* perlin_field_from_recipe_n(const char* text, size_t length);
size_t perlin_field_recipe(const perlin_field* field, char* buf, size_t size);
size_t perlin_field_warnings(const perlin_field* field, char* buf, size_t size);
int perlin_fill_grid(const perlin_field* field, int dims, const size_t* count, const double* origin,
                     const double* step, float* out, size_t out_len, int threads);
]]

local function load_library()
  local given = os.getenv("PERLIN_LIB")
  if given and given ~= "" then return ffi.load(given) end
  -- Filled in by cmake --install: the library's path relative to this file's folder.
  local relative = "@PERLIN_FFI_TO_LIB@"
  local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
  if not relative:find("@", 1, true) then
    local ok, lib = pcall(ffi.load, here .. relative)
    if ok then return lib end
  end
  return ffi.load("libperlin-c.so.0")
end
local C = load_library()

local function fail() error(ffi.string(C.perlin_last_error()), 3) end

local function new_handle()
  local h = C.perlin_field_new()
  if h == nil then fail() end
  return ffi.gc(h, C.perlin_field_free)
end

local point = ffi.new("double[4]")

local function eval_at(h, ...)
  local n = select("#", ...)
  if n < 1 or n > 4 then error("point: must have 1 to 4 coordinates, got " .. n, 3) end
  for k = 1, n do point[k - 1] = select(k, ...) end
  return C.perlin_field_eval(h, n, point)
end

local field = {}
field.__index = field

local function checked(self)
  if type(self) ~= "table" or getmetatable(self) ~= field or self.handle == nil then
    error("perlin: call f:eval(...) (with a colon) on a field made by perlin.new", 3)
  end
  return self.handle
end

function field:eval(...) return eval_at(checked(self), ...) end

function field:grid(w, h, o)
  checked(self)
  o = o or {}
  local n = w * h
  local out = o.out
  if out ~= nil then
    -- The out buffer must hold the whole grid: the C call trusts the length it is given.
    local size = ffi.sizeof(out)
    if size == nil or size < n * 4 then
      error("out: must be a float array of at least w*h = " .. n .. " values", 2)
    end
  else
    out = ffi.new("float[?]", n)
  end
  local count = ffi.new("size_t[2]", w, h)
  local origin = ffi.new("double[2]", o.x0 or 0, o.y0 or 0)
  local step = nil  -- nil: the library's default step
  if o.step ~= nil then step = ffi.new("double[2]", o.step, o.step) end
  if C.perlin_fill_grid(self.handle, 2, count, origin, step, out, n, o.threads or 0) ~= 0 then fail() end
  return out
end

-- A value as the option table's text: integral numbers below 2^64 exactly (a seed of 2^60 is a
-- double that %.0f writes digit for digit), other numbers with 17 digits (the same double).
local function text(v)
  if type(v) == "boolean" then return v and "1" or "0" end
  if type(v) == "number" then
    if v == math.floor(v) and math.abs(v) < 2^64 then return string.format("%.0f", v) end
    return string.format("%.17g", v)
  end
  return tostring(v)
end


local perlin = { version = ffi.string(C.perlin_version()) }

local default = new_handle()
function perlin.noise(...) return eval_at(default, ...) end

local value_out, gradient_out = ffi.new("double[1]"), ffi.new("double[4]")

function field:gradient(...)
  checked(self)
  local n = select("#", ...)
  if n < 1 or n > 4 then error("point: must have 1 to 4 coordinates, got " .. n, 2) end
  for k = 1, n do point[k - 1] = select(k, ...) end
  if C.perlin_field_eval_deriv(self.handle, n, point, value_out, gradient_out) ~= 0 then fail() end
  if n == 1 then return value_out[0], gradient_out[0] end
  if n == 2 then return value_out[0], gradient_out[0], gradient_out[1] end
  if n == 3 then return value_out[0], gradient_out[0], gradient_out[1], gradient_out[2] end
  return value_out[0], gradient_out[0], gradient_out[1], gradient_out[2], gradient_out[3]
end

-- f:points(xs [, ys [, zs [, ws]]]): one Lua table per axis -> a table of values (exact path).
function field:points(...)
  checked(self)
  local tables = { ... }
  local dims = #tables
  if dims < 1 or dims > 4 then error("points: give 1 to 4 tables of coordinates, got " .. dims, 2) end
  local n = #tables[1]
  local axes = ffi.new("const double*[4]")
  local keep = {}
  for k = 1, dims do
    if #tables[k] ~= n then error("points: the tables must have the same length", 2) end
    local a = ffi.new("double[?]", n)
    for i = 1, n do a[i - 1] = tables[k][i] end
    keep[k] = a
    axes[k - 1] = a
  end
  local out = ffi.new("double[?]", n)
  if C.perlin_eval_points_double(self.handle, dims, axes, n, out, 0) ~= 0 then fail() end
  local values = {}
  for i = 1, n do values[i] = out[i - 1] end
  return values
end

function field:warnings()
  local h = checked(self)
  local n = C.perlin_field_warnings(h, nil, 0)
  local buf = ffi.new("char[?]", n + 1)
  C.perlin_field_warnings(h, buf, n + 1)
  local out = {}
  for line in ffi.string(buf, n):gmatch("[^\n]+") do out[#out + 1] = line end
  return out
end

function field:recipe()
  checked(self)
  local n = C.perlin_field_recipe(self.handle, nil, 0)
  local buf = ffi.new("char[?]", n + 1)
  C.perlin_field_recipe(self.handle, buf, n + 1)
  return ffi.string(buf, n)
end

function perlin.from_recipe(text)
  local s = tostring(text)
  local h = C.perlin_field_from_recipe_n(s, #s)  -- its length: a NUL inside is refused, not an end
  if h == nil then fail() end
  return setmetatable({ handle = ffi.gc(h, C.perlin_field_free) }, field)
end

function perlin.new(options)
  local h = new_handle()
  for name, value in pairs(options or {}) do
    if C.perlin_field_set(h, tostring(name), text(value)) ~= 0 then fail() end
  end
  return setmetatable({ handle = h }, field)
end

return perlin
