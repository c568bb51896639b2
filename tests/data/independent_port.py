#!/usr/bin/env python3
"""An independent port of docs/seeding.md and docs/noise.md, checked against `perlin eval`.

Written from the documents alone (not from the C++ sources): SplitMix64, the unbiased draw and
Fisher-Yates build the permutation of a seed; improved noise follows Ken Perlin's 2002 Java code
in his evaluation order (1-D and 2-D are its slices y = z = 0 and z = 0); 4-D and value noise
follow docs/noise.md. Python floats are IEEE doubles and Python never fuses a multiply and an
add, so every value must equal the library's double path exactly.

Usage: independent_port.py PATH_TO_PERLIN   (exit 0 when every value matches)
"""
import math
import pathlib
import random
import subprocess
import sys

MASK = (1 << 64) - 1


def permutation(seed):
    state = seed

    def draw():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(n):
        threshold = ((1 << 64) - n) % n
        r = draw()
        while r < threshold:
            r = draw()
        return r % n

    t = list(range(256))
    for i in range(255, 0, -1):
        j = below(i + 1)
        t[i], t[j] = t[j], t[i]
    return t + t


def fade(t):
    return t * t * t * (t * (t * 6 - 15) + 10)


def lerp(t, a, b):
    return a + t * (b - a)


def grad3(h, x, y, z):  # Ken Perlin's grad(hash, x, y, z)
    h &= 15
    u = x if h < 8 else y
    v = y if h < 4 else (x if h in (12, 14) else z)
    return (u if h & 1 == 0 else -u) + (v if h & 2 == 0 else -v)


def improved3(p, x, y, z):  # Ken Perlin's noise(x, y, z), line by line
    X, Y, Z = math.floor(x) & 255, math.floor(y) & 255, math.floor(z) & 255
    x, y, z = x - math.floor(x), y - math.floor(y), z - math.floor(z)
    u, v, w = fade(x), fade(y), fade(z)
    A = p[X] + Y; AA = p[A] + Z; AB = p[A + 1] + Z
    B = p[X + 1] + Y; BA = p[B] + Z; BB = p[B + 1] + Z
    return lerp(w, lerp(v, lerp(u, grad3(p[AA], x, y, z), grad3(p[BA], x - 1, y, z)),
                        lerp(u, grad3(p[AB], x, y - 1, z), grad3(p[BB], x - 1, y - 1, z))),
                lerp(v, lerp(u, grad3(p[AA + 1], x, y, z - 1), grad3(p[BA + 1], x - 1, y, z - 1)),
                        lerp(u, grad3(p[AB + 1], x, y - 1, z - 1), grad3(p[BB + 1], x - 1, y - 1, z - 1))))


def corners(p, cells, depth):
    """Hash bytes of the 2^D corners (bit k of the corner index: upper along axis k); axes
    beyond D up to `depth` hash with index 0 (docs/seeding.md, 'How the table is used')."""
    hashes = [0]
    for k in range(depth):
        lo = cells[k] & 255 if k < len(cells) else 0
        hi = (cells[k] + 1) & 255 if k < len(cells) else 0
        if k == 0:
            hashes = [p[lo], p[hi]]
        elif k < len(cells):
            hashes = [p[h + lo] for h in hashes] + [p[h + hi] for h in hashes]
        else:
            hashes = [p[h] for h in hashes]
    return hashes  # ordered so that index bit k is axis k


def blend(values, weights):
    for t in weights:  # x first, then y, z, w
        values = [lerp(t, values[2 * j], values[2 * j + 1]) for j in range(len(values) // 2)]
    return values[0]


def improved4(p, pt):
    cells = [math.floor(c) for c in pt]
    f = [c - math.floor(c) for c in pt]
    h = corners(p, cells, 4)
    vals = []
    for c in range(16):
        g = h[c] & 31
        zero, bit, dot = g >> 3, 0, None
        for k in range(4):  # summed x, y, z, w in order
            if k == zero:
                comp = 0
            else:
                comp = -1 if (g >> bit) & 1 else 1
                bit += 1
            term = comp * (f[k] - 1 if (c >> k) & 1 else f[k])
            dot = term if dot is None else dot + term
        vals.append(dot)
    return blend(vals, [fade(t) for t in f])


def value_noise(p, pt):  # quintic interpolation, the default
    cells = [math.floor(c) for c in pt]
    f = [c - math.floor(c) for c in pt]
    h = corners(p, cells, 3 if len(pt) <= 3 else 4)
    return blend([hv / 127.5 - 1 for hv in h], [fade(t) for t in f])


def improved(p, pt):
    if len(pt) == 4:
        return improved4(p, pt)
    x, y, z = (list(pt) + [0.0, 0.0])[:3]
    return improved3(p, x, y, z)


def main():
    exe = sys.argv[1]
    rnd = random.Random(2002)
    failures = 0
    checked = 0
    # The check values of docs/seeding.md (seeds.txt, beside this file): the tables' first
    # entries and the noise values, from the port alone.
    seeds = pathlib.Path(__file__).with_name("seeds.txt").read_text().splitlines()
    for cols in (line.split("\t") for line in seeds if line and not line.startswith("#")):
        seed = int(cols[0])
        checked += 1
        if cols[1] == "permutation":
            prefix = [int(x) for x in cols[2].split()]
            if permutation(seed)[:len(prefix)] != prefix:
                failures += 1
                print(f"seed {seed}: the port's table starts {permutation(seed)[:8]}, seeds.txt says {prefix}")
        else:
            fn = improved if cols[1] == "improved" else value_noise
            pt = [float(x) for x in cols[2].split()]
            if fn(permutation(seed), pt) != float(cols[3]):
                failures += 1
                print(f"seed {seed} {cols[1]} {pt}: the port gives {fn(permutation(seed), pt)!r}, seeds.txt says {cols[3]}")
    for seed in (0, 1, 42, 12345, 2**63 + 7, 2**64 - 1):
        p = permutation(seed)
        for noise, fn in (("improved", improved), ("value", value_noise)):
            points = [[round(rnd.uniform(-300, 300), 6) for _ in range(d)]
                      for d in (1, 2, 3, 4) for _ in range(25)]
            text = "".join(" ".join(repr(c) for c in pt) + "\n" for pt in points)
            out = subprocess.run([exe, "eval", "--seed", str(seed), "--noise", noise],
                                 input=text, capture_output=True, text=True, check=True).stdout
            for pt, line in zip(points, out.splitlines(), strict=True):
                want, got = fn(p, pt), float(line)
                checked += 1
                if want != got:
                    failures += 1
                    print(f"seed {seed} {noise} {pt}: perlin {got!r}, port {want!r}")
    print(f"independent port: {checked} values, {failures} differ")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
