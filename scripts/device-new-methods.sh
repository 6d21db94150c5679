#!/usr/bin/env bash
# One device-tool call for the methods of issues 9, 12, 15 and 16 on a GPU
# machine, from binaries built here (no build on the device: its time is
# scarce). Carry .devcarry/build.tar.gz, made by scripts/pack-device-build.sh.
# Each step has its own time limit (SIGINT: a run saves its file and exits 4),
# so one slow step cannot eat the others; everything lands under $OUT.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.sm,clocks.mem --format=csv,noheader
step faults 50 "HWCOMM_FAULT_TEST_OUT=$out/faults ctest --test-dir $B -L gpu -R GpuFaults --output-on-failure 2>&1 | tail -25"
step um-tests 50 "ctest --test-dir $B -L gpu -R 'UmGpu|ZeroCopyGpu' --output-on-failure 2>&1 | grep -vE '^ *(Start|\\[ +(RUN|OK) )' | tail -40"
step um-run 45 "$hw run --quick --filter 'method=um-*' --filter 'method=zero-copy-*' -o $out/um.json"
step disk 30 "$hw list --all | grep -A6 '^disk-read'; $hw run --filter method=disk-read --max-size 256M -o $out/disk.json"
step load-tests 40 "ctest --test-dir $B -L gpu -R 'UnderLoadGpu|PatternCGpu' --output-on-failure 2>&1 | tail -25"
step load-run 35 "$hw run --filter method=under-load --filter method=priority --filter method=in-flight --filter src=numa0 --filter dst=gpu0 --time-budget 0.1 -o $out/load.json"
step gpumem-run 40 "$hw gpumem --quick --filter src=gpu0 -o $out/gpumem.json"
step gpumem-tests 35 "ctest --test-dir $B -L gpu -R GpumemGpu --output-on-failure 2>&1 | tail -25"
step deb 25 "bash scripts/device-deb.sh $B/hwcomm_0.1.0_amd64.deb --filter 'method=memcpy-h2d' --filter 'method=memcpy-d2d' 2>&1 | tail -25"
for f in um disk load gpumem; do [ -f "$out/$f.json" ] && "$hw" summary "$out/$f.json" > "$out/$f-summary.txt" 2>&1; done
[ -f "$out/load.json" ] && "$hw" analyze "$out/load.json" > "$out/load-analyze.txt" 2>&1
ls -la "$out"
