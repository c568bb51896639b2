"""perlin.Field from Python: reference values bit for bit, every path against the exact one, the
C++ command line's numbers bit for bit, keywords with the CLI's names and messages, bad input."""
import pickle
import subprocess
import threading
import time

import numpy as np
import pytest

import perlin


def reference(test_data):
    rows = np.loadtxt(test_data / "improved_noise_3d.txt")
    return rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]


def test_tutorial_value_is_a_float():
    v = perlin.Field()(3.14, 42, 7)
    assert isinstance(v, float)
    assert v == 0.13691995878400012


def test_every_reference_value_bit_for_bit_on_arrays(test_data):
    x, y, z, want = reference(test_data)
    got = perlin.Field()(x, y, z)
    assert got.dtype == np.float64
    assert np.array_equal(got, want)
    # and through broadcasting, non-contiguous views, integer arrays
    got2 = perlin.Field()(x[::2, None], y[::2, None], z[::2, None])
    assert got2.shape == (len(x[::2]), 1)
    assert np.array_equal(got2[:, 0], want[::2])
    assert perlin.Field()(np.arange(4), 0, 0).tolist() == [0.0, 0.0, 0.0, 0.0]  # lattice points


def test_fbm_reference_bit_for_bit(test_data):
    rows = np.loadtxt(test_data / "fbm_3d.txt")
    for octaves in np.unique(rows[:, 3]).astype(int):
        for persistence in np.unique(rows[:, 4]):
            sel = (rows[:, 3] == octaves) & (rows[:, 4] == persistence)
            if not sel.any():
                continue
            f = perlin.Field(fractal="fbm", octaves=int(octaves), persistence=float(persistence))
            assert np.array_equal(f(rows[sel, 0], rows[sel, 1], rows[sel, 2]), rows[sel, 5])


def test_same_doubles_as_perlin_eval(perlin_exe):
    rng = np.random.default_rng(1)
    pts = rng.uniform(-100, 100, (200, 2))
    args = ["--seed", "42", "--fractal", "ridged", "--octaves", "5", "--frequency", "0.25",
            "--lacunarity", "2.5", "--gain", "0.6", "--normalize", "--decorrelate"]
    text = "".join(f"{x!r} {y!r}\n" for x, y in pts)
    out = subprocess.run([perlin_exe, "eval", *args], input=text, capture_output=True, text=True,
                         check=True).stdout
    f = perlin.Field(seed=42, fractal="ridged", octaves=5, frequency=0.25, lacunarity=2.5,
                     gain=0.6, normalize=True, decorrelate=True)
    assert np.array_equal(f(pts[:, 0], pts[:, 1]), np.array([float(v) for v in out.split()]))


def test_gradient_matches_central_differences():
    f = perlin.Field(seed=3, fractal="fbm", octaves=3)
    x = np.linspace(-3, 3, 50)
    y = np.linspace(1, 2, 50)
    v, g = f.gradient(x, y)
    assert g.shape == (50, 2)
    assert np.array_equal(v, f(x, y))
    h = 1e-5
    assert np.allclose(g[:, 0], (f(x + h, y) - f(x - h, y)) / (2 * h), atol=1e-6)
    assert np.allclose(g[:, 1], (f(x, y + h) - f(x, y - h)) / (2 * h), atol=1e-6)
    v0, g0 = f.gradient(0.5, 0.25, 0.125)
    assert isinstance(v0, float) and g0.shape == (3,)


@pytest.mark.parametrize("dims", [1, 2, 3, 4])
def test_grid_and_points_within_tolerance_of_the_exact_path(dims):
    f = perlin.Field(seed=5, fractal="fbm", octaves=4, frequency=0.3, decorrelate=True)
    tol = 2e-6 * (1 + 0.5 + 0.25 + 0.125)
    shape = (5, 4, 3, 17)[-dims:]
    origin = (1.5, -2.25, 0.5, 3.0)[:dims]
    step = (0.37, 0.41, 0.43, 0.47)[:dims]
    grid = f.grid(shape, origin=origin, step=step)
    exact = f.grid(shape, origin=origin, step=step, dtype=np.float64)
    axes = np.meshgrid(*[o + s * np.arange(n) for o, s, n in zip(origin, step, reversed(shape))],
                       indexing="ij")
    # element [.., j, i] is the field at (x0 + i sx, y0 + j sy, ..)
    coords = [a.transpose(tuple(reversed(range(dims)))) for a in axes]
    assert np.array_equal(exact, f(*coords))
    assert np.abs(grid - exact).max() <= tol
    pts = np.stack([c.reshape(-1) for c in coords], axis=1)
    got = f.points(pts)  # 1-3-D: SIMD gathers; 4-D: the exact path rounded
    assert got.dtype == np.float32
    assert np.abs(got - exact.reshape(-1)).max() <= tol
    assert np.array_equal(f.points(pts, dtype=np.float64), exact.reshape(-1))


