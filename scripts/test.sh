#!/usr/bin/env bash
# Set-up, build and the whole test suite that runs without a GPU (ctest -LE gpu).
# On a GPU machine, scripts/gpu-check.sh runs the GPU-labelled tests.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/deps.sh"
"$here/scripts/build.sh"
cd "${BUILD_DIR:-$here/build}"
ctest -LE gpu --output-on-failure -j "$(nproc)"
"$here/scripts/ci-browser.sh"
