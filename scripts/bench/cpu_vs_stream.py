#!/usr/bin/env python3
"""hwcomm's CPU kernels beside STREAM run in the same session.

usage: cpu_vs_stream.py ANALYZE.json STREAM.txt [STREAM.txt...]
ANALYZE.json: `hwcomm analyze --json` of the run (its "cpu" section).
STREAM.txt: STREAM's output; the best rate of each kernel over all files is used
(STREAM itself reports the best of NTIMES). Prints the ratios the targets name:
cpu-read large / STREAM Copy, cpu-copy and cpu-triad by STREAM's count / STREAM
Copy and Triad, median and best of N, and how many large points converged.
"""
import json
import re
import sys


def stream_best(paths):
    best = {}
    for path in paths:
        for line in open(path):
            m = re.match(r"^(Copy|Scale|Add|Triad):\s+([0-9.]+)", line)
            if m:
                best[m.group(1)] = max(best.get(m.group(1), 0.0), float(m.group(2)) / 1000.0)  # MB/s -> GB/s
    return best


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cpu = json.load(open(sys.argv[1])).get("cpu", {})
    stream = stream_best(sys.argv[2:])
    print("STREAM best (GB/s):", ", ".join(f"{k} {v:.1f}" for k, v in stream.items()))
    rows = cpu.get("bandwidth", [])
    print(f"{'record':40} {'median':>8} {'best':>8} {'STREAM ct':>10} {'ratio med':>9} {'ratio best':>10}")
    for r in rows:
        name = f"{r['method']} {r['src']}->{r['dst']} {r['params']}"
        factor = 1
        ref = None
        if r["method"] == "cpu-read":
            ref = stream.get("Copy")
        elif r.get("stream_kernel") in stream:
            ref = stream[r["stream_kernel"]]
            factor = r["stream_median_gbps"] / r["median_gbps"] if r["median_gbps"] else 1
        med, best = r["median_gbps"] * factor, r["best_gbps"] * factor
        ratio = f"{med / ref:9.3f} {best / ref:10.3f}" if ref else f"{'-':>9} {'-':>10}"
        print(f"{name:40} {r['median_gbps']:8.1f} {r['best_gbps']:8.1f} {med:10.1f} {ratio}")
    lat = cpu.get("latency_matrix", {})
    for c in lat.get("cells", []):
        print(f"idle latency {c['src']}->{c['dst']} at {lat.get('bytes')} B: {c['value']:.1f} ns")
    for l in cpu.get("ladders", []):
        print(f"ladder {l['src']}->{l['dst']}: L1 {l['l1_ns']} L2 {l['l2_ns']} LLC {l['llc_ns']} DRAM {l['dram_ns']} ns; "
              f"steps past L1 {l['l2_step_bytes']} past L2 {l['llc_step_bytes']} past LLC {l['dram_step_bytes']}; "
              f"caches {l['l1d_bytes']} {l['l2_bytes']} {l['llc_bytes']}; huge pages {l['huge_page_share']}")
    for c in cpu.get("loaded_latency", []):
        pts = ", ".join(f"{p['load_workers']}: {p['latency_ns']:.0f} ns @ {p['load_gbps']:.1f} GB/s" for p in c["points"])
        print(f"loaded latency {c['src']}->{c['dst']}: {pts}")
    for mix, m in cpu.get("mix_matrices", {}).items():
        cells = ", ".join(f"{c['src']}->{c['dst']} {c['value']:.1f}" for c in m["cells"])
        print(f"mix {mix}: {cells} GB/s")
    print("theoretical DRAM:", cpu.get("dram"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