def test_grid_is_the_cli_npy_bit_for_bit(perlin_exe, tmp_path):
    out = tmp_path / "plain.npy"
    subprocess.run([perlin_exe, "render", "-q", "-o", str(out), "--size", "70x40", "--step",
                    "0.05", "--origin", "3.5,-1.25", "--offset", "7,9", "--seed", "11", "--plane", "aligned"], check=True)
    cli = np.load(out)
    f = perlin.Field(seed=11)
    mine = f.grid((40, 70), origin=(3.5, -1.25), step=0.05, first=(7, 9))
    assert mine.dtype == cli.dtype == np.float32
    assert np.array_equal(mine, cli)


def test_grid_out_threads_and_strict():
    f = perlin.Field(fractal="billow", octaves=3)
    out = np.full((30, 50), np.nan, dtype=np.float32)
    res = f.grid((30, 50), step=0.07, out=out)
    assert res is out and not np.isnan(out).any()
    for t in (1, 2, 5):
        assert np.array_equal(f.grid((30, 50), step=0.07, threads=t), out)
    strict = f.grid((30, 50), step=0.07, strict=True)
    assert np.abs(strict - out).max() <= 2e-6 * 1.75


def _child_grids(queue):
    f = perlin.Field(fractal="fbm", octaves=4)
    queue.put((f.grid((300, 400), step=0.03, threads=4),
               perlin.Field().grid((64, 80), step=0.1, dtype=np.float64, threads=3)))


def test_a_forked_worker_fills_grids_on_its_own_threads():
    # The library's thread pool lives in the parent; a child made by fork (multiprocessing's
    # default on Linux, and Dask's process workers) has none of its threads and starts its own.
    import multiprocessing as mp
    f = perlin.Field(fractal="fbm", octaves=4)
    want = (f.grid((300, 400), step=0.03, threads=4),
            perlin.Field().grid((64, 80), step=0.1, dtype=np.float64, threads=3))
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_grids, args=(queue,))
    child.start()
    got = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_double_grids_of_plain_noise_are_the_exact_calls_bit_for_bit():
    f = perlin.Field(seed=5)
    g = f.grid((33, 47), origin=(-2.5, 1.25), step=0.11, dtype=np.float64)
    y, x = np.mgrid[0:33, 0:47]
    assert np.array_equal(g, f(-2.5 + x * 0.11, 1.25 + y * 0.11))


def test_tiles_are_crops_and_periods_tile():
    f = perlin.Field(seed=2, period=8, fractal="fbm", octaves=3)
    whole = f.grid((64, 64), step=0.25)
    part = f.grid((10, 20), step=0.25, first=(13, 21))
    assert np.array_equal(part, whole[21:31, 13:33])
    x = np.arange(64) / 8  # exact doubles, so x + 8 is exact too
    assert np.array_equal(f(x, 1.5), f(x + 8, 1.5 + 16))


def test_keyword_errors_have_the_cli_names_and_messages():
    with pytest.raises(ValueError, match=r"^octaves: must be 1 to 32, got 0$"):
        perlin.Field(octaves=0)
    with pytest.raises(ValueError, match=r"fractal: unknown value 'pink' \(valid: none, fbm"):
        perlin.Field(fractal="pink")
    with pytest.raises(ValueError, match=r"^interp: unknown value 'smooth'"):
        perlin.Field(noise="value", interp="smooth")
    with pytest.raises(ValueError, match=r"^period: must be 1 to 2147483647, got 0$"):
        perlin.Field(period=0)
    with pytest.raises(ValueError, match=r"^period: at most 4 periods, got 5$"):
        perlin.Field(period=[2, 2, 2, 2, 2])
    with pytest.raises(ValueError, match=r"^seed: '18446744073709551616' is not an integer from 0 to 18446744073709551615$"):
        perlin.Field(seed=2**64)
    with pytest.raises(ValueError, match=r"^lacunarity: the frequency of octave"):
        perlin.Field(fractal="ridged", octaves=32, lacunarity=1e300)
    with pytest.raises(ValueError, match=r"^frequency: must be > 0, got 0$"):
        perlin.Field(frequency=0)
    with pytest.raises(ValueError, match="persistence and gain"):
        perlin.Field(persistence=0.5, gain=0.5)
    with pytest.raises(TypeError, match="seed"):
        perlin.Field(seed="42")
    with pytest.raises(TypeError, match="octaves"):
        perlin.Field(octaves=2.5)
    with pytest.raises(TypeError, match="normalize"):
        perlin.Field(normalize=1)
    with pytest.raises(TypeError):
        perlin.Field(42)  # keywords only
    with pytest.raises(TypeError):
        perlin.Field(sead=42)


