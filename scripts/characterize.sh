#!/usr/bin/env bash
# The main job: set-up, build, then a characterization of this machine with
# defaults. Writes hwcomm-results-<host>-<date>.json in the current directory
# (or the file named by the first argument) and prints a summary.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/deps.sh"
# Only the tool, not the test suite; the configure and build progress stay on
# screen (Ninja redraws one [done/total] line on a terminal).
# A machine without an NVIDIA GPU measures no CUDA method: building them would
# take most of the build for nothing. HWCOMM_CUDA=ON|OFF decides instead.
nvidia_gpu() {
  local d
  for d in /sys/bus/pci/devices/*; do
    [ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] || continue
    case "$(cat "$d/class" 2>/dev/null)" in 0x0300* | 0x0302*) return 0 ;; esac
  done
  return 1
}
cuda=${HWCOMM_CUDA:-}
if [ -z "$cuda" ] && ! nvidia_gpu; then
  cuda=OFF
  echo "hwcomm: no NVIDIA GPU on this machine: building without the CUDA methods (HWCOMM_CUDA=ON builds them)" >&2
fi
echo "hwcomm: building the hwcomm binary into ${BUILD_DIR:-$here/build} (the tests are not built: scripts/test.sh does)" >&2
HWCOMM_BUILD_TARGET=hwcomm "$here/scripts/build.sh" ${cuda:+-DHWCOMM_CUDA=$cuda} >&2
hwcomm="${BUILD_DIR:-$here/build}/src/cli/hwcomm"
out=${1:-hwcomm-results-$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ).json}
"$hwcomm" topo
rc=0
"$hwcomm" run --output "$out" || rc=$?
# 3: finished with error records (kept in the file, shown by the summary).
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then exit "$rc"; fi
if "$hwcomm" summary --help >/dev/null 2>&1; then "$hwcomm" summary "$out"; fi
echo "results: $out"
if [ "$rc" -eq 3 ]; then echo "some records failed: see their errors in the summary above"; fi
