#!/usr/bin/env bash
# One device-tool call for issue 22 ("TMA local copy >= CE local copy on H100
# and H200"): builds scripts/bench/tma_probe.cu with the machine's nvcc and
# times every bulk-copy kernel shape beside cudaMemcpyAsync (copy engines) in
# one process, 512 MiB and 1 GiB within GPU DEVICE. Needs no hwcomm build.
# About a minute on one H100; limits keep it under 3.
#   scripts/device-tma-probe.sh [DEVICE]      (default 0)
# Writes under $OUT: tma-probe.txt (every variant, then the best 12 verified
# per size), session.log. Facts to check: the "hwcomm-old" and "same,param"
# lines agree (the parameterised kernel reproduces the old kernel), the
# "hwcomm-new" line (hwcomm's kernel without its L2 hints; its local copies,
# with them, are the "hint:el/ef" line of 2 x 16 KiB, 4 tiles/block) agrees
# with the first "tiles/block" line (4 tiles per block, the same shape), every
# line says verified "yes",
# the two CE lines of a size agree within ~1% (no drift), and which "best"
# line leads: its stages, tileK, blocks/SM or tiles/block and wait are the
# numbers for src/methods/cuda/common/tma_kernels.hpp. Round 1 of the L2
# hints, the 18 lines before the last 18 of a size (before its second CE
# line), is two blocks, one per best shape: "control" (the plain kernel in
# that shape; agrees with the "tiles/block" 4 line or with the combo line of
# 3 stages x 16 KiB, 1 block/SM, wait 1), then "hint:LD/ST" (L2 eviction
# policy of the bulk loads/stores: - none, ef evict_first, el evict_last, en
# evict_normal, eu evict_unchanged) and "prefetch+1", "prefetch+2" (the
# block's next tile or the one after prefetched into L2); read each xCE
# against its block's control line. "hint:en/en" near control means the
# hinted instructions cost nothing by themselves. Round 2, the last 18 lines
# of a size (scripts/bench/tma_probe_hints.cuh, kHintLines2), five blocks,
# each opened by its own "control" line: on 2 x 16 KiB, 4 tiles/block,
# "hint:el/ef" again (should repeat round 1's), "hint:el/-" and "hint:el/en"
# (the stores' evict_first dropped, or evict_normal), "hint:elNN/ef" (loads
# evict_last on NN% of their accesses, the rest evict_unchanged) and
# "hint:lfNN/ef" (the rest evict_first); then control and "hint:el/ef" on
# 3 x 16 KiB and 2 x 32 KiB with 4 tiles/block, and on 2 x 16 KiB with 2 and
# with 8 tiles/block (the stages, tileK and tiles/block columns tell them
# apart). Round 2 adds ~1.5 s (~75 ms a line for both sizes on one H100).
set -uo pipefail
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
device=${1:-0}
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
bin=$out/bin
mkdir -p "$bin"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
t=$SECONDS
timeout -k 5 60 "$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$bin/tma_probe" scripts/bench/tma_probe.cu || {
  echo "tma-probe: build failed"; exit 1; }
echo "== build: $((SECONDS - t)) s"
t=$SECONDS
timeout -s INT -k 5 150 "$bin/tma_probe" --device "$device" > "$out/tma-probe.txt" 2>&1
rc=$?
echo "== tma_probe: exit $rc in $((SECONDS - t)) s"
cat "$out/tma-probe.txt"
echo "== lines not verified (expect none):"
grep -E ' NO\(' "$out/tma-probe.txt" || echo none
rm -rf "$bin"
exit $rc
