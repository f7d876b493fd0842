#!/usr/bin/env bash
# bench/report_tui.sh [SAMPLES=1600000] [BUILD_DIR=build] [WORK_DIR=/tmp/perfev-bench-report-tui]:
# time to the first screen of `perfev report` (its terminal browser) and of
# `perf report` (perf's TUI) on the same large system-wide recording:
# cpu-clock every 20 us on every CPU with call graphs (-a -g, as
# bench/decode.sh records) until about SAMPLES samples, both CPUs kept busy.
# Each tool runs in its own tmux terminal (160x50); the time is from its start
# until its screen shows the report's header and status line, polled every
# 20 ms; best of ROUNDS (default 3) runs, the tools taking turns. Prints both and their ratio,
# and perfev report --stdio's whole run for reference. Needs root, perf, tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-1600000}
build=${2:-build}
work=${3:-/tmp/perfev-bench-report-tui}
perfev=$(realpath "$build/perfev")
[ -x "$perfev" ] || { echo "bench/report_tui: $perfev not built (scripts/build.sh $build)" >&2; exit 1; }
command -v perf >/dev/null || { echo "bench/report_tui: perf not installed (scripts/deps.sh)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "bench/report_tui: tmux not installed (scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$work"
f=$work/sys.data
if [ ! -s "$f" ] || [ "$(cat "$f.want" 2>/dev/null)" != "$want" ]; then
  # 2 CPUs x 50k samples/s (the kernel may throttle)
  secs=$(( (want + 99999) / 100000 + 1 ))
  perf record -q -e cpu-clock -c 20000 -a -g -o "$f" -- sleep "$secs" >/dev/null 2>&1 &
  for i in 1 2; do ( end=$((SECONDS + secs)); while [ $SECONDS -lt $end ]; do :; done ) & done
  wait
  echo "$want" > "$f.want"
fi
samples=$("$perfev" report -q -i "$f" --stats | awk '/SAMPLE events:/ {print $3; exit}')

sock=perfev-bench-tui-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true' EXIT
# first_screen CMD TEXT: seconds from starting CMD in a terminal to TEXT on its screen
first_screen() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  local start end
  start=$(date +%s.%N)
  tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 50 -s b "$1; sleep 600"
  local screen sent=""
  while screen=$(tmux -L "$sock" capture-pane -p -t b 2>/dev/null); ! grep -q -- "$2" <<<"$screen"; do
    # perf's warnings after reading ("lost N chunks!") wait for a key over
    # its first screen: one key per warning shown (another would reach the browser)
    if grep -q "Press any key" <<<"$screen" && [ "$screen" != "$sent" ]; then
      tmux -L "$sock" send-keys -t b Escape
      sent=$screen
    fi
    sleep 0.02
    if [ "$(echo "$(date +%s.%N) - $start > 900" | bc)" = 1 ]; then echo "bench/report_tui: no '$2' from: $1" >&2; exit 1; fi
  done
  end=$(date +%s.%N)
  tmux -L "$sock" kill-server 2>/dev/null || true
  echo "$end - $start" | bc -l
}
min() { sort -g | head -1; }

p="" q=""
for round in $(seq "${ROUNDS:-3}"); do
  # perf's TUI: its title line, drawn with the entries
  p+="$(first_screen "perf report -i '$f'" "Event count (approx.)")"$'\n'
  q+="$(first_screen "'$perfev' report -q -i '$f'" "h/?: help")"$'\n'
done
p=$(printf '%s' "$p" | min)
q=$(printf '%s' "$q" | min)
s=$( { /usr/bin/time -f %e "$perfev" report -q -i "$f" --stdio >/dev/null; } 2>&1 | tail -1)
echo "file: $(du -h "$f" | cut -f1), $samples samples, system-wide, call graphs"
awk -v p="$p" -v q="$q" -v s="$s" 'BEGIN {
  printf "time to the first screen: perf report %.2f s, perfev report %.2f s (perf / perfev: %.2f)\n", p, q, p / q
  printf "perfev report --stdio, the whole report: %.2f s\n", s
}'
