"""perlin-exact in headless Chromium, as a web page loads it: from a plain static file server on
127.0.0.1 (no special headers, no SharedArrayBuffer), on the page and in a module Web Worker.
Ken Perlin's value exactly, and a float grid equal to the CLI's --strict .npy bit for bit.
Environment: PERLIN_JS_WORK (a folder with the package installed in node_modules), PERLIN_EXE."""
import functools
import http.server
import json
import os
import struct
import subprocess
import threading

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
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
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
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
