"""The preview page in a real headless Chromium (Debian's chromium and chromium-driver, driven
by python3-selenium): it loads without console errors, shows the picture, redraws when octaves
and seed change, its command writes the very bytes it shows, a bad value shows the error and
keeps the picture, and the URL restores the state. Takes the README's screenshot."""
import os
import shlex
import subprocess
import sys
import urllib.request

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chromium  # noqa: E402  (tests/chromium.py)

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium.start(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def picture(driver, old_src=None, timeout=20):
    """Waits until #preview shows a loaded picture (a new one if old_src is given); returns the
    server URL of the picture shown (the page shows it from a blob of its one request)."""
    def ready(d):
        img = d.find_element(By.ID, "preview")
        src = img.get_attribute("src")
        loaded = d.execute_script("const i = arguments[0]; return i.complete && i.naturalWidth > 0;", img)
        if not (loaded and src):
            return False
        url = d.current_url.split("?")[0].rstrip("/") + "/render.png?" + (img.get_attribute("data-query") or "")
        return url if url != old_src else False
    url = WebDriverWait(driver, timeout).until(ready)
    return url


def set_control(driver, name, value):
    driver.execute_script(
        "const c = document.querySelector(`[name='${arguments[0]}']`); c.value = arguments[1];"
        "c.dispatchEvent(new Event(c.tagName === 'SELECT' ? 'change' : 'input'));", name, value)


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def test_the_page(browser, server, perlin_exe, tmp_path):
    browser.get(server + "?preset=clouds&size=256x192")
    src = picture(browser)
    first = fetch(src)
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []

    # Changing octaves, then the seed, changes the picture.
    set_control(browser, "octaves", "3")
    src2 = picture(browser, src)
    assert "octaves=3" in src2 and fetch(src2) != first
    set_control(browser, "seed", "77")
    src3 = picture(browser, src2)
    shown = fetch(src3)
    assert shown != fetch(src2)

    # The command beside the picture writes exactly the bytes the page shows.
    command = WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "command").text if "--seed 77" in d.find_element(By.ID, "command").text else False)
    words = shlex.split(command)
    assert words[:3] == ["perlin", "render", "-o"]
    words[0] = perlin_exe
    words[3] = str(tmp_path / "noise.png")
    subprocess.run(words, check=True)
    assert (tmp_path / "noise.png").read_bytes() == shown

    # A bad value shows its message and keeps the last good picture.
    set_control(browser, "octaves", "0")
    WebDriverWait(browser, 10).until(lambda d: "octaves" in d.find_element(By.ID, "error").text)
    assert "must be 1 to 32" in browser.find_element(By.ID, "error").text
    assert src3.endswith("?" + browser.find_element(By.ID, "preview").get_attribute("data-query"))
    set_control(browser, "octaves", "3")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "error").text == "")

    # The URL holds the state: a reload restores the controls and the same picture.
    browser.refresh()
    src4 = picture(browser)
    assert browser.execute_script("return document.querySelector(\"[name='seed']\").value") == "77"
    assert browser.execute_script("return document.querySelector(\"[name='octaves']\").value") == "3"
    assert fetch(src4) == shown

    # The z slider renders the slice z = Z of the 3-D field (--origin X,Y,Z).
    browser.execute_script("const z = document.getElementById('z'); z.value = 0.5; z.dispatchEvent(new Event('input'));")
    src5 = picture(browser, src4)
    assert "origin=0%2C0%2C0.5" in src5 or "origin=0,0,0.5" in src5
    # Play steps (z, w) around the circle of `--frames 48 --loop` and shows that command; stop
    # puts the origin back.
    browser.find_element(By.ID, "play").click()
    src6 = picture(browser, src5)
    assert browser.execute_script("return document.querySelector(\"[name='origin']\").value").count(",") == 3
    WebDriverWait(browser, 10).until(lambda d: "--frames 48 --loop" in d.find_element(By.ID, "command").text)
    browser.find_element(By.ID, "play").click()
    assert fetch(src6) != fetch(src5)
    WebDriverWait(browser, 10).until(
        lambda d: d.execute_script("return document.querySelector(\"[name='origin']\").value") == "0,0,0.5")

    # A link with every kind of option reloads to the same controls, picture and recipe; the
    # empty controls show the values in force (the preset's).
    link = ("?preset=clouds&size=128x96&range=-1,1&offset=100,50&normalize=false&ridged-gain=3&seed=9"
            "&colormap=0:%23000000,0.5:%23ff0000,1:%23ffffff&step=0.02&invert=1")
    browser.get(server + link)
    first_url = picture(browser)
    recipe = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "recipe").text or False)
    assert "normalize" not in recipe and "decorrelate=true" in recipe  # the preset's, switched off
    assert "offset=100,50" in recipe and "range=-1,1" in recipe
    assert browser.execute_script("return document.querySelector(\"[name='octaves']\").placeholder") == "6"
    browser.refresh()
    assert fetch(picture(browser)) == fetch(first_url)
    for name, value in [("range", "-1,1"), ("offset", "100,50"), ("normalize", "false"), ("ridged-gain", "3"),
                        ("colormap", "0:#000000,0.5:#ff0000,1:#ffffff")]:
        assert browser.execute_script(f"return document.querySelector(\"[name='{name}']\").value") == value, name
    assert browser.find_element(By.ID, "recipe").text == recipe
    # The recipe as a link is the same picture: it names the whole field.
    browser.get(server + "?" + recipe)
    assert fetch(picture(browser)) == fetch(first_url)

    # One request per change.
    before = browser.execute_script("return performance.getEntriesByType('resource').length")
    set_control(browser, "octaves", "4")
    picture(browser, first_url)
    new = browser.execute_script("return performance.getEntriesByType('resource').slice(arguments[0])"
                                 ".map(e => e.name).filter(n => !n.startsWith('blob:'))", before)
    assert len(new) == 1 and "/render.png?" in new[0], new

    # Usable at 500 px wide: nothing wider than the window.
    browser.set_window_size(500, 900)
    browser.get(server + "?preset=clouds&size=256x192")
    picture(browser)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 500
    browser.set_window_size(1200, 900)

    shot = os.environ.get("PERLIN_SCREENSHOT")
    if shot:
        browser.get(server + "?preset=terrain&size=512x384&seed=7")
        picture(browser)
        browser.save_screenshot(shot)


