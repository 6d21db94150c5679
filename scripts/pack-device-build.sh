#!/usr/bin/env bash
# Packs what scripts/device-new-methods.sh needs from a CUDA build here (the
# hwcomm binary, every test binary with its CTest files, the .deb) into
# .devcarry/build.tar.xz (xz: half of gzip's size, so nvbandwidth fits beside
# it in the device call's 64 MiB), so a device call runs them without building.
#   scripts/pack-device-build.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
(cd "$build" && cpack >/dev/null)
list=$(mktemp)
trap 'rm -f "$list"' EXIT
(cd "$build" && {
  find . \( -name CTestTestfile.cmake -o -name '*_include.cmake' -o -name '*_tests.cmake' \) -print
  find tests src -type f -executable ! -name '*.so' ! -path '*CMakeFiles*' -print
  ls hwcomm_*.deb
} > "$list")
mkdir -p "$root/.devcarry"
rm -f "$root/.devcarry/build.tar.gz"
tar cJf "$root/.devcarry/build.tar.xz" -C "$build" -T "$list"
ls -la "$root/.devcarry/build.tar.xz"
