"use strict";
const controls = Array.from(document.querySelectorAll("#controls [name]"));
const preview = document.getElementById("preview");
const errorBox = document.getElementById("error");
let last = null;          // the stats of the picture shown
let generation = 0;       // newer requests supersede older ones
let pending = null;
let shownUrl = null;      // the object URL of the picture shown
let loop = null;          // while the loop plays: {centre: [Z, W], radius, frame}
// Where pictures come from: "server" (perlin serve's /render.png) or "worker" (the static page:
// its Web Worker runs the same renderer compiled to WebAssembly, worker.js).
const BACKEND = "@backend@";
let worker = null, inFlight = null, queued = null;

// The worker answers one request at a time; while one runs, only the newest waiting request is
// kept (older ones would be dropped anyway).
function startJob(job) { inFlight = job; worker.postMessage({ query: job.query, ext: job.ext }); }
function workerRender(query, ext) {
  if (!worker) {
    worker = new Worker("worker.js", { type: "module" });
    worker.onmessage = e => {
      const done = inFlight;
      inFlight = null;
      if (queued) { const next = queued; queued = null; startJob(next); }
      done.resolve(e.data);
    };
    worker.onerror = e => {
      const done = inFlight;
      inFlight = null;
      done?.resolve({ error: "the page's worker failed: " + e.message });
    };
  }
  return new Promise(resolve => {
    const job = { query, ext, resolve };
    if (inFlight) {
      if (queued) queued.resolve({ superseded: true });
      queued = job;
    } else {
      startJob(job);
    }
  });
}

// The picture and its stats for a query: {blob, stats} or {error}; null when superseded.
async function renderPicture(query, signal) {
  if (BACKEND === "worker") {
    const r = await workerRender(query, ".png");
    if (r.superseded) return null;
    if (r.error) return { error: r.error };
    return { blob: new Blob([r.bytes], { type: "image/png" }), stats: JSON.parse(r.stats) };
  }
  const res = await fetch("/render.png?" + query, { signal });
  if (!res.ok) return { error: (await res.json()).error };
  return { blob: await res.blob(), stats: JSON.parse(res.headers.get("X-Stats")) };
}

function state() {
  const q = new URLSearchParams();
  for (const c of controls) {
    if (c.type === "checkbox") { if (c.checked) q.set(c.name, "1"); }
    else if (c.value.trim() !== "") q.set(c.name, c.value.trim());
  }
  return q;
}

function restore() {
  const q = new URLSearchParams(location.search);
  for (const c of controls) {
    if (c.type === "checkbox") c.checked = q.get(c.name) === "1" || q.get(c.name) === "true";
    else {
      const v = q.get(c.name) ?? "";
      if (c.tagName === "SELECT" && v !== "" && !Array.from(c.options).some(o => o.value === v)) {
        c.add(new Option(v, v));  // a value the list lacks still survives the reload
      }
      c.value = v;
    }
  }
}

function exportQuery() {
  const q = state();
  const size = document.getElementById("export-size").value.trim();
  if (size) q.set("size", size);
  q.set("download", "1");
  return q.toString();
}

function drawHistogram(h) {
  const cv = document.getElementById("histogram"), g = cv.getContext("2d");
  g.clearRect(0, 0, cv.width, cv.height);
  const top = Math.max(...h, 1), w = cv.width / h.length;
  g.fillStyle = "#557";
  h.forEach((n, i) => { const bar = n / top * cv.height; g.fillRect(i * w, cv.height - bar, w - 1, bar); });
}

// The controls left empty show the values in force (the preset's, or the defaults).
function showInForce(values) {
  for (const c of controls) {
    if (!(c.name in values)) continue;
    const v = values[c.name];
    if (c.tagName === "SELECT") c.options[0].text = "(" + (v === "" ? "none" : v) + ")";
    else if (c.type === "text") c.placeholder = v === "" ? "none" : v;
  }
}

