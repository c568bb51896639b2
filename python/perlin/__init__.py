"""perlin: Ken Perlin's improved noise (2002), exact and fast, on numpy arrays.

    >>> import perlin
    >>> perlin.Field()(3.14, 42, 7)       # Ken Perlin's reference value, bit for bit
    0.13691995878400012

Keyword arguments have the names, meanings, defaults and error messages of the option table
(docs/options.md; `-` becomes `_`), which the `perlin` command line, the C API and every other
binding read too. Every computation is done by the C++ library, with the GIL released.
"""
import json
import numbers

import numpy as np

from . import _perlin
from ._perlin import __version__, active_target, render, set_max_target, targets

__all__ = ["Field", "render", "options", "targets", "active_target", "set_max_target",
           "split_for_shader", "select", "__version__"]


def options():
    """The option table: a list of dicts with name, type, default, help (and min, max or
    choices where they apply), as `perlin options --json` prints it."""
    return json.loads(_perlin.options())

def split_for_shader(x):
    """(cell, frac) with x = cell + frac, cell = floor(x) a 32-bit int and frac in [0, 1) rounded
    to float: the arguments of a shader's perlin_field_split for coordinates far from the origin
    (docs/gpu.md). Raises ValueError for x that is not finite or whose cell passes 32 bits."""
    return _perlin.split_for_shader(float(x))


DEFAULT_STEP = _perlin.DEFAULT_STEP  # the library's perlin::grid::k_default_step


def _threads(threads):
    if type(threads) is int and 0 <= threads <= 65535:
        return threads
    if not isinstance(threads, numbers.Integral) or isinstance(threads, bool) or not 0 <= threads <= 65535:
        raise ValueError(f"threads: must be 0 (every core) to 65535, got {threads!r}")
    return int(threads)


def _dtype(dtype):
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"dtype: must be float32 or float64, got {dt}")
    return dt


def _out_array(out, shape, dt):
    """`out` checked for a grid of `shape` (a new array when None)."""
    if out is None:
        return np.empty(shape, dtype=dt)
    if not (isinstance(out, np.ndarray) and out.dtype == dt and out.shape == shape
            and out.flags.c_contiguous and out.flags.writeable):
        raise ValueError(f"out: must be a writeable C-contiguous {dt} array of shape {shape}")
    return out


# The types of a point's coordinates that Field.__call__ passes straight to the C++ call (a bool,
# a numpy scalar or an array takes the general path).
_plain_numbers = (float, int)


def _coordinates(coords, dtype):
    """Broadcast 1 to 4 coordinate arguments to one shape; C-contiguous copies only if needed."""
    if not 1 <= len(coords) <= 4:
        raise ValueError(f"point: must have 1 to 4 coordinates, got {len(coords)}")
    arrays = []
    for c in coords:
        a = np.asarray(c)
        if a.dtype.kind not in "biuf":
            raise TypeError(f"coordinates: must be numbers, got dtype {a.dtype}")
        arrays.append(a)
    arrays = np.broadcast_arrays(*arrays)
    shape = arrays[0].shape
    return shape, [np.ascontiguousarray(a, dtype=dtype).reshape(-1) for a in arrays]


