// perlin-exact: Ken Perlin's improved noise, the C++ library compiled to WebAssembly. The noise
// is the library's (through its C API, include/perlin/perlin.h); this file moves numbers and
// text in and out of the module and holds no logic of its own; single calls run the field's value
// function that the library writes as JavaScript (Field.eval). Options are the option table's
// (docs/options.md), by name ("warp-amplitude") or in camelCase ("warpAmplitude").
import createPerlinModule from "./perlin_wasm.js";

let wasm = null;
let loading = null;
// 9 doubles in the module's memory for single calls (no allocation per call): a point's 4
// coordinates, then a value and its 4 partials.
let scratch = 0;

/** Loads the WebAssembly module (once); every other call needs it done. */
export async function init() {
  if (wasm) return;
  if (!loading) {
    loading = createPerlinModule().then((m) => {
      scratch = m._malloc(8 * 9);
      wasm = m;
    });
  }
  await loading;
}

function lib() {
  if (!wasm) throw new Error("perlin-exact: call `await init()` first");
  return wasm;
}

/** The library's version ("0.1.0"). */
export function version() {
  return lib().UTF8ToString(lib()._perlin_version());
}

// The most bytes one array in the module's memory can take: the memory grows to 2 GiB
// (-sMAXIMUM_MEMORY=2GB in js/CMakeLists.txt; its code and data live there too) and a size_t is
// 32 bits. Every size is checked in JavaScript numbers (exact to 2^53) against it and against
// MAX_COUNT before anything is allocated: a Uint32Array and _malloc would wrap it (a grid of
// 2^32 + 4 samples was 4 of noise and the rest of the heap's other contents).
const HEAP_LIMIT = 2 ** 31 - 1;
const MAX_COUNT = 2 ** 32 - 1;

/** A RangeError with code "size": a count or a size that cannot be (or fit). */
function sizeError(message) {
  const e = new RangeError(message);
  e.code = "size";
  return e;
}

/** Refuses `bytes` over the heap's limit, naming what needs them. */
function checkBytes(what, bytes, advice) {
  if (bytes > HEAP_LIMIT) {
    throw sizeError(`${what} need ${bytes} bytes, more than the WebAssembly heap's limit of ` +
                    `${HEAP_LIMIT} bytes; ${advice}`);
  }
}

/** _malloc(bytes), or an Error (code "memory") naming the true cause: the heap is full. */
function allocate(what, bytes) {
  const p = lib()._malloc(Math.max(1, bytes));
  if (!p) {
    const e = new Error(`${what}: could not allocate ${bytes} bytes in the WebAssembly heap (its ` +
                        `limit is ${HEAP_LIMIT} bytes, some of it in use)`);
    e.code = "memory";
    throw e;
  }
  return p;
}

// The C API's status codes (perlin.h) as the `code` of the Error thrown.
const codes = { [-1]: "null", [-2]: "option", [-3]: "value", [-4]: "size", [-5]: "memory", [-6]: "internal" };

function fail(status) {
  const m = lib();
  const e = new Error(m.UTF8ToString(m._perlin_last_error()) || "perlin-exact: failed");
  e.code = codes[status] ?? "internal";
  throw e;
}

function withText(text, use) {
  const m = lib();
  const n = m.lengthBytesUTF8(text) + 1;
  const p = m._malloc(n);
  try {
    m.stringToUTF8(text, p, n);
    return use(p);
  } finally {
    m._free(p);
  }
}

/** Reads an snprintf-style text of the C API: length first, then the text. */
function readText(call) {
  const m = lib();
  const n = call(0, 0);
  const p = m._malloc(n + 1);
  try {
    call(p, n + 1);
    return m.UTF8ToString(p, n);
  } finally {
    m._free(p);
  }
}

