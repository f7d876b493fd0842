#!/usr/bin/env bash
# bench/report_instructions.sh — instructions executed by two perfev builds
# (callgrind's exact count, not a time: unaffected by a busy shared machine)
# for bench/report.sh's six views of its two recordings, side by side with
# the ratio NEW/OLD. For a change to the report path: build the commit before
# it in another worktree and compare.
# usage: bench/report_instructions.sh OLD_PERFEV NEW_PERFEV [WORK_DIR=/tmp/perfev-bench-report]
set -euo pipefail
old=${1:?usage: bench/report_instructions.sh OLD_PERFEV NEW_PERFEV [WORK_DIR]}
new=${2:?usage: bench/report_instructions.sh OLD_PERFEV NEW_PERFEV [WORK_DIR]}
work=${3:-/tmp/perfev-bench-report}
command -v valgrind >/dev/null || { echo "bench/report_instructions: valgrind not installed (apt install valgrind)" >&2; exit 1; }
for f in "$old" "$new"; do
  [ -x "$f" ] || { echo "bench/report_instructions: $f is not an executable perfev" >&2; exit 1; }
done
for k in fp dwarf; do
  [ -s "$work/$k.data" ] || { echo "bench/report_instructions: $work/$k.data missing: run bench/report.sh once to record it" >&2; exit 1; }
done
# instructions of one run of perfev report (its output discarded)
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected :/ {print $NF; found=1} END {exit !found}'
}
printf '%-6s %-14s %15s %15s %7s\n' file view "old instr" "new instr" new/old
for k in fp dwarf; do
  for view in --no-children --children default; do
    opts="--sort sym -g none $view" # as bench/report.sh
    [ "$view" = default ] && opts=""
    o=$(count "$old" report -q -i "$work/$k.data" --stdio $opts)
    n=$(count "$new" report -q -i "$work/$k.data" --stdio $opts)
    awk -v k="$k" -v v="$view" -v o="$o" -v n="$n" 'BEGIN { printf "%-6s %-14s %15d %15d %7.3f\n", k, v, o, n, n / o }'
  done
done
