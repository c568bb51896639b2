// Single calls of two builds of perlin-exact beside simplex-noise in one Node process: `before`
// and `after` package folders (each holding index.js and perlin_wasm.js, e.g. two installs of
// scripts/build-js's tarball), simplex-noise 4's folder. Interleaved rounds of 2^18 calls, the
// median and range of each workload's CPU time per call. Every workload is its own function
// literal (V8 shares a literal's call-site feedback between its closures), and a second field
// (5-octave fBm) of each package is called too, as programs with several fields do.
// Usage: taskset -c 1 node bench/js/compare.mjs BEFORE_DIR AFTER_DIR SIMPLEX_NOISE_DIR [ROUNDS]
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { cpus } from "node:os";
const [a, b, s, roundsArg] = process.argv.slice(2);
const A = await import(pathToFileURL(join(a, "index.js")));
const B = await import(pathToFileURL(join(b, "index.js")));
const { createNoise2D, createNoise3D } = await import(pathToFileURL(join(s, "dist/esm/simplex-noise.js")));
await A.init(); await B.init();
const fa = new A.Field({}), fb = new B.Field({});
const ga = new A.Field({ fractal: "fbm", octaves: 5 }), gb = new B.Field({ fractal: "fbm", octaves: 5 });
let seed = 7; const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647 * 512 - 256;
const n3 = createNoise3D(rnd), n2 = createNoise2D(rnd);
const n = 1 << 18, M = 1 << 12;
const xs = new Float64Array(M); for (let i = 0; i < M; ++i) xs[i] = rnd();
let sink = 0;
function cpuNs(f) { const st = process.cpuUsage(); f(); const d = process.cpuUsage(st); return (d.user + d.system) * 1000 / n; }
const cases = {
  "3-D before (module)": () => { for (let i = 0; i < n; ++i) sink += fa.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]); },
  "3-D after (generated JS)": () => { for (let i = 0; i < n; ++i) sink += fb.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]); },
  "3-D simplex-noise": () => { for (let i = 0; i < n; ++i) sink += n3(xs[i & (M - 1)], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]); },
  "2-D before (module)": () => { for (let i = 0; i < n; ++i) sink += fa.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)]); },
  "2-D after (generated JS)": () => { for (let i = 0; i < n; ++i) sink += fb.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)]); },
  "2-D simplex-noise": () => { for (let i = 0; i < n; ++i) sink += n2(xs[i & (M - 1)], xs[(i + 1) & (M - 1)]); },
  "3-D fBm 5 octaves before": () => { for (let i = 0; i < n; ++i) sink += ga.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]); },
  "3-D fBm 5 octaves after": () => { for (let i = 0; i < n; ++i) sink += gb.eval(xs[i & (M - 1)], xs[(i + 1) & (M - 1)], xs[(i + 2) & (M - 1)]); },
};
const R = Number(roundsArg ?? 15);
const t = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < R; ++r) for (const [k, f] of Object.entries(cases)) t[k].push(cpuNs(f));
console.log(`Node ${process.version}, ${cpus()[0].model}, ${R} interleaved rounds of ${n} calls, median ns of CPU time per call (min-max)`);
for (const [k, v] of Object.entries(t)) { v.sort((x, y) => x - y); console.log(k.padEnd(28), v[v.length >> 1].toFixed(1), `(${v[0].toFixed(1)}-${v[v.length - 1].toFixed(1)})`); }
if (sink === 42) console.log("");
