#!/usr/bin/env python3
"""Writes a results file whose names are hostile, for the report's browser test
(scripts/ci-browser.sh): every name the page shows carries markup that would
run a script or make an element if it were ever parsed as HTML.

  make_hostile.py IN.json[.gz] OUT_DIR  ->  prints the path it wrote

From a real results file: its file name, the endpoint ids (vertices, edges,
records, so heatmap rows and columns too), a parameter value of every record,
the host name and command line, a failed point's error and a suspect point's
stop reason (both become tooltip reasons) all get a payload; record keys are
recomputed so the file stays valid. The payload marks what it would create
(class hwcomm-injected, window.hwcommInjected) for check_report.py to look for.
Standard library only.
"""
import gzip
import json
import os
import sys

# No "/" in the file-name payload (a file name cannot hold one); the others close a script element too.
NAME_PAYLOAD = "<img src=x class=hwcomm-injected onerror=window.hwcommInjected=1>\"'&amp;"
PAYLOAD = NAME_PAYLOAD + "</script><script>window.hwcommInjected=1</script>"


def record_key(r):
    params = ",".join("%s=%s" % (k, v) for k, v in sorted(r["params"].items()))
    return "%s|%s|%s|%s" % (r["method"], r["src"], r["dst"], params)


def main(src, out_dir):
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    topo = doc["topology"]
    renamed = {v["id"]: v["id"] + PAYLOAD for v in topo["vertices"] if v["kind"] in ("gpu", "numa")}
    for v in topo["vertices"]:
        v["id"] = renamed.get(v["id"], v["id"])
        v["name"] = v.get("name", "") + PAYLOAD
    for e in topo["edges"]:
        e["a"], e["b"] = renamed.get(e["a"], e["a"]), renamed.get(e["b"], e["b"])
    doc["meta"]["host"] = PAYLOAD
    doc["meta"]["command_line"] = ["hwcomm", "run", PAYLOAD]
    for i, r in enumerate(doc["records"]):
        r["src"], r["dst"] = renamed.get(r["src"], r["src"]), renamed.get(r["dst"], r["dst"])
        if r["params"]:
            k = sorted(r["params"])[0]
            r["params"][k] = r["params"][k] + PAYLOAD
        r["key"] = record_key(r)
        ok = [p for p in r["points"] if p.get("status") == "ok"]
        if i % 2 == 0 and len(ok) > 2:
            ok[1]["stop_reason"] = "budget " + PAYLOAD  # a suspect point: not converged
        if i % 3 == 0 and len(ok) > 3:
            ok[2]["status"], ok[2]["error"] = "error", "verification failed " + PAYLOAD
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, NAME_PAYLOAD + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    print(path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
