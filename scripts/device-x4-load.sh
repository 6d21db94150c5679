#!/usr/bin/env bash
# One device-tool call on the 4-GPU machine (issues 10 and 15): pinned H2D to
# each GPU alone and with 1-3 other GPUs loading the host side (under-load),
# the concurrency records the model is checked against, and, when given, gtest
# filters of GPU tests whose whole output is wanted. Binaries come from
# .devcarry/build.tar.gz (scripts/pack-device-build.sh); at most 8 files land
# under $OUT.   scripts/device-x4-load.sh ['GTEST_FILTER_FOR_DETAILS']
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,clocks.mem --format=csv,noheader
if [ -n "${1:-}" ]; then
  for t in "$B"/tests/*/test_*gpu; do "$t" --gtest_filter="$1" 2>&1 | grep -vE '^\[ +(RUN|OK) +\]|^$' ; done > "$out/details.log"
  tail -60 "$out/details.log"
fi
step under-load 100 "$hw run --filter method=under-load --filter src=numa0 -o $out/ul4.json"
step concurrency 70 "$hw run --filter method=all-to-host --filter method=host-to-all --filter method=memcpy-h2d --filter method=memcpy-d2h --min-size 64M --max-size 256M -o $out/conc4.json"
[ -f "$out/ul4.json" ] && "$hw" analyze "$out/ul4.json" 2>&1 | sed -n '/under load/,$p' > "$out/ul4-analyze.txt"
[ -f "$out/conc4.json" ] && "$hw" model check "$out/conc4.json" > "$out/conc4-model-check.txt" 2>&1
ls -la "$out"
