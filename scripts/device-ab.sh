#!/usr/bin/env bash
# A/B on one GPU machine in one call: a baseline tree (carried, e.g. `git
# archive REV` into .baseline/) and this tree are built, then every method of
# the baseline is run by each build in turn (baseline, then this tree), so
# drift of the shared host hits both alike. Results land in $OUT/ab/.
#   scripts/device-ab.sh BASELINE_DIR [method...]
set -uo pipefail
out=${OUT:?set OUT}; base=${1:?baseline dir}; shift
mkdir -p "$out/ab"
exec > >(tee "$out/ab.log") 2>&1
build_tree() {  # dir build
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWCOMM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DHWCOMM_TESTS=OFF >/dev/null && cmake --build "$2" -j "$(nproc)" >/dev/null
}
t0=$(date +%s)
build_tree "$base" "$PWD/build-base" || { echo "baseline build FAILED"; exit 1; }
build_tree "$PWD" "$PWD/build-new" || { echo "build FAILED"; exit 1; }
echo "builds took $(( $(date +%s) - t0 )) s"
methods=("$@")
if [[ ${#methods[@]} -eq 0 ]]; then
  mapfile -t methods < <(build-base/src/cli/hwcomm list | grep -E '^[a-z0-9-]+: ' | cut -d: -f1)
fi
total_new=0
rounds=${AB_ROUNDS:-1}  # each method this many times per side, alternating
for m in "${methods[@]}"; do
  for round in $(seq "$rounds"); do
  for side in base new; do
    t0=$(date +%s%N)
    tag=$side; ((round > 1)) && tag=$side$round
    "build-$side/src/cli/hwcomm" run --filter "method=$m" -o "$out/ab/$tag-$m.json" --force 2>/dev/null
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [[ $side == new ]] && total_new=$((total_new + ms))
    printf '%-20s %-4s exit %d  %7d ms\n' "$m" "$tag" "$rc" "$ms"
  done
  done
done
[[ ${AB_ONLY_LISTED:-0} = 1 ]] && { echo "this tree, listed methods: $((total_new / 1000)) s"; (cd "$out" && tar czf ab.tgz ab && rm -rf ab); exit 0; }
# Methods only this tree has.
mapfile -t only_new < <(build-new/src/cli/hwcomm list | grep -E '^[a-z0-9-]+: ' | cut -d: -f1)
for m in "${only_new[@]}"; do
  [[ " ${methods[*]} " == *" $m "* ]] && continue
  t0=$(date +%s%N)
  build-new/src/cli/hwcomm run --filter "method=$m" -o "$out/ab/new-$m.json" --force 2>/dev/null
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  total_new=$((total_new + ms))
  printf '%-20s %-4s exit %d  %7d ms\n' "$m" "new" "$rc" "$ms"
done
echo "this tree, every method: $((total_new / 1000)) s"
(cd "$out" && tar czf ab.tgz ab && rm -rf ab)
