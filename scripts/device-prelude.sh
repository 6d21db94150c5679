# Sourced by the device scripts that run binaries packed here
# (scripts/pack-device-build.sh): logs to $OUT/session.log, unpacks
# .devcarry/build.tar.xz (or .gz) into build/, and defines B (the build tree at the
# path its binaries name), hw (the hwcomm binary) and step NAME LIMIT CMD...
# (SIGINT after LIMIT seconds: a run saves its file and exits 4).
out=${OUT:?set OUT}
exec > >(tee "$out/session.log") 2>&1
# The test binaries and CTest files name the source and build trees they were
# built in (/work/main/build, or an engineer's /work/wt/NAME/build): both are
# made to point here, read from the packed top CTestTestfile.cmake.
# build.tar.xz when present (half the size of gzip: the working tree and its
# carry must stay under 64 MiB with nvbandwidth beside), else build.tar.gz.
mkdir -p build
pack=.devcarry/build.tar.gz
[[ -f .devcarry/build.tar.xz ]] && pack=.devcarry/build.tar.xz
tar xf "$pack" -C build
src_dir=$(sed -n 's/^# Source directory: //p' build/CTestTestfile.cmake 2>/dev/null)
B=$(sed -n 's/^# Build directory: //p' build/CTestTestfile.cmake 2>/dev/null)
src_dir=${src_dir:-/work/main}
B=${B:-$src_dir/build}
mkdir -p "$(dirname "$src_dir")" && { [ -e "$src_dir" ] || ln -s "$PWD" "$src_dir"; }
[ -e "$B" ] || { mkdir -p "$(dirname "$B")" && ln -s "$PWD/build" "$B"; }
echo "build tree $B, source tree $src_dir -> $PWD"
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
