# Starts `perlin serve --port 0` for the tests and stops it with SIGINT.
import os
import signal
import subprocess

import pytest


def start_server(exe, *args):
    proc = subprocess.Popen([exe, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("perlin serve: http://127.0.0.1:"), line
    return proc, line.split(": ", 1)[1].strip()


@pytest.fixture(scope="session")
def perlin_exe():
    return os.environ["PERLIN_EXE"]


@pytest.fixture(scope="module")
def server(perlin_exe):
    proc, url = start_server(perlin_exe)
    yield url
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0
