#!/usr/bin/env bash
# Installs what hwcomm needs to build on Debian 12 / Ubuntu 24.04.
# As root it runs apt-get; otherwise it prints the exact command to run.
# CUDA is optional: when nvcc is present the CUDA methods are built too.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config git
          libhwloc-dev libcli11-dev nlohmann-json3-dev libgtest-dev
          zlib1g-dev)
# Open MPI: the cluster mode (hwcomm run --mpi) and its CI tests, 2- and 4-rank jobs (docs/cluster.md).
packages+=(libopenmpi-dev openmpi-bin)
# Optional, for CI: Debian's chromium runs the browser test of `hwcomm report`
# (scripts/ci-browser.sh asks for it with HWCOMM_DEPS_OPTIONAL=1).
# clang with its sanitizer/libFuzzer runtimes: for scripts/ci-sanitize.sh and
# ci-fuzz.sh only (the main build stays g++).
optional_packages=(chromium clang libclang-rt-dev libomp-dev)
# python3: runs the Python example of docs/export.md in CI (tests/packaging/test_export.sh).
optional_packages+=(python3)
if [ "${HWCOMM_DEPS_OPTIONAL:-0}" = 1 ]; then packages+=("${optional_packages[@]}"); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "hwcomm: missing packages; run as root:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 2
fi
