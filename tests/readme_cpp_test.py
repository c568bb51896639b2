"""The README's C++ examples compile and run: every ```cpp block, in order, in one main().
Usage: readme_cpp_test.py README CXX INCLUDE_DIR LIBRARY WORK_DIR"""
import pathlib
import re
import subprocess
import sys

readme, cxx, include, library, work = sys.argv[1:6]
blocks = re.findall(r"```cpp\n(.*?)```", pathlib.Path(readme).read_text(), re.S)
assert blocks, "no C++ example in the README"
includes, body = [], []
for b in blocks:
    for line in b.splitlines():
        (includes if line.startswith("#include") else body).append(line)
# The values the comments promise: Ken Perlin's reference value, and a grid that covers many cells.
checks = ["  if (v != 0.13691995878400012) return 1;",
          "  if (!(hi - lo > 0.5)) return 2;"]
source = "\n".join(sorted(set(includes)) + ["#include <cstdio>", "int main() {"] + body + checks +
                   ['  std::puts("readme: ok");', "  return 0;", "}"]) + "\n"
work = pathlib.Path(work)
work.mkdir(parents=True, exist_ok=True)
(work / "readme.cpp").write_text(source)
lib = pathlib.Path(library)
subprocess.run([cxx, "-std=c++20", "-Wall", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-I", include,
                str(work / "readme.cpp"), "-o", str(work / "readme"), str(lib),
                "-Wl,-rpath," + str(lib.parent), "-lhwy", "-pthread"], check=True)
out = subprocess.run([str(work / "readme")], check=True, capture_output=True, text=True).stdout
assert "readme: ok" in out, out
print("readme C++: ok")
