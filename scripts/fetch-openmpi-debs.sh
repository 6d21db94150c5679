#!/usr/bin/env bash
# Downloads (apt-get download, no install) the Debian packages an MPI build of
# hwcomm needs at run time on a machine without Open MPI, into
# .devcarry/openmpi/ (carry it to the GPU machine; scripts/device-openmpi-env.sh
# unpacks it there into a prefix, not /). The list: libmpi and its libraries
# (ldd of the binary), Open MPI's own components' libraries, mpirun.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.devcarry/openmpi
mkdir -p "$dest"
cd "$dest"
apt-get download openmpi-bin openmpi-common libopenmpi3 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
  libpmix2 libmunge2 libfabric1 libibverbs1 ibverbs-providers librdmacm1 libnl-3-200 libnl-route-3-200 \
  libpsm2-2 libpsm-infinipath1 libucx0 libnuma1
ls -la "$dest"
