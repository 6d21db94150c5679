#!/usr/bin/env bash
# One device-tool call for hwcomm run --transfers (issue 22 items 5 and 8):
# the GPU tests of transfer sets, a ring and a mixed set measured and
# summarized, predict --transfers against the measurement, and a single-pair
# diagnosis run. Binaries from .devcarry/build.tar.gz
# (scripts/pack-device-build.sh); finishes within ~5 minutes on 1-8 GPUs.
#   scripts/device-transfers.sh
# Facts to check (printed below):
#   - test_transfer_sets_gpu: every test passed (skips only for missing GPUs);
#   - ring.json: one transfer-set record, one lane per GPU, every point
#     verified, status ok; summary's note: "N lanes started together ...";
#   - mixed.json: lanes ce numa0->gpu0, sm gpu0->numa0, cpu numa0->numa0 ok;
#   - predict: predicted_over_measured per set (the record held out of the fit);
#   - pair.json: only src=gpu0 dst=gpu1 records; "methods that measured
#     nothing" lists the others as filtered out.
set -uo pipefail
# shellcheck source=scripts/device-prelude.sh
source "$(dirname "$0")/device-prelude.sh"
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,clocks.mem --format=csv,noheader
step gpu-tests 120 "$B/tests/cuda/test_transfer_sets_gpu 2>&1 | grep -vE '^\[ +(RUN|OK) +\]|^$'"
cat > "$out/mixed.csv" <<'CSV'
set,executor,src,dst,size,host_mem
mixed,ce,numa0,gpu0,256M,
mixed,sm,gpu0,numa0,256M,
mixed,cpu:4,numa0,numa0,256M,
h2d-alone,ce,numa0,gpu0,256M,
CSV
"$hw" list --transfers preset:ring:256M
step ring 90 "$hw run --transfers preset:ring --min-size 1M --max-size 256M -o $out/ring.json"
step mixed 60 "$hw run --transfers $out/mixed.csv -o $out/mixed.json"
[ -f "$out/ring.json" ] && "$hw" summary "$out/ring.json"
[ -f "$out/mixed.json" ] && "$hw" summary "$out/mixed.json"
[ -f "$out/mixed.json" ] && "$hw" export "$out/mixed.json" --format csv -o "$out/mixed.csv.export"
step singles 90 "$hw run --filter method=memcpy-h2d --filter method=memcpy-d2h --filter method=sm-copy-d2h --filter src=numa0 --filter src=gpu0 --filter dst=numa0 --filter dst=gpu0 --min-size 64M --max-size 256M -o $out/singles.json"
[ -f "$out/singles.json" ] && [ -f "$out/mixed.json" ] && "$hw" predict "$out/singles.json" "$out/mixed.json" --transfers "$out/mixed.csv"
step pair 60 "$hw run --filter src=gpu0 --filter dst=gpu1 --max-size 64M -o $out/pair.json"
[ -f "$out/pair.json" ] && "$hw" summary "$out/pair.json"
ls -la "$out"
