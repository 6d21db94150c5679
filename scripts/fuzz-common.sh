# Shared by ci-fuzz.sh and fuzz.sh: the targets, their seed corpora, one run.
fuzz_targets=(fuzz_hwloc_xml fuzz_results_reader fuzz_option_parsers fuzz_results_consumers fuzz_commscope_import)

# seeds TARGET: the directories of its seed inputs (fixtures and fuzz/seeds).
seeds() {
  case "$1" in
    fuzz_hwloc_xml) echo "$here/tests/fixtures/hwloc $here/tests/fixtures/fuzz" ;;
    fuzz_results_reader) echo "$here/fuzz/seeds/results" ;;
    fuzz_option_parsers) echo "$here/fuzz/seeds/options" ;;
    fuzz_results_consumers) echo "$here/fuzz/seeds/results $here/tests/fixtures/fuzz/results" ;;
    fuzz_commscope_import) echo "$here/tests/fixtures/fuzz/commscope" ;;
  esac
}

# run_fuzzer BUILD TARGET WORKDIR [libFuzzer flags...]: new inputs go to
# WORKDIR/corpus, findings to WORKDIR/artifacts/; non-zero on a finding.
run_fuzzer() {
  local build=$1 target=$2 work=$3
  shift 3
  # shellcheck disable=SC2046
  "$build/fuzz/$target" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" $(seeds "$target")
}

# summarize TARGET LOG: one line of what libFuzzer did.
summarize() {
  local runs secs cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$2" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$2" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$2" | tail -1 | cut -d' ' -f2)
  echo "fuzz: $1: ${runs:-?} executions in ${secs:-?} s, coverage ${cov:-?} edges"
}
