#!/usr/bin/env bash
# bench/annotate.sh — perfev annotate against perf annotate --stdio on the
# same recording: the 20 hottest user-space symbols (perf report's order) of
# a cpu-clock recording of perfev itself reading a call-graph recording
# (hundreds of symbols in perfev, libdw, libc, with DWARF for perfev's own),
# each annotated by its own run of either tool (what a user does: one
# symbol at a time), then all 20 in one run of each (perfev: one load of
# the file for every symbol; perf: `perf annotate --stdio` of everything).
# Prints wall and CPU time (bench/rusage: user+sys, the least of 3 runs)
# side by side with the ratios. Kernel symbols are left out: perf reads
# their code from a vmlinux or /proc/kcore, which this kind of machine
# may lack.
# usage: bench/annotate.sh [BUILD_DIR=build] [WORK_DIR=/tmp/perfev-bench-annotate]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=${2:-/tmp/perfev-bench-annotate}
perfev=$build/perfev
[ -x "$perfev" ] && [ -x "$build/bench/rusage" ] || { echo "bench/annotate: $perfev or $build/bench/rusage not built (run scripts/build.sh $build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench/annotate: perf not installed (linux-perf, scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$work"

# the workload's recording (a call-graph one for it to read) and the
# recording of it, with the binary kept beside it
if [ ! -s "$work/annotate.data" ] || [ ! -x "$work/perfev" ]; then
  cp "$perfev" "$work/perfev"
  perf record -q -g -e cpu-clock -c 50000 -o "$work/input.data" -- "$build/workloads/calls" 300 >/dev/null
  perf record -q -e cpu-clock -F 4000 -o "$work/annotate.data" -- \
    sh -c "for i in 1 2 3 4 5 6; do '$work/perfev' report -q --no-cache -i '$work/input.data' --stdio --children >/dev/null; done"
fi
f=$work/annotate.data
mapfile -t syms < <(perf report -i "$f" --stdio --sort sym -g none 2>/dev/null |
  awk '/^ +[0-9.]+%/ && $2 == "[.]" && NF == 3 { print $3 }' | head -20)
[ "${#syms[@]}" -ge 5 ] || { echo "bench/annotate: only ${#syms[@]} user symbols in $f" >&2; exit 1; }

measure() { "$build/bench/rusage" 3 "$@"; }
sum() { awk '{ w += $1; c += $2 } END { printf "%.3f %.3f\n", w, c }'; }

# each symbol by its own run; the outputs are kept for a look
p="" q=""
for s in "${syms[@]}"; do
  p+="$(measure sh -c "perf annotate -i '$f' --stdio '$s' >'$work/perf.$s.txt' 2>/dev/null")"$'\n'
  q+="$(measure sh -c "'$perfev' annotate -q -i '$f' --stdio '$s' >'$work/perfev.$s.txt'")"$'\n'
done
read -r pw pc <<<"$(printf '%s' "$p" | sum)"
read -r qw qc <<<"$(printf '%s' "$q" | sum)"
# all of them in one run (perf's: everything it can annotate; perfev's: the same symbols' DSOs)
read -r aw ac _ <<<"$(measure sh -c "perf annotate -i '$f' --stdio >/dev/null 2>&1")"
read -r bw bc _ <<<"$(measure sh -c "'$perfev' annotate -q -i '$f' --stdio >/dev/null")"

printf '%-28s | %8s %8s %7s | %8s %8s %7s\n' view "perf s" "perfev s" speedup "perf cpu" "perfev" speedup
row() {
  awk -v v="$1" -v pw="$2" -v qw="$3" -v pc="$4" -v qc="$5" 'BEGIN {
    printf "%-28s | %8.3f %8.3f %6.1fx | %8.3f %8.3f %6.1fx\n", v, pw, qw, (qw > 0 ? pw / qw : 0), pc, qc, (qc > 0 ? pc / qc : 0) }'
}
row "${#syms[@]} symbols, one run each" "$pw" "$qw" "$pc" "$qc"
row "every symbol, one run" "$aw" "$bw" "$ac" "$bc"
echo "symbols: ${syms[*]}"
echo "speedup: perf's time / perfev's (wall: what the user waits; cpu: user+sys). Target >= 10x."
