#!/usr/bin/env bash
# The main job: set-up, build, then a characterization of this machine with
# defaults. Writes hwcomm-results-<host>-<date>.json in the current directory
# (or the file named by the first argument) and prints a summary.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/deps.sh"
# Only the tool, not the test suite; the configure and build progress stay on
# screen (Ninja redraws one [done/total] line on a terminal).
echo "hwcomm: building the hwcomm binary into ${BUILD_DIR:-$here/build} (the tests are not built: scripts/test.sh does)" >&2
HWCOMM_BUILD_TARGET=hwcomm "$here/scripts/build.sh" >&2
hwcomm="${BUILD_DIR:-$here/build}/src/cli/hwcomm"
out=${1:-hwcomm-results-$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ).json}
"$hwcomm" topo
rc=0
"$hwcomm" run --output "$out" || rc=$?
# 3: finished with error records (kept in the file, shown by the summary).
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then exit "$rc"; fi
if "$hwcomm" summary --help >/dev/null 2>&1; then "$hwcomm" summary "$out"; fi
echo "results: $out"
if [ "$rc" -eq 3 ]; then echo "some records failed: see their errors in the summary above"; fi
