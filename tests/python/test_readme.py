"""The README's Python example runs as written and draws what it says: full-contrast maps."""
import re

import numpy as np

import perlin


def test_the_readme_python_example_runs_and_draws_full_contrast_maps(test_data, capsys):
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
    f = scope["f"]
    assert np.ptp(f(scope["x"], scope["y"])) > 0.5
    # What its comments promise: Ken Perlin's value, and a field read back from its recipe.
    assert perlin.Field()(3.14, 42, 7) == 0.13691995878400012
    assert "0.13691995878400012" in capsys.readouterr().out
    assert np.array_equal(scope["g"].grid((64, 64), step=1 / 64), f.grid((64, 64), step=1 / 64))
    assert scope["img"].shape == (512, 512, 3) and scope["img"].dtype == np.uint8


def test_every_python_command_names_its_interpreter(test_data):
    """Debian's /usr/bin/python3 has numpy, dask and zarr (scripts/install-deps) and finds the
    package ./scripts/install puts in ~/.local; a bare `python3` may be pyenv's, which has neither."""
    root = test_data / ".." / ".."
    for example in sorted((root / "examples").glob("*.py")):
        text = example.read_text()
        assert text.startswith("#!/usr/bin/python3\n"), f"{example.name}: shebang"
        assert f"/usr/bin/python3 examples/{example.name}" in text, f"{example.name}: usage line"
    readme = (root / "README.md").read_text()
    for block in re.findall(r"```sh\n(.*?)```", readme, re.S):
        for line in block.splitlines():
            command = line.removeprefix("$ ")
            assert not re.match(r"(python3?|pip3?) ", command), f"README: {line}"


def test_the_python_guide_example_runs_and_draws_full_contrast_maps(test_data):
    """docs/python.md's example, every call of the package, as written."""
    guide = (test_data / ".." / ".." / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    assert blocks, "docs/python.md has a Python example"
    scope = {}
    exec(compile(blocks[0], "docs/python.md", "exec"), scope)
    h = scope["h"]
    assert h.shape == (1024, 1024)
    assert np.ptp(h) > 0.8 and h.std() > 0.1
    assert scope["masks"].shape == (16, 256, 256)
    big = scope["big"]
    assert big.shape == (65536, 65536)
    assert np.ptp(big[:2048, :2048].compute()) > 0.5
    f = scope["f"]
    assert np.ptp(f(scope["x"], scope["y"])) > 0.5
