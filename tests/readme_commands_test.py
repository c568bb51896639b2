#!/usr/bin/env python3
"""The README's commands work as written after its two Quick-start commands.

Usage: readme_commands_test.py README.md PERLIN_EXE BUILD_DIR

- Every `$ command` line of a ```sh block runs (with `perlin` the built tool) and, where the README
  shows its output on the following lines, prints exactly that.
- Every `perlin render ...` command of the gallery table renders its file.
- Every path `build/dev/...` the README names exists in BUILD_DIR (when that is the dev build).
Exits 1 with what failed.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

readme, exe, build = (Path(a).resolve() for a in sys.argv[1:4])
text = readme.read_text()
failures = []
env = dict(os.environ, PATH=f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}")
work = Path(tempfile.mkdtemp(prefix="readme-commands-"))


def run(command):
    return subprocess.run(["bash", "-c", "set -o pipefail; " + command], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)


commands = 0
for block in re.findall(r"```sh\n(.*?)```", text, re.S):
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("$ "):
            continue
        expected = []
        for follow in lines[i + 1:]:
            if follow.startswith("$ "):
                break
            expected.append(follow)
        r = run(line[2:])
        commands += 1
        if r.returncode != 0:
            failures.append(f"{line}: exit {r.returncode}: {r.stderr.strip()}")
        elif expected and r.stdout.splitlines() != expected:
            failures.append(f"{line}: printed {r.stdout.splitlines()}, the README shows {expected}")

for command in re.findall(r"\| `(perlin render [^`]+)`", text):
    r = run(command)
    commands += 1
    out = re.search(r"-o (\S+)", command).group(1)
    if r.returncode != 0 or not (work / out).exists():
        failures.append(f"{command}: exit {r.returncode}, {out} exists: {(work / out).exists()}: "
                        f"{r.stderr.strip()}")

if build.name == "dev":
    for path in sorted(set(re.findall(r"build/dev/([\w./-]+\w)", text))):
        if not (build / path).exists():
            failures.append(f"the README names build/dev/{path}, which the dev build does not have")

for f in failures:
    print(f)
print(f"readme commands: {commands} run, {len(failures)} failure(s)")
sys.exit(1 if failures or commands < 10 else 0)
