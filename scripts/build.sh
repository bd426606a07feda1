#!/usr/bin/env bash
# Builds everything incrementally: the native engine, CLI and tests; the WebAssembly engine; the
# static site in dist/site/ and the single-file app dist/traincalc.html.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's em++ finds acorn there

[ -f build/native/CMakeCache.txt ] || cmake --preset native >/dev/null
cmake --build --preset native
[ -f build/wasm/CMakeCache.txt ] || cmake --preset wasm >/dev/null
cmake --build --preset wasm
node scripts/assemble.mjs
