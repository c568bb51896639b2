"""The goldens every language's tests read from tests/data: the seed check values of
docs/seeding.md (seeds.txt) bit for bit, and the version, which is the project() line of the top
CMakeLists.txt (the one place a release changes it)."""
import re
import struct

import perlin


def seed_values(test_data):
    """The noise rows of seeds.txt: (seed, kind, point, value, bits)."""
    for line in (test_data / "seeds.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[1] != "permutation":
            seed, kind, point, value, hexbits = cols
            yield int(seed), kind, [float(x) for x in point.split()], float(value), hexbits


def project_version(test_data):
    text = (test_data / ".." / ".." / "CMakeLists.txt").read_text()
    return re.search(r"project\(perlin VERSION ([0-9.]+)", text).group(1)


def test_seed_check_values_bit_for_bit(test_data):
    n = 0
    for seed, kind, point, value, hexbits in seed_values(test_data):
        assert struct.pack(">d", value).hex() == hexbits, (seed, kind, point)
        got = perlin.Field(seed=seed, noise=kind)(*point)
        assert struct.pack("<d", got) == struct.pack("<d", value), (seed, kind, point, got)
        n += 1
    assert n >= 9


def test_the_version_is_the_projects(test_data):
    version = project_version(test_data)
    assert perlin.__version__ == version
    pyproject = (test_data / ".." / ".." / "pyproject.toml").read_text()
    assert re.search(r'^version = "([0-9.]+)"', pyproject, re.M).group(1) == version


def simplex_golden(test_data, dims, limit=60):
    """The first `limit` rows of simplex_gustavson_{dims}d.txt: (point, value) from the bits."""
    out = []
    for line in (test_data / f"simplex_gustavson_{dims}d.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        words = [struct.unpack(">d", bytes.fromhex(h))[0] for h in line.split("\t")[1].split()]
        out.append((words[:-1], words[-1]))
        if len(out) == limit:
            break
    return out


def test_simplex_recipe_gives_gustavsons_values_bit_for_bit(test_data):
    f = perlin.Field.from_recipe("perlin=1&noise=simplex")
    for dims in (2, 3, 4):
        for point, value in simplex_golden(test_data, dims):
            assert struct.pack("<d", f(*point)) == struct.pack("<d", value), (dims, point)
