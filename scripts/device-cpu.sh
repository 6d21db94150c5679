#!/usr/bin/env bash
# One device-tool call for the CPU memory methods (docs/cpu-methods.md, issue 23)
# on the GPU machine's host: STREAM (carried in .peers/stream/stream.c, see
# ../shared/peers/README.md) built here with -O3 -march=native -fopenmp, arrays
# >= 4x the last-level cache, run before and after hwcomm's CPU methods in the
# same call; then the ratios the targets name and the convergence count.
#   scripts/device-cpu.sh [extra hwcomm run args...]
# Uses $HW when set (a built hwcomm), else builds a CPU-only hwcomm (the CPU
# methods need no CUDA) into build-cpu-dev.
set -uo pipefail
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
here=$(cd "$(dirname "$0")/.." && pwd)
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|NUMA|L1d|L2|L3"
cat /sys/kernel/mm/transparent_hugepage/enabled
hw=${HW:-}
if [[ -z "$hw" ]]; then
  t0=$SECONDS
  cmake -S "$here" -B "$here/build-cpu-dev" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWCOMM_CUDA=OFF -DHWCOMM_MPI=OFF >/dev/null &&
    cmake --build "$here/build-cpu-dev" -j "$(nproc)" --target hwcomm >/dev/null || { echo "build FAILED"; exit 1; }
  echo "build took $((SECONDS - t0)) s"
  hw=$here/build-cpu-dev/src/cli/hwcomm
fi
l3=$(lscpu -B | awk '/^L3 cache/ {print $3}')
l3=${l3:-33554432}
elements=$(( l3 * 4 / 8 ))
(( elements < 20000000 )) && elements=20000000
cores=$(lscpu -p=CORE | grep -v '^#' | sort -u | wc -l)
stream_src=${STREAM_SRC:-$here/.peers/stream/stream.c}
if [[ -f "$stream_src" ]]; then
  gcc -O3 -march=native -fopenmp -mcmodel=medium -DSTREAM_ARRAY_SIZE=$elements -DNTIMES=20 "$stream_src" -o "$out/stream" ||
    echo "STREAM build FAILED"
else
  echo "no STREAM source at $stream_src: carry ../shared/peers/stream as .peers/stream"
fi
run_stream() {  # one STREAM run per thread count: all PUs, and one per core
  [[ -x "$out/stream" ]] || return
  OMP_PROC_BIND=spread OMP_PLACES=cores OMP_NUM_THREADS=$cores "$out/stream" > "$out/stream-$1-cores.txt"
  OMP_PROC_BIND=spread OMP_PLACES=threads "$out/stream" > "$out/stream-$1-pus.txt"
  grep -E "^(Copy|Triad|Number of Threads)" "$out"/stream-"$1"-*.txt
}
echo "== STREAM before ($elements elements per array, $cores cores)"
run_stream before
echo "== hwcomm CPU methods"
t0=$SECONDS
timeout -s INT 360 "$hw" run --filter 'method=cpu-*' --filter method=memcpy -o "$out/cpu.json" --force "$@" 2> "$out/run-stderr.log"
echo "hwcomm run exit $? in $((SECONDS - t0)) s"
tail -4 "$out/run-stderr.log"
echo "== STREAM after"
run_stream after
"$hw" summary "$out/cpu.json" > "$out/summary.txt" 2>&1
"$hw" analyze --json "$out/cpu.json" > "$out/analyze.json" 2> "$out/analyze-stderr.log"
"$hw" report "$out/cpu.json" -o "$out/report.html" > /dev/null 2>&1
cat "$out/summary.txt" | sed -n '/^CPU memory/,$p'
echo "== ratios (targets: cpu-read >= 1.0x STREAM Copy; cpu-copy and cpu-triad by STREAM's count >= 0.97x Copy, Triad)"
python3 "$here/scripts/bench/cpu_vs_stream.py" "$out/analyze.json" "$out"/stream-*.txt
echo "== convergence of the 10 largest sizes (target: >= 8 of 10 converged)"
python3 "$here/scripts/bench/cpu_converged.py" "$out/cpu.json"
grep -h "variant_choice" -c "$out/cpu.json" >/dev/null && python3 - "$out/cpu.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    w = r.get("context", {}).get("variant_choice", {}).get("winners")
    if w: print(r["key"], "worker counts chosen:", [(x["bytes"], x["variant"]) for x in w], "elapsed", round(r["context"].get("elapsed_s", 0), 1), "s")
PY
ls -la "$out"
