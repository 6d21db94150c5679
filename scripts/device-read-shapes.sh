#!/usr/bin/env bash
# One device call (issue 23): scripts/bench/read_shapes.cpp (cpu-read's kernel
# against interleaved streams and software prefetch) on the host's cores, with
# and without huge pages, between two STREAM runs (.peers/stream/stream.c,
# arrays 4x the L3), so the kernel and the memory system are told apart.
#   OUT=DIR scripts/device-read-shapes.sh
set -uo pipefail
out=${OUT:?set OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
exec > >(tee "$out/read-shapes.txt") 2>&1
lscpu | grep -E "Model name|^CPU\(s\)|Core|Socket|L3"
cores=$(lscpu -p=CORE | grep -v '^#' | sort -u | wc -l)
l3=$(lscpu -B | awk '/^L3 cache/ {print $3}')
elements=$(( ${l3:-33554432} * 4 / 8 ))
(( elements < 20000000 )) && elements=20000000
g++ -O2 -std=c++20 -pthread "$here/scripts/bench/read_shapes.cpp" -o "$out/read_shapes" || { echo "build FAILED"; exit 1; }
gcc -O3 -march=native -fopenmp -mcmodel=medium -DSTREAM_ARRAY_SIZE=$elements -DNTIMES=20 "$here/.peers/stream/stream.c" -o "$out/stream" ||
  { echo "STREAM build FAILED"; exit 1; }
stream() { OMP_PROC_BIND=spread OMP_PLACES=cores OMP_NUM_THREADS=$cores "$out/stream" | grep -E "^(Copy|Triad)"; }
echo "== STREAM before"; stream
for t in "$cores" $(( cores / 2 )); do
  echo "== $t workers, huge pages"; HP=1 "$out/read_shapes" "$t" | grep "^round 2"
  echo "== $t workers, 4 KiB pages"; "$out/read_shapes" "$t" | grep "^round 2"
done
echo "== STREAM after"; stream
rm -f "$out/read_shapes" "$out/stream"
