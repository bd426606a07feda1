#!/usr/bin/env bash
# Builds the native preset and runs the engine benchmarks (Google Benchmark); prints the numbers
# quoted in the README. Extra arguments go to the benchmark binary (e.g. --benchmark_filter=Plan).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset native >/dev/null
cmake --build --preset native --target engine_bench >/dev/null
exec build/native/tests/engine_bench --benchmark_min_time=0.2 "$@"
