#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the Catch2 suite through ctest, the node
# tests of the WebAssembly module and the page's modules, and the browser tests in Debian's
# Chromium. Exits non-zero on any failure and ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh || { echo "test: setup failed"; echo "traincalc: 0 passed, 1 failed"; exit 1; }
scripts/build.sh || { echo "test: build failed"; echo "traincalc: 0 passed, 1 failed"; exit 1; }

mkdir -p build/test-results
status=0

echo "== engine (Catch2 via ctest)"
ctest --preset native --output-junit "$PWD/build/test-results/ctest.xml" | tee build/test-results/ctest.txt | tail -n 4
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

run_node() {  # name, files...
  local name=$1; shift
  echo "== $name (node --test)"
  node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="build/test-results/$name.tap" "$@" | tail -n 9
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
run_node wasm-and-modules tests/node/*.test.mjs
run_node browser tests/browser/*.test.mjs

# One line for everything that ran.
ctest_total=$(grep -oE 'tests failed out of [0-9]+' build/test-results/ctest.txt | grep -oE '[0-9]+$' || echo 0)
ctest_failed=$(grep -oE '[0-9]+ tests failed' build/test-results/ctest.txt | grep -oE '^[0-9]+' || echo 0)
node_pass=0; node_fail=0
for tap in build/test-results/*.tap; do
  node_pass=$((node_pass + $(grep -E '^# pass ' "$tap" | grep -oE '[0-9]+' || echo 0)))
  node_fail=$((node_fail + $(grep -E '^# fail ' "$tap" | grep -oE '[0-9]+' || echo 0)))
done
passed=$((ctest_total - ctest_failed + node_pass))
failed=$((ctest_failed + node_fail))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1  # a runner that crashed counts as a failure
echo "traincalc: $passed passed, $failed failed"
exit "$status"
