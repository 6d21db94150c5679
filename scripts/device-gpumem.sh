#!/usr/bin/env bash
# One device-tool call for issue 9 (hwcomm gpumem) on a GPU machine, from
# binaries built here: carry .devcarry/build.tar.gz (scripts/pack-device-build.sh)
# and, for the comparison, .peers (NVIDIA's nvbandwidth, ../shared/peers).
#   scripts/device-gpumem.sh [EXTRA_GPU_TEST_REGEX]
# Writes under $OUT: gpumem.json (hwcomm gpumem --ncu, default sizes),
# facts.txt (the numbers the issue asks for), ncu-real.csv (a raw ncu report),
# nvbandwidth.txt, session.log.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
extra=${1:-}
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
step gpu-tests 200 "ctest --test-dir $B -L gpu -R 'Gpumem${extra:+|$extra}' --output-on-failure 2>&1 | grep -vE '^ *(Start|\\[ +(RUN|OK) )' | tail -60"
step gpumem 240 "$hw gpumem --ncu --max-size 4G -o $out/gpumem.json"
step ncu-raw 60 "ncu --csv --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__sectors_read.sum --kernel-name regex:strided_kernel $hw __gpumem-stride-kernels --ordinal 0 --bytes 1073741824 --cases 4:1,4:8,16:2 > $out/ncu-real.csv 2>&1; tail -3 $out/ncu-real.csv"
[ -f "$out/gpumem.json" ] && python3 "$(dirname "$0")/gpumem-facts.py" "$out/gpumem.json" > "$out/facts.txt" 2>&1 && cat "$out/facts.txt"
if [ -x .peers/nvbandwidth ]; then
  step nvbandwidth 90 ".peers/nvbandwidth -t device_local_copy host_device_latency_sm device_to_device_latency_sm > $out/nvbandwidth.txt 2>&1; grep -E 'SUM|latency|memcpy|^ *[0-9]' $out/nvbandwidth.txt | head -40"
fi
ls -la "$out"
