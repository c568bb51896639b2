"""`perlin render --device gpu`: the field's float compute shader on this machine's OpenGL 4.3
(Mesa's llvmpipe where there is no GPU) through perlin::gpu_grid, against the CPU render of the
same options (docs/gpu.md)."""
import os
import subprocess

import numpy as np
import pytest

# fBm of 5 octaves (amplitude sum 1.9375): the float shader's bound is 16 x value_tolerance,
# 16 x 2e-6 x that; warped by A, 16 x (value_tolerance + A x gradient_tolerance), the gradient
# tolerance 2e-5 x the sum of amplitude x frequency (5 here).
FIELD = ["--fractal", "fbm", "--octaves", "5", "--seed", "9"]
TOLERANCE = 16 * 2e-6 * 1.9375
WARPED_TOLERANCE = 16 * (2e-6 * 1.9375 + 0.5 * 2e-5 * 5)


@pytest.fixture(scope="module")
def perlin_exe():
    return os.environ["PERLIN_EXE"]


def render(perlin_exe, *args):
    return subprocess.run([perlin_exe, "render", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def gpu(perlin_exe, tmp_path_factory):
    out = tmp_path_factory.mktemp("probe") / "probe.npy"
    r = render(perlin_exe, "--device", "gpu", "-o", str(out), "--size", "8x8")
    if r.returncode != 0 and ("EGL" in r.stderr or "OpenGL" in r.stderr):
        pytest.skip(r.stderr.strip())
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_the_renderer_is_named(gpu):
    name = gpu.split("drawn on the GPU by ", 1)[1].split(" (float shader")[0]
    assert name.strip(), gpu  # llvmpipe (LLVM ...) here, the GPU's name on a machine with one


@pytest.mark.parametrize("extra, tolerance", [
    (["--size", "300x200", "--origin", "-2.5,1.25", "--step", "0.03125"], TOLERANCE),
    (["--size", "64x48", "--depth", "5", "--origin", "0.5,0.5,-3"], TOLERANCE),  # 5 planes
    (["--size", "96x80", "--offset", "40,-30", "--tileable"], TOLERANCE),
    (["--size", "80x64", "--warp", "progressive", "--warp-amplitude", "0.5"], WARPED_TOLERANCE),
])
def test_gpu_values_are_the_cpus_within_the_float_shader_tolerance(gpu, perlin_exe, tmp_path,
                                                                   extra, tolerance):
    on_gpu, on_cpu = tmp_path / "gpu.npy", tmp_path / "cpu.npy"
    r = render(perlin_exe, "-q", "--device", "gpu", "-o", str(on_gpu), *FIELD, *extra)
    assert r.returncode == 0, r.stderr
    r = render(perlin_exe, "-q", "-o", str(on_cpu), *FIELD, *extra)
    assert r.returncode == 0, r.stderr
    a, b = np.load(on_gpu), np.load(on_cpu)
    assert a.shape == b.shape and a.dtype == b.dtype == np.float32
    worst = float(np.abs(a.astype(np.float64) - b).max())
    assert worst <= tolerance, (worst, tolerance)
    assert float(np.abs(b).max()) > 0.3  # a real field, not zeros on both sides


@pytest.mark.parametrize("origin", ["1e6,1e6", "-1e6,3e5", "1e9,-1e9", "123456.7,0.25,-7e5"])
def test_far_from_the_origin_the_gpu_keeps_the_bound_it_prints(gpu, perlin_exe, tmp_path, origin):
    # Float coordinates lose the fraction far out (at 1e6 a float's step is 0.0625): the plain
    # float shader was 0.16 off at 1e6 (0.52 at 1e9) while the tool printed 3.2e-05. gpu_grid
    # splits each dispatch's first point in double (cell + fraction) for perlin_field_split.
    on_gpu, on_cpu = tmp_path / "gpu.npy", tmp_path / "cpu.npy"
    extra = [*FIELD, "--plane", "aligned", "--size", "96x64", "--origin", origin]
    r = render(perlin_exe, "--device", "gpu", "-o", str(on_gpu), *extra)
    assert r.returncode == 0, r.stderr
    printed = float(r.stderr.split("within ", 1)[1].split(" of the double")[0])
    assert render(perlin_exe, "-q", "-o", str(on_cpu), *extra).returncode == 0
    a, b = np.load(on_gpu), np.load(on_cpu)
    worst = float(np.abs(a.astype(np.float64) - b).max())
    assert worst <= printed <= TOLERANCE * 1.001, (worst, printed)
    assert float(np.abs(b).max()) > 0.3


@pytest.mark.parametrize("extra", [
    ["--plane", "rotated", "--origin", "1e6,1e6"],  # no split form: the plane mixes the axes
    ["--plane", "aligned", "--frequency", "0.3", "--origin", "3000,0"],  # frequencies not whole
    ["--plane", "aligned", "--warp", "basic", "--origin", "0,-5000"],  # the warp moves in float
    ["--origin", "0,0", "--size", "64x64", "--step", "8"],  # near the origin, but wide
])
def test_far_fields_without_the_split_form_are_refused_naming_the_limit(gpu, perlin_exe, tmp_path,
                                                                        extra):
    out = tmp_path / "far.npy"
    r = render(perlin_exe, "--device", "gpu", "-o", str(out), *FIELD, *extra)
    assert r.returncode == 2, r.stderr
    assert "GPU" in r.stderr and "at most" in r.stderr and "from the origin" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_gpu_pictures_are_the_cpus_within_a_level(gpu, perlin_exe, tmp_path):
    from PIL import Image
    for preset in ("clouds", "marble", "wood"):
        on_gpu, on_cpu = tmp_path / f"{preset}_gpu.png", tmp_path / f"{preset}_cpu.png"
        for device, out in (("gpu", on_gpu), ("cpu", on_cpu)):
            r = render(perlin_exe, "-q", "--device", device, "-o", str(out), "--preset", preset,
                       "--size", "128x96")
            assert r.returncode == 0, r.stderr
        a = np.asarray(Image.open(on_gpu), dtype=np.int32)
        b = np.asarray(Image.open(on_cpu), dtype=np.int32)
        assert a.shape == b.shape
        assert int(np.abs(a - b).max()) <= 1, preset


@pytest.mark.parametrize("extra, says", [
    (["--preset", "terrain"], "needs the field's gradient"),            # a shaded relief
    (["--normals", "opengl"], "needs the field's gradient"),
    (["--projection", "equirect", "--size", "64x32"], "renders planes"),
    (["--fractal", "fbm", "--period", "3", "--octaves", "32"], "2^31 - 1"),  # octave 30's period, 3 x 2^30
])
def test_what_the_gpu_cannot_draw_is_refused_before_anything_is_written(gpu, perlin_exe, tmp_path,
                                                                        extra, says):
    out = tmp_path / "refused.png"
    r = render(perlin_exe, "--device", "gpu", "-o", str(out), *extra)
    assert r.returncode == 2, r.stderr
    assert says in r.stderr and "--device gpu" in r.stderr, r.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