// One request per change: the picture, with its stats in the X-Stats header.
async function update() {
  const q = state();
  const query = q.toString();
  syncSliders();
  markFolded();
  if (!loop) history.replaceState(null, "", query ? "?" + query : location.pathname);
  const mine = ++generation;
  if (pending) pending.abort();
  pending = new AbortController();
  let answer;
  try {
    answer = await renderPicture(query, pending.signal);
  } catch (e) { return; }  // superseded
  if (!answer) return;
  if (answer.error) {
    if (mine === generation) errorBox.textContent = answer.error;  // the last good picture stays
    return;
  }
  if (mine !== generation) return;  // a newer request is on its way: drop this answer
  const blob = answer.blob, body = answer.stats;
  errorBox.textContent = "";
  last = body;
  if (shownUrl) URL.revokeObjectURL(shownUrl);
  shownUrl = URL.createObjectURL(blob);
  preview.src = shownUrl;
  fitPicture();
  preview.dataset.query = query;  // what the picture shows (tests and the curious)
  const tiled = document.getElementById("tiled");
  if (q.get("tileable")) {
    tiled.style.display = "block";
    tiled.style.width = 2 * body.width + "px";
    tiled.style.height = 2 * body.height + "px";
    tiled.style.backgroundImage = "url('" + shownUrl + "')";
  } else {
    tiled.style.display = "none";
  }
  document.getElementById("stats").textContent =
    `render ${body.ms.toFixed(1)} ms · min ${body.min.toFixed(4)} · max ${body.max.toFixed(4)} · mean ${body.mean.toFixed(4)} · mapped [${body.lo.toFixed(4)}, ${body.hi.toFixed(4)}]`;
  drawHistogram(body.histogram);
  showInForce(body.in_force);
  syncSliders();
  document.getElementById("command").textContent = loop ? loopCommand(body.command) : body.command;
  document.getElementById("recipe").textContent = body.recipe;
  document.getElementById("cpp").textContent = body.cpp;
  document.getElementById("python").textContent = body.python;
  document.getElementById("js").textContent = body.js;
  if (BACKEND === "server") {
    document.getElementById("download-png").href = "/render.png?" + exportQuery();
    document.getElementById("download-npy").href = "/render.npy?" + exportQuery();
  }
  updateGpu(query);
}
// GPU mode: the same field drawn by this browser's GPU with WebGL2 from the field's GLSL ES
// program (perlin shader --lang glsl-es --standalone: /shader.json, or the worker), in grey beside
// the CPU's picture, and the largest difference between its values and the CPU's (.npy). The
// CPU's picture stays the reference.
const gpuBox = document.getElementById("gpu-mode"), gpuView = document.getElementById("gpu-view");
const gpuStatus = document.getElementById("gpu-status");
let gpuGeneration = 0;
async function fetchShader(query) {
  if (BACKEND === "worker") {
    const r = await workerRender(query, ".shader");
    if (r.superseded) return null;
    return r.error ? { error: r.error } : JSON.parse(r.stats);
  }
  const res = await fetch("/shader.json?" + query);
  const body = await res.json();
  return res.ok ? body : { error: body.error };
}
async function fetchValues(query) {
  let bytes;
  if (BACKEND === "worker") {
    const r = await workerRender(query, ".npy");
    if (r.superseded) return null;
    if (r.error) return { error: r.error };
    bytes = r.bytes;
  } else {
    const res = await fetch("/render.npy?" + query);
    if (!res.ok) return { error: (await res.json()).error };
    bytes = new Uint8Array(await res.arrayBuffer());
  }
  const header = bytes[8] | (bytes[9] << 8);  // .npy 1.0: the header's length, then float32 data
  return { values: new Float32Array(bytes.slice(10 + header).buffer) };
}
function drawOnGpu(s) {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return { error: "this browser has no WebGL2" };
  try {
    const compile = (type, text) => {
      const sh = gl.createShader(type);
      gl.shaderSource(sh, text);
      gl.compileShader(sh);
      if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(sh));
      return sh;
    };
    const prog = gl.createProgram();
    gl.attachShader(prog, compile(gl.VERTEX_SHADER, "#version 300 es\nvoid main() {\n" +
      "  vec2 v = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n" +
      "  gl_Position = vec4(v * 2.0 - 1.0, 0.0, 1.0);\n}"));
    gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, s.source));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(prog));
    gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, s.width, s.height);
    gl.bindFramebuffer(gl.FRAMEBUFFER, gl.createFramebuffer());
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, gl.getParameter(gl.TEXTURE_BINDING_2D), 0);
    gl.viewport(0, 0, s.width, s.height);
    gl.useProgram(prog);
    gl.uniform4f(gl.getUniformLocation(prog, "perlin_origin"), ...s.origin);
    gl.uniform2f(gl.getUniformLocation(prog, "perlin_step"), ...s.step);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const rgba = new Uint32Array(s.width * s.height * 4);
    // Row j of the read-back is pixel row j of the grid (gl_FragCoord.y counts from the bottom,
    // readPixels too): the picture's row order.
    gl.readPixels(0, 0, s.width, s.height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, rgba);
    const bits = new Uint32Array(s.width * s.height);
    for (let i = 0; i < bits.length; ++i) bits[i] = rgba[4 * i];
    const dbg = gl.getExtension("WEBGL_debug_renderer_info");
    return { values: new Float32Array(bits.buffer),
             renderer: gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER) };
  } catch (e) {
    return { error: "the GPU did not take the field's shader: " + e.message };
  } finally {
    gl.getExtension("WEBGL_lose_context")?.loseContext();
  }
}
async function updateGpu(query) {
  const mine = ++gpuGeneration;
  if (!gpuBox.checked) {
    gpuView.style.display = "none";
    gpuStatus.textContent = "";
    return;
  }
  // data-query: the query the status answers (tests and the curious).
  const fail = text => {
    gpuView.style.display = "none";
    gpuStatus.textContent = "GPU mode: " + text;
    gpuStatus.dataset.query = query;
  };
  const s = await fetchShader(query);
  if (!s || mine !== gpuGeneration) return;
  if (s.error) return fail(s.error);
  const drawn = drawOnGpu(s);
  if (drawn.error) return fail(drawn.error);
  const v = drawn.values;
  let lo = s.lo, hi = s.hi;
  if (s.stretch) {
    lo = Math.min(...v);
    hi = Math.max(...v);
  }
  const img = new ImageData(s.width, s.height);
  for (let i = 0; i < v.length; ++i) {
    const t = Math.min(1, Math.max(0, (v[i] - lo) / (hi - lo || 1)));
    img.data.fill(Math.round(255 * t), 4 * i, 4 * i + 3);
    img.data[4 * i + 3] = 255;
  }
  gpuView.width = s.width;
  gpuView.height = s.height;
  gpuView.getContext("2d").putImageData(img, 0, 0);
  gpuView.style.display = "block";
  let text = `GPU mode: drawn by ${drawn.renderer} (WebGL2), the field's values in grey`;
  delete gpuView.dataset.worst;
  if (s.values) {
    const cpu = await fetchValues(query);
    if (!cpu || mine !== gpuGeneration) return;
    if (cpu.error) return fail(cpu.error);
    let worst = 0;
    for (let i = 0; i < v.length; ++i) {
      const d = Math.abs(v[i] - cpu.values[i]);
      worst = Math.max(worst, Number.isNaN(d) ? Infinity : d);
    }
    gpuView.dataset.worst = String(worst);
    gpuView.dataset.bound = String(s.bound);
    text += ` · largest difference from the CPU's values ${worst.toExponential(2)}, ` +
            (worst <= s.bound ? "within" : "beyond") + ` the float shader's bound ${s.bound.toExponential(2)}`;
  } else {
    text += " (the preset's formula runs on the CPU only: not compared)";
  }
  gpuStatus.textContent = text;
  gpuStatus.dataset.query = query;
}
gpuBox.addEventListener("change", () => updateGpu(state().toString()));

