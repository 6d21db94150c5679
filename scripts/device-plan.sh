#!/usr/bin/env bash
# One device-tool call for issue 21 (binaries packed by scripts/pack-device-build.sh;
# NVIDIA's nvbandwidth carried in .peers/): the plan before measuring, the
# default run (class-reduced, adaptive ladder) timed, the --exhaustive run
# (every pair, every fixed size) timed, nvbandwidth beside them, then
# scripts/plan-compare.sh: analyze verdicts cell by cell, model check's
# leave-one-size-out error of both, estimate against measured time, the
# nvbandwidth ratios. PARTS picks the steps. A 2-GPU machine needs two calls
# of about 6 and 9 minutes: PARTS="plan default nvbandwidth", then
# PARTS=exhaustive LIMIT_EXHAUSTIVE=540; then plan-compare.sh on the two
# files where they came back. A step past its limit gets SIGINT: the run
# saves its file and exits 4. Everything lands in $OUT; plan-compare.txt is
# the verdict.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
parts=${PARTS:-plan default exhaustive nvbandwidth}
limit_default=${LIMIT_DEFAULT:-220}
limit_exhaustive=${LIMIT_EXHAUSTIVE:-280}
has() { [[ " $parts " == *" $1 "* ]]; }
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,clocks.mem --format=csv,noheader
nproc
if has plan; then
  step plan 60 "$hw run --plan --json > $out/plan.json; $hw run --plan > $out/plan.txt; tail -4 $out/plan.txt"
  python3 -c "import json; p=json.load(open('$out/plan.json')); print('plan: records', p['records'], 'full', p['full'], 'confirmed', p['confirmed'], 'estimate_s %.1f' % p['estimate_s'])"
fi
if has default; then
  step default "$limit_default" "/usr/bin/time -f 'default run wall %e s' $hw run -o $out/default.json 2> $out/default.log; tail -3 $out/default.log"
  "$hw" summary "$out/default.json" > "$out/default-summary.txt" 2>&1
  sed -n '/run time against/,$p' "$out/default-summary.txt"
fi
if has exhaustive; then
  step exhaustive "$limit_exhaustive" "/usr/bin/time -f 'exhaustive run wall %e s' $hw run --exhaustive -o $out/exhaustive.json 2> $out/exhaustive.log; tail -3 $out/exhaustive.log"
fi
if has nvbandwidth && [[ -x .peers/nvbandwidth ]]; then
  gpus=$(nvidia-smi -L | wc -l)
  tests="host_to_device_memcpy_ce device_to_host_memcpy_ce device_local_copy"
  (( gpus > 1 )) && tests+=" device_to_device_memcpy_write_ce device_to_device_bidirectional_memcpy_write_ce"
  step nvbandwidth 90 ".peers/nvbandwidth -t $tests > $out/nvbandwidth.txt 2>&1; grep -E '^SUM' $out/nvbandwidth.txt"
fi
if [[ -f $out/default.json && -f $out/exhaustive.json ]]; then
  nvb=""; [[ -f $out/nvbandwidth.txt ]] && nvb=$out/nvbandwidth.txt
  bash "$(dirname "$0")/plan-compare.sh" "$hw" "$out/default.json" "$out/exhaustive.json" $nvb | tee "$out/plan-compare.txt"
fi
for f in "$out"/default.json "$out"/exhaustive.json; do [[ -f $f ]] && gzip -9 "$f"; done
ls -la "$out"
