#!/usr/bin/env bash
# One device-tool call on a multi-GPU machine (issue 27): the lane-count
# sweeps the model's capacity curves are fitted on (under-load: each GPU
# alone and with 1..k-1 others loading NUMA node 0's host side, both
# directions), the concurrency records and the single copies that state
# every lane's demand (sm-copy-* with registered memory included), then
# `model check` on all three files. The 4x H200 sweep is the only one the
# default sharpness k = 4.8 was fitted on; this tests it on another machine.
# Binaries come from .devcarry/build.tar.gz (scripts/pack-device-build.sh).
#   scripts/device-model-sweep.sh          (under 7 minutes on 8 GPUs)
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,clocks.mem --format=csv,noheader
step h2d-sweep 150 "$hw run --filter method=under-load --filter src=numa0 -o $out/sweep-h2d.json"
step d2h-sweep 150 "$hw run --filter method=under-load --filter dst=numa0 -o $out/sweep-d2h.json"
step concurrency 100 "$hw run --filter method=all-to-host --filter method=host-to-all --filter method=memcpy-h2d \
  --filter method=memcpy-d2h --filter method=sm-copy-h2d --filter method=sm-copy-d2h --min-size 64M --max-size 256M \
  -o $out/sweep-conc.json"
files=$(find "$out" -maxdepth 1 -name 'sweep-*.json' | sort | tr '\n' ' ')
[ -n "$files" ] || { echo "no results file"; exit 1; }
# shellcheck disable=SC2086
"$hw" model fit $files -o "$out/model.json" --force
# shellcheck disable=SC2086
"$hw" model check $files > "$out/model-check.txt" 2>&1
# shellcheck disable=SC2086
"$hw" model check $files --json > "$out/model-check.json" 2>&1
echo "== fitted curves: edge, kind, C, k (fitted or default), counts"
python3 - "$out/model.json" <<'PY' || true
import json, sys
for e in json.load(open(sys.argv[1]))["shared_edges"]:
    print(e["edge"], "|", e["kind"], "| C %.1f GB/s | k %.2f %s | counts %s" % (
        e["capacity_gbps"], e["sharpness"], "fitted" if e["sharpness_fitted"] else "default", e["counts"]))
PY
echo
echo "== what to look for: every load level and member within 5%, inside the interval"
sed -n '/^leave-one-level-out/,$p' "$out/model-check.txt" | grep -v '^  worst:'
ls -la "$out"