@pytest.fixture(scope="module")
def webgl_browser(tmp_path_factory):
    driver = chromium.start(tmp_path_factory.mktemp("chromium-webgl"), webgl=True)
    yield driver
    driver.quit()


def gpu_status(driver, timeout=60):
    """Waits until the GPU mode has answered (a comparison, a note or an error); returns the
    status text and the largest difference and bound when it compared."""
    def ready(d):  # the status answers the query of the picture shown
        status = d.find_element(By.ID, "gpu-status")
        shown = d.find_element(By.ID, "preview").get_attribute("data-query")
        return status.text if status.get_attribute("data-query") == shown else False
    text = WebDriverWait(driver, timeout).until(ready)
    view = driver.find_element(By.ID, "gpu-view")
    worst, bound = view.get_attribute("data-worst"), view.get_attribute("data-bound")
    return text, (float(worst) if worst else None), (float(bound) if bound else None)


def test_the_gpu_mode_draws_the_field_with_webgl2_within_the_float_shader_bound(webgl_browser,
                                                                                server):
    """docs/gpu.md: the GPU mode draws the field from its GLSL ES program on the browser's GPU
    (SwiftShader here) and shows the largest difference from the CPU's values."""
    d = webgl_browser
    d.get(server + "?preset=clouds&size=96x64&origin=-3.5,2.25")
    picture(d)
    d.find_element(By.ID, "gpu-mode").click()
    text, worst, bound = gpu_status(d)
    assert worst is not None and worst <= bound, text
    assert worst < 1e-5 and "within" in text and "SwiftShader" in text, text
    assert d.execute_script("return document.getElementById('gpu-view').width") == 96
    # A warped field: within its own bound; each change redraws.
    set_control(d, "preset", "warped")
    WebDriverWait(d, 30).until(lambda b: "warped" in b.find_element(By.ID, "command").text)
    text, worst, bound = gpu_status(d)
    assert worst is not None and worst <= bound and bound > 16 * 2e-6, text
    # A preset whose formula runs on the CPU: drawn, not compared.
    set_control(d, "preset", "marble")
    WebDriverWait(d, 30).until(lambda b: "marble" in b.find_element(By.ID, "command").text)
    text, worst, _ = gpu_status(d)
    assert "not compared" in text and worst is None, text
    # What shaders cannot express: the server's message, the CPU's picture stays.
    set_control(d, "preset", "plain")
    set_control(d, "fractal", "fbm")
    set_control(d, "period", "3")
    set_control(d, "octaves", "32")  # octave 30 tiles with period 3 x 2^30, beyond 2^31 - 1
    WebDriverWait(d, 30).until(lambda b: "octaves 32" in b.find_element(By.ID, "command").text)
    text, _, _ = gpu_status(d)
    assert "2^31 - 1" in text, text
    assert d.find_element(By.ID, "gpu-view").value_of_css_property("display") == "none"
    severe = [e for e in d.get_log("browser") if e["level"] == "SEVERE"
              and "shader.json" not in e["message"]]
    assert severe == []


