"""Headless Chromium for the browser tests (tests/serve: perlin serve's page; tests/js: the npm
package and its static page): Debian's chromium and chromium-driver, driven by python3-selenium,
offline (no background networking, updates or sync)."""
import os

import pytest

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"


def start(profile_dir, webgl=False, webgpu=False):
    """A new headless Chromium with its own profile folder; skips the test where it is missing.
    webgl=True: WebGL2 on Chromium's own SwiftShader (ANGLE over its Vulkan), no GPU needed;
    webgpu=True: WebGPU on the same SwiftShader (pages from http://127.0.0.1 only: WebGPU needs
    a secure context)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    opts = Options()
    opts.binary_location = CHROMIUM
    gpu = (("--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist")
           if webgl else ("--disable-gpu",))
    if webgpu:
        gpu += ("--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-vulkan=swiftshader",
                "--use-webgpu-adapter=swiftshader")
    for flag in ("--headless", "--no-sandbox", *gpu, "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1200,900", f"--user-data-dir={profile_dir}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)
