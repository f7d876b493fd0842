#!/usr/bin/env bash
# bench/trace_summary.sh — the cost of a syscall summary: a program making
# N getppid + N/2 failing close + 1 write (workloads/calls_n syscalls N) run
# plain, under perfev trace -s, perf trace -s and strace -c. Prints the wall
# time of the best of three runs and the ratio to the plain run, and checks
# that perfev counted every getppid (no samples lost).
# usage: bench/trace_summary.sh [BUILD_DIR=build] [N=200000]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-200000}
w=$build/workloads/calls_n
[ -x "$build/perfev" ] && [ -x "$w" ] || { echo "bench/trace_summary: build first (scripts/build.sh $build)" >&2; exit 1; }
best() { # best wall time in seconds of three runs of "$@"
  local b=
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    b=$(echo "$s $e ${b:-1e9}" | awk '{t=$2-$1; print (t<$3)?t:$3}')
  done
  echo "$b"
}
plain=$(best "$w" syscalls "$n")
out=$(mktemp)
pv=$(best "$build/perfev" trace -s -o "$out" -- "$w" syscalls "$n")
got=$(awk '$1=="getppid" {print $2}' "$out")
pf=$(command -v perf >/dev/null && best perf trace -s -o /dev/null -- "$w" syscalls "$n" || echo nan)
st=$(command -v strace >/dev/null && best strace -c -o /dev/null "$w" syscalls "$n" || echo nan)
rm -f "$out"
printf '%-20s %9s %8s\n' "" "seconds" "x plain"
for row in "plain $plain" "perfev_trace_-s $pv" "perf_trace_-s $pf" "strace_-c $st"; do
  set -- $row
  awk -v n="${1//_/ }" -v t="$2" -v p="$plain" 'BEGIN {printf "%-20s %9.3f %8.1f\n", n, t, t/p}'
done
awk -v a="$pv" -v b="$pf" -v c="$st" 'BEGIN {printf "perf/perfev = %.1f, strace/perfev = %.1f\n", b/a, c/a}'
echo "getppid counted by perfev: $got of $n"
