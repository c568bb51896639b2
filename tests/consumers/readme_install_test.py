#!/usr/bin/env python3
"""The README's set-up lines after its install, run as written from a new shell.

Usage: readme_install_test.py README.md HOME_DIR WORK_DIR

HOME_DIR/.local holds a `cmake --install` of the build (what ./scripts/install puts there). With
HOME=HOME_DIR and none of the build's paths in the environment, every ```sh block of the README
that names $HOME/.local or runs an app.* (not pip's venv) runs in one bash, in order, like a user's new shell (the exports of one
block stay for the next), except its ./scripts/ lines (the build and install themselves). The
README's first ```c, ```csharp, ```lua and ```python blocks are saved as app.c, app.cs, app.lua and
app.py first, as the README says. Each block must print Ken Perlin's value 0.13691995878400012 as
many times as it runs a program. A block whose tools are not installed here is skipped, and said.
Exits 1 with what failed.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

readme, home, work = Path(sys.argv[1]), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
text = readme.read_text()
value = "0.13691995878400012"
prefix = home / ".local"
assert (prefix / "bin" / "perlin").exists(), f"nothing installed in {prefix}"
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)

for lang, name in (("c", "app.c"), ("csharp", "app.cs"), ("lua", "app.lua"), ("python", "app.py")):
    block = re.search(rf"```{lang}\n(.*?)```", text, re.S)
    assert block, f"the README has no ```{lang} example"
    (work / name).write_text(block.group(1))

# A new shell: the user's PATH without any folder that holds another `perlin`, and none of the
# variables that would point the interpreters at the build.
path = [d for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not (Path(d) / "perlin").exists()]
env = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "PERLIN_LIB", "PKG_CONFIG_PATH", "MONO_PATH",
                    "CMAKE_PREFIX_PATH") and not k.startswith("LUA_")}
env.update(HOME=str(home), PATH=os.pathsep.join(path))
env.pop("PYTHONNOUSERSITE", None)

tools = ["lua5.4", "luajit", "mcs", "mono", "cc", "pkg-config", "/usr/bin/python3"]
script, expected, skipped = ["set -euo pipefail"], [], []
blocks = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S)
          if ("$HOME/.local" in b or re.search(r"\bapp\.\w+", b)) and "pip install" not in b]
assert len(blocks) >= 4, f"the README shows {len(blocks)} set-up blocks naming $HOME/.local"
for i, block in enumerate(blocks):
    lines = [l for l in block.splitlines() if l.strip() and not l.startswith("./scripts/")]
    missing = [t for t in tools if any(re.search(rf"(^|[\s;&|(]){re.escape(t)}\b", l) for l in lines)
               and not shutil.which(t)]
    if missing:
        skipped.append(f"block {i} ({', '.join(missing)} not installed)")
        lines = [l for l in lines if l.startswith("export ")]
    runs = sum(len(re.findall(r"\bperlin eval\b|\./app\b|mono app\.exe|\w+ app\.(lua|py)\b", l))
               for l in lines if not l.startswith("export "))
    script += [f"echo '@@ block {i}'"] + lines
    expected.append(runs)

r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env, capture_output=True,
                   text=True, timeout=300)
outputs = r.stdout.split("@@ block ")[1:]
failures = []
if r.returncode != 0:
    failures.append(f"exit {r.returncode}:\n{r.stdout}\n{r.stderr}")
for i, runs in enumerate(expected):
    got = outputs[i].count(value) if i < len(outputs) else 0
    if got < runs:
        failures.append(f"block {i}:\n{blocks[i]}printed {value} {got} times, not {runs}:\n"
                        f"{outputs[i] if i < len(outputs) else ''}{r.stderr}")
print(r.stdout, end="")
for s in skipped:
    print("skipped:", s)
for f in failures:
    print(f)
print(f"readme install: {len(blocks)} blocks, {sum(expected)} programs, {len(failures)} failure(s)")
sys.exit(1 if failures or sum(expected) < 4 else 0)