def test_bad_calls_never_crash():
    f = perlin.Field()
    assert np.isnan(f(np.nan, 0.5))
    assert np.isnan(f.points(np.array([[np.nan, 0.5, 0.5]]))[0])
    assert f(np.empty((0,)), np.empty((0,))).shape == (0,)
    assert f.points(np.empty((0, 2))).shape == (0,)
    assert f(np.array(0.5), np.array(0.25)) == f(0.5, 0.25)  # 0-d arrays
    with pytest.raises(ValueError, match="1 to 4 coordinates"):
        f(1, 2, 3, 4, 5)
    with pytest.raises(ValueError):
        f(np.zeros(3), np.zeros(4))  # shapes do not broadcast
    with pytest.raises(TypeError):
        f("a", 1)
    with pytest.raises(ValueError, match="shape"):
        f.grid((0, 5))
    with pytest.raises(ValueError, match="shape: must have 1 to 4 axes"):
        f.grid((2, 2, 2, 2, 2))
    with pytest.raises(ValueError, match="count: the number of samples overflows"):
        f.grid((2**40, 2**40))  # refused before anything is allocated
    with pytest.raises(ValueError, match="origin"):
        f.grid((3, 3), origin=(1, 2, 3))
    with pytest.raises(ValueError, match="origin: must be finite"):
        f.grid((3, 3), origin=(np.inf, 0))
    with pytest.raises(ValueError, match="out"):
        f.grid((3, 3), out=np.empty((3, 4), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        f.grid((3, 3), dtype=np.int32)
    with pytest.raises(ValueError, match="threads"):
        f.grid((3, 3), threads=-1)
    with pytest.raises(ValueError, match=r"\(N, D\)"):
        f.points(np.zeros((3, 5)))


def test_fields_pickle_and_print():
    f = perlin.Field(seed=7, noise="value", interp="cubic", period=(4, 5), fractal="turbulence",
                     octaves=3, lacunarity=3, gain=0.25)
    g = pickle.loads(pickle.dumps(f))
    assert np.array_equal(g.grid((9, 9), step=0.3), f.grid((9, 9), step=0.3))
    assert "seed=7" in repr(f) and "interp='cubic'" in repr(f)


def test_the_gil_is_released_while_filling():
    # While one thread fills a large grid, another thread must keep running Python code.
    f = perlin.Field(fractal="fbm", octaves=8)
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0)

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.01)
    start = ticks
    f.grid((2000, 2000), step=0.01, threads=1)
    during = ticks - start
    done.set()
    t.join()
    assert during > 50, f"the counting thread advanced only {during} times during the fill"


def test_grids_with_gradients():
    f = perlin.Field(seed=3, fractal="fbm", octaves=4, plane="rotated")
    v32, g32 = f.grid((20, 30), origin=(0.5, -1.25), step=0.07, gradient=True)
    v64, g64 = f.grid((20, 30), origin=(0.5, -1.25), step=0.07, dtype=np.float64, gradient=True)
    assert v32.shape == (20, 30) and g32.shape == (20, 30, 2) and g64.shape == (20, 30, 2)
    # float64: the exact path, the same doubles as Field.gradient at grid::coordinate's points
    ys, xs = np.mgrid[0:20, 0:30]
    x = 0.5 + xs.astype(np.float64) * 0.07
    y = -1.25 + ys.astype(np.float64) * 0.07
    want_v, want_g = f.gradient(x, y)
    assert np.array_equal(v64, want_v) and np.array_equal(g64, want_g)
    # float32: the SIMD kernel within its tolerances (grid.hpp)
    amp_freq = sum(0.5 ** i * 2.0 ** i for i in range(4))
    assert np.max(np.abs(v32 - want_v)) <= 2e-6 * (1 + 0.5 + 0.25 + 0.125)
    assert np.max(np.abs(g32 - want_g)) <= 2e-5 * amp_freq
    # the values are the plain grid's too
    assert np.allclose(f.grid((20, 30), origin=(0.5, -1.25), step=0.07), v32, atol=2e-6 * 1.875)


