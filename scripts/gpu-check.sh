#!/usr/bin/env bash
# The one command to prove hwcomm on a machine with NVIDIA GPUs (no network
# needed): build with CUDA, run the GPU-labelled tests, run a quick
# characterization (every method, CPU ones included) and print the one-screen
# summary table with the fidelity comparison last.
#
#   scripts/gpu-check.sh [--arch 90] [--build DIR] [--out DIR] [--skip-build]
#                        [--fidelity] [--full] [--targets FILE]
#
#   --fidelity  also measure the methods of the reference figures from 4 B to
#               1 GiB (event timing) and pageable copies at 1 GiB (wall clock)
#   --full      also run the default characterization (all sizes, all methods)
#               and summarize it instead of the quick one
# Environment: CUDA_ARCH, BUILD_DIR, OUT_DIR, TARGETS override the defaults.
# The result (revision, machine kind, GPU tests passed, the summary table) is
# written to docs/gpu-checks/<kind>.txt (RECORD_DIR overrides the folder,
# GPU_CHECK_KIND the kind, e.g. nvidia-h100-x1) and, on a device call, to
# $OUT/gpu-checks/<kind>.txt, so the record comes back to be committed.
# Exit status: 0 when the GPU tests pass and every run finished, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
arch=${CUDA_ARCH:-90}
build=${BUILD_DIR:-$root/build-gpu}
out=${OUT_DIR:-$build/gpu-check}
targets=${TARGETS:-$root/docs/targets-h200x2.json}
full=0
fidelity=0
skip_build=0

usage() { sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --arch) arch=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --full) full=1; shift ;;
    --fidelity) fidelity=1; shift ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

step() { printf '\n== %s\n' "$*" >&2; }
status=0
timings=()

step "machine"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,clocks.max.sm,clocks.mem --format=csv >&2 || true
else
  echo "nvidia-smi not found" >&2
fi
nproc >&2

if ((skip_build == 0)); then
  step "configure and build (CUDA architectures $arch) in $build"
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DHWCOMM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" >&2
  cmake --build "$build" -j "$(nproc)" >&2
fi
hwcomm=$build/src/cli/hwcomm
[[ -x $hwcomm ]] || { echo "gpu-check: $hwcomm was not built" >&2; exit 1; }

mkdir -p "$out"
step "GPU tests (ctest -L gpu)"
if ! (cd "$build" && ctest -L gpu --output-on-failure 2>&1 | tee "$out/gpu-tests.txt" >&2; exit "${PIPESTATUS[0]}"); then
  echo "gpu-check: GPU tests FAILED" >&2
  status=1
fi

# run_timed NAME ARGS...: hwcomm run into $out/NAME.json, recording its wall time.
run_timed() {
  local name=$1; shift
  step "hwcomm run $* -> $out/$name.json"
  local t0 t1
  t0=$(date +%s)
  if "$hwcomm" run --output "$out/$name.json" --force "$@" >&2; then
    t1=$(date +%s)
    timings+=("$name: $((t1 - t0)) s (hwcomm run $*)")
  else
    t1=$(date +%s)
    timings+=("$name: FAILED after $((t1 - t0)) s (hwcomm run $*)")
    status=1
  fi
}

run_timed quick --quick
summarized=("$out/quick.json")
if ((full)); then
  run_timed full
  summarized=("$out/full.json")
fi
if ((fidelity)); then
  run_timed fidelity --min-size 4 --max-size 1G \
    --filter method=memcpy-h2d --filter method=memcpy-d2h --filter method=memcpy-peer \
    --filter method=duplex-d2d --filter method=duplex-h2d
  run_timed pageable-wall --timing wall --min-size 1G --max-size 1G --min-samples 10 --time-budget 1 \
    --filter method=memcpy-h2d --filter method=memcpy-d2h
  summarized+=("$out/fidelity.json" "$out/pageable-wall.json")
fi

present=()
for f in "${summarized[@]}"; do [[ -s $f ]] && present+=("$f"); done
step "run times"
printf '%s\n' "${timings[@]}" >&2
if ((${#present[@]} == 0)); then
  echo "gpu-check: no results file to summarize" >&2
  exit 1
fi
step "summary of ${present[*]}"
# summary --targets exits 1 on a missed reference figure (docs/fidelity.md
# documents the known misses): print it, and report the miss without failing
# the GPU check, which is about the tests and the runs.
"$hwcomm" summary "${present[@]}" --targets "$targets" | tee "$out/summary.txt" ||
  echo "gpu-check: some reference figures were missed (see the fidelity table above)" >&2

# The machine kind as the device tool names it: nvidia-<model>-x<GPUs> ("NVIDIA H100 80GB HBM3", one GPU: nvidia-h100-x1).
machine_kind() {
  local names model
  names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null) || { echo unknown; return; }
  model=$(head -1 <<<"$names" | grep -oE '\b[A-Z]+[0-9]{2,4}[A-Z]*\b' | head -1 | tr 'A-Z' 'a-z')
  echo "nvidia-${model:-gpu}-x$(grep -c . <<<"$names")"
}
kind=${GPU_CHECK_KIND:-$(machine_kind)}
record_dir=${RECORD_DIR:-$root/docs/gpu-checks}
step "record: $record_dir/$kind.txt"
mkdir -p "$record_dir"
record=$record_dir/$kind.txt
{
  echo "# scripts/gpu-check.sh on $kind"
  "$hwcomm" --version | grep -E '^(revision|CUDA):'
  echo "date:       $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader 2>/dev/null | sed 's/^/gpu:        /'
  echo "GPU tests:  $(grep -E 'tests passed' "$out/gpu-tests.txt" || echo 'no ctest summary')"
  grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Not Run)\)' "$out/gpu-tests.txt" | sed 's/^ */failed:     /' || true
  printf '%s\n' "${timings[@]}" | sed 's/^/run:        /'
  echo
  cat "$out/summary.txt"
} > "$record"
if [[ -n ${OUT:-} && -d ${OUT:-} ]]; then
  mkdir -p "$OUT/gpu-checks" && cp "$record" "$OUT/gpu-checks/"
fi
exit "$status"
