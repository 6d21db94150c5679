#!/usr/bin/env bash
# Refits the cost model's built-in constants (src/run/builtin_cost_table.cpp)
# on a complete default run's results file, rebuilds, and prints the new
# model's error on that run's records (and on any other runs given, held out):
#   scripts/fit-cost-constants.sh RESULTS.json[.gz] "MACHINE KIND" [HELD-OUT.json[.gz] ...]
# e.g. scripts/fit-cost-constants.sh docs/examples/h200x2/d8053dc/default.json.gz nvidia-h200-x2 \
#          docs/examples/h100x2/default.json.gz
# RESULTS is named in the table as given: give it relative to the repository
# root (and commit it), since the unit test refits that file and compares the
# table to the byte. Then commit the table and paste the tables into
# docs/benchmarks.md ("The estimator, refit").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
results=${1:?results file}
kind=${2:?machine kind, e.g. nvidia-h200-x2}
shift 2
build=${BUILD_DIR:-$here/build}
HWCOMM_BUILD_TARGET=hwcomm bash scripts/build.sh >/dev/null
"$build/src/cli/hwcomm" __generate cost-table src/run/builtin_cost_table.cpp --from "$results" \
    --label "the default run on $kind"
HWCOMM_BUILD_TARGET=hwcomm bash scripts/build.sh >/dev/null
echo "== the refit model on its own run: $results ($kind)"
"$build/src/cli/hwcomm" __generate cost-check --from "$results"
for held in "$@"; do
  echo
  echo "== held out: $held"
  "$build/src/cli/hwcomm" __generate cost-check --from "$held"
done
