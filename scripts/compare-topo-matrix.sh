#!/usr/bin/env bash
# Compares `hwcomm topo --matrix` with `nvidia-smi topo -m` cell by cell.
# Usage: scripts/compare-topo-matrix.sh [path/to/hwcomm]   (default: build/src/cli/hwcomm, else hwcomm in PATH)
# Exit 0 when every cell (GPU/NIC classes, CPU Affinity, NUMA Affinity, GPU NUMA ID) agrees,
# 1 when some differ (each difference printed), 2 when a tool could not run.
set -euo pipefail

hwcomm=${1:-}
if [[ -z $hwcomm ]]; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [[ -x $here/build/src/cli/hwcomm ]]; then hwcomm=$here/build/src/cli/hwcomm; else hwcomm=hwcomm; fi
fi

ours=$(mktemp) theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT

"$hwcomm" topo --matrix >"$ours.raw" 2>/dev/null || { echo "compare-topo-matrix: '$hwcomm topo --matrix' failed" >&2; rm -f "$ours.raw"; exit 2; }
nvidia-smi topo -m >"$theirs.raw" 2>/dev/null || { echo "compare-topo-matrix: 'nvidia-smi topo -m' failed" >&2; rm -f "$ours.raw" "$theirs.raw"; exit 2; }

# One "row<TAB>column<TAB>value" line per cell: escape codes and the legend
# dropped, cells trimmed, empty cells (nvidia-smi's double tab) skipped.
normalize() {
  sed -e 's/\x1b\[[0-9;]*m//g' "$1" | awk -F'\t' '
    /^[[:space:]]*(Legend|NIC Legend):/ { exit }
    /^[[:space:]]*$/ { next }
    {
      n = 0
      for (i = 1; i <= NF; i++) { c = $i; gsub(/^[ ]+|[ ]+$/, "", c); if (c != "") cell[++n] = c }
      if (!header) { for (i = 1; i <= n; i++) col[i] = cell[i]; header = 1; next }
      for (i = 2; i <= n; i++) print cell[1] "\t" col[i - 1] "\t" cell[i]
    }' | sort
}
normalize "$ours.raw" >"$ours"
normalize "$theirs.raw" >"$theirs"
rm -f "$ours.raw" "$theirs.raw"

if [[ ! -s $theirs ]]; then echo "compare-topo-matrix: nvidia-smi printed no matrix" >&2; exit 2; fi

differences=$(awk -F'\t' '
  FNR == NR { ours[$1 "\t" $2] = $3; next }
  { key = $1 "\t" $2; seen[key] = 1
    if (!(key in ours)) printf "%s/%s: hwcomm has no cell, nvidia-smi says %s\n", $1, $2, $3
    else if (ours[key] != $3) printf "%s/%s: hwcomm says %s, nvidia-smi says %s\n", $1, $2, ours[key], $3 }
  END { for (key in ours) if (!(key in seen)) { split(key, k, "\t"); printf "%s/%s: nvidia-smi has no cell, hwcomm says %s\n", k[1], k[2], ours[key] } }
' "$ours" "$theirs")

if [[ -n $differences ]]; then
  echo "$differences"
  echo "compare-topo-matrix: the matrices differ" >&2
  exit 1
fi
echo "compare-topo-matrix: $(wc -l <"$theirs") cells agree"
