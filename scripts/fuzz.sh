#!/usr/bin/env bash
# Fuzzes every JSON entry point of the engine (tests/fuzz/fuzz_engine.cpp) with libFuzzer under
# AddressSanitizer and UndefinedBehaviorSanitizer, for a bounded time (default 60 s), starting from
# the checked-in corpus (tests/fuzz/corpus, which is never written to) plus what earlier runs on
# this machine found (build/fuzz-corpus). Fails on a crash, a sanitizer report, a timeout, or an
# output that breaks the contract (see the target). Needs the "sanitize" build (scripts/test.sh).
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
target=build/sanitize/tests/fuzz_engine
[ -x "$target" ] || { echo "fuzz: $target is missing; run scripts/test.sh (or cmake --build --preset sanitize)"; exit 1; }
mkdir -p build/fuzz-corpus build/fuzz-findings build/test-results
log=build/test-results/fuzz.log
if [ "$seconds" -le 0 ]; then
  # No fuzzing: each corpus input once (libFuzzer reads -max_total_time=0 as "no limit").
  if "$target" -runs=0 tests/fuzz/corpus build/fuzz-corpus >"$log" 2>&1; then
    echo "fuzz: the corpus replayed, no finding"; exit 0
  fi
  echo "fuzz: FINDING replaying the corpus; the end of $log:"; tail -n 40 "$log"; exit 1
fi
if "$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=65536 \
    -dict=tests/fuzz/scenario.dict -print_final_stats=1 -artifact_prefix=build/fuzz-findings/ \
    build/fuzz-corpus tests/fuzz/corpus >"$log" 2>&1; then
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
  echo "fuzz: $runs inputs in ${seconds} s, no finding"
else
  echo "fuzz: FINDING (input saved under build/fuzz-findings/); the end of $log:"
  tail -n 40 "$log"
  exit 1
fi
