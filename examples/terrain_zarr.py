#!/usr/bin/python3
"""A 16-bit heightmap larger than the workers' memory, written to a Zarr store by a local Dask
cluster, with distributed's progress bar.

    /usr/bin/python3 examples/terrain_zarr.py --size 65536 --out terrain.zarr   # 8 GiB of uint16

The interpreter is Debian's /usr/bin/python3: ./scripts/install-deps installs its numpy, dask,
distributed and zarr (python3-numpy python3-dask python3-distributed python3-zarr), and
./scripts/install puts the package perlin where it looks (its user site, ~/.local). A python3
earlier on PATH (pyenv's) has neither. In the README's venv: .venv/bin/python examples/terrain_zarr.py.

Every chunk is computed from its location alone (perlin.dask.grid), so the map is the same, bit
for bit, for any chunking or number of workers, and no pass over the whole map is needed: the
heights are mapped to 0..65535 with the field's documented range, not with a global min/max.
"""
import argparse

import numpy as np

import perlin
import perlin.dask


def heightmap(size, chunk, seed):
    field = perlin.Field(seed=seed, fractal="fbm", octaves=10, normalize=True, decorrelate=True)
    heights = perlin.dask.grid(field, (size, size), chunks=(chunk, chunk), step=1 / 1024)
    lo, hi = field.range(2)
    scaled = (heights.astype(np.float64) - lo) / (hi - lo) * 65535
    return np.clip(np.floor(scaled + 0.5), 0, 65535).astype(np.uint16)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=16384, help="pixels on a side")
    ap.add_argument("--chunk", type=int, default=2048, help="pixels on a side of a chunk")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="1GiB", help="per worker")
    ap.add_argument("--seed", type=int, default=2002)
    ap.add_argument("--out", default="terrain.zarr")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()

    from distributed import Client, LocalCluster, progress

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      memory_limit=args.memory_limit, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        job = heightmap(args.size, args.chunk, args.seed).to_zarr(args.out, compute=False,
                                                                   overwrite=True)
        future = client.compute(job)
        if not args.quiet:
            progress(future)
            print()
        future.result()
    print(f"{args.out}: {args.size}x{args.size} uint16 heightmap")


if __name__ == "__main__":
    main()
