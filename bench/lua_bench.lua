-- Lua bench: ns per sample for a 512x512 map of Ken Perlin's noise (step 1/64), three ways:
-- one perlin.noise call per pixel, one bulk f:grid call for the map, and improved noise written
-- in plain Lua (the way the copied Lua port of Ken Perlin's noise does it; written here from the
-- algorithm).
--   lua5.4 -e "package.cpath='build/dev/lua/?.so;'..package.cpath" bench/lua_bench.lua perlin
--   LUA_PATH='bindings/lua/?.lua;;' PERLIN_LIB=build/dev/libperlin-c.so luajit bench/lua_bench.lua perlin_ffi
local perlin = require(arg[1] or "perlin")
local N = 512

local P = {}
do
  local t = {151,160,137,91,90,15,131,13,201,95,96,53,194,233,7,225,140,36,103,30,69,142,8,99,37,
    240,21,10,23,190,6,148,247,120,234,75,0,26,197,62,94,252,219,203,117,35,11,32,57,177,33,88,
    237,149,56,87,174,20,125,136,171,168,68,175,74,165,71,134,139,48,27,166,77,146,158,231,83,111,
    229,122,60,211,133,230,220,105,92,41,55,46,245,40,244,102,143,54,65,25,63,161,1,216,80,73,209,
    76,132,187,208,89,18,169,200,196,135,130,116,188,159,86,164,100,109,198,173,186,3,64,52,217,
    226,250,124,123,5,202,38,147,118,126,255,82,85,212,207,206,59,227,47,16,58,17,182,189,28,42,
    223,183,170,213,119,248,152,2,44,154,163,70,221,153,101,155,167,43,172,9,129,22,39,253,19,98,
    108,110,79,113,224,232,178,185,112,104,218,246,97,228,251,34,242,193,238,210,144,12,191,179,
    162,241,81,51,145,235,249,14,239,107,49,192,214,31,181,199,106,157,184,84,204,176,115,121,50,
    45,127,4,150,254,138,236,205,93,222,114,67,29,24,72,243,141,128,195,78,66,215,61,156,180}
  for i = 0, 511 do P[i] = t[i % 256 + 1] end
end
local GX = {[0]=1,-1,1,-1,1,-1,1,-1,0,0,0,0,1,0,-1,0}
local GY = {[0]=1,1,-1,-1,0,0,0,0,1,-1,1,-1,1,-1,1,-1}
local floor = math.floor
local function fade(t) return t * t * t * (t * (t * 6 - 15) + 10) end
local function g(h, x, y) h = P[h] % 16; return GX[h] * x + GY[h] * y end
-- the z = 0 slice of improved noise
local function lua_noise(x, y)
  local X, Y = floor(x), floor(y)
  x, y = x - X, y - Y
  X, Y = X % 256, Y % 256
  local u, v = fade(x), fade(y)
  local A, B = P[X] + Y, P[X + 1] + Y
  local AA, AB, BA, BB = P[A], P[A + 1], P[B], P[B + 1]
  local x1 = g(AA, x, y) + u * (g(BA, x - 1, y) - g(AA, x, y))
  local x2 = g(AB, x, y - 1) + u * (g(BB, x - 1, y - 1) - g(AB, x, y - 1))
  return x1 + v * (x2 - x1)
end

local function ns(f, reps)
  local best = math.huge
  for _ = 1, reps do
    local t = os.clock()
    f()
    best = math.min(best, os.clock() - t)
  end
  return best * 1e9 / (N * N)
end

assert(math.abs(lua_noise(0.3, 0.7) - perlin.noise(0.3, 0.7)) < 1e-12)
local noise = perlin.noise
local per_call = ns(function()
  local s = 0
  for j = 0, N - 1 do for i = 0, N - 1 do s = s + noise(i / 64, j / 64) end end
  return s
end, 3)
local f = perlin.new{}
local out = (arg[1] == "perlin") and {} or nil
local bulk = ns(function() return f:grid(N, N, {step = 1 / 64, threads = 1, out = out}) end, 3)
local pure = ns(function()
  local s = 0
  for j = 0, N - 1 do for i = 0, N - 1 do s = s + lua_noise(i / 64, j / 64) end end
  return s
end, 3)
print(string.format("| %s | %.1f | %.1f | %.1f |", _VERSION .. (jit and (" (" .. jit.version .. ")") or ""),
  per_call, bulk, pure))
