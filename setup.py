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


def say(message):
    """A line of the build's progress: pip shows it with -v (the README's command), and shows
    nothing of the build without it."""
    print(f"perlin-exact: {message}", flush=True)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        fresh = not (build / "CMakeCache.txt").exists()
        say(f"building the C++ library and the module with CMake in {build}")
        say("the first build compiles the SIMD kernels for every target (about 5.5 minutes on 2 "
            "cores); a later install reuses this folder" if fresh else
            "reusing the earlier build: only what changed is compiled")
        say(f"for {sys.executable}")
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DPERLIN_BUILD_TOOLS=OFF",
                        "-DPERLIN_BUILD_TESTS=OFF", "-DPERLIN_BUILD_BENCH=OFF", "-DPERLIN_IMAGE=OFF",
                        "-DPERLIN_INSTALL=OFF", "-DPERLIN_BUILD_PYTHON=ON",
                        f"-DPython_EXECUTABLE={sys.executable}",
                        *os.environ.get("PERLIN_CMAKE_ARGS", "").split()], check=True)
        say("compiling: [done/total] below is CMake's progress")
        subprocess.run(["cmake", "--build", str(build), "--target", "_perlin", "-j",
                        str(os.cpu_count() or 1)], check=True)
        say("built")
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
