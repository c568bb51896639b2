"""`perlin shader` in a browser: GLSL ES in WebGL2 and WGSL in WebGPU, in headless Chromium on its
SwiftShader (no GPU needed), against `perlin eval` (docs/gpu.md).

Each field's `--standalone` program fills a grid: WebGL2's fragment shader writes perlin_field's
float bits to an R32UI texture, WebGPU's compute shader writes floats to a storage buffer, both
read back exactly (a canvas would round to 8 bits; a headless WebGPU canvas reads back blank).
The values are compared with the double path within the float shader's tolerance (16 x
value_tolerance), and with the C++ float path (`perlin eval --float`) bit for bit where
SwiftShader keeps the operations' order. WGSL's perlin_field_deriv (a pointer out parameter) is
compared with `perlin eval --derivatives` within 16 x gradient_tolerance on smooth fields.
"""
import functools
import http.server
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import chromium  # noqa: E402

SIDE = 64
ORIGIN = (-7.25, 3.5, 0.625, -1.375)
STEP = 1 / 16

# (recipe, dims, the sum of its octave amplitudes: value_tolerance is 2e-6 times it; for a warp
# of amplitude A, also A x the sum of amplitude x frequency: A x gradient_tolerance is 2e-5 times
# it, docs/gpu.md)
FIELDS = [
    ("perlin=1", 3, 1.0),
    ("perlin=1&seed=42&fractal=fbm&octaves=5", 3, 1.9375),
    ("perlin=1&noise=value&interp=cubic&fractal=ridged&octaves=3", 3, 1.75),
    ("perlin=1&fractal=billow&octaves=4&period=8", 3, 1.875),
    ("perlin=1&plane=rotated&fractal=turbulence&octaves=3", 3, 1.75),
    ("perlin=1&noise=value&interp=cosine&seed=3", 3, 1.0),
    ("perlin=1&fractal=fbm&octaves=3&period=5,7&decorrelate=1", 2, 1.75),
    ("perlin=1&seed=7&fractal=ridged&octaves=4", 4, 1.875),
    ("perlin=1&noise=value&interp=linear&fractal=fbm&octaves=2", 1, 1.5),
    ("perlin=1&fractal=fbm&octaves=2&warp=progressive&warp-octaves=2", 2, (1.5, 2.0)),
    # Gustavson's simplex noise in 2-D (continuous; 3-D and 4-D jump at some simplex boundaries,
    # docs/noise.md, which a float grid may straddle).
    ("perlin=1&noise=simplex&fractal=fbm&octaves=3", 2, 1.75),
]


def tolerance(amplitudes):
    """16 x value_tolerance, plus 16 x A x gradient_tolerance for a warped field."""
    if isinstance(amplitudes, tuple):
        return 16 * (2e-6 * amplitudes[0] + 2e-5 * amplitudes[1])
    return 16 * 2e-6 * amplitudes

# Smooth fields for the derivatives: (recipe, dims, sum over octaves of amplitude x frequency:
# gradient_tolerance is 2e-5 times it)
DERIVATIVE_FIELDS = [
    ("perlin=1&seed=42&fractal=fbm&octaves=5", 3, 5.0),
    ("perlin=1&fractal=fbm&octaves=3&period=5,7&decorrelate=1", 2, 3.0),
    ("perlin=1&noise=value&interp=cubic&seed=5", 4, 1.0),
    ("perlin=1&plane=rotated&fractal=fbm&octaves=2", 2, 2.0),
    ("perlin=1&noise=simplex&seed=3", 2, 1.0),
]

WEBGL = r"""
const [source, side, origin, step] = arguments;
const canvas = document.createElement('canvas');
const gl = canvas.getContext('webgl2');
if (!gl) return {error: 'no WebGL2'};
const compile = (type, text) => {
  const s = gl.createShader(type);
  gl.shaderSource(s, text);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
  return s;
};
try {
  const vs = compile(gl.VERTEX_SHADER, `#version 300 es
void main() {
  vec2 v = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(v * 2.0 - 1.0, 0.0, 1.0);
}`);
  const fs = compile(gl.FRAGMENT_SHADER, source);
  const prog = gl.createProgram();
  gl.attachShader(prog, vs);
  gl.attachShader(prog, fs);
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) return {error: gl.getProgramInfoLog(prog)};
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, side, side);
  const fb = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  gl.viewport(0, 0, side, side);
  gl.useProgram(prog);
  gl.uniform4f(gl.getUniformLocation(prog, 'perlin_origin'), ...origin);
  gl.uniform2f(gl.getUniformLocation(prog, 'perlin_step'), step, step);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  const out = new Uint32Array(side * side * 4);
  gl.readPixels(0, 0, side, side, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out);
  const bits = [];
  for (let i = 0; i < side * side; ++i) bits.push(out[4 * i]);
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  return {bits, renderer: gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER)};
} catch (e) {
  return {error: String(e)};
}
"""

