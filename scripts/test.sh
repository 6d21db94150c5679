#!/usr/bin/env bash
# Set-up, build and the whole test suite that runs without a GPU (ctest -LE gpu).
# On a GPU machine, scripts/gpu-check.sh runs the GPU-labelled tests.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
HWCOMM_DEPS_OPTIONAL=1 "$here/scripts/deps.sh"  # the tests need chromium and clang too
"$here/scripts/build.sh"
cd "${BUILD_DIR:-$here/build}"
ctest -LE gpu --output-on-failure -j "$(nproc)"
"$here/scripts/ci-browser.sh"
# Issue 16: the CPU suite under ASan/UBSan/LSan, then each fuzz target for a
# bounded time, in their own instrumented build (build-sanitize, clang, no CUDA).
"$here/scripts/ci-sanitize.sh"
"$here/scripts/ci-fuzz.sh"
