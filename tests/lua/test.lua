-- The Lua bindings (the Lua 5.4 C module "perlin" and LuaJIT's "perlin_ffi") against Ken
-- Perlin's reference values bit for bit, a grid against single calls, and errors.
-- Usage: lua5.4|luajit test.lua MODULE DATA_DIR
local perlin = require(arg[1])
local data = arg[2]
local failures = 0
local function check(ok, what)
  if not ok then io.stderr:write("failed: ", what, "\n"); failures = failures + 1 end
end

-- Option values do not depend on the C locale: under one that writes 0.5 as "0,5", numbers
-- still mean what they say (the test's own run in a generated locale: "locale NAME").
local function same_under_locale(name)
  local options = {seed = 3, frequency = 0.5, fractal = "fbm", octaves = 3, persistence = 0.625}
  local want = perlin.new(options)
  local want_v, want_recipe = want:eval(1.25, -2.5), want:recipe()
  if not os.setlocale(name, "numeric") then return false end
  local ok, got = pcall(perlin.new, options)
  check(ok and got:eval(1.25, -2.5) == want_v, "frequency = 0.5 under " .. name .. ": " .. tostring(got))
  check(ok and got:recipe() == want_recipe, "the recipe under " .. name)
  os.setlocale("C", "numeric")
  return true
end
if arg[3] == "locale" then
  check(same_under_locale(arg[4]), "the locale " .. tostring(arg[4]) .. " was generated")
  os.exit(failures == 0 and 0 or 1)
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
-- The seed check values of docs/seeding.md (tests/data/seeds.txt; seeds as strings: 2^64 - 1 is
-- not a Lua number).
local seeds = 0
for line in io.lines(data .. "/seeds.txt") do
  local seed, kind, point, value = line:match("^(%d+)\t(%a+)\t([^\t]+)\t([^\t]+)\t")
  if seed then
    local p = {}
    for x in point:gmatch("%S+") do p[#p + 1] = tonumber(x) end
    local got = perlin.new{seed = seed, noise = kind}:eval((table.unpack or unpack)(p))
    check(got == tonumber(value), "seed " .. line .. " -> " .. string.format("%.17g", got))
    seeds = seeds + 1
  end
end
check(seeds >= 9, "9 seed check values")
-- Stefan Gustavson's simplex noise through the recipe noise=simplex: the first rows of
-- tests/data/simplex_gustavson_{2,3,4}d.txt (the decimals, 17 digits, read back to the same doubles).
local simplex = perlin.from_recipe("perlin=1&noise=simplex")
local simplex_rows = 0
for dims = 2, 4 do
  local taken = 0
  for line in io.lines(data .. "/simplex_gustavson_" .. dims .. "d.txt") do
    if line:sub(1, 1) ~= "#" and taken < 60 then
      local v = {}
      for x in line:match("^([^\t]+)\t"):gmatch("%S+") do v[#v + 1] = tonumber(x) end
      local want = table.remove(v)
      local got = simplex:eval((table.unpack or unpack)(v))
      check(got == want, "simplex " .. line .. " -> " .. string.format("%.17g", got))
      taken = taken + 1
      simplex_rows = simplex_rows + 1
    end
  end
end
check(simplex_rows == 180, "180 simplex golden rows")
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
-- The version is the project's: the project() line of the top CMakeLists.txt.
local cmake = io.open(data .. "/../../CMakeLists.txt"):read("*a")
local version = cmake:match("project%(perlin VERSION ([%d.]+)")
check(version ~= nil and perlin.version == version, "version " .. perlin.version .. ", CMakeLists.txt says " .. tostring(version))

-- Gradients and point batches: the C API's, the same values as single calls.
local gf = perlin.new{seed = 3, fractal = "fbm", octaves = 3}
local v0, gx, gy = gf:gradient(0.3, 0.7)
check(v0 == gf:eval(0.3, 0.7), "gradient's value is eval's")
local eps = 1e-6
check(math.abs(gx - (gf:eval(0.3 + eps, 0.7) - gf:eval(0.3 - eps, 0.7)) / (2 * eps)) < 1e-5, "d/dx")
check(math.abs(gy - (gf:eval(0.3, 0.7 + eps) - gf:eval(0.3, 0.7 - eps)) / (2 * eps)) < 1e-5, "d/dy")
local xs, ys = {0.5, -1.25, 3.75}, {2.5, 0.125, -9}
local pv = gf:points(xs, ys)
for i = 1, 3 do check(pv[i] == gf:eval(xs[i], ys[i]), "points " .. i) end
ok, err = pcall(function() return gf:points(xs, {1}) end)
check(not ok and tostring(err):find("same length", 1, true), tostring(err))
-- The default step is the library's (1/64): a grid without one equals one with it.
local g1, g2 = gf:grid(8, 4), gf:grid(8, 4, {step = 1 / 64})
local gb = (type(g1) == "table") and 1 or 0
for i = 0, 31 do check(g1[gb + i] == g2[gb + i], "default step") end
if type(g1) ~= "table" then  -- LuaJIT: an out buffer smaller than the grid is refused
  local small = require("ffi").new("float[3]")
  ok, err = pcall(function() return gf:grid(8, 4, {out = small}) end)
  check(not ok and tostring(err):find("out: must be a float array", 1, true), tostring(err))
end

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
-- A page's recipe: its field part, and a warning naming the render settings left out.
local page = perlin.from_recipe("perlin=1&seed=42&fractal=fbm&octaves=5&size=64x48&step=0.015625")
local plain = perlin.from_recipe("perlin=1&seed=42&fractal=fbm&octaves=5")
check(page:eval(0.3, 0.7) == plain:eval(0.3, 0.7), "a page's recipe gives its field's bits")
local pw = page:warnings()
check(#pw == 1 and pw[1]:find("recipe: size, step are render settings", 1, true) == 1, tostring(pw[1]))
-- Options that change nothing warn with the CLI's text.
local w = perlin.new{octaves = 3}:warnings()
check(#w == 1 and w[1] == "octaves has no effect without --fractal (the fractal is none)", tostring(w[1]))
check(#perlin.new{fractal = "fbm", octaves = 3}:warnings() == 0, "no warnings")
-- Seeds above 2^53 are exact as numbers (2^60 is a double) and as strings.
check(perlin.new{seed = 2^60}:recipe() == "perlin=1&seed=1152921504606846976", "seed 2^60 as a number")
ok, err = pcall(function() return f.eval({}, 1) end)
check(not ok, "f.eval({}, 1) is refused: " .. tostring(err))
check(perlin.new{seed = "1152921504606846976"}:recipe() == "perlin=1&seed=1152921504606846976", "seed 2^60 as a string")
-- perlin.new() is perlin.new{}.
local okn, fnew = pcall(perlin.new)
check(okn and fnew:eval(3.14, 42, 7) == 0.13691995878400012, "perlin.new() with no argument: " .. tostring(fnew))
-- A NUL byte in a recipe is refused with its position, as every front refuses it, never cut
-- there (which gave the default field).
ok, err = pcall(perlin.from_recipe, "perlin=1\0&seed=3")
check(not ok and tostring(err):find("recipe: a NUL byte at position 8", 1, true), "NUL: " .. tostring(err))
ok, err = pcall(perlin.from_recipe, "perlin=1&seed=3&octaves=2\0")
check(not ok and tostring(err):find("recipe: a NUL byte at position 25", 1, true), "NUL: " .. tostring(err))

-- The graphs of graphs.txt (recipe, point, value, gradient, then their bits in hexadecimal): each
-- gives its value and gradient bit for bit (compared as bit patterns, so -0 is not 0), and is
-- written back unchanged (a one-field graph as its field's version-1 recipe, the same bits).
local bits
if string.pack then
  bits = function(x) return (string.pack(">d", x):gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
else
  local ffi = require("ffi")
  local u = ffi.new("union { double d; uint32_t w[2]; }")
  bits = function(x) u.d = x; return string.format("%08x%08x", u.w[1], u.w[0]) end
end
local graphs = 0
for line in io.lines(data .. "/graphs.txt") do
  if line:sub(1, 1) ~= "#" then
    local recipe, point, hex = line:match("^([^\t]+)\t([^\t]+)\t[^\t]+\t[^\t]+\t([^\t]+)$")
    local p, h = {}, {}
    for x in point:gmatch("%S+") do p[#p + 1] = tonumber(x) end
    for x in hex:gmatch("%S+") do h[#h + 1] = x end
    local d = #p
    for i = 1, d do check(bits(p[i]) == h[i], "graph point " .. i .. " of " .. recipe) end
    local gf = perlin.from_recipe(recipe)
    local unpack_ = table.unpack or unpack
    check(bits(gf:eval(unpack_(p))) == h[d + 1], "graph " .. recipe)
    local got = {gf:gradient(unpack_(p))}
    check(#got == d + 1 and bits(got[1]) == h[d + 1], "graph gradient's value " .. recipe)
    for i = 1, d do check(bits(got[i + 1]) == h[d + 1 + i], "graph partial " .. i .. " of " .. recipe) end
    local back = gf:recipe()
    check(back == recipe or (back:sub(1, 9) == "perlin=1&" and
          bits(perlin.from_recipe(back):eval(unpack_(p))) == h[d + 1]), "graph round trip " .. back)
    graphs = graphs + 1
  end
end
check(graphs >= 30, "30 graphs")
ok, err = pcall(perlin.from_recipe, "perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a")
check(not ok and tostring(err):find("b.in: a cycle: a -> b -> a", 1, true), "a cycle: " .. tostring(err))
local bad = 0
for line in io.lines(data .. "/bad_graphs.txt") do
  if line:sub(1, 1) ~= "#" then
    local recipe, message = line:match("^([^\t]+)\t(.+)$")
    ok, err = pcall(perlin.from_recipe, recipe)
    check(not ok and tostring(err):find(message, 1, true), recipe .. ": " .. tostring(err))
    bad = bad + 1
  end
end
check(bad >= 15, "15 bad graphs")

-- The locale: one installed whose decimal point is ',', or one generated with localedef (glibc's
-- LOCPATH) for a run of this file in it; skipped, and said, where neither is possible.
local comma = nil
for _, name in ipairs{"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE"} do
  if os.setlocale(name, "numeric") then
    os.setlocale("C", "numeric")
    if string.format("%.1f", 0.5) == "0.5" then comma = name; break end
  end
end
if comma then
  same_under_locale(comma)
else
  local dir = os.tmpname()
  os.remove(dir)
  local name = "de_DE.ISO-8859-1"  -- the small charmap: localedef takes 1 s, not 3
  local made = os.execute("mkdir " .. dir .. " && localedef -i de_DE -f ISO-8859-1 " .. dir .. "/" .. name ..
                          " >/dev/null 2>&1")
  if made == true or made == 0 then
    local command, i = {}, -1
    while arg[i - 1] do i = i - 1 end
    for k = i, -1 do command[#command + 1] = string.format("%q", arg[k]):gsub("\\\n", "\\n") end
    command = "LOCPATH=" .. dir .. " " .. table.concat(command, " ") .. string.format(" %q %q %q locale %q",
              arg[0], arg[1], arg[2], name)
    local ran = os.execute(command)
    check(ran == true or ran == 0, "the run in a ',' locale: " .. command)
  else
    io.stderr:write("skipped: no locale with ',' as its decimal point is installed, and localedef could not make one\n")
  end
  os.execute("rm -rf " .. dir)
end

collectgarbage()
if failures == 0 then print(arg[1] .. ": ok") end
os.exit(failures == 0 and 0 or 1)
