#!/usr/bin/env python3
"""Hostile inputs to every command of hwcomm, by class (issue 25).

  scripts/hostile-inputs.py [--hwcomm build/src/cli/hwcomm] [--only SUBSTRING] [--list] [-v]

Not part of the test suite (it takes minutes and needs scratch space); the
classes it finds have regression tests and fuzz seeds of their own. Each case
runs the real binary in a scratch directory and checks what the project
promises (DEVELOPERS.md, "Bad input"):

  bad input   exit 2, one line on stderr ("hwcomm: error: ...") that names the
              file or option and says what is wrong in words (no JSON-library
              text, the path not repeated), no signal, no hang (60 s), nothing
              created or changed in the scratch directory;
  good input  exit 0 (or the documented code), every output valid UTF-8,
              SVG well-formed XML, JSON parseable.

Prints one line per case that misbehaves and a count per class; exit 1 when
any case misbehaves. Standard library only.
"""
import argparse
import gzip
import hashlib
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.dom.minidom
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIX = os.path.join(ROOT, "tests", "fixtures")
TIMEOUT = 60        # a hang; on a shared 2-core machine a slow case may take 20 s of wall time
CPU_LIMIT = 10      # CPU seconds for the cases named "(time)"


class Case:
    def __init__(self, cls, name, argv, expect="usage", names=None, code=0, outputs=(), check=None):
        self.cls, self.name, self.argv, self.expect = cls, name, argv, expect
        self.names = names          # text the error line must contain (the file or option)
        self.code = code            # expected exit code for expect="ok"
        self.outputs = outputs      # files an "ok" case writes (checked for UTF-8 / XML / JSON)
        self.check = check          # extra check(stdout, stderr) -> problem or None


# ---------------------------------------------------------------- shared inputs
def gz(data):
    return gzip.compress(data, 6)


