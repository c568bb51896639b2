"""A table of bad values x fronts: what one front refuses, every front refuses with the same
message (the option table's), and what one accepts every one accepts: perlin eval, perlin render,
perlin recipe, the server's query, and Python (keywords through recipes)."""
import json
import subprocess
import urllib.parse

import pytest

from test_server import get

CASES = [  # (option, text)
    ("octaves", "0"), ("octaves", "33"), ("octaves", "0x4"), ("octaves", "1e1"), ("octaves", " 4"),
    ("seed", "-1"), ("seed", "18446744073709551616"), ("seed", "+-3"),
    ("frequency", "0"), ("frequency", "inf"), ("frequency", "0x1p3"), ("frequency", "1e300"),
    ("lacunarity", "-2"), ("persistence", "-0.5"), ("period", "0"), ("period", "1,,2"),
    ("period", "1,2,3,4,5"), ("fractal", "pink"), ("noise", "gabor"), ("interp", "smooth"),
    ("normalize", "yes"), ("plane", "tilted"), ("warp", "swirl"), ("warp-octaves", "0"),
    ("warp-frequency", "0"), ("warp-amplitude", "-1"), ("ridged-offset", "5"), ("ridged-gain", "-1"),
]
ACCEPTED = [("seed", "+42"), ("octaves", "+3"), ("frequency", "1e-3"), ("gain", "0.25"), ("period", "16,8")]


def cli_message(perlin_exe, *args):
    r = subprocess.run([perlin_exe, *args], input="0.5 0.25\n", capture_output=True, text=True)
    if r.returncode == 0:
        return None
    assert r.returncode == 2, r.stderr
    return r.stderr.split("perlin: error: ", 1)[1].strip()


@pytest.mark.parametrize("name,text", CASES)
def test_every_front_refuses_with_the_same_message(perlin_exe, server, tmp_path, name, text):
    status, _, body = get(server, "/stats.json?size=8x8&" + urllib.parse.urlencode({name: text}))
    expected = json.loads(body)["error"]
    assert status == 400 and expected.startswith(name + ": "), expected
    if name != "normalize":  # a flag is a bare --NAME on the command line: no text to refuse
        flag = ["--" + name, text]
        assert cli_message(perlin_exe, "eval", *flag) == expected
        assert cli_message(perlin_exe, "recipe", *flag) == expected
        assert cli_message(perlin_exe, "render", "-q", "-o", str(tmp_path / "x.png"), "--size", "8x8", *flag) == expected
    perlin = pytest.importorskip("perlin")
    with pytest.raises(ValueError) as e:
        perlin.Field.from_recipe("perlin=1&" + urllib.parse.urlencode({name: text}))
    assert str(e.value) == expected


@pytest.mark.parametrize("name,text", ACCEPTED)
def test_every_front_accepts_the_same_text(perlin_exe, server, name, text):
    assert cli_message(perlin_exe, "eval", "--" + name, text) is None
    status, _, _ = get(server, "/stats.json?size=8x8&" + urllib.parse.urlencode({name: text}))
    assert status == 200
    perlin = pytest.importorskip("perlin")
    assert perlin.Field.from_recipe("perlin=1&" + urllib.parse.urlencode({name: text})).recipe


SETTING_CASES = [  # (query, the library's message, the CLI's message)
    ({"size": "0x0"}, "size: '0x0' is not AxB with A and B from 1 to 2147483647",
     "--size: '0x0' is not AxB with A and B from 1 to 2147483647"),
    ({"bits": "12"}, "bits: must be 8 or 16", "--bits: must be 8 or 16"),
    ({"projection": "sphere"}, "projection: unknown value 'sphere' (valid: equirect, cubemap, plane)",
     "--projection: unknown value 'sphere' (valid: equirect, cubemap, plane)"),
    ({"step": "1", "scale": "2"}, "step and scale: are alternatives; give one",
     "--step and --scale are alternatives; give one"),
    ({"tileable": "1", "lacunarity": "2.5"},
     "tileable: needs an integer lacunarity below 2^32, so that every octave wraps",
     "--tileable: needs an integer --lacunarity below 2^32, so that every octave wraps"),
    ({"normals": "opengl", "invert": "1"}, "normals: invert, stretch and range map heights, not normals",
     "--normals: --invert, --stretch and --range map heights, not normals"),
]


@pytest.mark.parametrize("query,message,cli", SETTING_CASES)
def test_a_render_setting_is_named_as_each_front_names_it(perlin_exe, server, tmp_path, query, message, cli):
    """The library names a render setting as the query, the recipe and the keyword do; the CLI
    says its flags."""
    status, _, body = get(server, "/stats.json?" + urllib.parse.urlencode({"size": "8x8", **query}))
    assert status == 400 and json.loads(body)["error"] == message
    flags = [arg for name, value in query.items()
             for arg in (["--" + name] if value == "1" and name in ("tileable", "invert") else ["--" + name, value])]
    size = [] if "size" in query else ["--size", "8x8"]
    assert cli_message(perlin_exe, "render", "-q", "-o", str(tmp_path / "x.png"), *size, *flags) == cli
    perlin = pytest.importorskip("perlin")
    def keyword(name, value):
        if name in ("tileable", "invert"):
            return value == "1"
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                pass
        return value
    keywords = {name.replace("-", "_"): keyword(name, value) for name, value in query.items()}
    if "size" not in keywords:
        keywords["size"] = (8, 8)
    with pytest.raises(ValueError) as e:
        perlin.render(**keywords)
    assert str(e.value) == message
