"""Dask arrays of a perlin.Field, identical bit for bit to Field.grid for every chunking.

Each block is one fill of the whole grid's region (the C++ grid::first), computed from the
block's location alone: no global pass, no rescaling, any chunks (uneven included). Fields
pickle, so the graph runs on a distributed cluster. The graph is one Blockwise layer that makes
each block's task from its index when the task is needed (like dask's own da.zeros), and more
than MAX_BLOCKS blocks are refused from the chunk sizes before dask lists them.
"""
import math
import numbers

import numpy as np

import dask
import dask.array as da
from dask.array.core import auto_chunks
from dask.base import tokenize
from dask.blockwise import blockwise as _blockwise_layer
from dask.highlevelgraph import HighLevelGraph
from dask.layers import ArraySliceDep
from dask.utils import parse_bytes

# The most blocks a grid may have. The graph costs nothing per block, but dask lists every
# block's size along each axis (2^40 samples in auto chunks are 190 million of them) and, to
# compute even one slice, visits every block's key (about 2 us a block here: 4 million blocks
# are 9 s).
MAX_BLOCKS = 2**22


def _blocks_per_axis(chunks, shape, dt):
    """The number of blocks along each axis for dask's forms of `chunks` (numbers, "auto", byte
    sizes, -1/None, a dict or a tuple of these or of explicit sizes), computed from the chunk
    sizes before dask expands them into one entry per block; None where dask's normalize_chunks
    should give its own message."""
    d = len(shape)
    if isinstance(chunks, list):
        chunks = tuple(chunks)
    if isinstance(chunks, (numbers.Number, str)):
        chunks = (chunks,) * d
    if isinstance(chunks, dict):
        chunks = tuple(chunks.get(i) for i in range(d))
    if not isinstance(chunks, tuple) or len(chunks) != d:
        return None
    limit = None
    sizes = []
    for c, s in zip(chunks, shape):
        if c is None or (isinstance(c, numbers.Number) and c == -1):
            c = s
        elif isinstance(c, str):
            if c != "auto":
                limit = parse_bytes(c)
            c = "auto"
        sizes.append(c)
    if any(isinstance(c, str) for c in sizes):
        sizes = auto_chunks(tuple(sizes), shape, limit, dt)
    counts = []
    for c, s in zip(sizes, shape):
        if isinstance(c, (tuple, list)):
            counts.append(len(c))
        elif isinstance(c, numbers.Integral) and c >= 1:
            counts.append(-(-s // int(c)))
        else:
            return None
    return counts


def grid(field, shape, chunks="auto", origin=None, step=None, dtype=np.float32, strict=False):
    """A dask.array of `shape` (numpy order) whose block at offsets (.., j0, i0) is
    field.grid(block_shape, origin, step, first=(i0, j0, ..)). Threads: one per block."""
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

    def block(region):
        # region: the block's slices into the whole grid (numpy order), from its index
        bshape = tuple(r.stop - r.start for r in region)
        first = [r.start for r in reversed(region)]  # x first
        return field.grid(bshape, origin=origin, step=step, first=first, dtype=dt, threads=1,
                          strict=strict)

    counts = _blocks_per_axis(chunks, shape, dt)
    if counts is not None and math.prod(counts) > MAX_BLOCKS:
        samples = -(-math.prod(shape) // MAX_BLOCKS)
        raise ValueError(f"chunks: {math.prod(counts):,} blocks ({' x '.join(f'{c:,}' for c in counts)}),"
                         f" more than the {MAX_BLOCKS:,} (2^22) a dask graph can schedule; give "
                         f"chunks of at least {samples:,} samples for shape {shape}")
    normalized = da.core.normalize_chunks(chunks, shape, dtype=dt)
    # Checked when the graph is built, not on the workers: every block holds samples (Dask allows
    # zero-length chunks, which a grid cannot fill), and the grid's extent is valid (origin, step
    # and the 2^52 rule: one small grid at each corner asks the library).
    for axis, sizes in enumerate(normalized):
        if any(c < 1 for c in sizes):
            raise ValueError(f"chunks: every chunk needs at least 1 sample, got {sizes} on axis {axis}")
    for corner in ((0,) * d, tuple(s - 1 for s in reversed(shape))):
        field.grid((1,) * d, origin=origin, step=step, first=list(corner), dtype=dt, threads=1)
    # One Blockwise layer over the blocks' slices (dask's from_array and da.zeros do the same):
    # no task exists until the scheduler asks for it, so the graph costs nothing per block.
    # The name from what chose the chunks (not from their list: hashing 185,000 sizes an axis
    # took most of the time at 2^30).
    name = "perlin-grid-" + tokenize(field.recipe, shape, chunks, dask.config.get("array.chunk-size"),
                                     origin, step, dt.str, strict)
    index = tuple(range(d))
    layer = _blockwise_layer(block, name, index, ArraySliceDep(normalized), index, numblocks={})
    return da.Array(HighLevelGraph.from_collections(name, layer), name, normalized, dtype=dt,
                    meta=np.empty((0,) * d, dtype=dt))
