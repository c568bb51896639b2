"""`perlin shader --lang glsl-es` in a browser: WebGL2 in headless Chromium (SwiftShader, no
GPU needed), against `perlin eval` (docs/gpu.md).

Each field's GLSL ES source goes into a fragment shader that writes perlin_field's float bits
to an R32UI texture (exact read-back; a canvas would round to 8 bits); the values are compared
with the double path within the float shader's tolerance (16 x value_tolerance), and with the
C++ float path (`perlin eval --float`) bit for bit where SwiftShader honours the order.
"""
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import chromium  # noqa: E402

SIDE = 64
ORIGIN = (-7.25, 3.5)
STEP = 1 / 16
Z = 0.625

# (recipe, the sum of its octave amplitudes: value_tolerance is 2e-6 times it)
FIELDS = [
    ("perlin=1", 1.0),
    ("perlin=1&seed=42&fractal=fbm&octaves=5", 1.9375),
    ("perlin=1&noise=value&interp=cubic&fractal=ridged&octaves=3", 1.75),
    ("perlin=1&fractal=billow&octaves=4&period=8", 1.875),
    ("perlin=1&plane=rotated&fractal=turbulence&octaves=3", 1.75),
    ("perlin=1&noise=value&interp=cosine&seed=3", 1.0),
]

SCRIPT = r"""
const [source, side, origin, step, z] = arguments;
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
  const fs = compile(gl.FRAGMENT_SHADER, `#version 300 es
${source}
uniform vec2 origin;
uniform float step;
uniform float z;
layout(location = 0) out highp uvec4 bits;
void main() {
  vec2 p = (gl_FragCoord.xy - 0.5) * step + origin;
  bits = uvec4(floatBitsToUint(perlin_field(vec3(p, z))), 0u, 0u, 0u);
}`);
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
  gl.uniform2f(gl.getUniformLocation(prog, 'origin'), origin[0], origin[1]);
  gl.uniform1f(gl.getUniformLocation(prog, 'step'), step);
  gl.uniform1f(gl.getUniformLocation(prog, 'z'), z);
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


@pytest.fixture(scope="module")
def perlin_exe():
    return os.environ["PERLIN_EXE"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium.start(tmp_path_factory.mktemp("chromium"), webgl=True)
    driver.get("about:blank")
    yield driver
    driver.quit()


def evaluate(perlin_exe, recipe, points, *flags):
    text = "".join(f"{x!r} {y!r} {Z!r}\n" for x, y in points)
    r = subprocess.run([perlin_exe, "eval", "--recipe", recipe, *flags], input=text,
                       capture_output=True, text=True, check=True)
    return [float(v) for v in r.stdout.split()]


@pytest.mark.parametrize("recipe, amplitudes", FIELDS)
def test_webgl2_gives_the_float_path_within_its_tolerance(browser, perlin_exe, recipe,
                                                          amplitudes):
    source = subprocess.run([perlin_exe, "shader", "--lang", "glsl-es", "--recipe", recipe],
                            capture_output=True, text=True, check=True).stdout
    got = browser.execute_script(SCRIPT, source, SIDE, list(ORIGIN), STEP, Z)
    assert "error" not in got, got.get("error")
    assert "SwiftShader" in got["renderer"] or got["renderer"], got["renderer"]
    values = [struct.unpack("<f", struct.pack("<I", b))[0] for b in got["bits"]]
    # Pixel (i, j) from the bottom row: gl_FragCoord = (i + 0.5, j + 0.5), exact in float.
    points = [(ORIGIN[0] + i * STEP, ORIGIN[1] + j * STEP) for j in range(SIDE) for i in range(SIDE)]
    exact = evaluate(perlin_exe, recipe, points)
    single = evaluate(perlin_exe, recipe, points, "--float")
    tolerance = 16 * 2e-6 * amplitudes
    worst = max(abs(a - b) for a, b in zip(values, exact))
    assert worst <= tolerance, (worst, tolerance)
    same = sum(struct.pack("<f", a) == struct.pack("<f", b) for a, b in zip(values, single))
    print(f"{recipe}: worst {worst:.3g} ({worst / (2e-6 * amplitudes):.2f} x value_tolerance), "
          f"{same}/{len(values)} bit for bit with eval --float, {got['renderer']}")
