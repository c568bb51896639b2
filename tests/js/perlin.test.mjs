// The npm package perlin-exact as its users get it (installed from the tarball by run.sh, which
// copies this file beside node_modules): Ken Perlin's reference values and his octave loop bit
// for bit, the golden recipes and the seed check values (seeds.txt) bit for bit, grids against
// the exact path and against the CLI's .npy, errors with the library's messages. Environment:
// PERLIN_TEST_DATA (tests/data), PERLIN_EXE (the CLI).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

import { Field, init, version } from "perlin-exact";

await init();
const data = process.env.PERLIN_TEST_DATA;
const rows = (name) =>
  readFileSync(join(data, name), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"));

/** The bits of a double, as 16 hex digits. */
function bits(x) {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  return b.getBigUint64(0).toString(16).padStart(16, "0");
}
function fromBits(hex) {
  const b = new DataView(new ArrayBuffer(8));
  b.setBigUint64(0, BigInt("0x" + hex));
  return b.getFloat64(0);
}

test("the version is the library's", () => {
  const pkg = JSON.parse(readFileSync(new URL("./node_modules/perlin-exact/package.json", import.meta.url)));
  assert.equal(version(), pkg.version);
  // The project's: the project() line of the top CMakeLists.txt, two folders above the data.
  const cmake = readFileSync(join(data, "..", "..", "CMakeLists.txt"), "utf8");
  assert.equal(version(), cmake.match(/project\(perlin VERSION ([0-9.]+)/)[1]);
});

test("the seed check values of docs/seeding.md (seeds.txt), bit for bit", () => {
  let n = 0;
  for (const line of rows("seeds.txt")) {
    const [seed, noise, point, value, hex] = line.split("\t");
    if (noise === "permutation") continue;
    assert.equal(bits(Number(value)), hex, line);
    const f = new Field({ seed: BigInt(seed), noise });
    assert.equal(bits(f.eval(...point.split(" ").map(Number))), hex, line);
    f.dispose();
    ++n;
  }
  assert.ok(n >= 9, `${n} seed check values`);
});

test("simplex through the recipe noise=simplex: Gustavson's golden values, bit for bit", () => {
  const f = Field.fromRecipe("perlin=1&noise=simplex");
  let n = 0;
  for (const dims of [2, 3, 4]) {
    for (const line of rows(`simplex_gustavson_${dims}d.txt`).slice(0, 60)) {
      const hex = line.split("\t")[1].split(" ");
      const point = hex.slice(0, dims).map(fromBits);
      assert.equal(bits(f.eval(...point)), hex[dims], line);
      ++n;
    }
  }
  assert.equal(n, 180);
  f.dispose();
});

test("Ken Perlin's reference values, bit for bit", () => {
  const f = new Field();
  assert.equal(f.eval(3.14, 42, 7), 0.13691995878400012);
  let n = 0;
  for (const line of rows("improved_noise_3d.txt")) {
    const [x, y, z, want] = line.trim().split(/\s+/).map(Number);
    assert.equal(bits(f.eval(x, y, z)), bits(want), line);
    ++n;
  }
  assert.equal(n, 1201);
});

test("his octave loop (fBm, not normalised), bit for bit", () => {
  let n = 0;
  for (const line of rows("fbm_3d.txt")) {
    const [x, y, z, octaves, persistence, want] = line.trim().split(/\s+/).map(Number);
    const f = new Field({ fractal: "fbm", octaves, persistence });
    assert.equal(bits(f.eval(x, y, z)), bits(want), line);
    f.dispose();
    ++n;
  }
  assert.equal(n, 300);
});

test("the golden recipes: each field's value bit for bit, each recipe written back unchanged", () => {
  let n = 0;
  for (const line of rows("recipes.txt")) {
    const [recipe, point, , hex] = line.split("\t");
    const coords = hex.trim().split(" ").map(fromBits);
    const want = coords.pop();
    assert.equal(coords.length, point.trim().split(" ").length);
    const f = Field.fromRecipe(recipe);
    assert.equal(f.recipe, recipe);
    assert.equal(bits(f.eval(...coords)), bits(want), line);
    f.dispose();
    ++n;
  }
  assert.equal(n, 120);
});

test("the graphs of graphs.txt: value and gradient bit for bit, each written back", () => {
  let n = 0;
  for (const line of rows("graphs.txt")) {
    const [recipe, point, , , hex] = line.split("\t");
    const dims = point.trim().split(" ").length;
    const b = hex.trim().split(" ");
    assert.equal(b.length, 2 * dims + 1, line);
    const coords = b.slice(0, dims).map(fromBits);
    const f = Field.fromRecipe(recipe);
    assert.equal(bits(f.eval(...coords)), b[dims], recipe);
    const { value, gradient } = f.gradient(...coords);
    assert.equal(bits(value), b[dims], recipe);
    assert.deepEqual(Array.from(gradient, bits), b.slice(dims + 1), recipe);
    // Written back: the graph's own text, or a one-field graph as its field's version-1 recipe
    // (the same bits).
    if (f.recipe !== recipe) {
      assert.ok(f.recipe.startsWith("perlin=1&"), f.recipe);
      const again = Field.fromRecipe(f.recipe);
      assert.equal(bits(again.eval(...coords)), b[dims], f.recipe);
      again.dispose();
    }
    f.dispose();
    ++n;
  }
  assert.ok(n >= 30);
  assert.throws(() => Field.fromRecipe("perlin=2&out=a&a=add&a.in=b,b&b=abs&b.in=a"), {
    message: /b\.in: a cycle: a -> b -> a/,
  });
});

test("bad graphs (bad_graphs.txt) are refused with the library's message", () => {
  let n = 0;
  for (const line of rows("bad_graphs.txt")) {
    const [recipe, message] = line.split("\t");
    assert.throws(() => Field.fromRecipe(recipe), (e) => e.message.includes(message), recipe);
    ++n;
  }
  assert.ok(n >= 15);
});

test("options by name or in camelCase, with the library's warnings", () => {
  const a = new Field({ seed: 7, fractal: "ridged", "warp-amplitude": 0.5, warp: "progressive" });
  const b = new Field({ seed: 7, fractal: "ridged", warpAmplitude: 0.5, warp: "progressive" });
  assert.equal(a.recipe, b.recipe);
  assert.equal(a.eval(0.3, 0.7), b.eval(0.3, 0.7));
  assert.deepEqual(new Field({ octaves: 4 }).warnings, [
    "octaves has no effect without --fractal (the fractal is none)",
  ]);
  // A seed above 2^53 as a BigInt or a string is the exact integer.
  assert.match(new Field({ seed: 18446744073709551615n }).recipe, /seed=18446744073709551615/);
  assert.match(new Field({ seed: "9007199254740993" }).recipe, /seed=9007199254740993/);
  assert.match(new Field({ period: [16, 8] }).recipe, /period=16,8/);
});

test("a page's recipe gives its field and warns of the render settings left out", () => {
  const page = Field.fromRecipe("perlin=1&seed=42&fractal=fbm&octaves=5&size=64x48&step=0.015625");
  const field = Field.fromRecipe("perlin=1&seed=42&fractal=fbm&octaves=5");
  assert.equal(page.eval(0.3, 0.7), field.eval(0.3, 0.7));
  assert.equal(page.warnings.length, 1);
  assert.match(page.warnings[0], /^recipe: size, step are render settings, not part of the field/);
  assert.equal(page.recipe, field.recipe);
});

test("errors are Errors with the library's message and a code", () => {
  assert.throws(() => new Field({ octave: 3 }), {
    message: "option: unknown option 'octave' (did you mean 'octaves'?)",
    code: "option",
  });
  assert.throws(() => new Field({ octaves: 0 }), { message: "octaves: must be 1 to 32, got 0", code: "value" });
  assert.throws(() => new Field({ frequency: Infinity }), { code: "value" });
  assert.throws(() => Field.fromRecipe("perlin=2&seed=1"), { code: "value" });
  assert.throws(() => new Field().eval(), { code: "size" });
  assert.throws(() => new Field().eval(1, 2, 3, 4, 5), { code: "size" });
  assert.throws(() => new Field().grid(0, 4), { code: "size" });
  assert.throws(() => new Field().grid(4, 4, { step: 0 }), /step: must not be 0/);
  assert.throws(() => new Field().points(new Float32Array(5), 2), { code: "size" });
  const f = new Field();
  f.dispose();
  assert.throws(() => f.eval(1), /disposed/);
});

test("sizes that would wrap (2^32, 2^53, non-integers) throw a RangeError naming the argument", () => {
  const f = new Field();
  // 2^32 + 4 wrapped to 4 in a Uint32Array (and in _malloc): 4 noise values and the rest of the
  // heap's other contents came back.
  for (const [w, h] of [[2 ** 32 + 4, 1], [1, 2 ** 32 + 4], [2 ** 32, 1], [2 ** 53, 1], [2 ** 53 + 2, 3],
                        [2.5, 4], [4, NaN], [Infinity, 1], [-1, 4], ["4", 4]]) {
    assert.throws(() => f.grid(w, h), (e) => {
      assert.ok(e instanceof RangeError, `${w} x ${h}: ${e}`);
      assert.equal(e.code, "size");
      assert.match(e.message, /^grid: (width|height) must be an integer from 1 to 4294967295, got /);
      return true;
    });
  }
  for (const depth of [2 ** 32 + 2, 2 ** 53, 1.5, 0]) {
    assert.throws(() => f.grid(2, 2, { depth }), {
      name: "RangeError", code: "size", message: `grid: depth must be an integer from 1 to 4294967295, got ${depth}`,
    });
  }
  // Grids that fit no heap: the bytes and the limit, not a stale message of an earlier call
  // ("every count must be at least 1") or "failed".
  assert.throws(() => f.grid(0, 4), { code: "size" });
  assert.throws(() => f.grid(16384, 16384, { precision: "double" }), {
    name: "RangeError", code: "size",
    message: "grid: 16384 x 16384 samples of 8 bytes need 2147483648 bytes, more than the WebAssembly " +
             'heap\'s limit of 2147483647 bytes; use a smaller grid, or precision: "float"',
  });
  assert.throws(() => f.grid(2 ** 20, 2 ** 20, { depth: 2 ** 20 }), {
    name: "RangeError", message: /^grid: 1048576 x 1048576 x 1048576 samples of 4 bytes need 4611686018427387904 bytes, more than/,
  });
  assert.throws(() => f.grid(65536, 65536), { name: "RangeError", message: /need 17179869184 bytes/ });
  // The heap still works, and a grid near the limit is refused or made, never wrapped.
  const g = f.grid(3, 2, { precision: "double" });
  assert.equal(g.length, 6);
  assert.equal(g[5], f.eval(2 / 64, 1 / 64));
});

test("a NUL in a recipe is refused at its position, as in every front", () => {
  assert.throws(() => Field.fromRecipe("perlin=1\0&seed=3"), {
    code: "value", message: /^recipe: a NUL byte at position 8 /,
  });
  assert.throws(() => Field.fromRecipe("perlin=1&seed=3&octaves=2\0"), { message: /position 25/ });
  assert.equal(Field.fromRecipe("perlin=1&seed=3").recipe, "perlin=1&seed=3");
});

test("double grids are the exact path at every sample, float grids within its tolerance", () => {
  const f = new Field({ seed: 3, fractal: "fbm", octaves: 5, persistence: 0.5 });
  const tolerance = 2e-6 * (1 + 0.5 + 0.25 + 0.125 + 0.0625);  // times the octave amplitudes
  const exact = f.grid(37, 11, { origin: [-1.5, 2.25], step: [1 / 16, 0.1], precision: "double" });
  const fast = f.grid(37, 11, { origin: [-1.5, 2.25], step: [1 / 16, 0.1] });
  assert.ok(exact instanceof Float64Array && fast instanceof Float32Array);
  for (let j = 0; j < 11; ++j) {
    for (let i = 0; i < 37; ++i) {
      const want = f.eval(-1.5 + i * (1 / 16), 2.25 + j * 0.1);
      assert.equal(exact[j * 37 + i], want);
      assert.ok(Math.abs(fast[j * 37 + i] - want) <= tolerance, `${i},${j}`);
    }
  }
  // Into the caller's array: the same values, that array back; a wrong one refused.
  const out = new Float32Array(37 * 11);
  assert.equal(f.grid(37, 11, { origin: [-1.5, 2.25], step: [1 / 16, 0.1], out }), out);
  assert.deepEqual(out, fast);
  assert.throws(() => f.grid(37, 11, { out: new Float32Array(5) }), { code: "size" });
  assert.throws(() => f.grid(2, 2, { out: new Float32Array(4), precision: "double" }), { code: "size" });
  // 3-D volumes and a 2-D slice of the 4-D field.
  const v = f.grid(5, 4, { depth: 3, origin: [0.5, 0.25, -2], step: 0.3, precision: "double" });
  assert.equal(v[(2 * 4 + 3) * 5 + 4], f.eval(0.5 + 4 * 0.3, 0.25 + 3 * 0.3, -2 + 2 * 0.3));
  const s = f.grid(3, 2, { origin: [0, 0, 1.5, -0.5], step: 0.25, precision: "double" });
  assert.equal(s[5], f.eval(0.5, 0.25, 1.5, -0.5));
});

test("points and gradients", () => {
  const f = new Field({ seed: 11, fractal: "turbulence", octaves: 3 });
  const pts = new Float64Array([0.1, 0.2, 0.3, -5.5, 7.25, 1e3]);
  assert.deepEqual(Array.from(f.points(pts, 3)), [f.eval(0.1, 0.2, 0.3), f.eval(-5.5, 7.25, 1e3)]);
  const fast = f.points(Float32Array.from(pts), 3);
  assert.ok(Math.abs(fast[1] - f.eval(Math.fround(-5.5), Math.fround(7.25), Math.fround(1e3))) < 1e-5);
  // The analytic gradient against a central difference of the exact path.
  const g = new Field({ seed: 11, fractal: "fbm", octaves: 3 });
  const { value, gradient } = g.gradient(0.3, 0.4, 0.5);
  assert.equal(value, g.eval(0.3, 0.4, 0.5));
  const h = 1e-6;
  const diff = [
    (g.eval(0.3 + h, 0.4, 0.5) - g.eval(0.3 - h, 0.4, 0.5)) / (2 * h),
    (g.eval(0.3, 0.4 + h, 0.5) - g.eval(0.3, 0.4 - h, 0.5)) / (2 * h),
    (g.eval(0.3, 0.4, 0.5 + h) - g.eval(0.3, 0.4, 0.5 - h)) / (2 * h),
  ];
  for (let k = 0; k < 3; ++k) assert.ok(Math.abs(gradient[k] - diff[k]) < 1e-6, `${gradient[k]} ${diff[k]}`);
});

test("single 1-D to 4-D calls (the library's JavaScript text) are the module's exact point batch", () => {
  // Single calls run the field's value function that the library writes as JavaScript (shader
  // lang "js"), or call the module where it writes none (simplex, cosine interpolation); the
  // module's exact point batch (a Float64Array) is the reference, bit for bit (Object.is: -0 is
  // not 0), on random points and on the edges of the lattice arithmetic.
  const edges = [0, -0, 0.5, -0.5, 1, -1, 255.75, 256, -256.25, 1e-300, -1e-300, 2 ** 31 + 0.5,
                 -(2 ** 31) - 0.25, 2 ** 52 + 0.5, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 62,
                 -(2 ** 62), 3 * 2 ** 62, 1e300, -1e300, Number.MAX_VALUE, NaN, Infinity, -Infinity];
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 600;
  const fields = [{}, { seed: 42 }, { seed: 18446744073709551615n }, { frequency: 3.7 },
                  { frequency: 0.1, decorrelate: true }, { noise: "improved", seed: 7, normalize: true },
                  { fractal: "fbm", octaves: 6, seed: 9, lacunarity: 2.3, gain: 0.45 },
                  { fractal: "fbm", octaves: 4, period: "12,10,6,5", decorrelate: true },
                  { period: "16,8,4,256", seed: 3 }, { noise: "value", fractal: "fbm", octaves: 3 },
                  { noise: "value", interp: "cubic", seed: 5, period: "7,9,11,13" },
                  { noise: "value", interp: "linear" },
                  { fractal: "ridged", octaves: 4, plane: "rotated" },
                  { fractal: "turbulence", octaves: 3 }, { fractal: "billow", octaves: 3, seed: 11 },
                  { fractal: "eroded", octaves: 3 },
                  { fractal: "fbm", octaves: 3, warp: "progressive", warpOctaves: 2 },
                  { warp: "independent", warpAmplitude: 0.5 },
                  { noise: "simplex", fractal: "fbm", octaves: 3 },
                  { noise: "value", interp: "cosine" }];
  for (const options of fields) {
    const f = new Field(options);
    // Improved and value noise (but the cosine interpolation) have the library's JavaScript.
    const js = (options.noise ?? "improved") !== "simplex" && options.interp !== "cosine";
    const text = () => f.shader({ lang: "js", precision: "double", dims: 3 });
    if (js) assert.match(text(), /function perlin_field\(p_x, p_y, p_z\)/);
    else assert.throws(text);
    for (const dims of [1, 2, 3, 4]) {
      if (dims === 1 && options.noise === "simplex") continue;  // simplex has 2 to 4
      const pts = [];
      for (let i = 0; i < 2000; ++i) for (let k = 0; k < dims; ++k) pts.push(random());
      for (const e of edges) {
        for (let k = 0; k < dims; ++k) {
          for (let j = 0; j < dims; ++j) pts.push(j === k ? e : j === 0 ? 0.3 : -0.7);
        }
      }
      const want = f.points(Float64Array.from(pts), dims);
      for (let i = 0; i < want.length; ++i) {
        const p = pts.slice(i * dims, i * dims + dims);
        const got = f.eval(...p);
        if (!Object.is(got, want[i])) assert.fail(`${f.recipe} at ${p}: ${got}, the module ${want[i]}`);
      }
    }
    f.dispose();
    assert.throws(() => f.eval(1, 2, 3), /disposed/);
    assert.throws(() => f.eval(1, 2), /disposed/);
  }
});

test("float grids are the CLI's .npy bit for bit (strict: no fused multiply-add anywhere)", () => {
  const dir = mkdtempSync(join(tmpdir(), "perlin-js-"));
  try {
    const recipes = [...new Set(rows("recipes.txt").map((l) => l.split("\t")[0]))].slice(0, 20);
    assert.equal(recipes.length, 20);
    for (const recipe of recipes) {
      const out = join(dir, "v.npy");
      execFileSync(process.env.PERLIN_EXE, ["render", "-q", "-o", out, "--recipe", recipe, "--size", "24x16",
        "--step", "0.0625", "--origin", "-0.75,1.5", "--strict"]);
      const buf = readFileSync(out);
      const header = buf.readUInt16LE(8);
      const npy = new Float32Array(buf.buffer.slice(buf.byteOffset + 10 + header, buf.byteOffset + buf.length));
      const grid = Field.fromRecipe(recipe).grid(24, 16, { origin: [-0.75, 1.5], step: 0.0625 });
      assert.equal(npy.length, grid.length);
      for (let i = 0; i < grid.length; ++i) assert.equal(grid[i], npy[i], `${recipe} sample ${i}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the page's JavaScript snippet computes the picture's values (the CLI's --strict .npy)", async () => {
  // The static page's renderer in Node: the stats of a query, whose `js` is the snippet.
  const { default: createPerlinPage } = await import("perlin-exact/page/perlin_page.js");
  const page = await createPerlinPage();
  const query = { preset: "terrain", size: "40x24", origin: "0.5,-1.25", step: "0.03125", seed: "9" };
  const text = new TextEncoder().encode(Object.entries(query).map(([k, v]) => `${k}\0${v}\0`).join(""));
  const p = page._malloc(text.length);
  page.HEAPU8.set(text, p);
  assert.equal(page._perlin_page_render(p, text.length, 1), 0, page.UTF8ToString(page._perlin_page_error()));
  const stats = JSON.parse(page.UTF8ToString(page._perlin_page_stats()));
  assert.match(stats.js, /Field\.fromRecipe\(/);
  const dir = mkdtempSync(join(new URL(".", import.meta.url).pathname, "snippet-"));
  try {
    const file = join(dir, "snippet.mjs");
    writeFileSync(file, stats.js + "\nprocess.stdout.write(JSON.stringify(Array.from(values)));\n");
    const values = JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8" }));
    const out = join(dir, "v.npy");
    execFileSync(process.env.PERLIN_EXE, ["render", "-q", "-o", out, "--strict",
      ...Object.entries(query).flatMap(([k, v]) => [`--${k}`, v])]);
    const buf = readFileSync(out);
    const header = buf.readUInt16LE(8);
    const npy = new Float32Array(buf.buffer.slice(buf.byteOffset + 10 + header, buf.byteOffset + buf.length));
    assert.equal(values.length, npy.length);
    for (let i = 0; i < npy.length; ++i) assert.equal(values[i], npy[i], `sample ${i}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("shader(): perlin shader's text for the same field, errors named", () => {
  const f = Field.fromRecipe("perlin=1&seed=7&fractal=fbm&octaves=3&warp=basic");
  for (const [opts, flags] of [
    [{}, []],
    [{ lang: "wgsl", dims: 2, standalone: true }, ["--lang", "wgsl", "--dims", "2", "--standalone"]],
    [{ lang: "glsl", precision: "double", dims: 4 }, ["--precision", "double", "--dims", "4"]],
  ]) {
    const cli = execFileSync(process.env.PERLIN_EXE, ["shader", "--recipe", f.recipe, ...flags],
      { encoding: "utf8" });
    assert.equal(f.shader(opts), cli);
  }
  assert.throws(() => Field.fromRecipe("perlin=1&period=3&fractal=fbm&octaves=32").shader(),
    /2\^31 - 1/);
  assert.throws(() => f.shader({ lang: "wgsl", precision: "double" }), /double/);
  assert.throws(() => f.shader({ dims: 5 }), /dims/);
  f.dispose();
});