def make_inputs(work, hwcomm):
    """Good files every case starts from, and the hostile kinds of file."""
    inputs = os.path.join(work, "inputs")
    os.makedirs(inputs, exist_ok=True)
    good = os.path.join(inputs, "good.json")
    with gzip.open(os.path.join(ROOT, "docs/examples/h200x2/deb-quick.json.gz")) as f:
        open(good, "wb").write(f.read())
    shutil.copy(os.path.join(FIX, "hwloc/dgx1.xml"), os.path.join(inputs, "good.xml"))
    with tarfile.open(os.path.join(FIX, "commscope-dgx1/dgx1-memcpy.tar.xz")) as t:
        member = t.getmember("dgx-1-NUMA_Memcpy_PinnedToGPU-0-0.json")
        open(os.path.join(inputs, "good-gb.json"), "wb").write(t.extractfile(member).read())
    shutil.copy(os.path.join(ROOT, "docs/targets-h200x2.json"), os.path.join(inputs, "targets.json"))
    subprocess.run([hwcomm, "model", "fit", good, "-o", os.path.join(inputs, "model.json")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    kinds = {}

    def put(name, data):
        path = os.path.join(inputs, name)
        open(path, "wb").write(data)
        kinds[name] = path

    put("empty.json", b"")
    put("garbage.json", bytes(range(256)) * 16)
    put("text.json", b"this is not json\n")
    put("array.json", b"[]")
    put("number.json", b"42")
    put("string.json", b'"results"')
    put("null.json", b"null")
    put("deep-array.json", b"[" * 100000 + b"]" * 100000)
    put("deep-object.json", b'{"a":' * 100000 + b"1" + b"}" * 100000)
    put("bad-utf8.json", b'{"schema": "hwcomm-results", "meta": {"host": "caf\xe9"}}')
    put("nan.json", b'{"schema": NaN}')
    put("truncated.json.gz", gz(open(good, "rb").read())[:2000])
    put("gzip-garbage.json.gz", b"\x1f\x8b\x08\x00" + bytes(range(200)))
    put("gzip-text.json.gz", gz(b"this is not json"))
    bomb = os.path.join(work, "bomb.json.gz")  # 3 GiB of zeros in about 3 MiB, kept between runs
    if not os.path.exists(bomb):
        z, chunk = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1 << 24)
        with open(bomb + ".tmp", "wb") as f:
            for _ in range(3 * 64):
                f.write(z.compress(chunk))
            f.write(z.flush())
        os.rename(bomb + ".tmp", bomb)
    kinds["bomb.json.gz"] = bomb
    sparse = os.path.join(inputs, "huge.json")
    with open(sparse, "wb") as f:
        f.truncate(2 << 30)  # 2 GiB, sparse: over the 1 GiB cap without using the disk
    kinds["huge.json"] = sparse
    kinds["missing.json"] = os.path.join(inputs, "missing.json")
    os.makedirs(os.path.join(inputs, "dir.json"), exist_ok=True)
    kinds["dir.json"] = os.path.join(inputs, "dir.json")
    kinds["/dev/zero"] = "/dev/zero"
    kinds["/dev/null"] = "/dev/null"
    fifo = os.path.join(inputs, "fifo.json")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    kinds["fifo.json"] = fifo
    return inputs, kinds


# ---------------------------------------------------------------- the classes
def file_readers(inputs):
    """Every option and positional that reads a file the user names: (label, argv with {F})."""
    g = lambda n: os.path.join(inputs, n)
    pred = ["--method", "cpu-read", "--src", "numa0", "--dst", "numa0", "--size", "1M"]
    return [
        ("summary", ["summary", "{F}"]),
        ("summary --targets", ["summary", g("good.json"), "--targets", "{F}"]),
        ("analyze", ["analyze", "{F}"]),
        ("analyze --json", ["analyze", "{F}", "--json"]),
        ("compare A", ["compare", "{F}", g("good.json")]),
        ("compare B", ["compare", g("good.json"), "{F}"]),
        ("report", ["report", "{F}", "-o", "out.html"]),
        ("export", ["export", "{F}", "-o", "out.csv"]),
        ("export --format jsonl", ["export", "{F}", "--format", "jsonl"]),
        ("model fit", ["model", "fit", "{F}", "-o", "model.json"]),
        ("model check", ["model", "check", "{F}"]),
        ("predict FILE", ["predict", "{F}"] + pred),
        ("predict --model", ["predict", "--model", "{F}"] + pred),
        ("import", ["import", "{F}", "-o", "imported.json"]),
        ("import --topology", ["import", g("good-gb.json"), "--topology", "{F}", "-o", "imported.json"]),
        ("topo --input", ["topo", "--input", "{F}"]),
        ("topo --input --json", ["topo", "--input", "{F}", "--json"]),
        ("list --input", ["list", "--input", "{F}"]),
        ("topo --nvml-replay", ["topo", "--input", g("good.xml"), "--nvml-replay", "{F}"]),
        ("topo FILE", ["topo", "{F}"]),
        ("run --resume", ["run", "--resume", "{F}"]),
    ]


def bad_files(inputs, kinds):
    cases = []
    for label, argv in file_readers(inputs):
        for kind, path in kinds.items():
            if label == "run --resume" and kind == "huge.json":
                continue  # resume of a 2 GiB file: same path as summary, spares the disk cache
            cases.append(Case("bad file", "%s: %s" % (label, kind), [a.replace("{F}", path) for a in argv],
                              names=path))
    return cases


def mutated(good, edit):
    doc = json.load(open(good))
    edit(doc)
    return json.dumps(doc).encode()


def set_path(doc, path, value):
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def type_confusions(inputs):
    """Wrong JSON types in results files, Google Benchmark JSON, models and targets."""
    good = os.path.join(inputs, "good.json")
    edits = {
        "meta=[]": (["meta"], []), "meta=3": (["meta"], 3), "meta=null": (["meta"], None),
        "meta.host=3": (["meta", "host"], 3), "meta.options=[]": (["meta", "options"], []),
        "schema=3": (["schema"], 3), "schema_version=9.9": (["schema_version"], "9.9"),
        "topology=[]": (["topology"], []), "topology.vertices={}": (["topology", "vertices"], {}),
        "vertex.kind=3": (["topology", "vertices", 0, "kind"], 3),
        "vertex.kind=bogus": (["topology", "vertices", 0, "kind"], "bogus"),
        "vertex.id=3": (["topology", "vertices", 0, "id"], 3),
        "edge.a=3": (["topology", "edges", 0, "a"], 3),
        "edge.a=unknown": (["topology", "edges", 0, "a"], "no-such-vertex"),
        "records={}": (["records"], {}), "record=[]": (["records", 0], []),
        "record.method=3": (["records", 0, "method"], 3), "record.src=3": (["records", 0, "src"], 3),
        "record.params=[]": (["records", 0, "params"], []), "record.params.x=3": (["records", 0, "params", "x"], 3),
        "record.points={}": (["records", 0, "points"], {}), "point=[]": (["records", 0, "points", 0], []),
        "point.bytes=-1": (["records", 0, "points", 0, "bytes"], -1),
        "point.bytes=x": (["records", 0, "points", 0, "bytes"], "x"),
        "point.bytes=1e30": (["records", 0, "points", 0, "bytes"], 1e30),
        "point.bandwidth=x": (["records", 0, "points", 0, "bandwidth_gbps"], "x"),
        "point.stats=[]": (["records", 0, "points", 0, "stats"], []),
        "point.samples=x": (["records", 0, "points", 0, "samples_s"], "x"),
    }
    commands = [("summary", ["summary", "{F}"]), ("analyze --json", ["analyze", "{F}", "--json"]),
                ("compare", ["compare", "{F}", good]), ("report", ["report", "{F}", "-o", "out.html"]),
                ("export", ["export", "{F}", "-o", "out.csv"]), ("model fit", ["model", "fit", "{F}", "-o", "m.json"]),
                ("model check", ["model", "check", "{F}"]), ("topo FILE", ["topo", "{F}"]),
                ("predict", ["predict", "{F}", "--method", "memcpy-h2d:host_mem=pinned,numa=0", "--src", "numa0",
                             "--dst", "gpu0", "--size", "64M"])]
    cases, files = [], {}
    for label, (path, value) in edits.items():
        name = os.path.join(inputs, "mut-" + hashlib.sha1(label.encode()).hexdigest()[:8] + ".json")
        try:
            open(name, "wb").write(mutated(good, lambda d: set_path(d, path, value)))
        except (KeyError, IndexError, TypeError):
            continue
        files[label] = name
        for cmd, argv in commands:
            cases.append(Case("wrong JSON type", "%s: %s" % (cmd, label), [a.replace("{F}", name) for a in argv],
                              expect="usage-or-ok", names=name))
    # Google Benchmark JSON for import.
    gb = json.load(open(os.path.join(inputs, "good-gb.json")))
    gb_edits = {
        "error_occurred=yes": lambda d: d["benchmarks"][0].update(error_occurred="yes"),
        "error_message=3": lambda d: d["benchmarks"][0].update(error_occurred=True, error_message=3),
        "time_unit=3": lambda d: d["benchmarks"][0].update(time_unit=3),
        "repetitions=x": lambda d: [b.update(repetitions="x") for b in d["benchmarks"]],
        "real_time=x": lambda d: d["benchmarks"][0].update(real_time="x"),
        "name=3": lambda d: d["benchmarks"][0].update(name=3),
        "benchmarks={}": lambda d: d.update(benchmarks={}),
        "benchmarks=[1]": lambda d: d.update(benchmarks=[1]),
        "log2=99999999": lambda d: d["benchmarks"][0].update(name="NUMA_Memcpy_PinnedToGPU/99999999/0/0/manual_time"),
        "context deep": lambda d: d.update(context=json.loads("[" * 100 + "]" * 100)),
    }
    for label, edit in gb_edits.items():
        doc = json.loads(json.dumps(gb))
        edit(doc)
        name = os.path.join(inputs, "gb-" + hashlib.sha1(label.encode()).hexdigest()[:8] + ".json")
        open(name, "w").write(json.dumps(doc))
        cases.append(Case("wrong JSON type", "import: " + label, ["import", name, "-o", "imported.json"],
                          expect="usage-or-ok", names=name))
    deep = os.path.join(inputs, "gb-deep-context.json")
    open(deep, "w").write('{"context": ' + "[" * 100000 + "]" * 100000 + ', "benchmarks": []}')
    cases.append(Case("crash", "import: context nests 100000 levels", ["import", deep, "-o", "imported.json"],
                      names=deep))
    model = json.load(open(os.path.join(inputs, "model.json")))
    for label, value in {"model.curves=3": 3, "model=[]": None}.items():
        doc = [] if value is None else dict(model, curves=value)
        name = os.path.join(inputs, "model-" + hashlib.sha1(label.encode()).hexdigest()[:8] + ".json")
        open(name, "w").write(json.dumps(doc))
        cases.append(Case("wrong JSON type", "predict --model: " + label,
                          ["predict", "--model", name, "--method", "cpu-read", "--src", "numa0", "--dst", "numa0",
                           "--size", "1M"], names=name))
    for label, doc in {"targets=[]": [], "targets.targets=3": {"targets": 3}}.items():
        name = os.path.join(inputs, "targets-" + hashlib.sha1(label.encode()).hexdigest()[:8] + ".json")
        open(name, "w").write(json.dumps(doc))
        cases.append(Case("wrong JSON type", "summary --targets: " + label,
                          ["summary", good, "--targets", name], names=name))
    return cases


def overwrites(inputs):
    """Writers given an existing file without --force: exit 2, the file untouched."""
    g = lambda n: os.path.join(inputs, n)
    writers = [
        ("report -o", ["report", g("good.json"), "-o", "{O}"]),
        ("topo -o", ["topo", "--input", g("good.xml"), "-o", "{O}"]),
        ("topo --svg", ["topo", "--input", g("good.xml"), "--svg", "{O}"]),
        ("topo --record-nvml", ["topo", "--record-nvml", "{O}"]),
        ("import -o", ["import", g("good-gb.json"), "-o", "{O}"]),
        ("model fit -o", ["model", "fit", g("good.json"), "-o", "{O}"]),
        ("export -o", ["export", g("good.json"), "-o", "{O}"]),
        ("analyze -o", ["analyze", g("good.json"), "-o", "{O}"]),
        ("run -o", ["run", "--filter", "method=cpu-read", "-o", "{O}"]),
        ("gpumem -o", ["gpumem", "-o", "{O}"]),
    ]
    cases = []
    for label, argv in writers:
        cases.append(Case("overwrite", label + " existing file", [a.replace("{O}", "existing.out") for a in argv],
                          names="existing.out"))
        # A pipe is written in place (topo --record-nvml then fails here for want of NVML, naming that).
        cases.append(Case("overwrite", label + " into a named pipe", [a.replace("{O}", "pipe.out") for a in argv],
                          names=None if "record-nvml" in label else "pipe.out"))
        cases.append(Case("overwrite", label + " into a directory", [a.replace("{O}", "subdir") for a in argv],
                          names="subdir"))
    return cases


def option_values(inputs):
    g = lambda n: os.path.join(inputs, n)
    pred = lambda size: ["predict", g("good.json"), "--method", "memcpy-h2d", "--src", "numa0", "--dst", "gpu0",
                         "--size", size]
    cases = [
        Case("option", "summary --at -1", ["summary", g("good.json"), "--matrix", "memcpy-d2d", "--at", "-1"],
             names="--at"),
        Case("option", "summary --at 0", ["summary", g("good.json"), "--matrix", "memcpy-d2d", "--at", "0"],
             names="--at"),
        Case("option", "summary --at 99999999999999999999",
             ["summary", g("good.json"), "--matrix", "memcpy-d2d", "--at", "99999999999999999999"], names="--at"),
        Case("option", "summary --at 1e3", ["summary", g("good.json"), "--matrix", "memcpy-d2d", "--at", "1e3"],
             names="--at"),
        Case("option", "compare --threshold nan", ["compare", g("good.json"), g("good.json"), "--threshold", "nan"],
             names="--threshold"),
        Case("option", "compare --threshold -5", ["compare", g("good.json"), g("good.json"), "--threshold", "-5"],
             names="--threshold"),
        Case("option", "analyze --threshold nan", ["analyze", g("good.json"), "--threshold", "nan"],
             names="threshold"),
        Case("option", "analyze --cluster-threshold inf", ["analyze", g("good.json"), "--cluster-threshold", "inf"],
             names="--cluster-threshold"),
        Case("option", "analyze --min-size -1", ["analyze", g("good.json"), "--min-size", "-1"], names="--min-size"),
        Case("option", "predict --size -1", pred("-1"), names="--size"),
        Case("option", "predict --size 0", pred("0"), names="--size"),
        Case("option", "predict --size 1e999", pred("1e999"), names="--size"),
        Case("option", "run --min-size 0", ["run", "--min-size", "0", "-o", "r.json"], names="--min-size"),
        Case("option", "run --time-budget nan", ["run", "--time-budget", "nan", "-o", "r.json"],
             names="--time-budget"),
        Case("option", "run --filter 'method=['", ["run", "--filter", "method=[", "-o", "r.json"], names="method=["),
        Case("option", "run --under-load garbage", ["run", "--under-load", "garbage", "-o", "r.json"],
             names="garbage"),
        Case("option", "run --plan --nodes 1048576 (time)", ["run", "--plan", "--nodes", "1048576"], expect="ok"),
        Case("option", "run --plan --nodes 0", ["run", "--plan", "--nodes", "0"], names="--nodes"),
    ]
    return cases


def latin1_xml(inputs):
    """An hwloc export whose strings hold latin-1 bytes: every output still valid UTF-8."""
    text = open(os.path.join(inputs, "good.xml"), "rb").read()
    text = text.replace(b'name="CPUModel" value="', b'name="CPUModel" value="Xeon caf\xe9 ', 1)
    text = text.replace(b'name="PCIDevice" value="', b'name="PCIDevice" value="G\xfcnther ', 1)
    text = text.replace(b'name="Backend" value="Linux"/>',
                        b'name="Backend" value="Linux"/>\n    <info name="HostName" value="h\xf4te"/>', 1)
    path = os.path.join(inputs, "latin1.xml")
    open(path, "wb").write(text)
    x = path
    return [
        Case("UTF-8", "topo --input latin1 (tree)", ["topo", "--input", x], expect="ok"),
        Case("UTF-8", "topo --input latin1 --json", ["topo", "--input", x, "--json", "-o", "t.json"], expect="ok",
             outputs=["t.json"]),
        Case("UTF-8", "topo --input latin1 --dot", ["topo", "--input", x, "--dot"], expect="ok"),
        Case("UTF-8", "topo --input latin1 --matrix", ["topo", "--input", x, "--matrix"], expect="ok"),
        Case("UTF-8", "topo --input latin1 --svg", ["topo", "--input", x, "--svg", "t.svg"], expect="ok",
             outputs=["t.svg"]),
        Case("UTF-8", "list --input latin1 --json", ["list", "--input", x, "--json"], expect="ok"),
        Case("UTF-8", "import --topology latin1", ["import", os.path.join(inputs, "good-gb.json"), "--topology", x,
                                                   "-o", "i.json"], expect="ok", outputs=["i.json"]),
    ]


def latin1_names(inputs):
    """A results file whose own name holds latin-1 bytes: outputs that name it stay valid UTF-8."""
    name = os.path.join(inputs, "r\xe9sultats.json").encode("latin-1")
    if not os.path.exists(name):
        shutil.copy(os.path.join(inputs, "good.json"), name)
    return [
        Case("UTF-8", "report of a latin-1 file name", [b"report", name, b"-o", b"out.html"], expect="ok",
             outputs=["out.html"]),
        Case("UTF-8", "analyze --json of a latin-1 file name", [b"analyze", name, b"--json"], expect="ok"),
        Case("UTF-8", "export jsonl of a latin-1 file name", [b"export", name, b"--format", b"jsonl"], expect="ok"),
        Case("UTF-8", "model fit of a latin-1 file name", [b"model", b"fit", name, b"-o", b"m.json"], expect="ok",
             outputs=["m.json"]),
        Case("UTF-8", "summary of two files, one latin-1", [b"summary", name, os.path.join(inputs, "good.json").encode()],
             expect="ok"),
    ]


def verdicts(inputs, hwcomm):
    """Documented exit codes other than 2: a CPU-only run of this machine against GPU figures."""
    cpu_only = os.path.join(inputs, "cpu-only.json")
    if not os.path.exists(cpu_only):
        subprocess.run([hwcomm, "run", "--filter", "method=cpu-read", "--min-size", "4K", "--max-size", "8K",
                        "--time-budget", "0.001", "-o", cpu_only], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300)
    return [Case("exit code", "summary --targets on another machine's data",
                 ["summary", cpu_only, "--targets", os.path.join(inputs, "targets.json")], expect="ok", code=1)]


def fsroot_pipe(work):
    root = os.path.join(work, "inputs", "fsroot")
    cpu = os.path.join(root, "sys/devices/system/cpu")
    os.makedirs(cpu, exist_ok=True)
    for name in ("online", "possible", "present"):
        path = os.path.join(cpu, name)
        if not os.path.exists(path):
            os.mkfifo(path)
    return [Case("hang", "topo --fsroot with a named pipe in the tree", ["topo", "--fsroot", root], names=root)]


# ---------------------------------------------------------------- running one case
def snapshot(directory):
    out = {}
    for dirpath, dirnames, filenames in os.walk(directory):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            digest = ""
            if stat.S_ISREG(st.st_mode):
                digest = hashlib.sha1(open(p, "rb").read()).hexdigest()
            out[os.path.relpath(p, directory)] = (stat.S_IFMT(st.st_mode), digest)
    return out


def fresh_scratch(work):
    scratch = os.path.join(work, "scratch")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "subdir"))
    open(os.path.join(scratch, "existing.out"), "w").write("precious\n")
    os.mkfifo(os.path.join(scratch, "pipe.out"))
    return scratch


