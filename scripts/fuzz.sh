#!/usr/bin/env bash
# The long fuzzing run: each target of fuzz/ for FUZZ_RUNS executions
# (default 1,000,000; FUZZ_MAX_SECONDS caps the time), keeping its corpus in build-sanitize/fuzz-work so the
# next run starts where this one stopped. Prints one line per target, the
# numbers docs/reliability.md records. Findings land in
# build-sanitize/fuzz-artifacts/TARGET/: minimise one with
#   build-sanitize/fuzz/TARGET -minimize_crash=1 -runs=10000 FILE
# and keep it as a regression test in tests/fixtures/fuzz.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${SANITIZE_BUILD_DIR:-$here/build-sanitize}
runs=${FUZZ_RUNS:-1000000}
max_seconds=${FUZZ_MAX_SECONDS:-0}  # 0: no time cap
# shellcheck source=scripts/sanitizer-env.sh
source "$here/scripts/sanitizer-env.sh"
source "$here/scripts/fuzz-common.sh"
[ -f "$build/CMakeCache.txt" ] || "$here/scripts/ci-sanitize.sh"
cmake --build "$build" --target "${fuzz_targets[@]}" >/dev/null
status=0
for target in "${@:-${fuzz_targets[@]}}"; do
  work=$build/fuzz-work/$target
  mkdir -p "$work/corpus" "$work/artifacts"
  run_fuzzer "$build" "$target" "$work" -runs="$runs" -max_total_time="$max_seconds" > "$work/log" 2>&1 || { status=1; echo "fuzz: $target: FINDING, see $work/log" >&2; }
  summarize "$target" "$work/log"
done
exit $status
