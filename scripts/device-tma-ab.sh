#!/usr/bin/env bash
# One device-tool call for issue 22's last TMA gap (the local tma-copy-d2d
# 2-3% short of memcpy-d2d at 128-256 MiB on H200): builds
# scripts/bench/tma_ab.cu against hwcomm's own launcher
# (src/methods/cuda/common/tma_kernels.cu) with the machine's nvcc and times
# it interleaved with the copy engines (every round one trial of each
# contender, the order rotated). Needs no hwcomm build; about 20 s on one H200.
#   scripts/device-tma-ab.sh [DEVICE] [extra tma_ab options]
# Writes under $OUT: tma-ab.txt, session.log. Facts to read: per size and
# dst offset, each contender's "xCE" (median over rounds of its ratio to the
# CE trial of the same round), the line "hwcomm's local copy ... / CE", and
# whether an offset moves the TMA lines while the CE line stays.
set -uo pipefail
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
device=${1:-0}
shift || true
q() { nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; }
q
bin=$(mktemp -d)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
t=$SECONDS
timeout -k 5 120 "$nvcc" -O3 -std=c++17 -arch=sm_90 -I src -o "$bin/tma_ab" scripts/bench/tma_ab.cu \
  src/methods/cuda/common/tma_kernels.cu src/methods/cuda/common/cuda_check.cpp \
  src/methods/cuda/common/cuda_error_text.cpp || { echo "tma-ab: build failed"; exit 1; }
echo "== build: $((SECONDS - t)) s"
t=$SECONDS
timeout -s INT -k 5 240 "$bin/tma_ab" --device "$device" "$@" > "$out/tma-ab.txt" 2>&1
rc=$?
echo "== tma_ab: exit $rc in $((SECONDS - t)) s"
q
cat "$out/tma-ab.txt"
echo "== lines not verified (expect none):"
grep -E ' NO\(' "$out/tma-ab.txt" || echo none
rm -rf "$bin"
exit $rc
