"""Dask arrays of a perlin.Field, identical bit for bit to Field.grid for every chunking.

Each block is one fill of the whole grid's region (the C++ grid::first), computed from the
block's location alone: no global pass, no rescaling, any chunks (uneven included). Fields
pickle, so the graph runs on a distributed cluster.
"""
import numpy as np

import dask.array as da


def grid(field, shape, chunks="auto", origin=None, step=None, dtype=np.float32, strict=False):
    """A dask.array of `shape` (numpy order) whose block at offsets (.., j0, i0) is
    field.grid(block_shape, origin, step, first=(i0, j0, ..)). Threads: one per block."""
    import numbers

    import perlin

    if not isinstance(field, perlin.Field):
        raise TypeError(f"field: must be a perlin.Field, got {type(field).__name__}")
    field.recipe  # a Field that was never initialised raises here, not on a worker
    shape = tuple(shape)
    if not 1 <= len(shape) <= 4 or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool)
                                          and s >= 1 for s in shape):
        raise ValueError(f"shape: must be 1 to 4 integers >= 1, got {shape}")
    shape = tuple(int(s) for s in shape)
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"dtype: must be float32 or float64, got {dt}")
    d = len(shape)

    def block(block_info=None):
        info = block_info[None]
        loc = info["array-location"]
        bshape = tuple(hi - lo for lo, hi in loc)
        first = [lo for lo, _ in reversed(loc)]  # x first
        return field.grid(bshape, origin=origin, step=step, first=first, dtype=dt, threads=1,
                          strict=strict)

    normalized = da.core.normalize_chunks(chunks, shape, dtype=dt)
    # Checked when the graph is built, not on the workers: every block holds samples (Dask allows
    # zero-length chunks, which a grid cannot fill), and the grid's extent is valid (origin, step
    # and the 2^52 rule: one small grid at each corner asks the library).
    for axis, sizes in enumerate(normalized):
        if any(c < 1 for c in sizes):
            raise ValueError(f"chunks: every chunk needs at least 1 sample, got {sizes} on axis {axis}")
    for corner in ((0,) * d, tuple(s - 1 for s in reversed(shape))):
        field.grid((1,) * d, origin=origin, step=step, first=list(corner), dtype=dt, threads=1)
    return da.map_blocks(block, dtype=dt, chunks=normalized, meta=np.empty((0,) * d, dtype=dt))
