#!/usr/bin/env bash
# One device-tool call for issue 21 (classes, under-load from classes) and
# issue 27 (lane-count sweeps), on any GPU machine (best: 4x H200, where the
# host side of numa0 saturates from 3 lanes on). Binaries come from
# .devcarry/build.tar.gz (scripts/pack-device-build.sh). Writes under $OUT:
# topo.txt (the Link classes section), plan.txt (under-load and lane-sweep
# sets as planned), sweep.json + sweep.txt (lane-sweep records: per-lane and
# aggregate GB/s against lanes), ul.json + ul-analyze.txt (under-load).
# Finishes within ~6 minutes. Facts to check are printed at the end.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader
"$hw" topo > "$out/topo.txt" 2>&1
sed -n '/^Link classes/,$p' "$out/topo.txt"
"$hw" list --json > "$out/list.json" 2>/dev/null
python3 - "$out/list.json" > "$out/plan.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for m in doc["methods"]:
    if m["name"] in ("under-load", "lane-sweep"):
        print(m["name"], len(m["applies_to"]), "sets")
        for s in m["applies_to"]:
            print("  ", s["src"], "->", s["dst"], s["param_sets"], "|", s.get("note", ""))
PY
cat "$out/plan.txt"
step lane-sweep 150 "$hw run --filter method=lane-sweep --max-size 1G -o $out/sweep.json"
step under-load 150 "$hw run --filter method=under-load --max-size 1G -o $out/ul.json"
python3 - "$out/sweep.json" > "$out/sweep.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("lane-sweep at the largest size: lanes, aggregate GB/s, per-lane GB/s (shared resource)")
for r in doc["records"]:
    if r["method"] != "lane-sweep" or r["status"] != "ok" or not r["points"]:
        print(r["key"], r["status"], r.get("error", ""))
        continue
    p = max(r["points"], key=lambda p: p["bytes"])
    lanes = [round(l["bandwidth_gbps"], 1) for l in p.get("lanes", [])]
    note = r["context"].get("endpoint_set", {})
    print(r["params"]["lanes"], round(p["bandwidth_gbps"], 1), lanes, r["src"], "->", r["dst"], note)
PY
cat "$out/sweep.txt"
[ -f "$out/ul.json" ] && "$hw" analyze "$out/ul.json" > "$out/ul-analyze.txt" 2>&1
[ -f "$out/ul.json" ] && sed -n '/under load/,$p' "$out/ul-analyze.txt"
echo "Facts to check:"
echo " - topo.txt: one GPU->GPU class holding every ordered GPU pair on an NVSwitch machine; host classes per direction"
echo " - plan.txt: under-load sets = per resource class, 1 route alone + loads 1, half, all; lane-sweep 1..k lanes"
echo " - sweep.txt: aggregate grows with lanes and stays below the shared resource's rate; every lane ok and verified"
ls -la "$out"
