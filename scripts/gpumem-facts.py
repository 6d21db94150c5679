#!/usr/bin/env python3
"""Prints the numbers issue 9 asks for from a `hwcomm gpumem` results file:
peak DRAM read, occupancy against its Little's-law bound, per-warp latency,
strided sectors (theory and ncu) and the latency ladder. Used by
scripts/device-gpumem.sh; reads the file only."""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def metric(p, name):
    m = p.get("metrics", {}).get(name)
    return m["value"] if m else None


def size(b):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= div:
            return f"{b / div:g} {unit}"
    return f"{b} B"


def main(path):
    d = load(path)
    gpus = {g.get("id"): g.get("name", "") for g in d.get("meta", {}).get("gpus", []) if isinstance(g, dict)}
    for r in d["records"]:
        ok = [p for p in r["points"] if p.get("status") == "ok"]
        head = f"{r['method']} {r['src']}->{r['dst']} {r.get('params', {})} {gpus.get(r['src'], '')}"
        if r["status"] != "ok" or not ok:
            print(head, "ERROR", r.get("error", "")[:200])
            continue
        if r["method"] == "gpumem-occupancy":
            best = max(ok, key=lambda p: p["bandwidth_gbps"])
            peak = metric(best, "theoretical_dram_gbps")
            print(head)
            print(f"  peak read {best['bandwidth_gbps']:.0f} GB/s = {100 * best['bandwidth_gbps'] / peak:.1f}% of "
                  f"{peak:.0f} at {best['axes']}; unloaded latency {r['context']['littles_law']['latency_ns']:.0f} ns")
            for e, ilp in ((4, 1), (16, 4)):
                row = [p for p in ok if p["axes"]["element_bytes"] == e and p["axes"]["ilp"] == ilp]
                print(f"  {e} B x ilp {ilp}: " + ", ".join(
                    f"{p['axes']['warps_per_sm']}w {p['bandwidth_gbps']:.0f}/{metric(p, 'littles_law_bound_gbps'):.0f}"
                    f"{'L' if metric(p, 'latency_bound') else 'B'}" for p in row))
        elif r["method"] == "gpumem-timeline":
            print(head)
            for p in ok:
                print(f"  {p['axes']}: warp latency median {metric(p, 'warp_latency_cycles_median'):.0f} cycles "
                      f"(p10 {metric(p, 'warp_latency_cycles_p10'):.0f}, p90 {metric(p, 'warp_latency_cycles_p90'):.0f}),"
                      f" {metric(p, 'warp_latency_ns_median') or 0:.0f} ns, block gap "
                      f"{metric(p, 'block_gap_cycles_median') or 0:.0f} cycles, SM clock {metric(p, 'sm_clock_mhz'):.0f} MHz")
        elif r["method"] == "gpumem-stride":
            print(head, "| ncu:", json.dumps(r["context"].get("kernel", {}).get("ncu"))[:160])
            for p in ok:
                t, n, dr = metric(p, "sectors_theory"), metric(p, "sectors_ncu"), metric(p, "dram_sectors_ncu")
                print(f"  {p['axes']['element_bytes']:>2} B stride {p['axes']['stride']:>3}: {p['bandwidth_gbps']:7.0f} GB/s,"
                      f" sectors theory {t / 1e6:8.2f} M, ncu {n / 1e6 if n else float('nan'):8.2f} M"
                      f" ({n / t if n else float('nan'):.4f}), DRAM {dr / 1e6 if dr else float('nan'):8.2f} M")
        elif r["method"] == "gpumem-latency":
            print(head + ": " + ", ".join(f"{size(p['bytes'])} {metric(p, 'latency_ns'):.0f}" for p in ok))


if __name__ == "__main__":
    main(sys.argv[1])
