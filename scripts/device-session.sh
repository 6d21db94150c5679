#!/usr/bin/env bash
# What the lead runs in one device-tool call on a GPU machine: gpu-check (build,
# GPU tests, quick + full + fidelity runs, summary), the topology proofs
# (matrix vs nvidia-smi, JSON, NVML recording), all packed into $OUT.
set -uo pipefail
budget=${1:-540}
w=$OUT/w; mkdir -p "$w"
exec > >(tee "$OUT/session.log") 2>&1
build=$PWD/build-gpu; hw=$build/src/cli/hwcomm
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag 2>&1 | sed "s/^/THP: /"
t0=$(date +%s)
OUT_DIR=$w timeout $((budget - 60)) bash scripts/gpu-check.sh --full --fidelity || echo "gpu-check exit $?"
echo "gpu-check took $(( $(date +%s) - t0 )) s"
{
  echo '$ nvidia-smi topo -m'; nvidia-smi topo -m
  echo '$ hwcomm topo --matrix'; "$hw" topo --matrix
  echo '$ scripts/compare-topo-matrix.sh'; bash scripts/compare-topo-matrix.sh "$hw"; echo "compare exit $?"
  echo '$ hwcomm topo'; "$hw" topo
  echo '$ hwcomm list'; "$hw" list
} > "$w/topo.txt" 2>&1
"$hw" topo --json > "$w/topo.json" 2>&1
"$hw" topo --record-nvml "$w/h200x2.json" > /dev/null 2>&1
cat "$w/topo.txt" | head -40
tar czf "$OUT/all.tgz" -C "$OUT" w && rm -rf "$w"
ls -la "$OUT"
