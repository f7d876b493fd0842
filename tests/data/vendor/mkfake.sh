#!/bin/sh
# tests/data/vendor/mkfake.sh DIR intel|amd|hybrid: a copy of this machine's
# /sys/bus/event_source/devices with the core PMU of another machine added
# (type 4; hybrid: cpu_core 4 and cpu_atom 8), its format/ bits as the
# kernel's arch/x86/events/{intel,amd}/core.c give them. Bind-mounted over
# the real one in a private mount namespace, it lets perf build the attrs of
# that machine's vendor events (PERF_CPUID picks the event table).
set -e
D=$1; K=$2
rm -rf "$D"; mkdir -p "$D"
for p in /sys/bus/event_source/devices/*; do
  [ -e "$p/type" ] || continue
  n=$(basename "$p"); mkdir -p "$D/$n"
  for f in type cpumask; do [ -r "$p/$f" ] && cat "$p/$f" > "$D/$n/$f" 2>/dev/null || true; done
  for sub in format events; do
    [ -d "$p/$sub" ] || continue
    mkdir -p "$D/$n/$sub"
    for f in "$p/$sub"/*; do [ -f "$f" ] && cat "$f" > "$D/$n/$sub/$(basename "$f")" 2>/dev/null || true; done
  done
done
mkcpu() { # NAME TYPE
  c="$D/$1"; rm -rf "$c"; mkdir -p "$c/format" "$c/events"
  echo "$2" > "$c/type"; echo 0 > "$c/cpus"; echo 0 > "$c/cpumask"
  if [ "$K" = amd ]; then
    echo config:0-7,32-35 > "$c/format/event"
  else
    echo config:0-7 > "$c/format/event"
    echo config:19 > "$c/format/pc"; echo config:21 > "$c/format/any"
    echo config:32 > "$c/format/in_tx"; echo config:33 > "$c/format/in_tx_cp"
  fi
  echo config:8-15 > "$c/format/umask"; echo config:18 > "$c/format/edge"
  echo config:23 > "$c/format/inv"; echo config:24-31 > "$c/format/cmask"
}
if [ "$K" = hybrid ]; then mkcpu cpu_core 4; mkcpu cpu_atom 8; else mkcpu cpu 4; fi
