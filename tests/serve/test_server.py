"""`perlin serve` without a browser: what it serves, every bad request (status and the CLI's
message, and it keeps serving), 200 concurrent requests, a clean stop on SIGINT and SIGTERM."""
import concurrent.futures
import http.client
import json
import signal
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import start_server


def get(url, path):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("GET", path)
    res = conn.getresponse()
    body = res.read()
    conn.close()
    return res.status, res.getheader("Content-Type"), body


def test_the_page_and_a_render(server, perlin_exe, tmp_path):
    status, ctype, page = get(server, "/")
    assert status == 200 and ctype.startswith("text/html")
    for name in ("preset", "seed", "octaves", "fractal", "colormap", "bits", "tileable", "size"):
        assert f'name="{name}"' in page.decode()
    status, ctype, png = get(server, "/render.png?preset=clouds&size=96x64&seed=5")
    assert status == 200 and ctype == "image/png"
    # the same bytes as the command line writes
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "c.png"), "--preset", "clouds",
                    "--size", "96x64", "--seed", "5"], check=True)
    assert png == (tmp_path / "c.png").read_bytes()
    status, _, npy = get(server, "/render.npy?size=16x8&fractal=fbm&octaves=3")
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "v.npy"), "--size", "16x8",
                    "--fractal", "fbm", "--octaves", "3"], check=True)
    assert status == 200 and npy == (tmp_path / "v.npy").read_bytes()


def test_stats_hold_the_command_and_code(server):
    status, _, body = get(server, "/stats.json?preset=terrain&size=128x96&octaves=5&seed=42&tileable=1")
    assert status == 200
    s = json.loads(body)
    assert s["command"] == "perlin render -o noise.png --preset terrain --size 128x96 --seed 42 --octaves 5 --tileable"
    assert "seed=42" in s["cpp"] and "octaves=5" in s["cpp"]
    assert s["recipe"] == ("perlin=1&seed=42&fractal=fbm&octaves=5&normalize=true&decorrelate=true"
                           "&preset=terrain&size=128x96&tileable=true")
    # The recipe as a query (and as --recipe) is the same picture.
    assert get(server, "/render.png?" + s["recipe"])[2] == get(server, "/render.png?preset=terrain&size=128x96&octaves=5&seed=42&tileable=1")[2]
    assert s["python"].startswith('import perlin\n\npixels = perlin.render("terrain", size=(128, 96), seed=42, octaves=5, tileable=True)')
    assert len(s["histogram"]) == 64 and sum(s["histogram"]) == 128 * 96
    assert s["min"] <= s["mean"] <= s["max"]
    assert s["ms"] > 0


def test_the_code_is_python_for_every_type_of_setting(server):
    # The page's Python writes each value by its row's type: a choice or a text quoted, a size or
    # a list as a tuple (projection=equirect was written unquoted, a NameError).
    s = json.loads(get(server, "/stats.json?preset=terrain&size=64x32&projection=equirect&range=bound"
                               "&origin=1,2,3&colormap=heat")[2])
    compile(s["python"], "<page>", "exec")
    for text in ('size=(64, 32)', 'projection="equirect"', 'range="bound"', 'origin=(1,2,3)', 'colormap="heat"'):
        assert text in s["python"], s["python"]


