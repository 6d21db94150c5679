#!/usr/bin/env bash
# CI: the whole CPU test suite (ctest -LE gpu) under AddressSanitizer, UBSan
# and LeakSanitizer, in its own build dir (build-sanitize, CUDA off, clang).
# The same build holds the libFuzzer targets (HWCOMM_FUZZ=ON), which
# scripts/ci-fuzz.sh then runs, so CI compiles the instrumented tree once.
# Any sanitizer report fails the test that triggered it, and so this script.
# -O0 -g1: half the compile time of -O1 -g with clang 14 (docs/reliability.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${SANITIZE_BUILD_DIR:-$here/build-sanitize}
# shellcheck source=scripts/sanitizer-env.sh
source "$here/scripts/sanitizer-env.sh"
start=$SECONDS
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" -DHWCOMM_CUDA=OFF -DHWCOMM_FUZZ=ON \
    -DHWCOMM_MPI=OFF `# Open MPI leaks by design at exit: LeakSanitizer would fail the mpi tests` \
    ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
echo "ci-sanitize: built in $((SECONDS - start)) s"
cd "$build"
ctest -LE gpu --output-on-failure -j "$(nproc)"
echo "ci-sanitize: done in $((SECONDS - start)) s"
