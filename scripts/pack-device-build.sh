#!/usr/bin/env bash
# Packs what a device call needs from a CUDA build here into
# .devcarry/build.tar.xz, so the call runs the binaries without building:
# the CTest files, the hwcomm binary and the test binaries (stripped copies,
# xz -9: the working tree and its carry must stay under 64 MiB with
# nvbandwidth beside), and .devcarry/rev, the revision they were built at.
#   scripts/pack-device-build.sh [--gpu-only] [BUILD_DIR]   (default: build)
#   --gpu-only  only the test binaries that hold `gpu`-labelled tests (what
#               scripts/gpu-check.sh --skip-build runs), no .deb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpu_only=0
[[ ${1:-} == --gpu-only ]] && { gpu_only=1; shift; }
build=$(cd "${1:-$root/build}" && pwd)
# The binaries must be the tree's: build first (after a commit only the
# revision header changes), then refuse binaries that name another revision
# (a pack of 2026-11-27 carried binaries built before their commit, which
# named the commit before it, "-dirty", in the GPU-check records).
if [[ -n ${HWCOMM_REVISION:-} ]]; then
  echo "pack-device-build: HWCOMM_REVISION is set: the binaries would name it, not the tree's revision" >&2
  exit 2
fi
cmake --build "$build" > "$build/pack-build.log" 2>&1 || { tail -20 "$build/pack-build.log" >&2; exit 2; }
built=$("$build/src/cli/hwcomm" --version | awk '/^revision:/ {print $2}')
# What cmake/write_revision.cmake writes: git describe, "-dirty" for a changed tree.
head=$(git -C "$root" describe --always --dirty)
if [[ $built != "$head" || $head == *-dirty ]]; then
  echo "pack-device-build: the binaries name revision $built, the tree is at $head: commit, then pack" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=$work/list
(cd "$build" && {
  find . \( -name CTestTestfile.cmake -o -name '*_include.cmake' -o -name '*_tests.cmake' \) ! -path '*CMakeFiles*' -print
  echo src/cli/hwcomm
  if ((gpu_only)); then
    ctest --test-dir "$build" -L gpu --show-only=json-v1 |
      python3 -c 'import json, sys
for t in json.load(sys.stdin)["tests"]: print(t["command"][0])' | sed "s|^$build/||" | sort -u
  else
    (cpack >/dev/null && ls hwcomm_*.deb)
    find tests src -type f -executable ! -name '*.so' ! -path '*CMakeFiles*' -print
  fi
} | sed 's|^\./||' | sort -u > "$list")
mkdir -p "$work/tree" "$root/.devcarry"
tar cf - -C "$build" -T "$list" | tar xf - -C "$work/tree"
# Symbols are not needed to run; stripping takes a fifth off the pack.
find "$work/tree" -type f -executable ! -name '*.deb' -exec strip --strip-unneeded {} + 2>/dev/null || true
rm -f "$root/.devcarry/build.tar.gz"
tar cf - -C "$work/tree" . | xz -9 -T0 > "$root/.devcarry/build.tar.xz"
echo "$head" > "$root/.devcarry/rev"
ls -la "$root/.devcarry/build.tar.xz"
echo "revision $(cat "$root/.devcarry/rev")"
