#!/usr/bin/env python3
"""Per CPU bandwidth record of a results file: how many of its 10 largest sizes
stopped converged (stop_reason) and how many hwcomm would still flag
"not converged" (95% CI half-width above 2.5%: too wide to decide a 5% difference).
usage: cpu_converged.py RESULTS.json[.gz]"""
import gzip
import json
import sys

opener = gzip.open if sys.argv[1].endswith(".gz") else open
doc = json.load(opener(sys.argv[1], "rt"))
for r in doc["records"]:
    if r["method"] not in ("cpu-read", "cpu-write", "cpu-copy", "cpu-triad", "memcpy"):
        continue
    pts = sorted((p for p in r.get("points", []) if p.get("status") == "ok"), key=lambda p: p["bytes"])[-10:]
    conv = sum(1 for p in pts if p.get("stop_reason") == "converged")
    wide = 0
    for p in pts:
        st = p.get("stats", {})
        if p.get("stop_reason") != "converged" and st.get("median", 0) > 0:
            if (st["ci95_high"] - st["ci95_low"]) / 2 / st["median"] * 2 > 0.05:
                wide += 1
    params = " ".join(f"{k}={v}" for k, v in r.get("params", {}).items())
    print(f"{r['method']:10} {r['src']}->{r['dst']} {params:14} converged {conv}/{len(pts)}, flagged not-converged {wide}")