// The static page's exports: the worker writes the file (PNG 8 or 16 bit, .npy), the browser saves it.
for (const [id, ext, type] of [["download-png", ".png", "image/png"], ["download-npy", ".npy", "application/octet-stream"]]) {
  document.getElementById(id).addEventListener("click", async e => {
    if (BACKEND !== "worker") return;
    e.preventDefault();
    const r = await workerRender(exportQuery(), ext);
    if (r.error) { errorBox.textContent = r.error; return; }
    if (r.superseded) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.bytes], { type }));
    a.download = "noise" + ext;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  });
}

// The picture fills the room it has, keeping its aspect (pan and zoom map the cursor through
// naturalWidth / clientWidth): the view's width, and the window's height less the line under it.
const stage = document.getElementById("stage");
function fitPicture() {
  const w = preview.naturalWidth, h = preview.naturalHeight;
  if (!w || !h) return;
  const narrow = matchMedia("(max-width: 800px)").matches;
  const room = Math.max(160, narrow ? 0.7 * innerHeight : innerHeight - 64);
  const s = Math.min(stage.clientWidth / w, room / h);
  preview.style.width = Math.max(1, Math.floor(w * s)) + "px";
  preview.style.height = Math.max(1, Math.floor(h * s)) + "px";
  preview.style.imageRendering = s >= 2 ? "pixelated" : "auto";  // large pixels stay sharp
}
preview.addEventListener("load", fitPicture);
window.addEventListener("resize", fitPicture);

// Sliders: one beside each ranged number (data-for names its box), synced both ways. A linear
// slider holds the value; a logarithmic one (data-scale="log") positions 0 to 1000 from data-low
// to data-high. An empty box shows the value in force (its placeholder) on its slider.
const sliders = Array.from(document.querySelectorAll("#controls .slider"));
function sliderValue(s) {
  const low = Number(s.dataset.low), high = Number(s.dataset.high);
  const v = s.dataset.scale === "log" ? low * Math.pow(high / low, Number(s.value) / 1000) : Number(s.value);
  return s.dataset.int ? String(Math.round(v)) : String(Number(v.toPrecision(3)));
}
function setSlider(s, text) {
  const v = parseFloat(text);  // a period's "16,8" shows its first, 16
  if (!Number.isFinite(v)) return;
  const low = Number(s.dataset.low), high = Number(s.dataset.high);
  s.value = s.dataset.scale === "log"
    ? String(Math.round(1000 * Math.log(Math.min(high, Math.max(low, v)) / low) / Math.log(high / low)))
    : String(v);
}
function syncSliders() {
  for (const s of sliders) {
    if (s === document.activeElement) continue;  // the one being dragged leads
    const box = field(s.dataset.for);
    setSlider(s, box.value.trim() || box.placeholder);
  }
}
for (const s of sliders) {
  s.addEventListener("input", () => { field(s.dataset.for).value = sliderValue(s); update(); });
}
// A folded group of advanced settings says how many of its controls are set.
function markFolded() {
  for (const d of document.querySelectorAll("#controls details.advanced")) {
    const n = Array.from(d.querySelectorAll("[name]")).filter(
      c => c.type === "hidden" ? false : c.type === "checkbox" ? c.checked : c.value.trim() !== "").length;
    d.querySelector(".set-count").textContent = n ? `(${n} set)` : "";
  }
}

