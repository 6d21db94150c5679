#!/usr/bin/env bash
# One device-tool call that proves the measurement core on a GPU machine:
# build with CUDA, the GPU tests, the default run (timed), and NVIDIA's
# nvbandwidth concurrency tests beside it (carried in .peers/, see
# ../shared/peers/README), everything under $OUT.
#   scripts/device-core.sh [extra hwcomm run args...]
set -uo pipefail
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
build=$PWD/build-gpu
hw=$build/src/cli/hwcomm
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.sm,clocks.mem --format=csv
nproc
t0=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWCOMM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
  cmake --build "$build" -j "$(nproc)" >/dev/null || { echo "build FAILED"; cmake --build "$build" -k 0 2>&1 | grep -E "error:|required from here" | head -30; exit 1; }
echo "build took $(( $(date +%s) - t0 )) s"
(cd "$build" && timeout 300 ctest -L gpu --output-on-failure 2>&1 | tail -25)
t0=$(date +%s)
"$hw" run -o "$out/default.json" --force "$@" 2> "$out/run-stderr.log"
echo "hwcomm run exit $? in $(( $(date +%s) - t0 )) s"
tail -3 "$out/run-stderr.log"
if [[ -x .peers/nvbandwidth ]]; then
  t0=$(date +%s)
  .peers/nvbandwidth -j -t all_to_host_memcpy_ce host_to_all_memcpy_ce all_to_one_write_ce one_to_all_read_ce \
    all_to_host_memcpy_sm host_to_all_memcpy_sm all_to_one_write_sm one_to_all_read_sm > "$out/nvbandwidth.json" 2>&1
  echo "nvbandwidth exit $? in $(( $(date +%s) - t0 )) s"
fi
"$hw" summary "$out/default.json" > "$out/summary.txt" 2>&1
grep -E "all-to|to-all|pairs-sharing" "$out/summary.txt" | head -30
ls -la "$out"
