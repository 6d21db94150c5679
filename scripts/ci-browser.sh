#!/usr/bin/env bash
# Browser test of `hwcomm report` (docs/report.md): renders the report of a
# committed example in headless Chromium from file:// with every host name
# unresolvable, and asserts from the DOM what the page drew (no script error,
# no request, every chart, heatmap and topology node) and that a screenshot is
# not blank; then a report of hostile names with every tooltip shown: no
# script from the data runs, only the page's own hashed scripts are allowed. Installs Debian's chromium when missing (scripts/deps.sh, optional list).
# Needs the built binary: BUILD_DIR (default build/) as scripts/test.sh builds it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
start=$(date +%s)

if ! command -v chromium >/dev/null 2>&1; then
  HWCOMM_DEPS_OPTIONAL=1 "$here/scripts/deps.sh"
fi
command -v chromium >/dev/null 2>&1 || { echo "ci-browser: chromium is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example="$here/docs/examples/h200x4/results-default.json.gz"  # 137 records, the size/speed target
"$build/src/cli/hwcomm" report "$example" -o "$work/report.html"

# --no-sandbox: CI runs as root, which Chromium's sandbox refuses. The page is
# our own file, opened offline.
browser() {
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" \
    --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$work/chromium.log"
}
check() { python3 "$here/tests/report_html/check_report.py" "$@"; }

# 1. Every chart drawn before load ends (#draw-all): counts, errors, requests, time.
browser --dump-dom "file://$work/report.html#draw-all" >"$work/all.html"
check dom "$work/all.html" --expect bandwidth=36 --expect small=14 --expect heatmap=19 --expect nodes=17 --max-ms 10000
# 2. As a reader opens it: first screen at once, the rest drawn in the background.
browser --virtual-time-budget=30000 --dump-dom "file://$work/report.html" >"$work/lazy.html"
check dom "$work/lazy.html"
# 3. What it looks like: a screenshot whose pixels are not blank.
browser --hide-scrollbars --window-size=1280,1600 --screenshot="$work/report.png" "file://$work/report.html" >/dev/null
check png "$work/report.png"

# 4. The GPU memory section alone (docs/gpumem.md): timeline, occupancy, stride, latency charts.
"$build/src/cli/hwcomm" report "$here/docs/examples/h200x2/gpumem.json.gz" -o "$work/gpumem.html"
browser --dump-dom "file://$work/gpumem.html#draw-all" >"$work/gpumem-dom.html"
check dom "$work/gpumem-dom.html" --expect bandwidth=0 --expect small=0 --expect heatmap=0 --expect timeline=1 \
  --expect occupancy=1 --expect stride=1 --expect latency=1 --expect timeline_lines=256 --max-ms 10000

# 4b. Host and peer chases from several SMs (docs/gpumem.md "Which SM chases"): their whiskers drawn
#     on both GPUs' latency charts, nothing else.
"$build/src/cli/hwcomm" report "$here/docs/examples/h100x2/latency-3fa2cbc/latency.json.gz" -o "$work/chase.html"
browser --dump-dom "file://$work/chase.html#draw-all" >"$work/chase-dom.html"
check dom "$work/chase-dom.html" --expect bandwidth=0 --expect small=0 --expect heatmap=0 --expect timeline=0 \
  --expect occupancy=0 --expect stride=0 --expect latency=2 --max-ms 10000

# 5. Hostile names (issues 24, 25): a report whose file name, endpoint ids, parameter values and point
#    reasons hold markup; every tooltip of every chart shown; nothing from the data may run or become an element.
hostile=$(python3 "$here/tests/report_html/make_hostile.py" "$here/docs/examples/h200x2/deb-quick.json.gz" "$work/hostile")
"$build/src/cli/hwcomm" report "$hostile" -o "$work/hostile.html"
check csp "$work/hostile.html"
browser --dump-dom "file://$work/hostile.html#show-tips" >"$work/hostile-dom.html"
check dom "$work/hostile-dom.html" --hostile

echo "ci-browser: passed in $(( $(date +%s) - start )) s"
