#!/usr/bin/env bash
# One device-tool call on the 2-GPU machine for issue 11 (docs/cluster.md):
# a 2-rank MPI job, one GPU per rank (each rank takes its local rank's GPU),
# measuring mpi-gpu, from binaries built here with CUDA and MPI
# (scripts/pack-device-build.sh) and Open MPI's Debian packages
# (scripts/fetch-openmpi-debs.sh), both carried in .devcarry/.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader
step mpi-gpu-test 50 "ctest --test-dir $B -L gpu -R MpiGpu --output-on-failure 2>&1 | tail -20"
# osc pt2pt: osc rdma over shared memory hung sporadically in MPI_Put here (docs/cluster.md).
step mpi-gpu-run 50 "OMPI_MCA_osc=pt2pt \$HWCOMM_MPIEXEC -np 2 $hw run --mpi --node-name 'h200-%r' --quick --filter method=mpi-gpu --filter method=mpi-host -o $out/cluster.json"
[ -f "$out/cluster.json" ] && "$hw" summary "$out/cluster.json" > "$out/cluster-summary.txt" 2>&1
ls -la "$out"
