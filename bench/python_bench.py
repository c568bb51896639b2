#!/usr/bin/env python3
"""Python bench: ns per sample of the perlin package beside the C++ library (perlin_bench, the
same workloads) and the Python peers Debian packages, in one run. Prints a Markdown table.

    PYTHONPATH=build/dev/python /usr/bin/python3 bench/python_bench.py build/dev/bench/perlin_bench

Workloads: grid2d (2048x2048 float32, step 1/64, one thread: perlin_bench's grid2d/perlin),
points3d (2^20 float32 points uniform in [-1000, 1000]^3, one thread: points3d/perlin), exact
(f(x, y, z) on 2^20 float64 points, the double path). Peers: noise.pnoise2 (python3-noise, one
call per element, the way it is used) and a plain numpy vectorised improved noise (written here,
Ken Perlin's algorithm on arrays).
"""
import json
import platform
import subprocess
import sys
import time

import numpy as np

import perlin


def best_ns(fn, samples, repeat=5):
    """Best of `repeat` runs, in ns per sample."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1e9 / samples


def cpp_ns(bench, name):
    out = subprocess.run([bench, f"--benchmark_filter=^{name}$", "--benchmark_format=json",
                          "--benchmark_min_time=0.5", "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true"],
                         capture_output=True, text=True, check=True).stdout
    rows = json.loads(out)["benchmarks"]
    median = next(r for r in rows if r.get("aggregate_name") == "median")
    return 1e9 / median["items_per_second"]


# ---- a plain numpy improved noise (2-D, the z = 0 slice), the peer people write themselves ----
P = np.array([151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194,
    233, 7, 225, 140, 36, 103, 30, 69, 142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234,
    75, 0, 26, 197, 62, 94, 252, 219, 203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174,
    20, 125, 136, 171, 168, 68, 175, 74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111,
    229, 122, 60, 211, 133, 230, 220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63,
    161, 1, 216, 80, 73, 209, 76, 132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86,
    164, 100, 109, 198, 173, 186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126,
    255, 82, 85, 212, 207, 206, 59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119,
    248, 152, 2, 44, 154, 163, 70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98,
    108, 110, 79, 113, 224, 232, 178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238,
    210, 144, 12, 191, 179, 162, 241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181,
    199, 106, 157, 184, 84, 204, 176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222,
    114, 67, 29, 24, 72, 243, 141, 128, 195, 78, 66, 215, 61, 156, 180] * 2)
GX = np.array([1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 1, 0, -1, 0], dtype=np.float64)
GY = np.array([1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1], dtype=np.float64)


def numpy_noise2(x, y):
    xi, yi = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = x - xi, y - yi
    xi &= 255
    yi &= 255
    u = fx * fx * fx * (fx * (fx * 6 - 15) + 10)
    v = fy * fy * fy * (fy * (fy * 6 - 15) + 10)
    a, b = P[xi] + yi, P[xi + 1] + yi

    def g(h, px, py):
        h = P[h] & 15  # the z = 0 slice: one more level of the hash with index 0
        return GX[h] * px + GY[h] * py

    aa, ab, ba, bb = P[a], P[a + 1], P[b], P[b + 1]
    x1 = g(aa, fx, fy) + u * (g(ba, fx - 1, fy) - g(aa, fx, fy))
    x2 = g(ab, fx, fy - 1) + u * (g(bb, fx - 1, fy - 1) - g(ab, fx, fy - 1))
    return x1 + v * (x2 - x1)


def dask_rows():
    """8192x8192 fBm (8 octaves) float32: one process on every core against a LocalCluster of
    2 worker processes (one thread each), both reducing to the maximum so that no map travels."""
    import perlin.dask
    from distributed import Client, LocalCluster

    n = 8192
    f = perlin.Field(fractal="fbm", octaves=8, normalize=True)
    single = best_ns(lambda: f.grid((n, n), step=1 / 256, threads=0).max(), n * n, repeat=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        # A new origin each time: the same graph again could be served from the cluster's memory.
        runs = iter(range(1, 100))
        perlin.dask.grid(f, (n, n), chunks=(1024, 8192), step=1 / 256).max().compute()  # warm up
        cluster_ns = best_ns(lambda: perlin.dask.grid(f, (n, n), chunks=(1024, 8192), step=1 / 256,
                                                      origin=(next(runs) * 1e-3, 0)).max().compute(),
                             n * n, repeat=2)
    print(f"\nDask, 8192x8192 fBm 8 octaves float32: one process, every core {single:.2f} ns/sample; "
          f"LocalCluster of 2 processes {cluster_ns:.2f} ns/sample ({cluster_ns / single:.2f}x).")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    bench = args[0] if args else "build/release/bench/perlin_bench"
    f = perlin.Field()
    rows = []

    n = 2048
    py_grid = best_ns(lambda: f.grid((n, n), step=1 / 64, threads=1), n * n)
    buf = np.empty((n, n), np.float32)
    py_grid_out = best_ns(lambda: f.grid((n, n), step=1 / 64, threads=1, out=buf), n * n)
    py_grid_mt = best_ns(lambda: f.grid((n, n), step=1 / 64, threads=0, out=buf), n * n)
    cpp_grid = cpp_ns(bench, "grid2d/perlin")
    rng = np.random.Generator(np.random.MT19937(2002))
    pts = rng.uniform(-1000, 1000, (1 << 20, 3)).astype(np.float32)
    py_points = best_ns(lambda: f.points(pts, threads=1), len(pts))
    cpp_points = cpp_ns(bench, "points3d/perlin")
    xyz = pts.astype(np.float64)
    x, y, z = xyz[:, 0].copy(), xyz[:, 1].copy(), xyz[:, 2].copy()
    py_exact = best_ns(lambda: f(x, y, z, threads=1), len(x))

    try:
        import noise
        m = 256
        xs = np.arange(m) / 64
        def pnoise():
            out = np.empty((m, m))
            for j in range(m):
                for i in range(m):
                    out[j, i] = noise.pnoise2(xs[i], xs[j])
            return out
        pn2 = best_ns(pnoise, m * m, repeat=2)
    except ImportError:
        pn2 = float("nan")
    xs = np.arange(n) / 64
    gx, gy = np.meshgrid(xs, xs)
    np2 = best_ns(lambda: numpy_noise2(gx, gy), n * n, repeat=2)
    assert np.abs(numpy_noise2(gx[:4, :4], gy[:4, :4]) - f.grid((4, 4), step=1 / 64, dtype=np.float64)).max() < 1e-12

    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"python_bench on {cpu}, SIMD target {perlin.active_target()}, one thread; ns per sample.\n")
    print("| workload | perlin (Python) | C++ perlin_bench | binding overhead | noise.pnoise2 per element | numpy vectorised |")
    print("|---|---|---|---|---|---|")
    print(f"| grid2d 2048x2048 float32, out= | {py_grid_out:.2f} | {cpp_grid:.2f} | {py_grid_out / cpp_grid:.2f}x | "
          f"{pn2:.0f} ({pn2 / py_grid_out:.0f}x slower) | {np2:.1f} ({np2 / py_grid_out:.0f}x slower) |")
    print(f"| grid2d, a new array each call | {py_grid:.2f} | | {py_grid / cpp_grid:.2f}x | | |")
    print(f"| grid2d, out=, threads=0 (every core) | {py_grid_mt:.2f} | | | {pn2 / py_grid_mt:.0f}x slower | "
          f"{np2 / py_grid_mt:.0f}x slower |")
    print(f"| points3d 2^20 float32 | {py_points:.2f} | {cpp_points:.2f} | {py_points / cpp_points:.2f}x | | |")
    print(f"| exact f(x, y, z), 2^20 float64 | {py_exact:.2f} | | | | |")
    if "--dask" in sys.argv:
        dask_rows()


if __name__ == "__main__":
    main()
