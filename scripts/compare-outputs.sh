#!/usr/bin/env bash
# Before/after check of a refactor that must not change what hwcomm prints:
# runs two hwcomm binaries over the committed example results and the study's
# DGX-1 import, and diffs analyze (text and --json), summary, export, model fit
# and report (its footer's revision aside). Prints one line per comparison and
# exits 1 on any difference.
#   scripts/compare-outputs.sh BEFORE/hwcomm AFTER/hwcomm
set -euo pipefail
before=$(realpath "$1") after=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=("$here"/docs/examples/h200x2/results-default-all-methods.json.gz "$here"/docs/examples/h200x4/*.json.gz
        "$here"/docs/examples/h200x2/gpumem.json.gz "$here"/docs/examples/h200x2/load.json.gz
        "$here"/docs/examples/h200x2/mpi-2rank.json.gz)

# The study's DGX-1 (Comm|Scope) imported by each binary; the imports must agree but for their dates.
mkdir -p "$work/dgx1"
tar xJf "$here/tests/fixtures/commscope-dgx1/dgx1-memcpy.tar.xz" -C "$work/dgx1"
for side in before after; do
  bin=${!side}
  "$bin" import "$work/dgx1" --topology "$here/tests/fixtures/hwloc/dgx1.xml" -o "$work/dgx1-$side.json" >/dev/null
  python3 - "$work/dgx1-$side.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
for k in ("date_utc", "git_revision", "command_line", "tool_version"):
    d["meta"].pop(k, None)
for r in d["records"]:
    r.get("provenance", {}).pop("revision", None)
json.dump(d, open(p + ".norm", "w"), indent=1, sort_keys=True)
PY
done
differ=0
check() {  # name, then the files to compare
  if cmp -s "$2" "$3"; then echo "same      $1"; else echo "DIFFERENT $1"; diff "$2" "$3" | head -20 || true; differ=1; fi
}
check "import dgx1 (dates aside)" "$work/dgx1-before.json.norm" "$work/dgx1-after.json.norm"
inputs+=("$work/dgx1-before.json")

i=0
for f in "${inputs[@]}"; do
  i=$((i + 1))
  name=$(basename "$f")
  for side in before after; do
    bin=${!side}
    out="$work/$side-$i"
    mkdir -p "$out"
    # Outputs named relative to the directory (messages quote them); exit codes kept beside the output.
    (
      cd "$out"
      set +e
      "$bin" analyze "$f" --json >analyze.json 2>&1; echo "exit $?" >>analyze.json
      "$bin" analyze "$f" >analyze.txt 2>&1; echo "exit $?" >>analyze.txt
      "$bin" summary "$f" >summary.txt 2>&1; echo "exit $?" >>summary.txt
      "$bin" export "$f" -o export.csv >export.log 2>&1; echo "exit $?" >>export.log
      "$bin" model fit "$f" -o model.json >model.log 2>&1; echo "exit $?" >>model.log
      "$bin" report "$f" -o report.html >report.log 2>&1; echo "exit $?" >>report.log
      # The footer names the build's revision, which differs by construction.
      [ -f report.html ] && sed -i 's/Made by hwcomm \([^ ]*\) ([^)]*)/Made by hwcomm \1 (REV)/' report.html
    )
  done
  for what in analyze.json analyze.txt summary.txt export.csv export.log model.json model.log report.html report.log; do
    [ -e "$work/before-$i/$what" ] || [ -e "$work/after-$i/$what" ] || continue
    check "$name: $what" "$work/before-$i/$what" "$work/after-$i/$what"
  done
done
exit $differ
