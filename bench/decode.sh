#!/usr/bin/env bash
# bench/decode.sh [SAMPLES]: records per second decoded by `perfev script`
# and by `perf script` on the same perf.data file (recorded here by perf:
# cpu-clock at a 20 us period on every CPU with call graphs, until about
# SAMPLES samples, default 1000000), same fields, output to /dev/null.
# Prints both rates and their ratio. Needs root (or paranoid <= -1) and perf.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-1000000}
bin=${PERFEV_BIN:-build/perfev}
[ -x "$bin" ] || scripts/build.sh build >/dev/null
dir=$(mktemp -d /tmp/perfev-bench-decode.XXXXXX)
trap 'rm -rf "$dir"' EXIT
f=$dir/perf.data
# 2 CPUs x 50k samples/s: about 10 s for a million samples (the kernel may throttle).
secs=$(( (want + 99999) / 100000 + 1 ))
perf record -q -e cpu-clock -c 20000 -a -g -o "$f" -- sleep "$secs" >/dev/null 2>&1 &
rec=$!
# keep both CPUs busy meanwhile
for i in 1 2; do ( end=$((SECONDS + secs)); while [ $SECONDS -lt $end ]; do :; done ) & done
wait
nsamples=$(perf script -i "$f" -F pid 2>/dev/null | wc -l)
nrecords=$("$bin" script -i "$f" --json 2>/dev/null | wc -l)
fields=pid,tid,time,ip,period
best() { # best wall time of 3 runs of "$@", in seconds
  local b=""
  for i in 1 2 3; do
    local s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    local e=$(date +%s.%N)
    b=$(echo "$e - $s" | bc -l | awk -v b="$b" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$b"
}
tp=$(best perf script -i "$f" -F "$fields")
to=$(best "$bin" script -i "$f" -F "$fields")
echo "file: $(du -h "$f" | cut -f1), $nsamples samples, $nrecords records (with side-band), call graphs"
awk -v n="$nrecords" -v s="$nsamples" -v tp="$tp" -v to="$to" 'BEGIN {
  printf "perf script   -F pid,tid,time,ip,period: %8.3f s  %10.0f records/s\n", tp, n / tp
  printf "perfev script -F pid,tid,time,ip,period: %8.3f s  %10.0f records/s\n", to, n / to
  printf "ratio perfev/perf (records/s): %.2fx\n", tp / to
}'