def test_the_page_offers_every_preset_colormap_and_warp(server, perlin_exe, tmp_path):
    page = get(server, "/")[2].decode()
    assert "@" + "preset@" not in page
    for option in ("warped", "ridges", "flow", "heat", "progressive", "independent", "rotated", "billow"):
        assert f"<option>{option}</option>" in page
    for name in ("warp", "warp-amplitude", "warp-frequency", "warp-octaves", "warp-seed"):
        assert f'name="{name}"' in page
    query = "preset=warped&size=80x60&warp=independent&warp-amplitude=1.5&warp-octaves=2&warp-seed=9"
    status, _, png = get(server, "/render.png?" + query)
    assert status == 200
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "w.png"), "--preset", "warped", "--size", "80x60",
                    "--warp", "independent", "--warp-amplitude", "1.5", "--warp-octaves", "2", "--warp-seed", "9"],
                   check=True)
    assert png == (tmp_path / "w.png").read_bytes()
    s = json.loads(get(server, "/stats.json?" + query)[2])
    assert "warp=independent" in s["cpp"] and "warp-seed=9" in s["cpp"]
    assert 'warp="independent", warp_amplitude=1.5, warp_octaves=2, warp_seed=9' in s["python"]
    # The Python it shows runs and gives the same pixels (where the module is built).
    np = pytest.importorskip("numpy")
    pytest.importorskip("perlin")
    env = {}
    exec(s["python"], env)
    from PIL import Image
    assert np.array_equal(env["pixels"], np.asarray(Image.open(tmp_path / "w.png").convert("RGB")))


@pytest.mark.parametrize("path,status,message", [
    ("/render.png?octaves=0", 400, "octaves: must be 1 to 32, got 0"),
    ("/render.png?warp=basic&warp-amplitude=-2", 400, "warp-amplitude: must be >= 0"),
    ("/render.png?warp=twirl", 400, "warp: unknown value 'twirl'"),
    ("/render.png?size=0x0", 400, "size: '0x0' is not AxB"),
    ("/render.png?step=nan", 400, "step: must be finite"),
    ("/render.png?frequency=nan", 400, "frequency: must be finite"),
    ("/render.png?octaves=3&octaves=4", 400, "octaves: given more than once"),
    ("/stats.json?size=4x4&step=1e308", 400, "beyond 2^52"),
    ("/stats.json?size=4x4&scale=1e-308", 400, "beyond 2^52"),
    ("/stats.json?size=4x4&frequency=1e308", 400, "frequency: octave 0 would sample"),
    ("/stats.json?size=4x4&fractal=fbm&octaves=32&frequency=1e300", 400, "overflows"),
    ("/stats.json?size=4x4&preset=marble&step=1e300", 400, "beyond 2^52"),
    ("/stats.json?size=4x4&stretch=1&step=1e300", 400, "beyond 2^52"),
    ("/stats.json?size=4x4&warp=basic&warp-amplitude=1e308", 400, "warp-amplitude: the warped coordinates overflow"),
    ("/render.png?octave=3", 400, "unknown option 'octave' (did you mean 'octaves'?)"),
    ("/render.png?bogus=1", 400, "unknown option 'bogus'"),
    ("/render.png?size=100000x100000", 413, "bytes of memory"),
    ("/render.png?size=4096x4096", 400, "previews are at most 2048x2048"),
    ("/stats.json?seed=-3", 400, "seed: '-3' is not an integer"),
    ("/render.png?preset=velvet", 400, "preset: unknown 'velvet'"),
    ("/render.png?size=%zz", 400, "size: "),
    ("/render.png?fractal=ridged&octaves=32&lacunarity=1e300", 400, "lacunarity: the frequency of octave"),
    ("/../../etc/passwd", 404, "not found"),
    ("/etc/passwd", 404, "not found"),
    ("/render.gif", 404, "not found"),
])
def test_bad_requests_get_their_status_and_message(server, path, status, message):
    got, ctype, body = get(server, path)
    assert got == status
    assert ctype == "application/json"
    assert message in json.loads(body)["error"]
    assert "--" not in json.loads(body)["error"]  # settings named as the query names them
    assert get(server, "/render.png?size=8x8")[0] == 200  # and it keeps serving


def test_two_hundred_concurrent_requests(server):
    _, _, want = get(server, "/render.png?preset=ridges&size=64x64")
    with concurrent.futures.ThreadPoolExecutor(32) as pool:
        answers = list(pool.map(lambda _: get(server, "/render.png?preset=ridges&size=64x64"), range(200)))
    assert all(status == 200 and body == want for status, _, body in answers)


