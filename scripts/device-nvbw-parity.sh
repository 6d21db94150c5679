#!/usr/bin/env bash
# One device-tool call for issue 22 item 2 (docs/fidelity.md): hwcomm's SM
# copies, local copy, TMA local copy and latency chases beside NVIDIA's
# nvbandwidth (carried in .peers/, see ../shared/peers/README.md) in the same
# call, at nvbandwidth's buffer size (512 MiB, its default), both directions
# of every figure counted as nvbandwidth counts them (bytes of one copy over
# its time). Binaries packed by scripts/pack-device-build.sh. Writes under
# $OUT: parity.json.gz, latency.json.gz, nvbandwidth.txt, ratios.txt.
# About 1-2 minutes on one GPU.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,clocks.sm,clocks.mem --format=csv,noheader
gpus=$(nvidia-smi -L | wc -l)
nvbw=.peers/nvbandwidth
[[ -d $nvbw ]] && nvbw=$nvbw/nvbandwidth
tests="host_to_device_memcpy_ce device_to_host_memcpy_ce device_local_copy host_to_device_memcpy_sm device_to_host_memcpy_sm host_device_latency_sm"
(( gpus > 1 )) && tests+=" all_to_host_memcpy_sm device_to_device_latency_sm"
step nvbandwidth 120 "$nvbw -t $tests > $out/nvbandwidth.txt 2>&1; grep -E '^SUM' $out/nvbandwidth.txt"
filters="--filter method=memcpy-h2d --filter method=memcpy-d2h --filter method=memcpy-d2d --filter method=tma-copy-d2d \
  --filter method=sm-copy-h2d --filter method=sm-copy-d2h --filter method=all-to-host"
step parity 150 "$hw run --force -o $out/parity.json $filters --min-size 512M --max-size 512M 2>&1 | tail -2"
# 4 MiB: a footprint in the owner's L2, as nvbandwidth's chase re-walks ~1 MB
# again and again (docs/fidelity.md); 512 MiB: its buffer size.
step latency 150 "$hw run --force -o $out/latency.json --filter method=gpumem-latency --min-size 1M --max-size 1G 2>&1 | tail -2"
python3 - "$out/parity.json" "$out/latency.json" "$out/nvbandwidth.txt" <<'PY' | tee "$out/ratios.txt"
import json, re, sys
par, lat, nvb_path = sys.argv[1:4]
def load(p):
    try:
        return json.load(open(p))["records"]
    except (OSError, ValueError, KeyError):
        return []
records = load(par) + load(lat)
# nvbandwidth: each test's matrix entries (GB/s or ns), N/A skipped.
nvb, test, rows = {}, None, []
for line in open(nvb_path, errors="replace"):
    if line.startswith("Running "):
        test, rows = line.split()[1].rstrip("."), []
    elif test and re.match(r"^\s*\d+\s+[\d.N/A ]+$", line) and not re.match(r"^\s+\d+(\s+\d+)*\s*$", line):
        rows += [float(v) for v in line.split()[1:] if v != "N/A"]
    elif test and line.startswith("SUM "):
        nvb[test] = rows
        test = None
def mean(v):
    return sum(v) / len(v) if v else None
def point(method, pred, bytes_=512 << 20, key="bandwidth_gbps"):
    out = []
    for r in records:
        if r["method"] != method or not pred(r):
            continue
        for p in r.get("points", []):
            if p.get("status") == "ok" and p["bytes"] == bytes_ and p.get("axes", {}) in ({}, None):
                out.append(p[key] if key == "bandwidth_gbps" else p["metrics"]["latency_ns"]["value"])
    return out
