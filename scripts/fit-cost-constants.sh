#!/usr/bin/env bash
# Refits the cost model's built-in constants (src/run/builtin_cost_table.cpp)
# on complete default runs' results files (one, or several pooled: their
# records fitted together, e.g. one run of each machine kind), rebuilds, and
# prints the new model's error on each of those runs (and on any other runs
# given, held out):
#   scripts/fit-cost-constants.sh RESULTS.json[.gz][,RESULTS2...] "LABEL" [HELD-OUT.json[.gz] ...]
# e.g. scripts/fit-cost-constants.sh docs/examples/h100x1/74e89f1/default.json.gz,docs/examples/h200x1/74e89f1/default.json.gz,docs/examples/h200x2/default-74e89f1/default.json.gz \
#          "the default runs on nvidia-h100-x1, nvidia-h200-x1 and nvidia-h200-x2" docs/examples/h100x4/default-a250199/default.json.gz
# A single machine kind for LABEL (nvidia-h200-x2) reads "the default run on nvidia-h200-x2".
# RESULTS are named in the table as given: give them relative to the
# repository root (and commit them), since the unit test refits those files
# and compares the table to the byte. Then commit the table and paste the
# tables into docs/benchmarks.md ("The estimator, refit").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
list=${1:?results file(s), comma-separated}
label=${2:?machine kind (nvidia-h200-x2) or the label of pooled runs}
shift 2
[[ $label == *" "* ]] || label="the default run on $label"
IFS=, read -r -a results <<< "$list"
from=()
for r in "${results[@]}"; do from+=(--from "$r"); done
build=${BUILD_DIR:-$here/build}
HWCOMM_BUILD_TARGET=hwcomm bash scripts/build.sh >/dev/null
"$build/src/cli/hwcomm" __generate cost-table src/run/builtin_cost_table.cpp "${from[@]}" --label "$label"
HWCOMM_BUILD_TARGET=hwcomm bash scripts/build.sh >/dev/null
for r in "${results[@]}"; do
  echo "== the refit model on a run it was fitted on: $r"
  "$build/src/cli/hwcomm" __generate cost-check --from "$r"
done
for held in "$@"; do
  echo
  echo "== held out: $held"
  "$build/src/cli/hwcomm" __generate cost-check --from "$held"
done
