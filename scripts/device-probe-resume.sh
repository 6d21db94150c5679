set -u
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DHWCOMM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DHWCOMM_TESTS=OFF >/dev/null && cmake --build build-gpu -j 64 >/dev/null || exit 1
H=build-gpu/src/cli/hwcomm
cp .probe/h200x2-partial.json /tmp/x2.json; sum0=$(md5sum < /tmp/x2.json)
$H run --resume /tmp/x2.json; echo "resume of the 2x H200 file on this machine: exit $?"; [ "$sum0" = "$(md5sum < /tmp/x2.json)" ] && echo "file untouched"
$H run --filter method=memcpy-peer -o /tmp/int.json 2>/tmp/int.err & pid=$!
sleep 8; kill -INT $pid; t0=$(date +%s%N); wait $pid; rc=$?; echo "SIGINT during a GPU run: exit $rc after $(( ($(date +%s%N)-t0)/1000000 )) ms"; tail -2 /tmp/int.err
python3 -c "import json; d=json.load(open('/tmp/int.json')); print('records kept', len(d['records']), 'finished', d['meta']['run']['finished'])"
ls /tmp/ | grep -c "int.json.tmp" ; $H run --resume /tmp/int.json 2>/dev/null | tail -1; echo "resume exit $?"
python3 -c "import json; d=json.load(open('/tmp/int.json')); print('records', len(d['records']), 'finished', d['meta']['run']['finished'])"