# Runs a WGSL compute program over side x side invocations (8 x 8 per workgroup) with the
# standalone program's bindings: the output buffer (`outputs` floats) at 0, the grid parameters
# (origin, step, size) at 1. Returns the buffer's float bits.
WEBGPU = r"""
const [code, side, origin, step, outputs, done] = arguments;
(async () => {
  if (!navigator.gpu) return done({error: 'no WebGPU'});
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return done({error: 'no WebGPU adapter'});
  const device = await adapter.requestDevice();
  const module = device.createShaderModule({code});
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter(m => m.type === 'error');
  if (errors.length) return done({error: errors.map(m => `${m.lineNum}: ${m.message}`).join('\n')});
  const pipeline = device.createComputePipeline({layout: 'auto', compute: {module, entryPoint: 'main'}});
  const out = device.createBuffer({size: outputs * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC});
  const read = device.createBuffer({size: outputs * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
  const params = new ArrayBuffer(32);
  new Float32Array(params, 0, 6).set([...origin, step, step]);
  new Uint32Array(params, 24, 2).set([side, side]);
  const uniform = device.createBuffer({size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST});
  device.queue.writeBuffer(uniform, 0, params);
  const group = device.createBindGroup({layout: pipeline.getBindGroupLayout(0), entries: [
    {binding: 0, resource: {buffer: out}}, {binding: 1, resource: {buffer: uniform}}]});
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(Math.ceil(side / 8), Math.ceil(side / 8));
  pass.end();
  encoder.copyBufferToBuffer(out, 0, read, 0, outputs * 4);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const bits = Array.from(new Uint32Array(read.getMappedRange()));
  const a = adapter.info || {};
  done({bits, renderer: `${a.vendor} ${a.architecture}`});
})().catch(e => done({error: String(e)}));
"""


def derivative_program(source, dims):
    """The standalone program's bindings around perlin_field_deriv: the value, then the partials."""
    swizzle = ["p.x", "p.xy", "p.xyz", "p"][dims - 1]
    vec = "f32" if dims == 1 else f"vec{dims}<f32>"
    parts = "".join(f"  perlin_values[at + {k + 1}u] = g{'' if dims == 1 else '.' + 'xyzw'[k]};\n"
                    for k in range(dims))
    return source + f"""
struct perlin_grid_params {{ origin: vec4<f32>, step: vec2<f32>, size: vec2<u32>, }}
@group(0) @binding(0) var<storage, read_write> perlin_values: array<f32>;
@group(0) @binding(1) var<uniform> perlin_grid: perlin_grid_params;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
  if (id.x >= perlin_grid.size.x || id.y >= perlin_grid.size.y) {{ return; }}
  var p = perlin_grid.origin;
  p.x = p.x + f32(id.x) * perlin_grid.step.x;
  p.y = p.y + f32(id.y) * perlin_grid.step.y;
  var g: {vec};
  let at = (id.y * perlin_grid.size.x + id.x) * {dims + 1}u;
  perlin_values[at] = perlin_field_deriv({swizzle}, &g);
{parts}}}
"""


