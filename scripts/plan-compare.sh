#!/usr/bin/env bash
# The default (class-reduced, laddered) run against --exhaustive on the same
# machine (issue 21's targets), from their results files alone, so it runs
# wherever hwcomm is built:
#   scripts/plan-compare.sh HWCOMM DEFAULT.json[.gz] EXHAUSTIVE.json[.gz] [NVBANDWIDTH.txt]
# Prints: `analyze` verdicts cell by cell (every difference listed; the target
# is none), the model's leave-one-size-out median error of each (the target:
# at most 0.5 points more for the default), each run's wall time against its
# plan's estimate (target: within 20%), and, with nvbandwidth's output, the
# ratios of docs/fidelity.md for both runs.
set -uo pipefail
hw=$1 def=$2 exh=$3 nvb=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$hw" analyze --json "$def" > "$tmp/def-analyze.json" || echo "analyze $def: exit $?"
"$hw" analyze --json "$exh" > "$tmp/exh-analyze.json" || echo "analyze $exh: exit $?"
"$hw" model check --json "$def" > "$tmp/def-check.json" 2>/dev/null || echo "model check $def: exit $?"
"$hw" model check --json "$exh" > "$tmp/exh-check.json" 2>/dev/null || echo "model check $exh: exit $?"
python3 - "$tmp" "$def" "$exh" "$nvb" <<'PY'
import gzip, json, re, sys
tmp, def_path, exh_path, nvb = sys.argv[1:5]

def load(path):
    opener = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    with opener(path, 'rt') as f:
        return json.load(f)

def cells(path):
    try:
        doc = json.load(open(path))
    except Exception as e:
        print(f"  cannot read {path}: {e}")
        return {}
    return {(c.get('table'), c.get('link'), c.get('key')): c.get('verdict') for c in doc.get('cells', [])}

print("== analyze verdicts: default against --exhaustive")
a, b = cells(f"{tmp}/def-analyze.json"), cells(f"{tmp}/exh-analyze.json")
diff = [k for k in sorted(set(a) | set(b), key=str) if a.get(k) != b.get(k)]
print(f"  cells: default {len(a)}, exhaustive {len(b)}, differing {len(diff)}")
for k in diff:
    print(f"  DIFFERS {k}: default {a.get(k)!r}, exhaustive {b.get(k)!r}")

print("== model check, leave-one-size-out median |error|")
def median_sizes(path):
    try:
        doc = json.load(open(path))
    except Exception as e:
        return None
    s = doc.get('leave_one_size_out')
    return s.get('median_abs_error') if isinstance(s, dict) else None
md, me = median_sizes(f"{tmp}/def-check.json"), median_sizes(f"{tmp}/exh-check.json")
pct = lambda v: "none" if v is None else f"{100 * v:.2f}%"
print(f"  default {pct(md)}, exhaustive {pct(me)}" + (f", growth {100 * (md - me):+.2f} points (target <= +0.5)" if md is not None and me is not None else ""))

print("== run time against the plan's estimate")
runs = {}
for name, path in (("default", def_path), ("exhaustive", exh_path)):
    d = load(path)
    runs[name] = d
    est = sum(r['context'].get('estimate_s', 0) for r in d['records'])
    el = sum(r['context'].get('elapsed_s', 0) for r in d['records'])
    plan = d['meta'].get('plan', {})
    kinds = {}
    for r in d['records']:
        kinds[r.get('measured_as', '-')] = kinds.get(r.get('measured_as', '-'), 0) + 1
    err = f"{100 * (est / el - 1):+.1f}%" if el else "-"
    print(f"  {name}: {len(d['records'])} records {kinds}, plan estimate {plan.get('estimate_s', 0):.1f} s, "
          f"records' estimates {est:.1f} s, measured {el:.1f} s (error {err}), "
          f"started {d['meta']['run'].get('started_utc')} ended {d['meta']['run'].get('ended_utc')}")

if nvb:
    print("== nvbandwidth ratios (hwcomm GB/s at its largest size / nvbandwidth SUM per transfer)")
    sums = {}
    for line in open(nvb, errors='replace'):
        m = re.match(r'\s*SUM\s+(\S+)\s+([0-9.]+)', line)
        if m:
            sums[m.group(1)] = float(m.group(2))
    def best(d, method, params, local):
        vals = []
        for r in d['records']:
            if r['method'] != method or any(r['params'].get(k) != v for k, v in params.items()) or r['status'] != 'ok':
                continue
            if r.get('measured_as') == 'confirmed':  # measured at its class's confirmation sizes only
                continue
            if (r['src'] == r['dst']) != local:
                continue
            pts = [p for p in r['points'] if p['status'] == 'ok' and not p.get('axes')]
            if pts:
                vals.append(max(pts, key=lambda p: p['bytes'])['bandwidth_gbps'])
        return vals
    gpus = len([v for v in runs['default']['topology'].get('vertices', []) if v.get('kind') == 'gpu']) or 1
    pairs = max(gpus * (gpus - 1), 1)
    table = [("host_to_device_memcpy_ce", "memcpy-h2d", {"host_mem": "pinned"}, False, gpus),
             ("device_to_host_memcpy_ce", "memcpy-d2h", {"host_mem": "pinned"}, False, gpus),
             ("device_local_copy", "memcpy-d2d", {}, True, gpus),
             ("device_to_device_memcpy_write_ce", "memcpy-peer", {"peer": "on"}, False, pairs),
             ("device_to_device_bidirectional_memcpy_write_ce", "duplex-d2d", {"peer": "on"}, False, pairs)]
    for test, method, params, local, n in table:
        if test not in sums:
            continue
        ref = sums[test] / n
        line = f"  {test}: nvbandwidth {ref:.1f} GB/s per transfer"
        for name, d in runs.items():
            v = best(d, method, params, local)
            if v:
                line += f"; {name} {method} mean {sum(v) / len(v):.1f} (ratio {sum(v) / len(v) / ref:.3f})"
        print(line)
PY
