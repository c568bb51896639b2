"""perlin-exact in headless Chromium, as a web page loads it: from a plain static file server on
127.0.0.1 (no special headers, no SharedArrayBuffer), on the page and in a module Web Worker.
Ken Perlin's value exactly, and a float grid equal to the CLI's --strict .npy bit for bit.
Environment: PERLIN_JS_WORK (a folder with the package installed in node_modules), PERLIN_EXE."""
import functools
import http.server
import json
import os
import shlex
import struct
import subprocess
import sys
import threading

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chromium  # noqa: E402  (tests/chromium.py)

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.support.ui import WebDriverWait

RECIPE = "perlin=1&seed=3&fractal=fbm&octaves=4&warp=progressive&warp-amplitude=0.5"

PAGE = """<!doctype html><meta charset="utf-8"><title>perlin-exact</title>
<script type="module">
import { init, Field } from "./node_modules/perlin-exact/index.js";
try {
  await init();
  const f = Field.fromRecipe(%(recipe)s);
  window.result = { value: new Field().eval(3.14, 42, 7),
                    grid: Array.from(f.grid(24, 16, { origin: [-0.75, 1.5], step: 0.0625 })) };
} catch (e) { window.result = { error: String(e) }; }
const w = new Worker("./worker.js", { type: "module" });
w.onmessage = (e) => { window.workerResult = e.data; };
w.onerror = (e) => { window.workerResult = { error: String(e.message) }; };
</script>"""

WORKER = """import { init, Field } from "./node_modules/perlin-exact/index.js";
await init();
const f = Field.fromRecipe(%(recipe)s);
postMessage({ value: new Field().eval(3.14, 42, 7),
              grid: Array.from(f.grid(24, 16, { origin: [-0.75, 1.5], step: 0.0625 })) });
"""


@pytest.fixture(scope="module")
def site():
    work = os.environ["PERLIN_JS_WORK"]
    with open(os.path.join(work, "index.html"), "w") as f:
        f.write(PAGE % {"recipe": json.dumps(RECIPE)})
    with open(os.path.join(work, "worker.js"), "w") as f:
        f.write(WORKER % {"recipe": json.dumps(RECIPE)})
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=work)
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium.start(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def cli_grid(tmp_path):
    out = tmp_path / "v.npy"
    subprocess.run([os.environ["PERLIN_EXE"], "render", "-q", "-o", str(out), "--recipe", RECIPE,
                    "--size", "24x16", "--step", "0.0625", "--origin", "-0.75,1.5", "--strict"],
                   check=True)
    data = out.read_bytes()
    header = struct.unpack("<H", data[8:10])[0]
    body = data[10 + header:]
    return list(struct.unpack(f"<{len(body) // 4}f", body))


@pytest.mark.parametrize("where", ["result", "workerResult"])
def test_the_package_in_a_page_and_a_worker(browser, site, tmp_path, where):
    browser.get(site)
    got = WebDriverWait(browser, 60).until(lambda d: d.execute_script(f"return window.{where};"))
    assert "error" not in got, got
    assert got["value"] == 0.13691995878400012
    assert got["grid"] == cli_grid(tmp_path)  # float32 values, exactly (as doubles)


def cli_png(tmp_path, args):
    """The pixels of `perlin render ARGS` (numpy array, as PIL decodes the PNG)."""
    np = pytest.importorskip("numpy")
    image = pytest.importorskip("PIL.Image")
    out = tmp_path / "cli.png"
    # --strict: no fused multiply-add on the native target, as in WebAssembly, so that no value
    # near a pixel level's boundary rounds to the other level.
    subprocess.run([os.environ["PERLIN_EXE"], "render", "-q", "--strict", "-o", str(out)] + args,
                   check=True)
    return np.asarray(image.open(out))


def page_png(browser, timeout=60):
    """The bytes of the picture the page shows, once it shows one, decoded."""
    np = pytest.importorskip("numpy")
    image = pytest.importorskip("PIL.Image")
    import base64
    import io
    WebDriverWait(browser, timeout).until(lambda d: d.execute_script(
        "const p = document.getElementById('preview'); return p.complete && p.naturalWidth > 0;"))
    data = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(document.getElementById('preview').src).then(r => r.arrayBuffer()).then(b => {
          let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x); done(btoa(s)); });""")
    return np.asarray(image.open(io.BytesIO(base64.b64decode(data))))


@pytest.mark.parametrize("query, args", [
    ("preset=clouds&size=96x64&seed=5", ["--preset", "clouds", "--size", "96x64", "--seed", "5"]),
    ("preset=terrain&size=80x60&bits=16&tileable=1",
     ["--preset", "terrain", "--size", "80x60", "--bits", "16", "--tileable"]),
    ("preset=warped&size=64x48&warp=independent&warp-octaves=2&colormap=heat",
     ["--preset", "warped", "--size", "64x48", "--warp", "independent", "--warp-octaves", "2",
      "--colormap", "heat"]),
    ("size=48x32&origin=0.5,0.25,1.5,-0.5&fractal=ridged&octaves=4",
     ["--size", "48x32", "--origin", "0.5,0.25,1.5,-0.5", "--fractal", "ridged", "--octaves", "4"]),
])
def test_the_static_page_shows_the_clis_pixels(browser, site, tmp_path, query, args):
    # The package's page, from the static server: no perlin serve anywhere. The picture (a loop
    # frame's 4-D origin, 16 bits, a colormap, a warp) has the pixels `perlin render` writes for
    # the command the page shows, and that command is the server's.
    browser.get(site + "node_modules/perlin-exact/page/index.html?" + query)
    got = page_png(browser)
    assert browser.find_element("id", "error").text == ""
    # The command the page shows, run as shown (perlin render -o noise.png ..., with --strict).
    command = shlex.split(browser.find_element("id", "command").text)
    assert command[:4] == ["perlin", "render", "-o", "noise.png"], command
    shown = cli_png(tmp_path, command[4:])
    assert got.shape == shown.shape and got.dtype == shown.dtype
    assert (got == shown).all()
    # and it is the picture of the query's options, given to the CLI directly.
    assert (cli_png(tmp_path, args) == shown).all()


def test_the_static_page_reports_bad_options_like_the_server(browser, site):
    browser.get(site + "node_modules/perlin-exact/page/index.html?octaves=0&fractal=fbm")
    WebDriverWait(browser, 60).until(lambda d: d.find_element("id", "error").text != "")
    assert browser.find_element("id", "error").text == "octaves: must be 1 to 32, got 0"


def test_the_static_pages_exports_are_the_clis_files(browser, site, tmp_path):
    # The PNG and .npy links of the static page: files written in the browser by its worker.
    # The .npy is the CLI's byte for byte; the PNG (stored deflate) has the CLI's pixels.
    np = pytest.importorskip("numpy")
    image = pytest.importorskip("PIL.Image")
    import base64
    import io
    browser.get(site + "node_modules/perlin-exact/page/index.html?preset=ridges&size=40x30&bits=16")
    page_png(browser)
    browser.find_element("id", "export-size").send_keys("56x20")
    files = {}
    for ext in (".png", ".npy"):
        data = browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            workerRender(exportQuery(), arguments[0]).then(r => {
              if (r.error) { done("error: " + r.error); return; }
              let s = ''; for (const x of r.bytes) s += String.fromCharCode(x); done(btoa(s)); });""", ext)
        assert not data.startswith("error"), data
        files[ext] = base64.b64decode(data)
    args = ["--preset", "ridges", "--size", "56x20", "--bits", "16"]
    subprocess.run([os.environ["PERLIN_EXE"], "render", "-q", "-o", str(tmp_path / "c.npy")] +
                   args[:4] + ["--strict"], check=True)  # values: no --bits
    assert files[".npy"] == (tmp_path / "c.npy").read_bytes()
    got = np.asarray(image.open(io.BytesIO(files[".png"])))
    assert got.shape == (20, 56) and got.max() > 255  # 16-bit samples
    assert (got == cli_png(tmp_path, args)).all()


