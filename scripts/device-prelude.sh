# Sourced by the device scripts that run binaries packed here
# (scripts/pack-device-build.sh): logs to $OUT/session.log, unpacks
# .devcarry/build.tar.gz into build/, and defines B (the build tree at the
# path its binaries name), hw (the hwcomm binary) and step NAME LIMIT CMD...
# (SIGINT after LIMIT seconds: a run saves its file and exits 4).
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
# The test binaries name /work/main/... (their build tree here) in their paths.
mkdir -p /work build && { [ -e /work/main ] || ln -s "$PWD" /work/main; }
tar xzf .devcarry/build.tar.gz -C build
B=/work/main/build
hw=$B/src/cli/hwcomm
step() {
  local name=$1 limit=$2 t=$SECONDS
  shift 2
  echo "== $name (limit ${limit} s)"
  timeout -s INT -k 5 "$limit" bash -c "$*"
  echo "== $name: exit $? in $((SECONDS - t)) s"
}
# An MPI build (docs/cluster.md) needs libmpi: Open MPI's packages, when carried (scripts/fetch-openmpi-debs.sh).
# shellcheck source=scripts/device-openmpi-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-openmpi-env.sh"
