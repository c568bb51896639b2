"""perlin.dask.grid: identical bit for bit to Field.grid for every chunking, on the threaded
scheduler and on a distributed LocalCluster with 2 worker processes; Zarr straight from it."""
import numpy as np
import pytest

import perlin
import perlin.dask as pdask

FIELD = perlin.Field(seed=9, fractal="fbm", octaves=6, normalize=True, decorrelate=True)
SHAPE = (157, 203)
ORIGIN = (12.5, -3.25)
STEP = (1 / 37, 1 / 41)


@pytest.fixture(scope="module")
def whole():
    return FIELD.grid(SHAPE, origin=ORIGIN, step=STEP)


@pytest.mark.parametrize("chunks", [(64, 64), (157, 203), (10, 203), (157, 7), ((100, 57), (1, 2, 200))])
def test_any_chunking_gives_the_same_bits(whole, chunks):
    arr = pdask.grid(FIELD, SHAPE, chunks=chunks, origin=ORIGIN, step=STEP)
    assert arr.dtype == np.float32
    assert np.array_equal(arr.compute(scheduler="threads"), whole)


def test_float64_and_3d():
    shape = (5, 30, 31)
    want = FIELD.grid(shape, step=0.1, dtype=np.float64)
    arr = pdask.grid(FIELD, shape, chunks=(2, 16, 9), step=0.1, dtype=np.float64)
    assert np.array_equal(arr.compute(scheduler="threads"), want)


def test_local_cluster_with_two_processes(whole):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        arr = pdask.grid(FIELD, SHAPE, chunks=(50, 70), origin=ORIGIN, step=STEP)
        assert np.array_equal(client.compute(arr).result(), whole)


def test_to_zarr(whole, tmp_path):
    zarr = pytest.importorskip("zarr")
    arr = pdask.grid(FIELD, SHAPE, chunks=(64, 64), origin=ORIGIN, step=STEP)
    arr.to_zarr(str(tmp_path / "map.zarr"))
    assert np.array_equal(zarr.open(str(tmp_path / "map.zarr"))[:], whole)


def test_the_terrain_zarr_example_at_a_small_size(tmp_path):
    zarr = pytest.importorskip("zarr")
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).parents[2] / "examples" / "terrain_zarr.py"
    out = tmp_path / "t.zarr"
    subprocess.run([sys.executable, str(example), "--size", "512", "--chunk", "96", "--workers", "2",
                    "--out", str(out), "--quiet"], check=True, timeout=300)
    stored = zarr.open(str(out))[:]
    field = perlin.Field(seed=2002, fractal="fbm", octaves=10, normalize=True, decorrelate=True)
    heights = field.grid((512, 512), step=1 / 1024).astype(np.float64)
    lo, hi = field.range(2)
    want = np.clip(np.floor((heights - lo) / (hi - lo) * 65535 + 0.5), 0, 65535).astype(np.uint16)
    assert stored.dtype == np.uint16 and stored.shape == (512, 512)
    assert np.array_equal(stored, want)
    assert stored.max() - stored.min() > 5000  # not flat



def test_many_blocks_cost_nothing_until_computed():
    # The graph makes each block's task from its index when it is needed (the graph of every
    # block's location took 7 us a block: 27 s for 4 million).
    import time

    shape = (2**16, 2**16)
    start = time.perf_counter()
    arr = pdask.grid(FIELD, shape, chunks=(256, 256), origin=ORIGIN, step=STEP)
    assert time.perf_counter() - start < 1
    assert arr.numblocks == (256, 256)
    want = FIELD.grid((3, 5), origin=ORIGIN, step=STEP, first=[2**16 - 5, 2**16 - 3])
    assert np.array_equal(arr[-3:, -5:].compute(scheduler="threads"), want)


@pytest.mark.parametrize("shape, chunks", [((2**30, 2**30), "auto"), ((2**40, 2**40), "auto"),
                                           ((2**40,), 4096), ((2**52, 1), (1024, 1)),
                                           ((2**26, 2**26, 2**26), "auto")])
def test_shapes_of_too_many_blocks_are_refused_quickly(shape, chunks):
    # (2^30, 2^30) in dask's auto chunks is 34 billion blocks: its graph took 22 s and 4 GB
    # before a MemoryError, (2^40, 2^40) 24 GB before the OOM killer; dask itself needs about
    # 2 us a block to compute even one slice of it. Refused from the chunk sizes, before dask
    # lists a block (the bound leaves room for a loaded machine; it takes about 1 ms).
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"chunks: [\d,]+ blocks \(.*\), more than the "
                                         r"4,194,304 \(2\^22\).*; give chunks of at least"):
        pdask.grid(perlin.Field(), shape, chunks=chunks)
    assert time.perf_counter() - start < 1
