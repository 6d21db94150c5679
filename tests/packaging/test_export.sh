#!/usr/bin/env bash
# hwcomm export against the committed example files: row counts, duplex
# figures and the gz / stdin inputs agree with the JSON; the Python block of
# docs/export.md runs (with pandas when installed, and always with the csv
# module) and prints the 1 GiB bandwidth of the file; bad input exits 2.
# Usage: test_export.sh HWCOMM SOURCE_DIR   (exit 77: skipped, no python3)
set -euo pipefail
hwcomm=$1 root=$2
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
x2=$root/docs/examples/h200x2/results-default.json.gz
x4=$root/docs/examples/h200x4/results-default.json.gz

"$hwcomm" export "$x2" -o "$work/r.csv"
"$hwcomm" export "$x2" --format jsonl -o "$work/r.jsonl"
gunzip -c "$x2" | "$hwcomm" export - > "$work/stdin.csv"
"$hwcomm" export "$x4" > "$work/x4.csv"
python3 - "$x2" "$x4" "$work" <<'PY'
import csv, gzip, json, sys
x2, x4, work = sys.argv[1:]
def expected_rows(doc):
    return sum(1 + len(p.get("variants", [])) + len(p.get("lanes", [])) for r in doc["records"] for p in r["points"])
d2 = json.load(gzip.open(x2)); d4 = json.load(gzip.open(x4))
rows = list(csv.DictReader(open(f"{work}/r.csv")))
assert len(rows) == expected_rows(d2), (len(rows), expected_rows(d2))
assert sum(1 for _ in open(f"{work}/r.jsonl")) == len(rows)
first = json.loads(open(f"{work}/r.jsonl").readline())
assert list(first)[:3] == ["file", "host", "revision"] and first["host"] == d2["meta"]["host"], first
stdin_rows = list(csv.DictReader(open(f"{work}/stdin.csv")))
assert len(stdin_rows) == len(rows) and stdin_rows[0]["file"] == "-"
assert len(list(csv.DictReader(open(f"{work}/x4.csv")))) == expected_rows(d4)
# Duplex: each direction from the point's extras, the total is the point's bandwidth.
rec = next(r for r in d2["records"] if r["method"] == "duplex-d2d")
pt = rec["points"][-1]
row = next(r for r in rows if r["method"] == "duplex-d2d" and r["src"] == rec["src"] and r["dst"] == rec["dst"]
           and r["row_kind"] == "point" and int(r["bytes"]) == pt["bytes"] and r["param_peer"] == rec["params"]["peer"])
for col, want in [("duplex_fwd_gbps", pt["extras"]["fwd_gbps"]), ("duplex_rev_gbps", pt["extras"]["rev_gbps"]),
                  ("duplex_total_gbps", pt["bandwidth_gbps"])]:
    assert abs(float(row[col]) - want) < 1e-6 * want, (col, row[col], want)
# CPU worker variants carry their worker count.
cpu = [r for r in rows if r["method"] == "cpu-read" and r["row_kind"] == "variant"]
assert cpu and all(r["workers"] == r["variant"] for r in cpu)
print(f"export: {len(rows)} rows, duplex and workers columns match the JSON")
PY

# The docs' example, as written there, with and without pandas.
sed -n '/^```python$/,/^```$/p' "$root/docs/export.md" | sed '1d;$d' > "$work/example.py"
[ -s "$work/example.py" ] || fail "no python block in docs/export.md"
want=$(python3 -c 'import gzip,json,sys
d = json.load(gzip.open(sys.argv[1]))
r = next(r for r in d["records"] if r["method"] == "memcpy-h2d" and r["src"] == "numa0" and r["dst"] == "gpu0"
         and r["params"]["host_mem"] == "pinned")
print("%9.2f" % r["points"][-1]["bandwidth_gbps"])' "$x2")
plain=$(python3 -c 'import runpy, sys; sys.modules["pandas"] = None; sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")' "$work/example.py" "$work/r.csv")
[ "$(wc -l <<<"$plain")" -eq 31 ] || fail "the csv-module example printed $(wc -l <<<"$plain") sizes, not 31"
grep -q "^  1073741824 B $want GB/s\$" <<<"$plain" || fail "example's 1 GiB line is not $want GB/s: $(tail -1 <<<"$plain")"
if python3 -c 'import pandas' 2>/dev/null; then
  [ "$(python3 "$work/example.py" "$work/r.csv")" = "$plain" ] || fail "pandas and csv paths of the example differ"
  echo "example: pandas and csv module agree"
else
  echo "example: csv module (pandas not installed)"
fi

# Bad input: exit 2, nothing written or changed.
code() { set +e; "$@" >/dev/null 2>&1; echo $?; set -e; }
[ "$(code "$hwcomm" export "$work/missing.json")" = 2 ] || fail "a missing file is not exit 2"
[ "$(code "$hwcomm" export "$x2" --format xml)" = 2 ] || fail "--format xml is not exit 2"
cp "$work/r.csv" "$work/keep.csv"
[ "$(code "$hwcomm" export "$x2" -o "$work/r.csv" --format jsonl)" = 2 ] || fail "an existing -o is not exit 2"
cmp -s "$work/r.csv" "$work/keep.csv" || fail "an existing -o file was changed"
echo "test_export: ok"
