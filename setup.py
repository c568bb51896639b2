"""Builds the extension perlin._perlin with the project's CMake (see pyproject.toml)."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).parent.resolve()


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DPERLIN_BUILD_TOOLS=OFF",
                        "-DPERLIN_BUILD_TESTS=OFF", "-DPERLIN_BUILD_BENCH=OFF", "-DPERLIN_IMAGE=OFF",
                        "-DPERLIN_INSTALL=OFF", "-DPERLIN_BUILD_PYTHON=ON",
                        f"-DPython_EXECUTABLE={sys.executable}",
                        *os.environ.get("PERLIN_CMAKE_ARGS", "").split()], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_perlin", "-j",
                        str(os.cpu_count() or 1)], check=True)
        built = next((build / "python" / "perlin").glob("_perlin*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(
    packages=["perlin"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("perlin._perlin")],
    cmdclass={"build_ext": CMakeBuild},
)
