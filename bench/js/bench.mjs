// perlin-exact (WebAssembly) beside simplex-noise, the package JavaScript users pick today, in
// one Node process: a 2048x2048 grid (perlin's grid call, simplex-noise's per-sample loop, as its
// README shows), and single calls (interleaved rounds). Median of ROUNDS rounds, ns of CPU time per
// sample, and the ratios.
// Usage: node bench.mjs PERLIN_PACKAGE_DIR SIMPLEX_NOISE_DIR  (bench/js/run does it)
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { cpus } from "node:os";

const [perlinDir, simplexDir] = process.argv.slice(2);
const { init, Field } = await import(pathToFileURL(join(perlinDir, "index.js")));
const { createNoise2D, createNoise3D } = await import(pathToFileURL(join(simplexDir, "dist/esm/simplex-noise.js")));
await init();

const ROUNDS = 7;
// Times are the process's CPU time (user + system, so page faults count): on a quiet machine the
// wall time of this one pinned thread, and on a shared one not inflated by the others' work.
function cpuNs(f) {
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  return (d.user + d.system) * 1000;
}
function median(f) {
  const t = [];
  for (let r = 0; r < ROUNDS; ++r) t.push(cpuNs(f));
  t.sort((a, b) => a - b);
  return t[ROUNDS >> 1];
}

/** Medians of ROUNDS interleaved rounds of every workload, ns per sample (n samples a run). */
function interleaved(cases, n) {
  const t = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; ++r) {
    for (const [k, f] of Object.entries(cases)) t[k].push(cpuNs(f) / n);
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.sort((a, b) => a - b)[ROUNDS >> 1]]));
}

const N = 2048;
const step = 1 / 64;
const field = new Field({ plane: "aligned" });
const noise2 = createNoise2D(() => 0.5);
const noise3 = createNoise3D(() => 0.5);
let sink = 0;
const results = {};
results["grid2d perlin float (grid call)"] = median(() => { sink += field.grid(N, N, { step })[7]; }) / (N * N);
const reused = new Float32Array(N * N);
results["grid2d perlin float (grid call, out reused)"] = median(() => {
  sink += field.grid(N, N, { step, out: reused })[7];
}) / (N * N);
results["grid2d perlin double (grid call, exact)"] = median(() => {
  sink += field.grid(N, N, { step, precision: "double" })[7];
}) / (N * N);
results["grid2d simplex-noise (loop)"] = median(() => {
  const out = new Float32Array(N * N);
  for (let j = 0; j < N; ++j) for (let i = 0; i < N; ++i) out[j * N + i] = noise2(i * step, j * step);
  sink += out[7];
}) / (N * N);
const M = 1 << 20;
const xs = Float64Array.from({ length: M }, (_, i) => ((i * 7919) % 65536) / 256 - 128);
// Single calls, interleaved: each round runs every workload once, so that a busy moment of the
// machine falls on all of them alike.
Object.assign(results, interleaved({
  "single 3-D perlin eval (exact)": () => {
    for (let i = 0; i < M; ++i) sink += field.eval(xs[i], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]);
  },
  "single 3-D simplex-noise": () => {
    for (let i = 0; i < M; ++i) sink += noise3(xs[i], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]);
  },
  "single 2-D perlin eval (exact)": () => {
    for (let i = 0; i < M; ++i) sink += field.eval(xs[i], xs[(i + 1) & (M - 1)]);
  },
  "single 2-D simplex-noise": () => {
    for (let i = 0; i < M; ++i) sink += noise2(xs[i], xs[(i + 1) & (M - 1)]);
  },
}, M));
const pts = new Float32Array(3 * M);
for (let i = 0; i < 3 * M; ++i) pts[i] = xs[i & (M - 1)];
results["points3d perlin batch (float)"] = median(() => { sink += field.points(pts, 3)[5]; }) / M;

console.log(`Node ${process.version}, ${cpus()[0].model}, one thread; median of ${ROUNDS} rounds, ns of CPU time per sample`);
for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(42)} ${v.toFixed(2)}`);
const r = (a, b) => (results[b] / results[a]).toFixed(2);
console.log(`grid2d: simplex-noise loop / perlin grid = ${r("grid2d perlin float (grid call)", "grid2d simplex-noise (loop)")}x` +
  ` (into a reused array: ${r("grid2d perlin float (grid call, out reused)", "grid2d simplex-noise (loop)")}x)`);
console.log(`single calls: simplex-noise / perlin = ${r("single 3-D perlin eval (exact)", "single 3-D simplex-noise")}x (3-D), ` +
  `${r("single 2-D perlin eval (exact)", "single 2-D simplex-noise")}x (2-D)`);
if (sink === 42) console.log("");
