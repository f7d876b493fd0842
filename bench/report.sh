#!/usr/bin/env bash
# bench/report.sh — perfev report against perf report --stdio on the same
# perf.data files: a frame-pointer recording (-g) and a DWARF one
# (--call-graph dwarf), each with at least 100k samples of workloads/calls.
# Prints wall time and peak RSS (/usr/bin/time -v) side by side with ratios.
# usage: bench/report.sh [BUILD_DIR=build] [WORK_DIR=/tmp/perfev-bench-report]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=${2:-/tmp/perfev-bench-report}
perfev=$build/perfev
[ -x "$perfev" ] || { echo "bench/report: $perfev not built (run scripts/build.sh $build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench/report: perf not installed (linux-perf, scripts/deps.sh)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/report: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"

# 10 us cpu-clock period: 100k samples per CPU-second.
if [ ! -s "$work/fp.data" ]; then
  perf record -q -g -e cpu-clock -c 10000 -o "$work/fp.data" -- "$build/workloads/calls" 1200 >/dev/null
fi
if [ ! -s "$work/dwarf.data" ]; then
  cc -O1 -g -fomit-frame-pointer -fno-inline -o "$work/calls_nofp" workloads/calls.c
  perf record -q --call-graph dwarf,2048 -e cpu-clock -c 10000 -o "$work/dwarf.data" -- "$work/calls_nofp" 1200 >/dev/null
fi

# run LABEL CMD...: prints "seconds kilobytes" of one run
measure() {
  local log="$work/time.log"
  /usr/bin/time -v "$@" >"$work/out.txt" 2>"$log" || { echo "failed: $*" >&2; tail -5 "$log" >&2; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  echo "$wall $rss"
}

printf '%-6s %9s | %10s %10s %7s | %10s %10s %7s\n' file samples "perf s" "perfev s" speedup "perf MB" "perfev MB" "mem"
for kind in fp dwarf; do
  f="$work/$kind.data"
  samples=$(perf report -i "$f" --stdio --sort comm -g none 2>/dev/null | awk '/^# Samples:/ {print $3; exit}')
  # best of three for the time, the RSS of that run
  best_p="" best_q=""
  for i in 1 2 3; do
    p=$(measure perf report -i "$f" --stdio --sort sym -g none --no-children)
    q=$(measure "$perfev" report -i "$f" --stdio --sort sym -g none --no-children)
    if [ -z "$best_p" ] || awk -v a="${p% *}" -v b="${best_p% *}" 'BEGIN{exit !(a<b)}'; then best_p=$p; fi
    if [ -z "$best_q" ] || awk -v a="${q% *}" -v b="${best_q% *}" 'BEGIN{exit !(a<b)}'; then best_q=$q; fi
  done
  read -r pt pm <<<"$best_p"
  read -r qt qm <<<"$best_q"
  awk -v k="$kind" -v n="$samples" -v pt="$pt" -v qt="$qt" -v pm="$pm" -v qm="$qm" 'BEGIN {
    printf "%-6s %9s | %10.3f %10.3f %6.1fx | %10.1f %10.1f %6.2fx\n", k, n, pt, qt,
           (qt > 0 ? pt / qt : 0), pm / 1024, qm / 1024, (pm > 0 ? qm / pm : 0) }'
done
echo "(speedup: perf time / perfev time, target >= 5x fp, >= 10x dwarf; mem: perfev RSS / perf RSS, target <= 0.5)"
