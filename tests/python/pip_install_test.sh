#!/usr/bin/env bash
# The README's install command, checked: a copy of the sources, a venv over Debian's Python with
# its packages, `pip install --no-build-isolation .` (offline), then `import perlin`.
set -euo pipefail
src=$1 python=$2 work=$3
rm -rf "$work"
mkdir -p "$work/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard 2>/dev/null || find . -path ./build -prune -o -type f -print0) |
  (cd "$src" && xargs -0 cp --parents -t "$work/src")
"$python" -m venv --system-site-packages "$work/venv"
cd "$work/src"
# The kernels for the baseline target only: this checks the packaging, not the targets (the
# module built by the project's own build is tested on every target by python_tests).
PERLIN_CMAKE_ARGS=-DPERLIN_BASELINE_SIMD_ONLY=ON \
  "$work/venv/bin/pip" install --no-build-isolation --no-index --quiet .
cd "$work"
"$work/venv/bin/python" -c '
import perlin, numpy as np
assert perlin.Field()(3.14, 42, 7) == 0.13691995878400012
assert perlin.Field(seed=1).grid((8, 8)).shape == (8, 8)
assert perlin.__file__.startswith("'"$work"'/venv"), perlin.__file__
from importlib.metadata import version
assert version("perlin-exact") == perlin.__version__, version("perlin-exact")
print("pip install: ok", perlin.__file__)
'