def test_shader_json_answers_the_page_and_refuses_by_name(server):
    import json
    body = json.loads(fetch(server.rstrip("/") + "/shader.json?preset=clouds&size=40x30"))
    assert body["source"].startswith("#version 300 es") and "perlin_field" in body["source"]
    assert body["width"] == 40 and body["height"] == 30 and body["values"] is True
    assert len(body["origin"]) == 4 and len(body["step"]) == 2 and body["bound"] > 0
    try:
        fetch(server.rstrip("/") + "/shader.json?fractal=fbm&period=3&octaves=32")
        assert False, "a field whose periods pass 2^31 was answered"
    except urllib.error.HTTPError as e:
        assert e.code == 400 and "2^31 - 1" in json.loads(e.read())["error"]


# The layout (issue 50, item 9): the picture large and first, the controls grouped from the
# tables with a slider beside every ranged number, the advanced settings folded, and every state
# still in the URL.
GROUPS = ["field", "fractal", "warp", "picture", "output"]


def test_the_picture_is_the_largest_element_and_comes_first(browser, server):
    d = browser
    d.set_window_size(1200, 900)
    d.get(server + "?preset=clouds&size=256x256")
    picture(d)
    got = d.execute_script("""
        const p = document.getElementById('preview'), r = p.getBoundingClientRect();
        const area = e => { const b = e.getBoundingClientRect(); return b.width * b.height; };
        let larger = [];  // elements that are not the picture's containers, larger than it
        for (const e of document.body.querySelectorAll('*')) {
          if (e === p || e.contains(p) || e.closest('#controls') && e.id !== 'controls') continue;
          if (area(e) >= area(p)) larger.push(e.tagName + '#' + e.id);
        }
        const c = document.getElementById('controls').getBoundingClientRect();
        return { larger, share: area(p) / (innerWidth * innerHeight), top: r.top, right: r.right,
                 controlsLeft: c.left, first: !!(p.compareDocumentPosition(
                   document.getElementById('controls')) & Node.DOCUMENT_POSITION_FOLLOWING) };""")
    assert got["larger"] == [], got
    assert got["share"] > 0.5, got  # it fills most of the window
    assert got["first"] and got["top"] < 20 and got["right"] <= got["controlsLeft"], got
    # Shown larger than its pixels, the picture still zooms about the cursor: the wheel over its
    # centre, pixel (128, 128), keeps that point: origin + 128 (step - 0.8 step).
    step = d.execute_script("return last.step[0]")
    d.execute_script("""
        const r = document.getElementById('preview').getBoundingClientRect();
        document.getElementById('preview').dispatchEvent(new WheelEvent('wheel', { deltaY: -100,
          clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));""")
    x, y = map(float, control_value(d, "origin").split(","))
    assert x == pytest.approx(128 * 0.2 * step, rel=0.01) and y == pytest.approx(x), (x, y, step)
    # Narrow: the picture on top across the width, the controls below it.
    d.set_window_size(500, 900)
    d.get(server + "?preset=clouds&size=256x256")
    picture(d)
    got = d.execute_script("""
        const r = document.getElementById('preview').getBoundingClientRect();
        const c = document.getElementById('controls').getBoundingClientRect();
        return [r.top, r.width, r.bottom, c.top, innerWidth];""")
    assert got[0] < 20 and got[1] > 0.9 * got[4] and got[2] <= got[3], got
    assert d.execute_script("return document.documentElement.scrollWidth") <= 500
    d.set_window_size(1200, 900)


def options_table(perlin_exe):
    import json
    return json.loads(subprocess.run([perlin_exe, "options", "--json"], check=True,
                                     capture_output=True, text=True).stdout)


