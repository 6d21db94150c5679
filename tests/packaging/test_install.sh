#!/usr/bin/env bash
# cmake --install into a temporary prefix, then what a user gets there:
# the man pages render and carry the run options, the bash completion
# completes `hwcomm run --filter method=`, the binary reports its version,
# every command's --help has an example and its exit codes.
# Usage: test_install.sh BUILD_DIR EXPECTED_METHOD VERSION
set -euo pipefail
build=$1 method=$2 version=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null

"$prefix/bin/hwcomm" --version | grep -q "^hwcomm $version\$" || fail "installed hwcomm --version does not say $version"

man1=$prefix/share/man/man1
for page in hwcomm topo list run export summary report import analyze compare; do
  f=$man1/hwcomm-$page.1; [ "$page" = hwcomm ] && f=$man1/hwcomm.1
  [ -s "$f" ] || fail "no man page $f"
done
if command -v man >/dev/null; then
  text=$(MANWIDTH=120 man -l "$man1/hwcomm-run.1" 2>/dev/null)
else  # no man-db: the roff source must still name the options
  text=$(sed 's/\\-/-/g' "$man1/hwcomm-run.1")
fi
for opt in --filter --quick --resume --max-size "Exit codes"; do
  grep -q -- "$opt" <<<"$text" || fail "hwcomm-run(1) lacks $opt"
done

completion=$prefix/share/bash-completion/completions/hwcomm
[ -s "$prefix/share/zsh/vendor-completions/_hwcomm" ] || fail "no zsh completion"
reply=$(bash -c 'source "$1"; COMP_LINE="hwcomm run --filter method="; COMP_POINT=${#COMP_LINE}; _hwcomm
                 printf "%s\n" "${COMPREPLY[@]}"' _ "$completion")
grep -qx "$method" <<<"$reply" || fail "completing 'hwcomm run --filter method=' gave: $reply (wanted $method)"
reply=$(bash -c 'source "$1"; COMP_LINE="hwcomm ru"; COMP_POINT=${#COMP_LINE}; _hwcomm
                 printf "%s\n" "${COMPREPLY[@]}"' _ "$completion")
[ "$reply" = run ] || fail "completing 'hwcomm ru' gave: $reply"
# Every command's --help ends with an example and its exit codes.
for c in topo list run export summary report import analyze compare; do
  help=$("$prefix/bin/hwcomm" "$c" --help)
  grep -q "^  hwcomm $c " <<<"$help" || fail "hwcomm $c --help has no example"
  grep -q "^  2  bad input" <<<"$help" || fail "hwcomm $c --help has no exit codes"
done
[ -s "$prefix/share/doc/hwcomm/README.md" ] || fail "no docs installed"
echo "install into $prefix: binary, $(ls "$man1" | wc -l) man pages, completions, docs: ok"
