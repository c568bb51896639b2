"""Field.grid's fast path (perlin._perlin._grid_plain, issue 53 item 4): the usual calls in one C++
call, the same arrays as the general path bit for bit; anything unusual goes the general way,
which checks and raises as before (test_field.py's error cases run through both)."""
import numpy as np
import pytest

import perlin
from perlin import _perlin

FIELDS = [perlin.Field(), perlin.Field(seed=9, fractal="fbm", octaves=5),
          perlin.Field(noise="value", interp="cubic", period=(4, 8)),
          perlin.Field(plane="rotated", warp="basic")]

# (shape, keywords) of calls the fast path takes.
CALLS = [
    ((1, 1), {}),
    ((64, 64), {}),
    ((5, 7), {"threads": 1}),
    ((33,), {"step": 0.1, "origin": 2.5}),
    ((9, 11), {"step": (0.5, 1 / 16), "origin": (-3, 7.25), "first": (2, -5)}),
    ((4, 5, 6), {"step": [0.3, 0.2, 0.1], "origin": [1, 2, 3], "first": 1, "strict": True}),
    ((3, 4, 5, 2), {"step": 0.25, "origin": (0.5, 0.5, 0.5, 0.5)}),
]


@pytest.mark.parametrize("f", FIELDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", CALLS)
def test_the_fast_path_gives_the_general_paths_arrays(f, dtype, shape, kw):
    general = f.grid(shape, dtype=np.dtype(dtype), **kw)  # a dtype object: the general path
    fast = _perlin._grid_plain(f, shape, dtype, kw.get("threads", 0), kw.get("strict", False),
                               kw.get("origin"), kw.get("step"), kw.get("first"), None)
    assert fast is not None, "the fast path declined a plain call"
    assert fast.dtype == dtype and fast.shape == shape and fast.flags.c_contiguous
    assert np.array_equal(fast, general)
    got = f.grid(shape, dtype=dtype, **kw)
    assert np.array_equal(got, general)
    out = np.full(shape, np.nan, dtype)
    assert f.grid(shape, dtype=dtype, out=out, **kw) is out
    assert np.array_equal(out, general)


def test_unusual_arguments_take_the_general_path():
    f = perlin.Field()
    plain = _perlin._grid_plain
    none = (0, False, None, None, None, None)
    assert plain(f, [4, 4], np.float32, *none) is None  # a list
    assert plain(f, (np.int64(4), 4), np.float32, *none) is None  # a numpy integer
    assert plain(f, (4, 4), "float32", *none) is None
    assert plain(f, (4, 4), np.dtype(np.float32), *none) is None
    assert plain(f, (0, 4), np.float32, *none) is None
    assert plain(f, (2**70, 4), np.float32, *none) is None
    assert plain(f, (4, 4), np.float32, -1, False, None, None, None, None) is None
    assert plain(f, (4, 4), np.float32, 0, 1, None, None, None, None) is None
    assert plain(f, (4, 4), np.float32, 0, False, (1, 2, 3), None, None, None) is None
    assert plain(f, (4, 4), np.float32, 0, False, np.zeros(2), None, None, None) is None
    assert plain(f, (4, 4), np.float32, 0, False, (np.float64(1), 2.0), None, None, None) is None
    assert plain(f, (4, 4), np.float32, 0, False, None, None, (1.5, 2), None) is None
    for out in (np.empty((4, 5), np.float32), np.empty((4, 4), np.float64),
                np.empty((4, 8), np.float32)[:, ::2]):
        assert plain(f, (4, 4), np.float32, 0, False, None, None, None, out) is None
    ro = np.empty((4, 4), np.float32)
    ro.flags.writeable = False
    assert plain(f, (4, 4), np.float32, 0, False, None, None, None, ro) is None
    # The library's own refusals (a count product that overflows, an infinite origin) too: the
    # general path raises them with its message.
    assert plain(f, (2**40, 2**40), np.float32, *none) is None
    assert plain(f, (3, 3), np.float32, 0, False, (np.inf, 0), None, None, None) is None
    assert plain(perlin.Field.__new__(perlin.Field), (4, 4), np.float32, *none) is None
    # ... and those calls still work, or fail as before.
    assert np.array_equal(f.grid([4, 4]), f.grid((4, 4)))
    assert np.array_equal(f.grid((np.int64(4), 4)), f.grid((4, 4)))
    assert np.array_equal(f.grid((4, 4), dtype="float32"), f.grid((4, 4)))
    with pytest.raises(ValueError, match="origin: must be finite"):
        f.grid((3, 3), origin=(np.inf, 0))
    with pytest.raises(TypeError, match="not initialised"):
        perlin.Field.__new__(perlin.Field).grid((4, 4))