def test_the_static_page_has_the_servers_layout_and_sliders(browser, site, tmp_path):
    # The same page as perlin serve's (src/page/html.cpp): the picture first, the groups, and a
    # slider that sets its number, the worker's picture and the URL.
    browser.get(site + "node_modules/perlin-exact/page/index.html?size=48x32&fractal=fbm")
    page_png(browser)
    assert browser.execute_script(
        "return Array.from(document.querySelectorAll('#controls .group')).map(g => g.dataset.group)"
    ) == ["field", "fractal", "warp", "picture", "output"]
    assert browser.execute_script(
        "return !!(document.getElementById('preview').compareDocumentPosition("
        "document.getElementById('controls')) & Node.DOCUMENT_POSITION_FOLLOWING)")
    browser.execute_script(
        "const s = document.querySelector(\".slider[data-for='octaves']\"); s.value = 5;"
        "s.dispatchEvent(new Event('input'));")
    assert browser.execute_script("return document.querySelector(\"[name='octaves']\").value") == "5"
    WebDriverWait(browser, 60).until(lambda d: "octaves=5" in (d.find_element(
        "id", "preview").get_attribute("data-query") or ""))
    assert "octaves=5" in browser.current_url
    got = page_png(browser)
    assert (got == cli_png(tmp_path, ["--size", "48x32", "--fractal", "fbm", "--octaves", "5"])).all()


@pytest.fixture(scope="module")
def webgl_browser(tmp_path_factory):
    driver = chromium.start(tmp_path_factory.mktemp("chromium-webgl"), webgl=True)
    yield driver
    driver.quit()


def test_the_static_pages_gpu_mode_draws_the_field_within_the_float_shader_bound(webgl_browser,
                                                                                site):
    # The GPU mode without a server: the worker writes the field's GLSL ES program (as perlin
    # serve's /shader.json) and the CPU's values (.npy); WebGL2 (SwiftShader) draws the field.
    d = webgl_browser
    d.get(site + "node_modules/perlin-exact/page/index.html?preset=warped&size=64x48")
    WebDriverWait(d, 60).until(lambda b: b.find_element("id", "command").text != "")
    d.find_element("id", "gpu-mode").click()
    WebDriverWait(d, 60).until(
        lambda b: b.find_element("id", "gpu-status").get_attribute("data-query") ==
        b.find_element("id", "preview").get_attribute("data-query"))
    assert "difference" in d.find_element("id", "gpu-status").text
    view = d.find_element("id", "gpu-view")
    worst, bound = float(view.get_attribute("data-worst")), float(view.get_attribute("data-bound"))
    assert worst <= bound, d.find_element("id", "gpu-status").text
    assert "SwiftShader" in d.find_element("id", "gpu-status").text