@pytest.fixture(scope="module")
def perlin_exe():
    return os.environ["PERLIN_EXE"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    # WebGPU needs a secure context: a page from 127.0.0.1, not about:blank.
    folder = tmp_path_factory.mktemp("page")
    (folder / "index.html").write_text("<!doctype html><title>shaders</title>")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = chromium.start(tmp_path_factory.mktemp("chromium"), webgl=True, webgpu=True)
    driver.set_script_timeout(120)
    driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
    yield driver
    driver.quit()
    server.shutdown()


def shader(perlin_exe, recipe, dims, lang, *flags):
    return subprocess.run([perlin_exe, "shader", "--lang", lang, "--recipe", recipe, "--dims",
                           str(dims), *flags], capture_output=True, text=True, check=True).stdout


def grid_points(dims):
    """Sample (i, j), j the row (from the bottom in WebGL2), as the standalone program places it:
    origin + (i, j) * step on the first two axes, exact in float."""
    return [tuple((ORIGIN[0] + i * STEP, ORIGIN[1] + j * STEP) + ORIGIN[2:])[:dims]
            if dims >= 2 else (ORIGIN[0] + i * STEP,)
            for j in range(SIDE) for i in range(SIDE)]


def evaluate(perlin_exe, recipe, points, *flags):
    text = "".join(" ".join(repr(c) for c in p) + "\n" for p in points)
    r = subprocess.run([perlin_exe, "eval", "--recipe", recipe, *flags], input=text,
                       capture_output=True, text=True, check=True)
    return [float(v) for v in r.stdout.split()]


def floats(bits):
    return [struct.unpack("<f", struct.pack("<I", b))[0] for b in bits]


def check_values(perlin_exe, recipe, dims, amplitudes, values, renderer):
    points = grid_points(dims)
    exact = evaluate(perlin_exe, recipe, points)
    single = evaluate(perlin_exe, recipe, points, "--float")
    bound = tolerance(amplitudes)
    worst = max(abs(a - b) for a, b in zip(values, exact))
    assert worst <= bound, (worst, bound)
    same = sum(struct.pack("<f", a) == struct.pack("<f", b) for a, b in zip(values, single))
    print(f"{recipe} ({dims}-D): worst {worst:.3g} ({16 * worst / bound:.2f} x value_tolerance "
          f"or its warped bound), {same}/{len(values)} bit for bit with eval --float, {renderer}")
    return same


@pytest.mark.parametrize("recipe, dims, amplitudes", FIELDS)
def test_webgl2_gives_the_float_path_within_its_tolerance(browser, perlin_exe, recipe, dims,
                                                          amplitudes):
    source = shader(perlin_exe, recipe, dims, "glsl-es", "--standalone")
    got = browser.execute_script(WEBGL, source, SIDE, list(ORIGIN), STEP)
    assert "error" not in got, got.get("error")
    check_values(perlin_exe, recipe, dims, amplitudes, floats(got["bits"]), got["renderer"])


@pytest.mark.parametrize("recipe, dims, amplitudes", FIELDS)
def test_webgpu_gives_the_float_path_within_its_tolerance(browser, perlin_exe, recipe, dims,
                                                          amplitudes):
    source = shader(perlin_exe, recipe, dims, "wgsl", "--standalone")
    got = browser.execute_async_script(WEBGPU, source, SIDE, list(ORIGIN), STEP, SIDE * SIDE)
    assert "error" not in got, got.get("error")
    same = check_values(perlin_exe, recipe, dims, amplitudes, floats(got["bits"]),
                        got["renderer"])
    if recipe == "perlin=1":  # Ken Perlin's noise: SwiftShader keeps WGSL's order
        assert same == SIDE * SIDE


@pytest.mark.parametrize("recipe, dims, scale", DERIVATIVE_FIELDS)
def test_webgpu_derivatives_are_the_double_gradient_within_tolerance(browser, perlin_exe, recipe,
                                                                     dims, scale):
    source = derivative_program(shader(perlin_exe, recipe, dims, "wgsl"), dims)
    got = browser.execute_async_script(WEBGPU, source, SIDE, list(ORIGIN), STEP,
                                       SIDE * SIDE * (dims + 1))
    assert "error" not in got, got.get("error")
    values = floats(got["bits"])
    exact = evaluate(perlin_exe, recipe, grid_points(dims), "--derivatives")
    assert len(exact) == len(values)
    value_worst = max(abs(values[i] - exact[i]) for i in range(0, len(values), dims + 1))
    partial_worst = max(abs(values[i] - exact[i]) for i in range(len(values))
                        if i % (dims + 1) != 0)
    assert value_worst <= 16 * 2e-6 * 2, value_worst  # every field here sums amplitudes below 2
    assert partial_worst <= 16 * 2e-5 * scale, (partial_worst, 16 * 2e-5 * scale)
    print(f"{recipe} ({dims}-D) derivatives: worst partial {partial_worst / (2e-5 * scale):.2f} x "
          f"gradient_tolerance")


def test_a_field_the_shader_cannot_express_is_refused_by_name(perlin_exe):
    r = subprocess.run([perlin_exe, "shader", "--lang", "wgsl", "--precision", "double"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "WGSL" in r.stderr, r.stderr
