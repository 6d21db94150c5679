#!/usr/bin/env bash
# Configures and builds hwcomm into ${BUILD_DIR:-build}. Extra arguments go to CMake.
# HWCOMM_BUILD_TARGET=hwcomm builds only that target (the main job skips the tests).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"
fi
target=()
if [ -n "${HWCOMM_BUILD_TARGET:-}" ]; then target=(--target "$HWCOMM_BUILD_TARGET"); fi
cmake --build "$build" -j "$(nproc)" "${target[@]}"
