"""`perlin render --projection cubemap`: six faces in OpenGL's cube-map orientation, each pixel
the field at the documented point on the sphere, and no seam across any face edge."""

import subprocess

import numpy as np

import perlin

RECIPE = "perlin=1&seed=7&fractal=fbm&octaves=4"
FACES = ["px", "nx", "py", "ny", "pz", "nz"]


def directions(face, w):
    """docs/render.md: u = 2 (i + 0.5) / W - 1 across, v = 2 (j + 0.5) / W - 1 down."""
    col = np.arange(w, dtype=np.float64) + 0.5
    u = (2 * col / w - 1)[None, :].repeat(w, 0)
    v = (2 * col / w - 1)[:, None].repeat(w, 1)
    one = np.ones_like(u)
    return {
        "px": (one, -v, -u), "nx": (-one, -v, u), "py": (u, one, v),
        "ny": (u, -one, -v), "pz": (u, -v, one), "nz": (-u, -v, -one),
    }[face]


def faces(perlin_exe, tmp_path, w, radius, ext="npy", *extra):
    out = tmp_path / ("f_{face}." + ext)
    r = subprocess.run([perlin_exe, "render", "-q", "--recipe", RECIPE, "--projection", "cubemap",
                        "--size", f"{w}x{w}", "--radius", str(radius), "-o", str(out), *extra],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return {f: tmp_path / f"f_{f}.{ext}" for f in FACES}


def test_each_face_pixel_is_the_field_at_its_point_on_the_sphere(perlin_exe, tmp_path):
    w, radius = 24, 3.5
    field = perlin.Field.from_recipe(RECIPE)
    for face, path in faces(perlin_exe, tmp_path, w, radius).items():
        d = directions(face, w)
        length = np.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        xyz = np.stack([(radius * (c / length)).astype(np.float32).ravel() for c in d], axis=1)
        got = np.load(path)
        assert got.shape == (w, w)
        want = field.points(xyz).reshape(w, w)
        assert np.array_equal(got, want), face
        exact = field(*(xyz[:, k].astype(np.float64) for k in range(3))).reshape(w, w)
        assert np.max(np.abs(got - exact)) < 2e-6 * 1.875


def test_no_seam_across_the_twelve_face_edges(perlin_exe, tmp_path):
    # Each edge pixel's nearest sample on another face (by direction) is its neighbour across
    # the edge: their values differ like neighbours on one face, not like unrelated points.
    w, radius = 48, 6.0
    paths = faces(perlin_exe, tmp_path, w, radius)
    dirs, vals, edge = [], [], []
    for face in FACES:
        d = np.stack(directions(face, w), axis=-1)
        d /= np.linalg.norm(d, axis=-1, keepdims=True)
        dirs.append(d.reshape(-1, 3))
        vals.append(np.load(paths[face]).reshape(-1))
        mask = np.zeros((w, w), bool)
        mask[0, :] = mask[-1, :] = mask[:, 0] = mask[:, -1] = True
        edge.append(mask.reshape(-1))
    across, within = [], []
    for a in range(6):
        others = np.concatenate([dirs[b] for b in range(6) if b != a])
        other_vals = np.concatenate([vals[b] for b in range(6) if b != a])
        for k in np.flatnonzero(edge[a]):
            nearest = np.argmax(others @ dirs[a][k])
            across.append(abs(vals[a][k] - other_vals[nearest]))
        grid = vals[a].reshape(w, w)
        within.append(np.abs(grid[:, 0] - grid[:, 1]))
        within.append(np.abs(grid[0, :] - grid[1, :]))
    assert len(across) == 6 * (4 * w - 4)
    # Neighbours across an edge are at most about one pixel apart, as within a face.
    assert np.mean(across) < 1.5 * np.mean(np.concatenate(within))
    assert np.max(across) < 4 * np.max(np.concatenate(within))


def test_shaded_faces_and_normal_maps_render(perlin_exe, tmp_path):
    paths = faces(perlin_exe, tmp_path, 32, 2.0, "png", "--normals", "opengl")
    for path in paths.values():
        assert path.stat().st_size > 0


def test_cubemaps_need_square_faces_and_a_face_name(perlin_exe, tmp_path):
    for args, message in [(["--size", "64x32", "-o", str(tmp_path / "f_{face}.png")], "square"),
                          (["--size", "64x64", "-o", str(tmp_path / "f.png")], "{face}")]:
        r = subprocess.run([perlin_exe, "render", "-q", "--projection", "cubemap", *args],
                           capture_output=True, text=True)
        assert r.returncode == 2 and message in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []
