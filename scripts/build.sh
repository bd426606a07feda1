#!/usr/bin/env bash
# Builds incrementally:
#   scripts/build.sh site   the WebAssembly engine, the static site in dist/site/ and the single-file
#                           app dist/traincalc.html (what scripts/run.sh serves)
#   scripts/build.sh        all of that, and first the native engine, CLI and tests
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's em++ finds acorn there

if [ "${1:-all}" != site ]; then
  [ -f build/native/CMakeCache.txt ] || cmake --preset native >/dev/null
  cmake --build --preset native
fi
[ -f build/wasm/CMakeCache.txt ] || cmake --preset wasm >/dev/null
cmake --build --preset wasm
node scripts/assemble.mjs