def test_a_large_request_is_refused(server):
    got, _, _ = get(server, "/render.png?seed=" + "1" * 100000)
    assert got in (400, 414, 413)
    assert get(server, "/render.png?size=8x8")[0] == 200


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stops_cleanly_on_signals(perlin_exe, sig):
    proc, url = start_server(perlin_exe)
    assert get(url, "/render.png?size=8x8")[0] == 200
    start = time.monotonic()
    proc.send_signal(sig)
    assert proc.wait(timeout=10) == 0
    assert time.monotonic() - start < 5
    assert "stopped" in proc.stderr.read()


def test_a_signal_just_after_the_start_stops_it(perlin_exe):
    # The URL is printed before cpp-httplib listens: a SIGTERM then was lost (Server::stop did
    # nothing yet) and only SIGKILL ended the server. Each of these must stop at once.
    for _ in range(8):
        proc, _ = start_server(perlin_exe)
        proc.terminate()
        try:
            assert proc.wait(timeout=3) == 0
        finally:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("query", [
    "size=40x24&origin=1.5,-2,0.75",                      # a 3-D slice
    "preset=clouds&size=40x24&origin=0,0,1.25,-0.5",      # a 4-D slice: a frame of the loop player
    "size=33x17&step=0.05&offset=7,3&warp=basic&seed=4",  # offsets and a warp
])
def test_the_cpp_snippet_computes_the_pictures_values(server, tmp_path, query):
    """The C++ shown beside the picture, compiled against the library, gives the .npy's values."""
    import os
    cxx, include, lib = (os.environ.get(k) for k in ("PERLIN_CXX", "PERLIN_INCLUDE", "PERLIN_LIB"))
    if not (cxx and include and lib):
        pytest.skip("PERLIN_CXX, PERLIN_INCLUDE and PERLIN_LIB name the compiler and the library")
    snippet = json.loads(get(server, "/stats.json?" + query)[2])["cpp"]
    source = snippet.replace("#include <perlin/perlin.hpp>\n",
                             "#include <perlin/perlin.hpp>\n#include <cstdio>\n#include <vector>\nint main() {\n")
    source += "std::fwrite(values.data(), 4, values.size(), stdout);\n}\n"
    (tmp_path / "snippet.cpp").write_text(source)
    subprocess.run([cxx, "-std=c++20", "-I", include, str(tmp_path / "snippet.cpp"), "-o", str(tmp_path / "snippet"),
                    lib, "-lhwy", "-pthread"], check=True)
    values = subprocess.run([str(tmp_path / "snippet")], check=True, capture_output=True).stdout
    status, _, npy = get(server, "/render.npy?" + query)
    assert status == 200
    header_len = 10 + int.from_bytes(npy[8:10], "little")
    assert values == npy[header_len:]


def test_the_page_has_a_control_for_every_option_of_the_table(server, perlin_exe):
    """Generated from the table: every field option (perlin options --json) is a page control."""
    table = json.loads(subprocess.run([perlin_exe, "options", "--json"], check=True, capture_output=True,
                                      text=True).stdout)
    page = get(server, "/")[2].decode()
    for o in table:
        assert f'name="{o["name"]}"' in page, o["name"]
    for name in ("preset", "size", "step", "scale", "origin", "offset", "colormap", "bits", "range", "invert",
                 "stretch", "tileable", "recipe"):
        assert f'name="{name}"' in page, name


def test_the_npy_export_of_a_16_bit_coloured_picture_is_its_values(server, perlin_exe, tmp_path):
    # The page's .npy link carries the picture's whole state: its bits and colormap, which do not
    # apply to values, are dropped (the CLI refuses them for a .npy it is asked to write).
    status, _, npy = get(server, "/render.npy?preset=ridges&size=24x16&bits=16&colormap=heat")
    assert status == 200
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "v.npy"), "--preset", "ridges",
                    "--size", "24x16"], check=True)
    assert npy == (tmp_path / "v.npy").read_bytes()