class Field:
    """A noise field: a base noise and a fractal over it.

    Field(**options): every option of the option table (perlin.options(), docs/options.md),
    by keyword, `-` written `_`: seed=None, noise="improved", interp="quintic", period=None,
    fractal="none", octaves=1, frequency=1.0, lacunarity=2.0, persistence=0.5 (or gain=),
    normalize=False, decorrelate=False, ridged_offset=1.0, ridged_gain=2.0, erosion=1.0,
    plane="aligned",
    warp="none", warp_amplitude=1.0, warp_frequency=1.0, warp_octaves=3, warp_seed=None.
    An unknown keyword raises TypeError naming the closest option; options that change
    nothing with the others (octaves without a fractal) warn, as the CLI does.

    seed: 0 to 2**64-1, or None for Ken Perlin's permutation. period: an integer (every axis)
    or a sequence of 1 to 4 integers, in lattice cells. warp: "basic", "progressive" or
    "independent" samples the field at points displaced by noise (docs/warp.md); the amplitude
    is in cells of the first octave and the warp frequency relative to `frequency`.

    The C++ field is held, not inherited: a Field made without __init__ (Field.__new__(Field))
    raises TypeError when used, instead of touching an object that was never built.
    """

    __slots__ = ("_field",)

    def __init__(self, **options):
        self._field = _perlin._Field(**options)

    @property
    def _core(self):
        try:
            return self._field
        except AttributeError:
            raise TypeError("perlin.Field was not initialised: make one with perlin.Field(...) or "
                            "perlin.Field.from_recipe(...)") from None

    @property
    def recipe(self):
        """The field's recipe: one line that names it completely (docs/recipes.md)."""
        return self._core.recipe

    @property
    def _kwargs(self):
        return self._core._kwargs

    def __call__(self, *coords, threads=0):
        """The field at points: scalars give a float, arrays broadcast to a float64 array.
        The exact double path: the same doubles as `perlin eval`."""
        # One point of plain Python floats or ints: straight to the exact double path (the
        # arrays below cost about 5 us a call; this about a tenth of it). Same doubles.
        if (type(threads) is int and threads == 0 and 1 <= len(coords) <= 4
                and all(type(c) in _plain_numbers for c in coords)):
            try:
                return self._core._value(coords)
            except OverflowError:
                pass  # an int beyond a double: the general path says what is wrong

        shape, flat = _coordinates(coords, np.float64)
        values = self._core._eval(flat, False, _threads(threads))
        if shape == ():
            return float(values[0])
        return values.reshape(shape)

    def shader(self, lang="glsl", precision="float", dims=3, derivatives=True, split=True,
               standalone=False):
        """Shader source that computes this field on the GPU (docs/gpu.md), `perlin shader`'s
        text: perlin_field(p), perlin_field_deriv and perlin_field_split in lang "glsl",
        "glsl-es" (WebGL2), "hlsl" or "wgsl" (WebGPU); precision "double" (desktop GLSL)
        gives this field's exact values bit for bit on a conforming driver; standalone=True
        wraps it in a program that fills a grid. Raises ValueError naming what shaders cannot
        express (the eroded fractal)."""
        return self._core._shader(lang, precision, int(dims), bool(derivatives), bool(split),
                                  bool(standalone))

    def gradient(self, *coords):
        """(value, gradient): the field and its analytic derivatives; the gradient has a last
        axis of D = the number of coordinates."""
        shape, flat = _coordinates(coords, np.float64)
        values, planar = self._core._eval(flat, True, 0)
        grad = planar.T  # (n, D): a last axis of D partials
        d = len(coords)
        if shape == ():
            return float(values[0]), grad.reshape(d)
        return values.reshape(shape), grad.reshape(shape + (d,))

    def points(self, xyz, dtype=np.float32, threads=0, strict=False, out=None):
        """The field at N points given as an (N, D) array (D = 1 to 4): float32 on the SIMD
        batch path (within 2e-6 times the sum of the amplitudes), float64 on the exact path."""
        dt = _dtype(dtype)
        pts = np.asarray(xyz)
        if pts.ndim != 2 or not 1 <= pts.shape[1] <= 4:
            raise ValueError(f"points: must be an (N, D) array with D from 1 to 4, got shape {pts.shape}")
        if pts.dtype.kind not in "biuf":
            raise TypeError(f"points: must be numbers, got dtype {pts.dtype}")
        axes = [np.ascontiguousarray(pts[:, k], dtype=dt) for k in range(pts.shape[1])]
        n = pts.shape[0]
        if out is None:
            out = np.empty(n, dtype=dt)
        elif not (isinstance(out, np.ndarray) and out.dtype == dt and out.shape == (n,)
                  and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out: must be a writeable contiguous {dt} array of shape ({n},)")
        if n:
            (self._core._points32 if dt == np.float32 else self._core._points64)(axes, out, _threads(threads), bool(strict))
        return out

    def grid(self, shape, origin=None, step=None, first=None, dtype=np.float32, threads=0,
             strict=False, out=None, gradient=False, seeds=None):
        """The field on a uniform grid of `shape` (numpy order: (ny, nx), 1 to 4 axes); element
        [j, i] is the field at (x0 + (first_x + i) * sx, y0 + (first_y + j) * sy). `origin`,
        `step` and `first` are in x-first order, like the C++ perlin::grid; step defaults to 1/64.
        float32: the SIMD path, the same bits as the C++ fill_grid and `perlin render`'s .npy;
        float64: the exact path.

        gradient=True returns (values, gradient), the gradient with a last axis of D partials in
        x-first order (d/dx first), like Field.gradient: float32 from the SIMD kernel of the C++
        fill_grid_deriv (within its stated tolerance), float64 from the exact path.

        seeds=[s0, s1, ...] returns a batch of shape (B,) + shape whose slice b is, bit for bit,
        this field with seed=seeds[b] (the same grid, any thread count): a dataset's masks or
        augmentations from one call; out, if given, has the batch's shape. Zero-copy into torch
        with torch.from_numpy."""
        if seeds is None and gradient is False:
            # The usual call (plain arguments) in one C++ call; None: the general path below.
            filled = _perlin._grid_plain(self, shape, dtype, threads, strict, origin, step, first,
                                         out)
            if filled is not None:
                return filled
        if seeds is not None:
            return self._grid_batch(seeds, shape, origin, step, first, dtype, threads, strict, out,
                                    gradient)
        if gradient:
            return self._grid_with_gradient(shape, origin, step, first, dtype, threads, strict, out)
        dt = _dtype(dtype)
        shape, g, _ = _grid_of(shape, origin, step, first)
        out = _out_array(out, shape, dt)
        (self._core._grid32 if dt == np.float32 else self._core._grid64)(g, out, _threads(threads), bool(strict))
        return out

    def _grid_batch(self, seeds, shape, origin, step, first, dtype, threads, strict, out, gradient):
        if gradient:
            raise ValueError("seeds: not supported with gradient=True")
        seeds = list(seeds)
        for s in seeds:
            if not isinstance(s, numbers.Integral) or isinstance(s, bool) or not 0 <= s < 2**64:
                raise ValueError(f"seeds: every seed is an integer from 0 to 2**64-1, got {s!r}")
        dt = _dtype(dtype)
        shape_t, g, _ = _grid_of(shape, origin, step, first)
        batch = (len(seeds),) + shape_t
        out = _out_array(out, batch, dt)
        fill = "_grid32" if dt == np.float32 else "_grid64"
        for b, s in enumerate(seeds):
            getattr(self._core._with_seed(int(s)), fill)(g, out[b], _threads(threads), bool(strict))
        return out

    def _grid_with_gradient(self, shape, origin, step, first, dtype, threads, strict, out):
        dt = _dtype(dtype)
        if out is not None:
            raise ValueError("out: not supported with gradient=True")
        shape, g, _ = _grid_of(shape, origin, step, first)
        d = len(shape)
        values = np.empty(shape, dtype=dt)
        planar = np.empty((d,) + shape, dtype=dt)  # the C++ layout: one array per axis
        # float32: the SIMD kernel; float64: the exact path (C++ fill_grid_deriv, both).
        (self._core._grid_deriv32 if dt == np.float32 else self._core._grid_deriv64)(
            g, values, planar, _threads(threads), bool(strict))
        return values, np.moveaxis(planar, 0, -1)

    def dataarray(self, shape, origin=None, step=None, first=None, dtype=np.float32, threads=0,
                  strict=False, seeds=None):
        """Field.grid(...) as an xarray DataArray (python3-xarray): dims ("y", "x") (up to
        ("w", "z", "y", "x")), each with its noise coordinates origin + (first + i) * step (the
        grid's own arithmetic, float64), and attrs["recipe"] naming the field; with seeds=[...]
        a leading "seed" dimension whose coordinates are the seeds. The values are grid()'s,
        bit for bit (no copy)."""
        try:
            import xarray
        except ImportError as e:
            raise ImportError("Field.dataarray needs xarray (Debian: python3-xarray)") from e
        if seeds is not None:
            seeds = list(seeds)  # read once: an iterator gives the values and the coordinates
        values = self.grid(shape, origin, step, first, dtype=dtype, threads=threads,
                           strict=strict, seeds=seeds)
        shape_t, _, (o, s, f) = _grid_of(shape, origin, step, first)
        d = len(shape_t)
        o = o or [0.0] * d
        s = s or [1.0 / 64] * d
        f = f or [0] * d
        names = ("x", "y", "z", "w")[:d]
        coords = {}
        for k in range(d):
            count = shape_t[d - 1 - k]  # numpy order: the last axis is x
            coords[names[k]] = o[k] + (float(f[k]) + np.arange(count, dtype=np.float64)) * s[k]
        dims = tuple(reversed(names))
        if seeds is not None:
            dims = ("seed",) + dims
            coords["seed"] = np.array([int(v) for v in seeds], dtype=np.uint64)
        return xarray.DataArray(values, dims=dims, coords=coords, attrs={"recipe": self.recipe})

    def range(self, dims):
        """Documented bounds (lo, hi) of the field for points of `dims` coordinates."""
        return self._core._range(dims)

    @classmethod
    def from_recipe(cls, text):
        """The field of a recipe (`perlin recipe`, Field.recipe, the page's link): the same
        bits in every front. A page's or a render's recipe reads too: its field part is the
        field, and a UserWarning names the render settings (size, colormap ...) it did not use
        (perlin.render(recipe=...) uses them)."""
        if not isinstance(text, str):
            raise TypeError("recipe: must be a string")
        return cls(_recipe=text)

    def __reduce__(self):
        return (_from_recipe, (self.recipe,))

    # Composition (docs/graphs.md): the operators and methods assemble the nodes of the node
    # table (their names and parameters, no formulas here) into a graph that the library checks
    # and evaluates; numbers become constant nodes.
    def __add__(self, other):
        return _compose("add", self, other) if _operand(other) else NotImplemented

    def __radd__(self, other):
        return _compose("add", other, self) if _operand(other) else NotImplemented

    def __sub__(self, other):
        return _compose("subtract", self, other) if _operand(other) else NotImplemented

    def __rsub__(self, other):
        return _compose("subtract", other, self) if _operand(other) else NotImplemented

    def __mul__(self, other):
        return _compose("multiply", self, other) if _operand(other) else NotImplemented

    def __rmul__(self, other):
        return _compose("multiply", other, self) if _operand(other) else NotImplemented

    def __neg__(self):
        return _compose("invert", self)

    def __abs__(self):
        return _compose("abs", self)

    def curve(self, points, mode=None):
        """The graph node `curve` of this field: points [[in, out], ...] (2 or more, sorted
        by in; 4 or more in mode "libnoise"; the default mode is "monotone")."""
        pts = [[float(i), float(o)] for i, o in points]
        return _compose("curve", self, points=pts, mode=mode)

    def clamp(self, lower=None, upper=None):
        """The graph node `clamp` of this field (defaults: the node table's)."""
        return _compose("clamp", self, lower=lower, upper=upper)

    def __repr__(self):
        if self._core._is_graph:
            return f"perlin.Field.from_recipe({self.recipe!r})"
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"perlin.Field({args})"


def select(control, a, b, lower=None, upper=None, falloff=None):
    """The graph node `select` (libnoise's Select): a where control is outside [lower, upper],
    b inside, with an S-curve edge of width falloff (defaults: the node table's)."""
    return _compose("select", a, b, control, lower=lower, upper=upper, falloff=falloff)


def _operand(x):
    return isinstance(x, Field) or (isinstance(x, numbers.Real) and not isinstance(x, bool))


def _compose(kind, *inputs, **params):
    """The graph of node `kind` over `inputs` (Fields or numbers), through the library's JSON
    reader: each input's nodes (its graph's JSON; a field's one-node graph) renamed n0, n1, ...
    (equal nodes shared, so a field used twice is evaluated once per point), then the new node;
    parameters given as None are left to their defaults."""
    nodes, seen, ids = {}, {}, []

    def put(node):  # a node equal to one already taken (same kind, inputs, parameters) is shared
        key = json.dumps(node, sort_keys=True)
        if key not in seen:
            seen[key] = f"n{len(nodes)}"
            nodes[seen[key]] = node
        return seen[key]

    for x in inputs:
        if isinstance(x, Field):
            graph = json.loads(x._core._json)
            rename, todo = {}, dict(graph["nodes"])
            while todo:  # inputs first, so that each is renamed before its users
                for old, node in list(todo.items()):
                    if all(i in rename for i in node.get("inputs", [])):
                        node = dict(node)
                        if "inputs" in node:
                            node["inputs"] = [rename[i] for i in node["inputs"]]
                        rename[old] = put(node)
                        del todo[old]
            ids.append(rename[graph["output"]])
        elif isinstance(x, numbers.Real) and not isinstance(x, bool):
            ids.append(put({"node": "constant", "value": float(x)}))
        else:
            raise TypeError(f"{kind}: inputs must be perlin.Field or numbers, got {type(x).__name__}")
    node = {"node": kind, "inputs": ids}
    node.update((k, v) for k, v in params.items() if v is not None)
    out = put(node)
    return Field.from_recipe(json.dumps({"perlin": 2, "nodes": nodes, "output": out}))


def _grid_of(shape, origin, step, first):
    """(shape as a tuple, the C++ grid, (origin, step, first) as x-first lists, [] for defaults)."""
    # A tuple of plain ints (the usual call) skips the numbers.Integral checks (about 1.5 us).
    if not (type(shape) is tuple and all(type(s) is int for s in shape)):
        if isinstance(shape, numbers.Integral):
            shape = (shape,)
        shape = tuple(shape)
        if not all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in shape):
            raise TypeError(f"shape: must be integers, got {shape}")
        shape = tuple(int(s) for s in shape)
    if any(s < 1 for s in shape):
        raise ValueError(f"shape: every axis needs at least 1 sample, got {shape}")
    d = len(shape)
    if origin is None and step is None and first is None:
        return shape, _perlin._make_grid(list(shape), [], [], []), ([], [], [])
    lists = ([] if origin is None else [float(v) for v in _seq(origin, d, "origin")],
             [] if step is None else [float(v) for v in _seq(step, d, "step")],
             [] if first is None else [int(v) for v in _seq(first, d, "first")])
    return shape, _perlin._make_grid(list(shape), *lists), lists


def _seq(v, d, name):
    if isinstance(v, numbers.Number):
        return [v] * d
    v = list(v)
    if len(v) != d:
        raise ValueError(f"{name}: must have one value per axis ({d}), got {len(v)}")
    return v


def _rebuild(kwargs):  # pickles of earlier versions
    return Field(**kwargs)


def _from_recipe(text):
    return Field.from_recipe(text)
