#!/usr/bin/env bash
# On a GPU machine: does the .deb's binary start and measure the GPUs with no
# CUDA toolkit in the library path (issue 12)? Unpacks the package with
# `dpkg -x` (no root, nothing installed), clears LD_LIBRARY_PATH of CUDA,
# shows what the binary links, prints --version and runs `hwcomm run --quick`.
#
#   scripts/device-deb.sh [PACKAGE.deb [hwcomm run options...]]   (default: build-cuda/hwcomm_*.deb)
# Writes $OUT/deb-quick.json ($OUT defaults to ./deb-check). Exit status: 0
# when the run measured GPU records, 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deb=${1:-$(ls "$root"/build-cuda/hwcomm_*.deb 2>/dev/null | head -n1)}
shift || true  # what follows the package goes to hwcomm run (a --filter, say)
[ -f "$deb" ] || { echo "device-deb: no package (build it: cd build-cuda && cpack)" >&2; exit 2; }
out=${OUT:-$PWD/deb-check}
mkdir -p "$out"
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg -x "$deb" "$unpacked"
hwcomm=$unpacked/usr/bin/hwcomm

# Keep every library directory that is not a CUDA toolkit's.
clean=$(tr ':' '\n' <<<"${LD_LIBRARY_PATH:-}" | grep -v -i cuda | paste -sd: - || true)
export LD_LIBRARY_PATH=$clean
echo "== LD_LIBRARY_PATH='$LD_LIBRARY_PATH'"
echo "== shared libraries of the packaged binary (no libcudart expected):"
ldd "$hwcomm"
if ldd "$hwcomm" | grep -q libcudart; then echo "FAIL: the binary needs libcudart.so" >&2; exit 1; fi
echo "== hwcomm --version"
"$hwcomm" --version
echo "== hwcomm run --quick"
rc=0
"$hwcomm" run --quick "$@" -o "$out/deb-quick.json" --force || rc=$?
echo "run exit status: $rc"
"$hwcomm" summary "$out/deb-quick.json" | head -n 40
gpu_records=$(python3 - "$out/deb-quick.json" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))["records"]
print(sum(1 for r in records if r["method"].startswith(("memcpy-h2d", "memcpy-d2h", "memcpy-d2d")) and r["status"] == "ok"))
PY
)
echo "GPU copy records measured ok: $gpu_records"
[ "$gpu_records" -gt 0 ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; } || { echo "FAIL: no GPU measured" >&2; exit 1; }
echo "device-deb: ok"
