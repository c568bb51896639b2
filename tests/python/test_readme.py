"""The README's Python example runs as written and draws what it says: full-contrast maps."""
import re

import numpy as np


def test_the_readme_python_example_runs_and_draws_full_contrast_maps(test_data):
    readme = (test_data / ".." / ".." / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks, "the README has a Python example"
    scope = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)
    # Maps spanning many lattice cells reach well into both signs: not a near-blank slice of one cell.
    for name in ("h", "x", "img"):
        assert name in scope, name
    h = scope["h"]
    assert h.shape == (1024, 1024)
    assert np.ptp(h) > 0.8 and h.std() > 0.1
    big = scope["big"]
    assert big.shape == (65536, 65536)
    corner = big[:2048, :2048].compute()
    assert np.ptp(corner) > 0.5
    f = scope["f"]
    assert np.ptp(f(scope["x"], scope["y"])) > 0.5
