#!/usr/bin/env python3
"""The README's commands work as written after its two Quick-start commands.

Usage: readme_commands_test.py README.md PERLIN_EXE BUILD_DIR

- Every `$ command` line of a ```sh block runs (with `perlin` the built tool) and, where the README
  shows its output on the following lines, prints exactly that.
- Every `perlin render ...` command of the gallery table renders its file.
- Every path `build/dev/...` the README names exists in BUILD_DIR (when that is the dev build).
- docs/cli.md has a section for every subcommand of `perlin --help`, and every option of every
  subcommand's --help is named in docs/cli.md (or, for render, docs/render.md; field options in
  docs/options.md).
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

docs = readme.parent / "docs"
cli_md = (docs / "cli.md").read_text()
named = cli_md + (docs / "options.md").read_text()
top = subprocess.run([str(exe), "--help"], capture_output=True, text=True).stdout
subcommands = re.findall(r"^  ([a-z]+) {2,}", top.split("Subcommands:")[-1], re.M)
if len(subcommands) < 7:
    failures.append(f"perlin --help lists {subcommands}, not the 7 subcommands this test knows")
for sub in subcommands:
    if f"## perlin {sub}\n" not in cli_md:
        failures.append(f"docs/cli.md has no section '## perlin {sub}'")
    text_for = named + ((docs / "render.md").read_text() if sub == "render" else "")
    usage = subprocess.run([str(exe), sub, "--help"], capture_output=True, text=True).stdout
    for flag in re.findall(r"^ {2}(?:-\w,)?--([\w-]+)", usage, re.M):
        if flag != "help" and f"--{flag}" not in text_for and f"`{flag}`" not in text_for:
            failures.append(f"docs/cli.md does not name perlin {sub}'s option --{flag}")
    commands += 1

for f in failures:
    print(f)
print(f"readme commands: {commands} run, {len(failures)} failure(s)")
sys.exit(1 if failures or commands < 10 else 0)
