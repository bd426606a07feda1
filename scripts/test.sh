#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the Catch2 suite through ctest (natively,
# and again under AddressSanitizer + UndefinedBehaviorSanitizer), a time-bounded libFuzzer run over
# every JSON entry point (FUZZ_SECONDS, default 60), the node tests of the WebAssembly module and the
# page's modules, and the browser tests in Debian's Chromium. Exits non-zero on any failure and ends
# with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh || { echo "test: setup failed"; echo "traincalc: 0 passed, 1 failed"; exit 1; }
scripts/build.sh || { echo "test: build failed"; echo "traincalc: 0 passed, 1 failed"; exit 1; }

mkdir -p build/test-results
rm -f build/test-results/ctest*.txt build/test-results/ctest*.xml build/test-results/*.tap  # no result of an earlier run is counted
status=0

echo "== engine (Catch2 via ctest)"
ctest --preset native --output-junit "$PWD/build/test-results/ctest.xml" | tee build/test-results/ctest.txt | tail -n 4
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

echo "== engine under AddressSanitizer + UndefinedBehaviorSanitizer (Catch2 via ctest)"
if cmake --preset sanitize >build/test-results/sanitize-configure.log 2>&1 &&
   cmake --build --preset sanitize >build/test-results/sanitize-build.log 2>&1; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset sanitize --output-junit "$PWD/build/test-results/ctest-sanitize.xml" |
    tee build/test-results/ctest-sanitize.txt | tail -n 4
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  echo "== fuzzing (libFuzzer + ASan + UBSan)"
  fuzz_failed=0
  scripts/fuzz.sh "${FUZZ_SECONDS:-60}" || { fuzz_failed=1; status=1; }
else
  echo "test: the sanitizer build failed; the end of build/test-results/sanitize-build.log:"
  tail -n 30 build/test-results/sanitize-build.log build/test-results/sanitize-configure.log
  status=1; fuzz_failed=1; sanitize_build_failed=1
fi

run_node() {  # name, files...  (a run that hangs is stopped after 20 minutes and fails)
  local name=$1; shift
  echo "== $name (node --test)"
  timeout --kill-after=10 1200 node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="build/test-results/$name.tap" "$@" | tail -n 9
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
run_node wasm-and-modules tests/node/*.test.mjs
run_node browser tests/browser/*.test.mjs

# One line for everything that ran, read from ctest's JUnit files and node's TAP files.
junit_count() {  # attribute, file: the <testsuite> element's count
  tr '\n\t' '  ' <"$2" | grep -oE "<testsuite [^>]*" | grep -oE " $1=\"[0-9]+\"" | grep -oE '[0-9]+' | head -n 1 || echo 0
}
ctest_total=0; ctest_failed=0
for xml in build/test-results/ctest.xml build/test-results/ctest-sanitize.xml; do
  [ -f "$xml" ] || continue
  ctest_total=$((ctest_total + $(junit_count tests "$xml")))
  ctest_failed=$((ctest_failed + $(junit_count failures "$xml")))
done
# The fuzzing run counts as one test, and a sanitizer build that failed as another.
ctest_total=$((ctest_total + 1 + ${sanitize_build_failed:-0}))
ctest_failed=$((ctest_failed + ${fuzz_failed:-1} + ${sanitize_build_failed:-0}))
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
