#!/usr/bin/env bash
# ctest js_package: builds the npm package (scripts/build-js into BUILD_DIR), installs its tarball
# into an empty folder offline, as a user would, checks what the tarball holds, and runs
# perlin.test.mjs there with Node's test runner.
# Usage: run.sh SOURCE_DIR BUILD_DIR PERLIN_EXE
set -euo pipefail
src=$1 build=$2 exe=$3
"$src/scripts/build-js" "$build" >/dev/null
tarball=$(ls "$build"/perlin-exact-*.tgz)
contents=$(tar -tzf "$tarball" | sort | tr '\n' ' ')
want="package/README.md package/index.d.ts package/index.js package/package.json package/page/index.html package/page/perlin_page.js package/page/worker.js package/perlin_wasm.js "
if [ "$contents" != "$want" ]; then
  echo "the tarball holds: $contents" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo '{"name": "perlin-exact-user", "private": true, "type": "module"}' >package.json
npm install --offline --no-audit --no-fund --silent "$tarball"
cp "$src/tests/js/perlin.test.mjs" .
PERLIN_TEST_DATA="$src/tests/data" PERLIN_EXE="$exe" node --test perlin.test.mjs
# The same package in headless Chromium, from a static file server, on a page and in a worker.
PERLIN_JS_WORK="$work" PERLIN_EXE="$exe" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
  "$src/tests/js/browser_test.py"
# The README's JavaScript example, as written, against the installed package.
awk '/^```js$/{on=1; next} /^```$/{on=0} on' "$src/README.md" >readme.mjs
grep -q 'from "perlin-exact"' readme.mjs
node readme.mjs
