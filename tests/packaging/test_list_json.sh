#!/usr/bin/env bash
# hwcomm list --json on a 2-NUMA-node hwloc fixture: each CPU method applies to
# the 4 ordered node pairs, memcpy with its two thread parameter sets; --all
# adds the pairs left out; the text listing into a pipe keeps its lines whole.
# Usage: test_list_json.sh HWCOMM FIXTURES   (exit 77: skipped, no python3)
set -euo pipefail
hwcomm=$1 fixtures=$2
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
xml=$fixtures/hwloc/24em64t-2n6c2t-pci.xml
"$hwcomm" list --json --input "$xml" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "hwcomm-list", d.get("schema")
m = {x["name"]: x for x in d["methods"]}
for name in ("cpu-read", "cpu-write", "memcpy"):
    pairs = {(p["src"], p["dst"]) for p in m[name]["applies_to"]}
    assert pairs == {(a, b) for a in ("numa0", "numa1") for b in ("numa0", "numa1")}, (name, pairs)
assert sorted(s["threads"] for s in m["memcpy"]["applies_to"][0]["param_sets"]) == ["multi", "single"]
assert any(o["name"] == "smt" and o["type"] == "flag" for o in m["cpu-read"]["options"])
assert all("not_applicable" not in x for x in d["methods"])
print("list --json:", len(d["methods"]), "methods")'
"$hwcomm" list --json --all --input "$xml" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert all("not_applicable" in x for x in d["methods"])'
line=$("$hwcomm" list --input "$xml" | grep "^cpu-read: ")
[[ "$line" == *"(..PUs with --smt)" ]] || { echo "FAIL: the piped listing cut a line: $line" >&2; exit 1; }
echo "test_list_json: ok"