pinned = lambda r: r.get("params", {}).get("host_mem") in ("pinned", "registered")
local = lambda r: r["src"] == r["dst"]
rows = [
    ("memcpy-h2d pinned", point("memcpy-h2d", lambda r: r.get("params", {}).get("host_mem") == "pinned"), "host_to_device_memcpy_ce", "bw"),
    ("memcpy-d2h pinned", point("memcpy-d2h", lambda r: r.get("params", {}).get("host_mem") == "pinned"), "device_to_host_memcpy_ce", "bw"),
    ("memcpy-d2d local", point("memcpy-d2d", local), "device_local_copy", "bw"),
    ("sm-copy-h2d registered", point("sm-copy-h2d", pinned), "host_to_device_memcpy_sm", "bw"),
    ("sm-copy-d2h registered", point("sm-copy-d2h", pinned), "device_to_host_memcpy_sm", "bw"),
    ("all-to-host mode=sm", point("all-to-host", lambda r: r.get("params", {}).get("mode") == "sm"), "all_to_host_memcpy_sm", "sum"),
    ("gpumem-latency ring128 host (ns)", point("gpumem-latency", lambda r: r.get("params", {}).get("layout") == "ring128" and r.get("params", {}).get("memory") == "host-pinned", key="latency"), "host_device_latency_sm", "ns"),
    ("gpumem-latency ring128 peer (ns)", point("gpumem-latency", lambda r: r.get("params", {}).get("layout") == "ring128" and r.get("params", {}).get("memory") == "peer", key="latency"), "device_to_device_latency_sm", "ns"),
    ("gpumem-latency ring128 host at 4 MiB (ns)", point("gpumem-latency", lambda r: r.get("params", {}).get("layout") == "ring128" and r.get("params", {}).get("memory") == "host-pinned", 4 << 20, key="latency"), "host_device_latency_sm", "ns"),
    ("gpumem-latency ring128 peer at 4 MiB (ns)", point("gpumem-latency", lambda r: r.get("params", {}).get("layout") == "ring128" and r.get("params", {}).get("memory") == "peer", 4 << 20, key="latency"), "device_to_device_latency_sm", "ns"),
    ("gpumem-latency random peer at 4 MiB (ns)", point("gpumem-latency", lambda r: "layout" not in r.get("params", {}) and r.get("params", {}).get("memory") == "peer", 4 << 20, key="latency"), "device_to_device_latency_sm", "ns"),
]
print("figure (hwcomm at 512 MiB, mean over GPUs or pairs) | hwcomm | nvbandwidth | ratio | target")
for name, ours, test, kind in rows:
    ref = nvb.get(test)
    if not ours or not ref:
        print(f"{name} | {mean(ours)} | {test}: {ref} | - |")
        continue
    o = mean(ours)
    r = sum(ref) if kind == "sum" else mean(ref)
    target = "latency within 1%" if kind == "ns" else ">= 0.99"
    print(f"{name} | {o:.2f} | {test} {r:.2f} | {o / r:.3f} | {target}")
# The chase's spread over the SMs that ran it (gpumem-latency from 1 MiB on; docs/gpumem.md).
for r in records:
    if r["method"] == "gpumem-latency" and r.get("params", {}).get("memory") in ("peer", "host-pinned"):
        for p in r.get("points", []):
            m = p.get("metrics", {})
            if p.get("status") == "ok" and p["bytes"] in (4 << 20, 512 << 20) and "latency_ns_nearest_sm" in m:
                print(f"spread over SMs {r['src']}->{r['dst']} {r.get('params')} {p['bytes'] >> 20} MiB: "
                      f"{m['chase_sms']['value']:.0f} SMs, mean {m['latency_ns']['value']:.1f}, nearest "
                      f"{m['latency_ns_nearest_sm']['value']:.1f}, farthest {m['latency_ns_farthest_sm']['value']:.1f} ns")
ce = mean(point("memcpy-d2d", local))
tma = mean(point("tma-copy-d2d", local))
if ce and tma:
    print(f"tma-copy-d2d local / memcpy-d2d local (copy engines) at 512 MiB | {tma:.1f} / {ce:.1f} | {tma / ce:.3f} | target >= 1.0")
PY
for f in "$out"/parity.json "$out"/latency.json; do [[ -f $f ]] && gzip -9f "$f"; done