def test_seed_batches_are_the_single_seeds_bit_for_bit():
    kwargs = dict(fractal="fbm", octaves=6, frequency=0.5, period=8)
    seeds = [0, 1, 7, 2**64 - 1]
    f = perlin.Field(**kwargs)
    for dtype in (np.float32, np.float64):
        for threads in (1, 0):
            batch = f.grid((40, 24), seeds=seeds, dtype=dtype, threads=threads, origin=(0.5, -3.0))
            assert batch.shape == (4, 40, 24) and batch.dtype == dtype
            for b, s in enumerate(seeds):
                one = perlin.Field(seed=s, **kwargs).grid((40, 24), dtype=dtype, origin=(0.5, -3.0))
                assert np.array_equal(batch[b], one), (dtype, threads, s)
    assert not np.array_equal(batch[0], batch[1])
    out = np.empty((2, 8, 8), np.float32)
    assert f.grid((8, 8), seeds=[3, 4], out=out) is out
    with pytest.raises(ValueError, match="seeds"):
        f.grid((8, 8), seeds=[-1])
    with pytest.raises(ValueError, match="seeds"):
        f.grid((8, 8), seeds=[1.5])
    with pytest.raises(ValueError, match="out"):
        f.grid((8, 8), seeds=[1, 2], out=np.empty((3, 8, 8), np.float32))


def test_dataarray_is_the_grid_with_its_noise_coordinates():
    xr = pytest.importorskip("xarray")
    f = perlin.Field(seed=3, fractal="eroded", octaves=4)
    a = f.dataarray((24, 40), origin=(0.5, -3.0), step=(0.25, 0.125), first=(7, -2))
    assert isinstance(a, xr.DataArray)
    assert a.dims == ("y", "x") and a.shape == (24, 40)
    assert a.attrs["recipe"] == f.recipe
    grid = f.grid((24, 40), origin=(0.5, -3.0), step=(0.25, 0.125), first=(7, -2))
    assert np.array_equal(a.values, grid)
    # Each sample's coordinates are the grid's: the field there, on the exact path.
    x, y = float(a.x[5]), float(a.y[9])
    assert x == 0.5 + (7 + 5) * 0.25 and y == -3.0 + (-2 + 9) * 0.125
    assert abs(float(a.sel(x=x, y=y)) - f(x, y)) <= 2e-6 * 1.875
    b = f.dataarray((4, 6, 5), seeds=[1, 2])
    assert b.dims == ("seed", "z", "y", "x") and list(b.seed.values) == [1, 2]
    assert np.array_equal(b.values[1], perlin.Field(seed=2, fractal="eroded", octaves=4).grid((4, 6, 5)))
    assert float(b.x[1]) == 1 / 64


def test_dataarray_reads_an_iterator_of_seeds_once():
    pytest.importorskip("xarray")
    f = perlin.Field(fractal="fbm", octaves=3)
    a = f.dataarray((3, 5), seeds=iter([4, 7]))
    assert a.dims == ("seed", "y", "x") and list(a.seed.values) == [4, 7]
    assert np.array_equal(a.values[1], perlin.Field(seed=7, fractal="fbm", octaves=3).grid((3, 5)))
    b = f.dataarray((3, 5), seeds=(s for s in range(2, 5)))
    assert list(b.seed.values) == [2, 3, 4]
    assert np.array_equal(b.values[2], perlin.Field(seed=4, fractal="fbm", octaves=3).grid((3, 5)))


def test_a_point_of_plain_numbers_takes_the_short_path_to_the_same_doubles():
    # f(x, y) with Python floats or ints skips the arrays (about 0.6 us instead of 5 us a call on
    # the 2-vCPU guest); the values are the general path's, bit for bit, in 1 to 4 dimensions.
    import struct
    f = perlin.Field(seed=7, fractal="fbm", octaves=5, warp="basic")
    rng = np.random.default_rng(5)
    for d in range(1, 5):
        for _ in range(50):
            p = [float(v) for v in rng.uniform(-300, 300, d)]
            fast = f(*p)
            general = f(*[np.array([v]) for v in p])[0]
            assert type(fast) is float
            assert struct.pack("<d", fast) == struct.pack("<d", general)
    assert f(3, -2) == f(3.0, -2.0)
    assert f(True, 0.5) == f(1.0, 0.5)  # a bool takes the general path, as a number
    with pytest.raises(TypeError, match="coordinates: must be numbers"):
        f(2**2000, 0.5)  # beyond a double: the general path's refusal
    with pytest.raises(ValueError, match="threads"):
        f(0.5, 0.5, threads=-1)
    with pytest.raises(ValueError, match="point: must have 1 to 4 coordinates"):
        f(0.1, 0.2, 0.3, 0.4, 0.5)
