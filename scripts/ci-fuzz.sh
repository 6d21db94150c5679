#!/usr/bin/env bash
# CI: runs each libFuzzer target of fuzz/ for a bounded time (FUZZ_SECONDS,
# default 30 s each) from the seed corpora; any finding (crash, sanitizer
# report, hang over 10 s, leak) fails CI and the minimised input is printed.
# Uses the instrumented build of scripts/ci-sanitize.sh (build-sanitize).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${SANITIZE_BUILD_DIR:-$here/build-sanitize}
seconds=${FUZZ_SECONDS:-30}
# shellcheck source=scripts/sanitizer-env.sh
source "$here/scripts/sanitizer-env.sh"
source "$here/scripts/fuzz-common.sh"
[ -f "$build/CMakeCache.txt" ] || "$here/scripts/ci-sanitize.sh"
cmake --build "$build" --target "${fuzz_targets[@]}" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for target in "${fuzz_targets[@]}"; do
  mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
  if ! run_fuzzer "$build" "$target" "$work/$target" -max_total_time="$seconds" > "$work/$target/log" 2>&1; then
    status=1
    echo "ci-fuzz: $target FOUND A PROBLEM:" >&2
    tail -40 "$work/$target/log" >&2
    for a in "$work/$target"/artifacts/*; do
      [ -f "$a" ] && { echo "ci-fuzz: input $(basename "$a") (base64):" >&2; base64 -w0 "$a" >&2; echo >&2; }
    done
  fi
  summarize "$target" "$work/$target/log"
done
exit $status