def utf8_problem(data, what):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return "%s is not valid UTF-8 (byte %d)" % (what, e.start)
    return None


def judge(case, proc, cpu, before, after, scratch):
    if proc is None:
        return "hung (killed after %d s)" % TIMEOUT
    code, out, err = proc.returncode, proc.stdout, proc.stderr
    if code < 0:
        return "killed by signal %d" % -code
    text = err.decode("utf-8", "replace")
    if b"internal error" in err:
        return "internal error (exit %d): %s" % (code, text.strip()[:200])
    if case.expect in ("usage", "usage-or-ok") and code == 2:
        lines = text.splitlines()
        if len(lines) != 1 or not text.endswith("\n"):
            return "%d lines on stderr: %s" % (len(lines), text.strip()[:300])
        if not lines[0].startswith("hwcomm: error: "):
            return "stderr is not one error line: " + lines[0][:200]
        if "[json.exception" in text or "parse_error" in text:
            return "passes on JSON-library text: " + lines[0][:200]
        if case.names and (case.names if isinstance(case.names, str) else case.names.decode()) not in text:
            return "does not name %s: %s" % (case.names, lines[0][:200])
        if case.names and isinstance(case.names, str) and case.names.startswith("/") and text.count(case.names) > 1:
            return "names the path %d times: %s" % (text.count(case.names), lines[0][:200])
        if before != after:
            changed = sorted(set(before.items()) ^ set(after.items()))
            return "changed or created %s" % sorted({c[0] for c in changed})
        return None
    if case.expect == "usage":
        return "exit %d instead of 2: %s" % (code, text.strip()[:200])
    if case.expect == "usage-or-ok" and code != 0:
        return "exit %d instead of 0 or 2: %s" % (code, text.strip()[:200])
    if case.expect == "ok" and code != case.code:
        return "exit %d instead of %d: %s" % (code, case.code, text.strip()[:200])
    for data, what in ((out, "stdout"), (err, "stderr")):
        problem = utf8_problem(data, what)
        if problem:
            return problem
    for name in case.outputs:
        path = os.path.join(scratch, name)
        if not os.path.exists(path):
            return "wrote no " + name
        data = open(path, "rb").read()
        problem = utf8_problem(data, name)
        if problem:
            return problem
        try:
            if name.endswith(".svg"):
                xml.dom.minidom.parseString(data)
            elif name.endswith(".json"):
                json.loads(data)
        except Exception as e:  # any parser complaint is the finding
            return "%s is malformed: %s" % (name, str(e)[:120])
    if case.check:
        return case.check(out, err)
    if "(time)" in case.name and cpu > CPU_LIMIT:
        return "took %.1f CPU-s" % cpu
    return None


