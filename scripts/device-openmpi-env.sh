# Sourced on a machine without Open MPI (a GPU machine): unpacks the Debian
# packages of .devcarry/openmpi (scripts/fetch-openmpi-debs.sh) into
# $OPENMPI_PREFIX (default /opt/hwcomm-openmpi; never /) and exports what a
# relocated Open MPI needs: OPAL_PREFIX (its install prefix moved),
# PMIX_INSTALL_PREFIX, LD_LIBRARY_PATH for libmpi and its libraries, and
# HWCOMM_MPIEXEC (the mpi tests' mpirun). Without the packages, a machine's
# own Open MPI (the GPU machines have Ubuntu's 4.1.6 in /usr) is used as it is.
if compgen -G "${OPENMPI_DEBS:-.devcarry/openmpi}/*.deb" >/dev/null; then
  OPENMPI_PREFIX=${OPENMPI_PREFIX:-/opt/hwcomm-openmpi}
  mkdir -p "$OPENMPI_PREFIX"
  for deb in "${OPENMPI_DEBS:-.devcarry/openmpi}"/*.deb; do dpkg -x "$deb" "$OPENMPI_PREFIX"; done
  export OPAL_PREFIX=$OPENMPI_PREFIX/usr
  export PMIX_INSTALL_PREFIX=$OPAL_PREFIX/lib/x86_64-linux-gnu/pmix2
  export LD_LIBRARY_PATH=$OPAL_PREFIX/lib/x86_64-linux-gnu:$OPAL_PREFIX/lib/x86_64-linux-gnu/openmpi/lib:$OPAL_PREFIX/lib/libpsm1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$OPAL_PREFIX/bin:$PATH
  export HWCOMM_MPIEXEC=$OPAL_PREFIX/bin/orterun  # Debian's mpirun is an alternatives link dpkg -x does not make
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo "device-openmpi-env: Open MPI unpacked into $OPENMPI_PREFIX ($("$HWCOMM_MPIEXEC" --version 2>&1 | head -1))"
elif command -v mpirun >/dev/null; then
  export HWCOMM_MPIEXEC=$(command -v mpirun)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo "device-openmpi-env: this machine's Open MPI ($("$HWCOMM_MPIEXEC" --version 2>&1 | head -1))"
fi