for (const c of controls) c.addEventListener(c.type === "checkbox" || c.tagName === "SELECT" ? "change" : "input", update);
document.getElementById("export-size").addEventListener("input", update);
document.getElementById("copy").addEventListener("click", () => navigator.clipboard?.writeText(document.getElementById("command").textContent));

function field(name) { return controls.find(c => c.name === name); }
function fmt(v) { return String(Number(v.toPrecision(12))); }

// Pan: dragging moves the origin by the pixels dragged times the pixel step.
let drag = null;
preview.addEventListener("mousedown", e => { if (last) drag = { x: e.clientX, y: e.clientY, origin: last.origin.slice(), step: last.step.slice() }; });
window.addEventListener("mouseup", e => {
  if (!drag) return;
  const scale = preview.naturalWidth / preview.clientWidth || 1;
  const dx = (e.clientX - drag.x) * scale, dy = (e.clientY - drag.y) * scale;
  if (dx || dy) {
    setOriginXY(drag.origin[0] - dx * drag.step[0], drag.origin[1] - dy * drag.step[1]);
    update();
  }
  drag = null;
});
// Zoom: the wheel scales the pixel step about the cursor: the point under it stays put.
preview.addEventListener("wheel", e => {
  if (!last) return;
  e.preventDefault();
  const scale = preview.naturalWidth / preview.clientWidth || 1;
  const px = e.offsetX * scale, py = e.offsetY * scale;
  const s = last.step[0], t = s * (e.deltaY > 0 ? 1.25 : 0.8);
  field("step").value = fmt(t);
  setOriginXY(last.origin[0] + px * (s - t), last.origin[1] + py * (s - t));
  update();
}, { passive: false });

// The origin field holds X,Y[,Z[,W]]: pan and zoom change X and Y only.
function originParts() {
  const v = field("origin").value.trim();
  const p = v ? v.split(",").map(Number) : [];
  while (p.length < 2) p.push(0);
  return p;
}
function setOriginXY(x, y) {
  const p = originParts();
  p[0] = x; p[1] = y;
  field("origin").value = p.map(fmt).join(",");
}
// The z slider sets the third origin value: the slice z = Z of the 3-D field.
document.getElementById("z").addEventListener("input", e => {
  const p = originParts().slice(0, 2);
  field("origin").value = p.map(fmt).join(",") + "," + fmt(Number(e.target.value));
  document.getElementById("z-value").textContent = fmt(Number(e.target.value));
  update();
});
// Play: the frames of `--frames 48 --loop`: frame k at (Z + R cos 2 pi k/48, W + R sin 2 pi k/48)
// around the origin's (Z, W), R = 48 * step / pi (the command's default radius).
function loopCommand(command) {
  return command.replace("perlin render -o noise.png", "perlin render -o loop.png --frames 48 --loop --animated")
    .replace(/ --origin \S+/, loop.originArg);
}
document.getElementById("play").addEventListener("click", e => {
  if (loop) {
    clearInterval(loop.timer);
    field("origin").value = loop.saved;
    loop = null;
    e.target.textContent = "play loop";
    update();
    return;
  }
  if (!last) return;
  const p = originParts();
  const saved = field("origin").value;
  loop = { saved, centre: [p[2] ?? 0, p[3] ?? 0], radius: 48 * last.step[0] / Math.PI, frame: 0,
           originArg: " --origin " + [p[0], p[1], p[2] ?? 0, p[3] ?? 0].map(fmt).join(",") };
  e.target.textContent = "stop";
  loop.timer = setInterval(() => {
    const a = 2 * Math.PI * (loop.frame++ % 48) / 48;
    field("origin").value = [p[0], p[1], loop.centre[0] + loop.radius * Math.cos(a),
                             loop.centre[1] + loop.radius * Math.sin(a)].map(fmt).join(",");
    update();
  }, 120);
});

restore();
{
  const p = originParts();
  if (p.length >= 3) {
    document.getElementById("z").value = p[2];
    document.getElementById("z-value").textContent = fmt(p[2]);
  }
}
update();
