# Sourced by ci-sanitize.sh, ci-fuzz.sh and fuzz.sh: what a sanitizer finding does.
# Every report aborts (UBSan included); leaks inside hwloc's error paths are
# suppressed by fuzz/lsan-hwloc.supp, ours never.
here=${here:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/fuzz/lsan-hwloc.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# With libhwloc-plugins installed (Open MPI's packages pull it in), hwloc
# discovers PCI through its "pci" plugin (libpciaccess), which leaks ~1 KB at
# exit from a module dlclosed before LSan reports, so no suppression can name
# it. Without that plugin hwloc's Linux backend reads the same PCI tree from
# sysfs (the same graph on the dev VM), as it did before the plugins came.
export HWLOC_COMPONENTS="${HWLOC_COMPONENTS:--pci}"
