"""Domain warping from Python: the same field as `perlin eval`, gradients, tiling, errors."""
import subprocess

import numpy as np
import pytest

import perlin


def cli_values(exe, args, points):
    text = "".join(" ".join(repr(float(c)) for c in p) + "\n" for p in points)
    out = subprocess.run([exe, "eval", *args], input=text, capture_output=True, text=True, check=True)
    return [float(line.split()[0]) for line in out.stdout.splitlines()]


@pytest.mark.parametrize("warp", ["basic", "progressive", "independent"])
def test_warped_fields_are_the_cli_values_bit_for_bit(warp, perlin_exe):
    f = perlin.Field(seed=5, fractal="fbm", octaves=4, warp=warp, warp_amplitude=2.0,
                     warp_frequency=0.5, warp_octaves=3, warp_seed=17)
    rng = np.random.default_rng(1)
    pts = rng.uniform(-20, 20, size=(200, 3))
    want = cli_values(perlin_exe, ["--seed", "5", "--fractal", "fbm", "--octaves", "4", "--warp", warp,
                       "--warp-amplitude", "2", "--warp-frequency", "0.5", "--warp-octaves", "3",
                       "--warp-seed", "17"], pts)
    got = f(pts[:, 0], pts[:, 1], pts[:, 2])
    assert np.array_equal(got, np.array(want))
    plain = perlin.Field(seed=5, fractal="fbm", octaves=4)(pts[:, 0], pts[:, 1], pts[:, 2])
    assert np.mean(got != plain) > 0.9
    # Float grids take the warp kernel (docs/design.md "Routes"): within grid.hpp's
    # value_tolerance, 2e-6 x the amplitude sum (1.875); double points are the double path.
    grid = f.grid((16, 24), step=0.3, dtype=np.float32)
    ys, xs = np.mgrid[0:16, 0:24] * 0.3
    assert np.allclose(grid, f(xs, ys), rtol=0, atol=2e-6 * 1.875)
    assert np.array_equal(f.points(np.stack([xs.ravel(), ys.ravel()], 1), dtype=np.float64), f(xs, ys).ravel())


def test_gradients_match_differences():
    f = perlin.Field(fractal="fbm", octaves=3, warp="progressive", warp_amplitude=1.5)
    x, y = np.linspace(-3, 3, 40), np.linspace(1, 2, 40)
    _, g = f.gradient(x, y)
    h = 1e-6
    assert np.allclose(g[:, 0], (f(x + h, y) - f(x - h, y)) / (2 * h), atol=1e-5)
    assert np.allclose(g[:, 1], (f(x, y + h) - f(x, y - h)) / (2 * h), atol=1e-5)


def test_warped_tiles_wrap_and_pickle():
    f = perlin.Field(period=8, fractal="fbm", octaves=3, warp="independent", warp_frequency=0.25)
    x = np.arange(64) / 8.0
    assert np.allclose(f(x, 0.5), f(x + 8, 0.5), atol=1e-12)
    import pickle
    g = pickle.loads(pickle.dumps(f))
    assert np.array_equal(g(x, 0.5), f(x, 0.5))
    assert "warp='independent'" in repr(f)
    assert "warp" not in repr(perlin.Field())


@pytest.mark.parametrize("kwargs, message", [
    (dict(warp="swirl"), "warp: unknown value 'swirl' (valid: none, basic, progressive, independent)"),
    (dict(warp="basic", warp_octaves=0), "warp-octaves: must be 1 to 32, got 0"),
    (dict(warp="basic", warp_amplitude=-1), "warp-amplitude: must be >= 0"),
    (dict(warp="basic", warp_amplitude=float("nan")), "warp-amplitude: must be finite"),
    (dict(warp="basic", period=5, warp_frequency=0.5), "warp-frequency: the field tiles every 5 cells along x"),
])
def test_bad_warps_are_refused_with_the_cli_messages(kwargs, message):
    with pytest.raises(ValueError) as e:
        perlin.Field(**kwargs)
    assert str(e.value).startswith(message)


def test_bad_warp_types():
    with pytest.raises(TypeError):
        perlin.Field(warp="basic", warp_seed="x")
    with pytest.raises(TypeError):
        perlin.Field(warp=3)


def test_render_takes_the_warped_preset_and_warp_keywords():
    a = perlin.render("warped", size=(32, 24))
    assert a.shape == (24, 32, 3)
    b = perlin.render("warped", size=(32, 24), warp="none")
    assert not np.array_equal(a, b)