def test_the_controls_are_grouped_with_a_slider_beside_every_ranged_number(browser, server,
                                                                           perlin_exe):
    d = browser
    d.get(server + "?size=64x48")
    picture(d)
    where = d.execute_script("""
        const out = {};
        for (const c of document.querySelectorAll('#controls [name]'))
          out[c.name] = [c.closest('.group')?.dataset.group ?? null, !!c.closest('details.advanced')];
        return out;""")
    for group in GROUPS:
        assert d.execute_script(f"return document.querySelector('#group-{group} h2')?.textContent") \
            .lower() == group
    # Every option of the table has a control, in a group.
    table = options_table(perlin_exe)
    for row in table:
        assert row["name"] in where and where[row["name"]][0] in GROUPS, row["name"]
    expect = {"field": ["noise", "seed", "frequency", "plane"],
              "fractal": ["fractal", "octaves", "lacunarity", "persistence"],
              "warp": ["warp", "warp-amplitude", "warp-frequency", "warp-octaves"],
              "picture": ["preset", "size", "step", "colormap", "range"], "output": ["bits"]}
    for group, names in expect.items():
        for name in names:
            assert where[name] == [group, False], (name, where[name])
    for name, group in [("ridged-gain", "fractal"), ("erosion", "fractal"), ("warp-seed", "warp"),
                        ("interp", "field"), ("origin", "picture"), ("crs", "output")]:
        assert where[name] == [group, True], (name, where[name])
    assert d.execute_script("return Array.from(document.querySelectorAll('details.advanced'))"
                            ".every(e => !e.open)")
    assert d.find_element(By.ID, "download-png").find_element(By.XPATH, "ancestor::section") \
        .get_attribute("id") == "group-output"
    # A slider beside every ranged number of the table, within the table's bounds (its own where
    # they are finite and narrow), logarithmic where it spans decades.
    sliders = d.execute_script("""
        const out = {};
        for (const s of document.querySelectorAll('#controls .slider'))
          out[s.dataset.for] = { low: Number(s.dataset.low), high: Number(s.dataset.high),
                                 log: s.dataset.scale === 'log', beside: s.nextElementSibling.name };
        return out;""")
    for row in table:
        if row["type"] not in ("integer", "number", "periods") or "min" not in row:
            continue
        s = sliders.get(row["name"])
        assert s is not None and s["beside"] == row["name"], row["name"]
        assert s["low"] >= row["min"] and (row["max"] is None or s["high"] <= row["max"]), (row, s)
        assert not row.get("min_exclusive") or s["low"] > row["min"], (row, s)
        assert s["log"] == (s["low"] > 0 and s["high"] / s["low"] >= 100), (row, s)
    assert sliders["octaves"] == {"low": 1, "high": 32, "log": False, "beside": "octaves"}
    assert sliders["frequency"]["log"] and sliders["frequency"]["high"] / sliders["frequency"]["low"] >= 1000
    assert sliders["step"]["log"]


def slide(driver, name, value):
    driver.execute_script(
        "const s = document.querySelector(`.slider[data-for='${arguments[0]}']`); s.value = arguments[1];"
        "s.dispatchEvent(new Event('input'));", name, value)


def control_value(driver, name):
    return driver.execute_script(f"return document.querySelector(\"[name='{name}']\").value")


def test_moving_a_slider_updates_the_number_the_picture_and_the_url(browser, server):
    d = browser
    d.get(server + "?size=64x48&fractal=fbm")
    src = picture(d)
    # An empty box shows the value in force on its slider: 6 octaves... of the default, 1.
    assert d.execute_script("return document.querySelector(\".slider[data-for='octaves']\").value") == "1"
    slide(d, "octaves", "5")
    assert control_value(d, "octaves") == "5"
    src2 = picture(d, src)
    assert "octaves=5" in src2 and "octaves=5" in d.current_url
    assert fetch(src2) != fetch(src)
    # The logarithmic frequency slider: position 750 of 1000 from 1/64 to 64 is 64^0.5 = 8.
    slide(d, "frequency", "750")
    assert control_value(d, "frequency") == "8"
    src3 = picture(d, src2)
    assert "frequency=8" in src3 and "frequency=8" in d.current_url
    # The box moves its slider.
    set_control(d, "frequency", "1")
    assert d.execute_script("return document.querySelector(\".slider[data-for='frequency']\").value") == "500"
    picture(d, src3)
    assert "frequency=1&" in d.current_url or d.current_url.endswith("frequency=1")


def test_a_folded_control_round_trips_through_the_url(browser, server):
    d = browser
    d.get(server + "?size=64x48&fractal=ridged&octaves=4&ridged-gain=3")
    src = picture(d)
    box = d.find_element(By.NAME, "ridged-gain")
    folded = box.find_element(By.XPATH, "ancestor::details")
    assert folded.get_attribute("open") is None
    assert not d.execute_script("return arguments[0].checkVisibility()", box)  # folded away
    assert control_value(d, "ridged-gain") == "3" and "ridged-gain=3" in src
    assert "(1 set)" in d.execute_script("return arguments[0].querySelector('summary').textContent", folded)
    # Changed while folded (its slider): the picture, the URL, and a reload keep it.
    slide(d, "ridged-gain", "5")
    assert control_value(d, "ridged-gain") == "5"  # steps of 0.01: the value as typed
    src2 = picture(d, src)
    assert "ridged-gain=5" in src2 and "ridged-gain=5" in d.current_url
    shown = fetch(src2)
    d.refresh()
    src3 = picture(d)
    assert control_value(d, "ridged-gain") == "5"
    assert d.find_element(By.NAME, "ridged-gain").find_element(By.XPATH, "ancestor::details") \
        .get_attribute("open") is None
    assert fetch(src3) == shown
    assert "ridged-gain=5" in WebDriverWait(d, 10).until(lambda b: b.find_element(By.ID, "recipe").text)
