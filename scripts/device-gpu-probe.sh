#!/usr/bin/env bash
# One device-tool call for issue 22 item 2: why SM device-to-host copies
# (0.94x), the device-local copy (0.987x) and the pointer-chase latency
# (+1% host, +3.5% GPU to GPU) trail nvbandwidth v0.8. Builds the two probes
# of scripts/bench/ with the machine's nvcc, runs every variant side by side,
# then nvbandwidth's own tests in the same call (carried at .peers/nvbandwidth,
# a file or a folder holding it: ../shared/peers/README.md), then Nsight
# Compute on the two D2H kernels that matter. Under 6 minutes on one H100.
#   scripts/device-gpu-probe.sh [DEVICE] [PEER]     (default: 0, and 1 when there are two GPUs)
# Writes under $OUT: copy-probe.txt, latency-probe.txt, nvbandwidth.txt,
# ncu-d2h.csv, ratios.txt (the facts to check), session.log.
set -uo pipefail
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
device=${1:-0}
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
peer=${2:-$([ "$gpus" -ge 2 ] && echo $(( (device + 1) % gpus )) || echo -1)}
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,clocks.max.sm,clocks.mem --format=csv
step() {
  local name=$1 limit=$2 t=$SECONDS
  shift 2
  echo "== $name (limit ${limit} s)"
  timeout -s INT -k 5 "$limit" bash -c "$*"
  echo "== $name: exit $? in $((SECONDS - t)) s"
}
bin=$out/bin
mkdir -p "$bin"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
step build 120 "$nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o $bin/copy_probe scripts/bench/copy_probe.cu && \
  $nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o $bin/latency_probe scripts/bench/latency_probe.cu"

# The probes first, then nvbandwidth: one machine, one call, ratios from the same minutes.
step copy-probe 150 "$bin/copy_probe --device $device > $out/copy-probe.txt 2>&1; cat $out/copy-probe.txt"
step latency-probe 120 "$bin/latency_probe --device $device --peer $peer > $out/latency-probe.txt 2>&1; cat $out/latency-probe.txt"
nvbw=.peers/nvbandwidth
[[ -d $nvbw ]] && nvbw=$nvbw/nvbandwidth
if [[ -x $nvbw ]]; then
  step nvbandwidth 150 "$nvbw -t device_to_host_memcpy_sm device_local_copy host_device_latency_sm \
    device_to_device_latency_sm all_to_host_memcpy_sm > $out/nvbandwidth.txt 2>&1; cat $out/nvbandwidth.txt"
else
  echo "no nvbandwidth at .peers/nvbandwidth: ratios need it (../shared/peers/README.md)"
fi

# Nsight Compute on hwcomm's D2H kernel shape and nvbandwidth's: what limits the stores to host memory.
# (--only d2h --trials 1 --reps 1: one launch of each variant; the two of interest are filtered by launch count.)
if command -v ncu >/dev/null 2>&1; then
  # Sections rather than single metrics: their names hold on every Nsight Compute version. Worth reading:
  # SpeedOfLight (SM vs memory throughput), MemoryWorkloadAnalysis (sysmem write sectors: how full each
  # posted PCIe write is), WarpStateStats (stalls on lg_throttle / drain: the store queue full), Occupancy.
  step ncu 120 "ncu --csv --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section Occupancy --launch-skip 1 --launch-count 3 -k regex:grid_stride \
    $bin/copy_probe --device $device --only d2h --mib 256 --trials 1 --reps 1 > $out/ncu-d2h.csv 2>&1; \
    grep -E 'Duration|Throughput|Stall|Achieved Occupancy|Bytes' $out/ncu-d2h.csv | head -40"
else
  echo "no ncu on this machine: Nsight Compute metrics skipped"
fi

# The facts to check: best SM D2H and local-copy variants against nvbandwidth, and the chase rows against its latency.
python3 - "$out" <<'PY' | tee "$out/ratios.txt"
# The facts to check: hwcomm's kernel shape and the best variant of each probe
# beside nvbandwidth's own figure for the same test (its text, as printed).
import re, sys, pathlib
out = pathlib.Path(sys.argv[1])
def text(name):
    p = out / name
    return p.read_text() if p.exists() else ""
copy = [l.split() for l in text("copy-probe.txt").splitlines() if l.startswith(("d2h ", "local "))]
for label in ("d2h", "local"):
    mine = [r for r in copy if r[0] == label and r[-1] == "yes"]
    if not mine: continue
    base = next((r for r in mine if r[1] == "hwcomm"), None)
    ce = next((r for r in mine if r[1] == "CE"), None)
    best = max((r for r in mine if r[1] != "CE"), key=lambda r: float(r[-3]))
    print(f"{label}:")
    for tag, r in (("copy engines", ce), ("hwcomm kernel", base), ("best kernel", best)):
        if r: print(f"  {tag:14s} median {float(r[-3]):8.2f} GB/s  best {float(r[-2]):8.2f}   {' '.join(r[1:-3])}")
nv = text("nvbandwidth.txt")
for test in ("device_to_host_memcpy_sm", "device_local_copy", "all_to_host_memcpy_sm", "host_device_latency_sm",
             "device_to_device_latency_sm"):
    m = re.search(r"Running " + test + r"\.(.*?)(?=\nRunning |\Z)", nv, re.S)
    print(f"nvbandwidth {test}:")
    print("\n".join("    " + l for l in (m.group(1).strip().splitlines() if m else ["not run"])))
print("latency: compare the host/peer 'ring-128B pointer nvbandwidth' rows of latency-probe.txt with nvbandwidth's "
      "figures, and 'random-lines index' (hwcomm's chase) with hwcomm gpumem-latency")
PY
ls -la "$out"
