"""perlin.render: exactly the pixels `perlin render` writes to the PNG, for every preset and the
options that change pixels; bad options raise ValueError with the command's message."""
import subprocess

import numpy as np
import pytest

import perlin

PIL = pytest.importorskip("PIL.Image")

CASES = [
    ("plain", {}),
    ("clouds", {"seed": 7}),
    ("marble", {"colormap": "grey"}),
    ("wood", {}),
    ("terrain", {}),                      # the relief, lit by the analytic gradient
    ("terrain", {"bits": 16}),
    ("ridges", {"octaves": 4, "gain": 0.6}),
    ("clouds", {"tileable": True, "step": 0.05}),
    ("plain", {"origin": (3.5, -2.25), "offset": (7, 9), "step": 0.03}),
    ("plain", {"noise": "value", "interp": "cosine", "colormap": "heat", "period": (4, 5)}),
    ("clouds", {"range": (-0.5, 0.5)}),
    ("plain", {"stretch": True, "scale": 20}),
]


def cli_args(preset, options):
    args = ["--preset", preset]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, tuple):
            args += [flag, ",".join(repr(float(v)) if key != "period" else str(v) for v in value)]
        else:
            args += [flag, str(value)]
    return args


@pytest.mark.parametrize("preset,options", CASES)
def test_render_is_the_png_pixel_for_pixel(perlin_exe, tmp_path, preset, options):
    out = tmp_path / "image.png"
    subprocess.run([perlin_exe, "render", "-q", "-o", str(out), "--size", "60x40",
                    *cli_args(preset, options)], check=True)
    png = np.array(PIL.open(out))
    mine = perlin.render(preset, size=(60, 40), **options)
    if png.dtype == np.int32:  # PIL reads 16-bit grey as int32
        assert png.min() >= 0 and png.max() <= 65535
        png = png.astype(np.uint16)
    assert mine.dtype == png.dtype and mine.shape == png.shape
    assert np.array_equal(mine, png)


def test_render_errors_are_the_commands():
    # The library's messages name the setting as the keyword does, without the CLI's dashes.
    with pytest.raises(ValueError, match="^bits: must be 8 or 16$"):
        perlin.render("clouds", bits=12)
    with pytest.raises(ValueError, match="^colormap: unknown 'rainbow'"):
        perlin.render(colormap="rainbow")
    with pytest.raises(ValueError, match="^octaves: must be 1 to 32"):
        perlin.render("clouds", octaves=0)
    with pytest.raises(ValueError, match="^preset: unknown 'velvet'"):
        perlin.render("velvet")
    with pytest.raises(ValueError, match="^size: '0x10' is not AxB"):
        perlin.render(size=(0, 10))
    with pytest.raises(ValueError, match="^step and scale: are alternatives; give one$"):
        perlin.render(step=0.5, scale=2)
    with pytest.raises(ValueError, match="^tileable: needs an integer lacunarity below 2\\^32"):
        perlin.render(tileable=True, lacunarity=2.5)
    with pytest.raises(TypeError, match="frames is for animations"):
        perlin.render(frames=3)


def test_animated_png_holds_every_frame(perlin_exe, tmp_path):
    """--animated: one APNG whose frames are the numbered PNGs, pixel for pixel, at --fps."""
    args = ["--preset", "clouds", "--size", "40x30", "--frames", "6", "--loop"]
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "f.png"), *args], check=True)
    subprocess.run([perlin_exe, "render", "-q", "-o", str(tmp_path / "a.png"), *args, "--animated",
                    "--fps", "12"], check=True)
    im = PIL.open(tmp_path / "a.png")
    assert im.is_animated and im.n_frames == 6
    assert abs(im.info["duration"] - 1000 / 12) < 1e-6
    for k in range(6):
        im.seek(k)
        want = np.array(PIL.open(tmp_path / f"f_{k:04d}.png"))
        assert np.array_equal(np.array(im.convert("RGB")), want), k
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.png"] + [f"f_{k:04d}.png" for k in range(6)]
    bad = subprocess.run([perlin_exe, "render", "-o", str(tmp_path / "b.png"), "--animated"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--animated needs --frames" in bad.stderr
