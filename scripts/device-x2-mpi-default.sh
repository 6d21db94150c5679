#!/usr/bin/env bash
# One device-tool call on nvidia-h200-x2 (binaries packed by
# scripts/pack-device-build.sh from a CUDA + MPI build): issue 11's 2-rank
# job with one GPU per rank (mpi-gpu, mpi-host), issue 9's timeline with raw
# warps of several SMs, and how long the default `hwcomm run` takes now.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader
step mpi-gpu-test 60 "ctest --test-dir $B -L gpu -R MpiGpu --output-on-failure 2>&1 | tail -20"
# osc pt2pt: osc rdma over shared memory hung sporadically in MPI_Put (docs/cluster.md).
step mpi-run 90 "OMPI_MCA_osc=pt2pt \$HWCOMM_MPIEXEC -np 2 $hw run --mpi --node-name 'h200-%r' --quick --filter method=mpi-gpu --filter method=mpi-host -o $out/cluster.json"
[ -f "$out/cluster.json" ] && { "$hw" summary "$out/cluster.json"; "$hw" analyze "$out/cluster.json"; } > "$out/cluster-summary.txt" 2>&1
step timeline 40 "$hw gpumem --filter method=gpumem-timeline --filter src=gpu0 -o $out/timeline.json"
step default-run 330 "time ($hw run -o $out/default.json 2>&1 | tail -4)"
[ -f "$out/default.json" ] && { "$hw" summary "$out/default.json" > "$out/default-summary.txt" 2>&1; gzip -9 "$out/default.json"; }
ls -la "$out"
