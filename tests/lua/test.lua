-- The Lua bindings (the Lua 5.4 C module "perlin" and LuaJIT's "perlin_ffi") against Ken
-- Perlin's reference values bit for bit, a grid against single calls, and errors.
-- Usage: lua5.4|luajit test.lua MODULE DATA_DIR
local perlin = require(arg[1])
local data = arg[2]
local failures = 0
local function check(ok, what)
  if not ok then io.stderr:write("failed: ", what, "\n"); failures = failures + 1 end
end

check(perlin.noise(3.14, 42, 7) == 0.13691995878400012, "tutorial value")
local rows = 0
for line in io.lines(data .. "/improved_noise_3d.txt") do
  local x, y, z, v = line:match("(%S+) (%S+) (%S+) (%S+)")
  local got = perlin.noise(tonumber(x), tonumber(y), tonumber(z))
  check(got == tonumber(v), "reference " .. line .. " -> " .. string.format("%.17g", got))
  rows = rows + 1
end
check(rows == 1201, "1201 rows")
check(perlin.noise(0.5, 0.25) == perlin.noise(0.5, 0.25, 0), "2-D is the z = 0 slice")
check(perlin.noise(0.5) == perlin.noise(0.5, 0, 0), "1-D is the y = z = 0 line")

local f = perlin.new{seed = 42, fractal = "fbm", octaves = 5, persistence = 0.6, normalize = true}
check(perlin.new{seed = 42}:eval(1.25, -2.75, 3.5) == -0.66432666778564453, "seed 42 (docs/seeding.md)")
local w, h = 40, 30
local g = f:grid(w, h, {x0 = -1.5, y0 = 2.25, step = 1 / 16})
local base = (type(g) == "table") and 1 or 0
for j = 0, h - 1 do
  for i = 0, w - 1 do
    local want = f:eval(-1.5 + i / 16, 2.25 + j / 16)
    check(math.abs(g[base + j * w + i] - want) <= 2e-6 * 2, "grid within tolerance")
  end
end

local warped = perlin.new{warp = "basic", warp_amplitude = 2, warp_seed = 5}
check(warped:eval(0.3, 0.7) ~= perlin.new{}:eval(0.3, 0.7), "a warp moves the values")
check(warped:eval(0.3, 0.7) == perlin.new{warp = "basic", ["warp-amplitude"] = 2, ["warp-seed"] = 5}:eval(0.3, 0.7),
      "warp_amplitude is warp-amplitude")
local okw, errw = pcall(perlin.new, {warp = "basic", warp_octaves = 0})
check(not okw and tostring(errw):find("warp-octaves: must be 1 to 32, got 0", 1, true), tostring(errw))

local ok, err = pcall(perlin.new, {octaves = 0})
check(not ok and tostring(err):find("octaves: must be 1 to 32, got 0", 1, true), tostring(err))
ok, err = pcall(perlin.new, {octavez = 3})
check(not ok and tostring(err):find("octavez", 1, true), tostring(err))
ok, err = pcall(function() return f:eval() end)
check(not ok and tostring(err):find("1 to 4", 1, true), tostring(err))
check(perlin.version == "0.1.0", "version")

-- The golden recipes: each gives its value (the same double) and writes itself back unchanged.
local cases = 0
for line in io.lines(data .. "/recipes.txt") do
  if line:sub(1, 1) ~= "#" then
    local recipe, point, value = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)\t")
    local p = {}
    for x in point:gmatch("%S+") do p[#p + 1] = tonumber(x) end
    local rf = perlin.from_recipe(recipe)
    local got = rf:eval((table.unpack or unpack)(p))
    check(got == tonumber(value), "recipe " .. line .. " -> " .. string.format("%.17g", got))
    check(rf:recipe() == recipe, "recipe round trip " .. rf:recipe())
    cases = cases + 1
  end
end
check(cases >= 120, "120 golden recipes")
ok, err = pcall(perlin.from_recipe, "perlin=1&octave=3")
check(not ok and tostring(err):find("did you mean 'octaves'", 1, true), tostring(err))
check(perlin.new{fractal = "fbm", octaves = 8}:recipe() == "perlin=1&fractal=fbm&octaves=8", "recipe of new")
-- Seeds above 2^53 are exact as Lua integers (5.4) or strings.
check(perlin.new{seed = "1152921504606846976"}:recipe() == "perlin=1&seed=1152921504606846976", "seed 2^60 as a string")
collectgarbage()
if failures == 0 then print(arg[1] .. ": ok") end
os.exit(failures == 0 and 0 or 1)
