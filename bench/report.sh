#!/usr/bin/env bash
# bench/report.sh — perfev report against perf report --stdio on the same
# perf.data files: a frame-pointer recording (-g) and a DWARF one
# (--call-graph dwarf of a build without frame pointers), each with at least
# 100k samples of workloads/calls; the flat view alone (--no-children -g none,
# where neither tool needs the stacks) and with --children (every stack
# walked, DWARF-unwound), and `report --stdio` with nothing else (children
# and call graphs, what most people run). Prints wall time, CPU time (user+sys of every
# thread: the fair number on a shared machine) and peak RSS side by side,
# with ratios for both times, and per file a floor row: `cat` reading every
# byte of it once (one thread), what no reader of the file can beat.
# usage: bench/report.sh [BUILD_DIR=build] [WORK_DIR=/tmp/perfev-bench-report]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=${2:-/tmp/perfev-bench-report}
perfev=$build/perfev
[ -x "$perfev" ] && [ -x "$build/bench/rusage" ] || { echo "bench/report: $perfev or $build/bench/rusage not built (run scripts/build.sh $build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench/report: perf not installed (linux-perf, scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$work"

samples() { perf report -i "$1" --stdio --sort comm -g none 2>/dev/null | awk '/^# Samples:/ {print $3; exit}'; }
# cpu-clock every 25 us of CPU: 40k samples per CPU-second; calls 1200 runs ~3 s under sampling
# each recording's binary is kept beside it: a report of a recording whose
# binary is gone measures nothing but addresses
if [ ! -s "$work/fp.data" ] || [ ! -x "$work/calls_fp" ]; then
  cp "$build/workloads/calls" "$work/calls_fp"
  perf record -q -g -e cpu-clock -c 25000 -o "$work/fp.data" -- "$work/calls_fp" 1200 >/dev/null
fi
if [ ! -s "$work/dwarf.data" ] || [ ! -x "$work/calls_nofp" ]; then
  cc -O1 -g -fomit-frame-pointer -fno-inline -o "$work/calls_nofp" workloads/calls.c
  perf record -q --call-graph dwarf,2048 -e cpu-clock -c 25000 -o "$work/dwarf.data" -- "$work/calls_nofp" 1200 >/dev/null
fi

# measure CMD...: "wall cpu rss_kb" of the run with the least CPU time of
# three (bench/rusage.c: wait4's microsecond rusage, not time(1)'s 10 ms)
measure() { "$build/bench/rusage" 3 "$@"; }
# least: of several "wall cpu rss_kb" lines, the one with the least CPU time
least() { sort -g -k2,2 | head -1; }

printf '%-6s %-12s %7s | %7s %7s %6s | %7s %7s %6s | %8s %8s %6s\n' file view samples "perf s" "perfev s" \
  speedup "perf cpu" "perfev" speedup "perf MB" "perfev MB" mem
for kind in fp dwarf; do
  f="$work/$kind.data"
  n=$(samples "$f")
  for view in --no-children --children default; do
    # the issue's views (--sort sym -g none), then each tool's defaults
    # (--children, call graphs printed), what `report --stdio` alone gives
    opts="--sort sym -g none $view"
    [ "$view" = default ] && opts=""
    # three rounds, the tools taking turns: a slow spell of the machine
    # (a shared VM's) then weighs on both
    p="" q=""
    for round in 1 2 3; do
      p+="$(measure perf report -i "$f" --stdio $opts)"$'\n' || exit 1
      q+="$(measure "$perfev" report -q -i "$f" --stdio $opts)"$'\n' || exit 1
    done
    p=$(printf '%s' "$p" | least)
    q=$(printf '%s' "$q" | least)
    read -r pw pc pm <<<"$p"
    read -r qw qc qm <<<"$q"
    awk -v k="$kind" -v v="$view" -v n="$n" -v pw="$pw" -v qw="$qw" -v pc="$pc" -v qc="$qc" -v pm="$pm" -v qm="$qm" 'BEGIN {
      printf "%-6s %-12s %7s | %7.3f %7.3f %5.1fx | %7.3f %7.3f %5.1fx | %8.1f %8.1f %5.2fx\n", k, v, n, pw, qw,
             (qw > 0 ? pw / qw : 0), pc, qc, (qc > 0 ? pc / qc : 0), pm / 1024, qm / 1024, (pm > 0 ? qm / pm : 0) }'
    [ "$view" = --no-children ] && { flat_pw=$pw; flat_pc=$pc; }
  done
  # the floor under the flat view: the kernel's cost of handing every page
  # of the file to a process (read(2) here; mapping costs the same), which
  # any reader pays and a second thread can at best halve
  read -r cw cc _ <<<"$(for round in 1 2 3; do measure cat "$f"; done | least)"
  awk -v k="$kind" -v cw="$cw" -v cc="$cc" -v pw="$flat_pw" -v pc="$flat_pc" -v sz="$(stat -c %s "$f")" 'BEGIN {
    printf "%-6s %-12s %7s | %7s %7.3f %5.1fx | %7s %7.3f %5.1fx | (reading the %.0f MB alone: perf flat / it)\n",
           k, "cat (floor)", "", "", cw, (cw > 0 ? pw / cw : 0), "", cc, (cc > 0 ? pc / cc : 0), sz / 1048576 }'
done
echo "speedup: perf's time / perfev's, in wall time (what the user waits) and in CPU time (user+sys, all threads:"
echo "perfev reads big recordings with a second thread that maps pages ahead; PERFEV_PAGER=0 turns it off)."
echo "Targets: >= 5x fp, >= 10x dwarf; mem: perfev peak RSS / perf's (target <= 0.5)"