def run_case(hwcomm, case, work):
    scratch = fresh_scratch(work)
    before = snapshot(scratch)
    start = time.monotonic()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run([hwcomm] + list(case.argv), cwd=scratch, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc = None
    elapsed = time.monotonic() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (now.ru_utime - used.ru_utime) + (now.ru_stime - used.ru_stime)
    after = snapshot(scratch)
    return judge(case, proc, cpu, before, after, scratch), elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hwcomm", default=os.path.join(ROOT, "build/src/cli/hwcomm"))
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "hwcomm-hostile"))
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("-v", action="store_true")
    a = parser.parse_args()
    hwcomm = os.path.abspath(a.hwcomm)
    os.makedirs(a.work, exist_ok=True)
    inputs, kinds = make_inputs(a.work, hwcomm)
    cases = (bad_files(inputs, kinds) + type_confusions(inputs) + overwrites(inputs) + option_values(inputs) +
             latin1_xml(inputs) + latin1_names(inputs) + verdicts(inputs, hwcomm) + fsroot_pipe(a.work))
    cases = [c for c in cases if a.only in c.name]
    if a.list:
        for c in cases:
            print("%-16s %s" % (c.cls, c.name))
        return 0
    per_class, bad = {}, 0
    for case in cases:
        problem, elapsed = run_case(hwcomm, case, a.work)
        total, failed = per_class.get(case.cls, (0, 0))
        per_class[case.cls] = (total + 1, failed + (problem is not None))
        if problem:
            bad += 1
            print("MISBEHAVES [%s] %s: %s" % (case.cls, case.name, problem), flush=True)
        elif a.v:
            print("ok [%s] %s (%.1f s)" % (case.cls, case.name, elapsed), flush=True)
    for cls, (total, failed) in sorted(per_class.items()):
        print("hostile-inputs: %-16s %4d cases, %4d behave" % (cls, total, total - failed))
    print("hostile-inputs: %d cases, %d behave, %d misbehave" % (len(cases), len(cases) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
