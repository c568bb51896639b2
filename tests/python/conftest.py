# The tests import the package from the build folder (PYTHONPATH, set by ctest) and find the
# perlin executable and the reference data through environment variables.
import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def perlin_exe():
    return os.environ["PERLIN_EXE"]


@pytest.fixture(scope="session")
def test_data():
    return pathlib.Path(os.environ["PERLIN_TEST_DATA"])