/** The table's name of an option given in camelCase ("warpAmplitude" -> "warp-amplitude"). */
function optionName(key) {
  return key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** A value as the table's text: numbers in the shortest form that reads back exactly (what
 * JavaScript's String gives), flags as true/false, lists (periods) comma-separated, BigInt
 * seeds as integers. */
function optionText(name, value) {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map((v) => optionText(name, v)).join(",");
  const e = new Error(`${name}: a value must be a number, a string, a boolean or a list`);
  e.code = "value";
  throw e;
}

function setOption(handle, key, value) {
  const name = optionName(key);
  const status = withText(name, (n) =>
    withText(optionText(name, value), (v) => lib()._perlin_field_set(handle, n, v)),
  );
  if (status !== 0) fail(status);
}

/** Copies `values` into the module's memory (8-byte aligned); returns the pointer. */
function copyIn(what, values, Type) {
  const m = lib();
  const p = allocate(what, values.length * Type.BYTES_PER_ELEMENT || 8);
  (Type === Float64Array ? m.HEAPF64 : Type === Float32Array ? m.HEAPF32 : m.HEAPU32).set(
    values,
    p / Type.BYTES_PER_ELEMENT,
  );
  return p;
}

/** Checks a point (1 to 4 numbers), writes it into the scratch buffer, returns its dims. */
function putPoint(name, coords) {
  if (coords.length < 1 || coords.length > 4) {
    const e = new Error(`${name}: a point has 1 to 4 coordinates, got ${coords.length}`);
    e.code = "size";
    throw e;
  }
  for (const c of coords) {
    if (typeof c !== "number") {
      const e = new Error(`${name}: coordinates must be numbers, got ${typeof c}`);
      e.code = "value";
      throw e;
    }
  }
  wasm.HEAPF64.set(coords, scratch >> 3);
  return coords.length;
}

/** Refuses an `out` array of the wrong type or length (before any work). */
function checkTarget(target, Type, length) {
  if (target === undefined) return;
  if (!(target instanceof Type) || target.length !== length) {
    const e = new Error(`out: must be a ${Type.name} of ${length} values`);
    e.code = "size";
    throw e;
  }
}

/** The values (a view of the module's memory) copied into `target`, or into a new array. */
function into(values, target) {
  if (target === undefined) return values.slice();
  target.set(values);
  return target;
}

// eval's fast path as a field's own method, one copy per field made by new Function: V8 keeps
// feedback per copy, so each copy's call into its own field's compiled function stays monomorphic
// (inlined) however many fields a program calls. fns: the field's compiled functions by
// coordinate count (Field.#js); slow: Field.#evalModule.
const FAST_EVAL = `"use strict";
return function evalCompiled(x, y, z, w) {
  const n = arguments.length, f = fns[n];
  if (typeof f === "function" && typeof x === "number") {
    if (n === 3) {
      if (typeof y === "number" && typeof z === "number") return f(x, y, z);
    } else if (n === 2) {
      if (typeof y === "number") return f(x, y);
    } else if (n === 1) {
      return f(x);
    } else if (typeof y === "number" && typeof z === "number" && typeof w === "number") {
      return f(x, y, z, w);
    }
  }
  return slow(n, x, y, z, w, n > 4 ? Array.from(arguments) : undefined);
};`;

const registry = new FinalizationRegistry((handle) => {
  if (wasm) wasm._perlin_field_free(handle);
});
const adopt = Symbol("adopt");

/** A noise field: the option table's options, evaluated exactly (double) or on the module's
 * float kernels (grids and point batches, within the library's float tolerance). */
export class Field {
  #handle = 0;
  // The field's value function for 1 to 4 coordinates as JavaScript (index n), compiled on the
  // first call with n coordinates; null where the library writes none (#compile). dispose()
  // empties it (in place: the field's own eval holds it), so a disposed field's calls reach
  // #live() and throw.
  #js = [null, undefined, undefined, undefined, undefined];

  /** `new Field({ seed: 42, fractal: "fbm", octaves: 6 })`; unknown options and bad values
   * throw an Error with the library's message (and `code` "option" or "value"). */
  constructor(options = {}, handle = undefined) {
    const m = lib();
    if (options === adopt) {
      this.#handle = handle;
    } else {
      const h = m._perlin_field_new();
      if (!h) fail(-5);
      try {
        for (const [key, value] of Object.entries(options ?? {})) setOption(h, key, value);
      } catch (e) {
        m._perlin_field_free(h);
        throw e;
      }
      this.#handle = h;
    }
    registry.register(this, this.#handle, this);
  }

  /** The field a recipe names ("perlin=1&fractal=fbm&octaves=8", docs/recipes.md). A NUL
   * character inside is refused at its position, as every front refuses it. */
  static fromRecipe(text) {
    const s = String(text);
    // Its UTF-8 bytes with their length (stringToUTF8 writes a NUL inside as a 0 byte, which the
    // library then sees instead of taking it for the end).
    const h = withText(s, (p) => lib()._perlin_field_from_recipe_n(p, lib().lengthBytesUTF8(s)));
    if (!h) fail(-3);
    return new Field(adopt, h);
  }

  #live() {
    if (!this.#handle) throw new Error("perlin-exact: the field was disposed");
    return this.#handle;
  }

  /** The field's recipe: the same text in every front (C++, the CLI, Python, C, C#, Lua). */
  get recipe() {
    const h = this.#live();
    return readText((p, n) => lib()._perlin_field_recipe(h, p, n));
  }

  /** Shader source that computes this field on the GPU (docs/gpu.md), `perlin shader`'s text:
   * perlin_field(p) and its companions in lang "glsl", "glsl-es" (WebGL2), "hlsl" or "wgsl"
   * (WebGPU), or "js" (precision "double": what eval runs); precision "double" for desktop GLSL; `standalone` wraps it in a program that fills
   * a grid. Throws an Error naming what shaders cannot express (the eroded fractal). */
  shader({ lang = "glsl", precision = "float", dims = 3, derivatives = true, split = true,
           standalone = false } = {}) {
    const h = this.#live();
    const flags = (standalone ? 1 : 0) | (derivatives ? 0 : 2) | (split ? 0 : 4);
    const d = Number.isInteger(dims) ? dims : 0;
    return withText(String(lang), (l) => withText(String(precision), (p) => {
      const call = (b, n) => lib()._perlin_field_shader(h, l, p, d, flags, b, n);
      if (!call(0, 0)) fail(-3);
      return readText(call);
    }));
  }

  /** The options given that change nothing with the others (the CLI's warnings). */
  get warnings() {
    const h = this.#live();
    const text = readText((p, n) => lib()._perlin_field_warnings(h, p, n));
    return text ? text.split("\n").filter((w) => w) : [];
  }

  /** The field's value function of n coordinates in JavaScript, or null: the library's own
   * text for it (shader source in lang "js", docs/gpu.md: the double path's operations in its
   * order, so its bits), compiled once. Null where the library writes none (simplex and the
   * other noises, cosine interpolation, graphs) or the page forbids compiling code (a Content
   * Security Policy without 'unsafe-eval'): those calls go to the module. */
  #compile(n) {
    let f = null;
    try {
      const source = this.shader({ lang: "js", precision: "double", dims: n, derivatives: false,
                                   split: false });
      f = new Function(source + "\nreturn perlin_field;")();
      if (!Object.hasOwn(this, "eval")) {
        const slow = (k, x, y, z, w, all) => this.#evalModule(k, x, y, z, w, all);
        Object.defineProperty(this, "eval", {
          value: new Function("fns", "slow", FAST_EVAL)(this.#js, slow), writable: true,
          configurable: true });
      }
    } catch {
      f = null;
    }
    this.#js[n] = f;
    return f;
  }

  /** The field at a point of 1 to 4 coordinates: the exact double path, bit for bit the C++
   * library and `perlin eval`. */
  eval(x, y, z, w) {
    // Named parameters, not a rest array: single calls are the hot path (rest parameters and
    // HEAPF64.set made them 2.6 times slower).
    const n = arguments.length;
    // The library's value function as JavaScript (#compile): no call into WebAssembly.
    const f = this.#js[n];
    if (typeof f === "function" && typeof x === "number") {
      if (n === 3) {
        if (typeof y === "number" && typeof z === "number") return f(x, y, z);
      } else if (n === 2) {
        if (typeof y === "number") return f(x, y);
      } else if (n === 1) {
        return f(x);
      } else if (typeof y === "number" && typeof z === "number" && typeof w === "number") {
        return f(x, y, z, w);
      }
    }
    // Kept out of line, so that eval stays small enough for V8 to inline into the caller's loop.
    return this.#evalModule(n, x, y, z, w, n > 4 ? Array.from(arguments) : undefined);
  }

  /** eval's other calls: the first with n coordinates (which compiles the JavaScript), a disposed
   * field, fields without the JavaScript (the module's exact path), bad arguments (`all`: the
   * arguments past 4). */
  #evalModule(n, x, y, z, w, all) {
    const h = this.#live();
    // The first call with n coordinates compiles the function, then calls it as eval does.
    if (this.#js[n] === undefined && n >= 1 && n <= 4 && this.#compile(n) !== null) {
      return n === 1 ? this.eval(x) : n === 2 ? this.eval(x, y) : n === 3 ? this.eval(x, y, z)
                                                                          : this.eval(x, y, z, w);
    }
    // 2-D and 3-D calls pass their coordinates by value (no copy through memory).
    if (typeof x === "number" && typeof y === "number") {
      let v;
      if (n === 3 && typeof z === "number") v = wasm._perlin_field_eval3(h, x, y, z);
      else if (n === 2) v = wasm._perlin_field_eval2(h, x, y);
      if (v !== undefined) {
        if (v !== v && wasm.UTF8ToString(wasm._perlin_last_error())) fail(-6);
        return v;
      }
    }
    const point = n >= 1 && n <= 4 && typeof x === "number" && (n < 2 || typeof y === "number") &&
                  (n < 3 || typeof z === "number") && (n < 4 || typeof w === "number");
    if (!point) putPoint("eval", all ?? [x, y, z, w].slice(0, n));  // throws the reason
    const heap = wasm.HEAPF64, at = scratch >> 3;
    heap[at] = x;  // the slots past n get NaN from undefined, and are not read
    heap[at + 1] = y;
    heap[at + 2] = z;
    heap[at + 3] = w;
    const v = wasm._perlin_field_eval(h, n, scratch);
    if (v !== v && wasm.UTF8ToString(wasm._perlin_last_error())) fail(-6);
    return v;
  }

  /** The value and the analytic partial derivatives at a point (exact double path). */
  gradient(...coords) {
    const h = this.#live();
    const dims = putPoint("gradient", coords);
    const out = scratch + 8 * 4;
    const status = wasm._perlin_field_eval_deriv(h, dims, scratch, out, out + 8);
    if (status !== 0) fail(status);
    const at = out >> 3;
    return { value: wasm.HEAPF64[at], gradient: wasm.HEAPF64.slice(at + 1, at + 1 + dims) };
  }

  /** A grid of width x height (x depth) samples, x fastest: sample (i, j, k) at origin + (i, j,
   * k) * step. `origin` holds 2 to 4 values (a 2-D grid at z, w is a slice of the 3-D or 4-D
   * field); `step` is a number or one per axis (default 1/64). Float32Array by the float
   * kernels, or Float64Array with `precision: "double"` (the exact path). `out`: an array of
   * that type and length to fill instead of a new one (saves the allocation). */
  grid(width, height, { origin = [], step = undefined, depth = 1, precision = "float", out: target = undefined } = {}) {
    const h = this.#live();
    const m = lib();
    const dims = Math.max(2, origin.length, depth > 1 ? 3 : 0);
    if (dims > 4) {
      const e = new Error(`origin: a grid has 2 to 4 axes, got ${origin.length}`);
      e.code = "size";
      throw e;
    }
    const named = [["width", width], ["height", height], ["depth", depth]];
    for (const [name, s] of named) {
      if (!Number.isInteger(s) || s < 1 || s > MAX_COUNT) {
        throw sizeError(`grid: ${name} must be an integer from 1 to ${MAX_COUNT}, got ${s}`);
      }
    }
    const sizes = [width, height, depth, 1].slice(0, dims);
    const total = sizes.reduce((a, b) => a * b, 1);
    const double = precision === "double";
    if (!double && precision !== "float") {
      const e = new Error(`precision: "float" or "double", got ${precision}`);
      e.code = "value";
      throw e;
    }
    const Type = double ? Float64Array : Float32Array;
    // Exact in BigInt for the message (the product of three counts can pass 2^53).
    const exact = sizes.slice(0, depth > 1 ? 3 : 2).reduce((a, b) => a * BigInt(b), 1n);
    checkBytes(`grid: ${sizes.slice(0, depth > 1 ? 3 : 2).join(" x ")} samples of ${Type.BYTES_PER_ELEMENT} bytes`,
               exact * BigInt(Type.BYTES_PER_ELEMENT),
               double ? 'use a smaller grid, or precision: "float"' : "use a smaller grid");
    checkTarget(target, Type, total);
    const o = Array.from({ length: dims }, (_, k) => origin[k] ?? 0);
    const steps =
      step === undefined ? null : Array.from({ length: dims }, (_, k) => (Array.isArray(step) ? step[k] : step));
    const count = copyIn("grid", sizes, Uint32Array);
    let po = 0, ps = 0, out = 0;
    try {
      po = copyIn("grid", o, Float64Array);
      ps = steps ? copyIn("grid", steps, Float64Array) : 0;
      out = allocate("grid", total * Type.BYTES_PER_ELEMENT);
      const call = double ? m._perlin_fill_grid_double : m._perlin_fill_grid;
      const status = call(h, dims, count, po, ps, out, total, 1);
      if (status !== 0) fail(status);
      const heap = double ? m.HEAPF64 : m.HEAPF32;
      const values = heap.subarray(out / Type.BYTES_PER_ELEMENT, out / Type.BYTES_PER_ELEMENT + total);
      return into(values, target);
    } finally {
      m._free(count);
      if (po) m._free(po);
      if (ps) m._free(ps);
      if (out) m._free(out);
    }
  }

  /** The field at n points given interleaved ([x0, y0, x1, y1, ...] for dims 2): a
   * Float32Array by the float kernel, or, for a Float64Array of points, the exact path; `out` as
   * for grid(). */
  points(coords, dims, { out: target = undefined } = {}) {
    const h = this.#live();
    const m = lib();
    if (!Number.isInteger(dims) || dims < 1 || dims > 4 || coords.length % dims !== 0) {
      const e = new Error(`points: dims must be 1 to 4 and divide the number of values (${coords.length})`);
      e.code = "size";
      throw e;
    }
    const double = coords instanceof Float64Array;
    const Type = double ? Float64Array : Float32Array;
    const n = coords.length / dims;
    if (n > MAX_COUNT) throw sizeError(`points: at most ${MAX_COUNT} points, got ${n}`);
    // Each axis and the values: dims + 1 arrays of n numbers in the module's memory.
    checkBytes(`points: ${n} points of ${dims} coordinates (${Type.BYTES_PER_ELEMENT} bytes each, and a value)`,
               (dims + 1) * n * Type.BYTES_PER_ELEMENT, "give fewer points a call");
    checkTarget(target, Type, n);
    const axes = [];
    try {
      for (let k = 0; k < dims; ++k) {
        const axis = new Type(n);
        for (let i = 0; i < n; ++i) axis[i] = coords[i * dims + k];
        axes.push(copyIn("points", axis, Type));
      }
      const table = copyIn("points", axes, Uint32Array);
      let out = 0;
      try {
        out = allocate("points", n * Type.BYTES_PER_ELEMENT);
        const call = double ? m._perlin_eval_points_double : m._perlin_eval_points;
        const status = call(h, dims, table, n, out, 1);
        if (status !== 0) fail(status);
        const heap = double ? m.HEAPF64 : m.HEAPF32;
        return into(heap.subarray(out / Type.BYTES_PER_ELEMENT, out / Type.BYTES_PER_ELEMENT + n), target);
      } finally {
        m._free(table);
        if (out) m._free(out);
      }
    } finally {
      for (const p of axes) m._free(p);
    }
  }

  /** Frees the field now (it is also freed when garbage-collected). */
  dispose() {
    if (this.#handle) {
      registry.unregister(this);
      lib()._perlin_field_free(this.#handle);
      this.#handle = 0;
      this.#js.fill(undefined, 1);
    }
  }
}
