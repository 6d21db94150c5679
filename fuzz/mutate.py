#!/usr/bin/env python3
"""Mutates fixture files (byte flips, truncation, duplicated/deleted XML
elements, huge and negative numbers, deep nesting) and runs a command on each
mutant, reporting every run that does not end with exit 0 or 2 within the
time limit. Used to rebuild the crashing inputs of issue 16; CI uses libFuzzer.

  fuzz/mutate.py --count 300 --out /tmp/mut -- build/src/cli/hwcomm topo --input @@
"""
import argparse, os, random, re, subprocess, sys, time

def flip(data, rng):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)

def truncate(data, rng):
    return data[: rng.randrange(len(data))]

def elements(data):
    return [m.span() for m in re.finditer(rb"<object [^>]*?(/>|>)", data)]

def dup_or_delete(data, rng):
    spans = elements(data)
    if not spans:
        return flip(data, rng)
    s, e = rng.choice(spans)
    if data[e - 2:e] == b"/>" or rng.random() < 0.5:
        return data[:s] + data[s:e] * rng.randint(2, 50) + data[e:] if rng.random() < 0.5 else data[:s] + data[e:]
    return data[:s] + data[e:]

def huge_number(data, rng):
    nums = list(re.finditer(rb'="(-?[0-9]+)"', data))
    if not nums:
        return flip(data, rng)
    m = rng.choice(nums)
    v = rng.choice([b"-1", b"0", b"4294967295", b"4294967296", b"18446744073709551615", b"99999999999999999999", b"-2147483649"])
    return data[: m.start(1)] + v + data[m.end(1):]

def attr_value(data, rng):
    attrs = list(re.finditer(rb'(cpuset|complete_cpuset|nodeset|complete_nodeset|allowed_cpuset|gp_index|os_index|type|busid|depth)="([^"]*)"', data))
    if not attrs:
        return flip(data, rng)
    m = rng.choice(attrs)
    v = rng.choice([b"", b"0x0", b"0xffffffff,0xffffffff,0xffffffff", b"0x1", b"-1", b"Group", b"NUMANode", b"Package", b"zz", b"0000:ff:1f.7"])
    return data[: m.start(2)] + v + data[m.end(2):]

def deep_nesting(data, rng):
    if data.lstrip().startswith(b"{") or data.lstrip().startswith(b"["):
        n = rng.choice([1000, 100000, 300000])
        return b"[" * n + b"]" * n
    n = rng.choice([1000, 10000, 100000])
    i = data.find(b"<object")
    if i < 0:
        return flip(data, rng)
    return data[:i] + b'<object type="Group">' * n + data[i:]

MUTATORS = [flip, truncate, dup_or_delete, huge_number, attr_value, deep_nesting]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--out", default="/tmp/hwcomm-mutants")
    ap.add_argument("--inputs", nargs="+", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    seeds = [open(p, "rb").read() for p in a.inputs]
    bad = 0
    for n in range(a.count):
        m = rng.choice(MUTATORS)
        data = m(rng.choice(seeds), rng)
        path = os.path.join(a.out, f"m{n:05d}-{m.__name__}")
        open(path, "wb").write(data)
        t0 = time.time()
        try:
            p = subprocess.run([c.replace("@@", path) for c in cmd], capture_output=True, timeout=a.timeout)
            rc, err = p.returncode, p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        dt = time.time() - t0
        lines = err.strip().count("\n") + 1 if err.strip() else 0
        if rc not in (0, 2) or lines > 1:
            bad += 1
            print(f"{path}: rc={rc} {dt:.1f}s stderr_lines={lines} {err.strip().splitlines()[-1][:150] if err.strip() else ''}")
        else:
            os.unlink(path)
    print(f"{bad} of {a.count} mutants failed", file=sys.stderr)
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
