#!/usr/bin/env python3
"""Python's fixed cost a call (issue 53 item 4): Field.grid's usual calls (the C++ fast path,
perlin._perlin._grid_plain) beside the general path (forced with a numpy dtype object, which the
fast path leaves to it) and noise.pnoise2 (python3-noise) one call and over a 64x64 grid in a
Python loop. Interleaved rounds, CPU time of the process (a shared machine's other work is not
counted), median and min of the rounds, us a call.

    PYTHONPATH=build/dev/python taskset -c 1 /usr/bin/python3 bench/python_call_costs.py [ROUNDS]
"""
import sys
import time

import numpy as np

import perlin

try:
    import noise
except ImportError:  # python3-noise not installed: perlin alone
    noise = None


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    f = perlin.Field()
    general = np.dtype(np.float32)  # a dtype object: the general path
    o1 = np.empty((1, 1), np.float32)
    o64 = np.empty((64, 64), np.float32)
    cases = {
        "grid((1, 1), threads=1)": (lambda: f.grid((1, 1), threads=1), 5000),
        "  general path": (lambda: f.grid((1, 1), threads=1, dtype=general), 5000),
        "grid((1, 1), threads=1, out=)": (lambda: f.grid((1, 1), threads=1, out=o1), 5000),
        "  general path ": (lambda: f.grid((1, 1), threads=1, out=o1, dtype=general), 5000),
        "grid((64, 64), threads=1)": (lambda: f.grid((64, 64), threads=1), 1000),
        "  general path  ": (lambda: f.grid((64, 64), threads=1, dtype=general), 1000),
        "grid((64, 64), threads=1, out=)": (lambda: f.grid((64, 64), threads=1, out=o64), 1000),
        "grid((64, 64), step=1/16, origin=(0.5, 2))": (
            lambda: f.grid((64, 64), step=1 / 16, origin=(0.5, 2), threads=1), 1000),
        "f(0.3, 0.7)": (lambda: f(0.3, 0.7), 20000),
    }
    if noise is not None:
        xs = [x / 16 for x in range(64)]

        def pnoise_64x64():
            for y in range(64):
                yy = y / 16
                for x in xs:
                    noise.pnoise2(x, yy)

        cases["noise.pnoise2(0.3, 0.7)"] = (lambda: noise.pnoise2(0.3, 0.7), 20000)
        cases["noise.pnoise2 over 64x64, a Python loop"] = (pnoise_64x64, 20)
    times = {k: [] for k in cases}
    for _ in range(rounds):
        for k, (fn, n) in cases.items():
            start = time.process_time()
            for _ in range(n):
                fn()
            times[k].append((time.process_time() - start) / n * 1e6)
    print(f"perlin {perlin.__version__}, target {perlin.active_target()}, {rounds} rounds, "
          "us of CPU time a call")
    for k, t in times.items():
        t.sort()
        print(f"{k:46s} median {t[len(t) // 2]:9.2f}  min {t[0]:9.2f}")


if __name__ == "__main__":
    main()
