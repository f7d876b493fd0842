#!/bin/sh
# tests/data/vendor/mkfake.sh DIR intel|amd|hybrid [skx|zen3]: a copy of this machine's
# /sys/bus/event_source/devices with the core PMU of another machine added
# (type 4; hybrid: cpu_core 4 and cpu_atom 8), its format/ bits as the
# kernel's arch/x86/events/{intel,amd}/core.c give them. Bind-mounted over
# the real one in a private mount namespace, it lets perf build the attrs of
# that machine's vendor events (PERF_CPUID picks the event table).
# A third argument adds uncore PMUs, their format/ files as the kernel's
# drivers declare them: skx, Skylake-SP's (arch/x86/events/intel/
# uncore_snbep.c: uncore_imc_0..5, and 4 of the up to 28 uncore_cha_N);
# zen3, AMD Zen 3's (arch/x86/events/amd/uncore.c: amd_l3 of family 19h,
# amd_df). Their types are made up (the kernel numbers them as it registers
# them); each box's cpumask is CPU 0, a one-socket machine's.
set -e
D=$1; K=$2; U=${3:-}
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
box() { # NAME TYPE FORMAT=BITS...
  c="$D/$1"; rm -rf "$c"; mkdir -p "$c/format"; echo "$2" > "$c/type"; echo 0 > "$c/cpumask"
  shift 2
  for f in "$@"; do echo "${f#*=}" > "$c/format/${f%%=*}"; done
}
if [ "$U" = skx ]; then
  for i in 0 1 2 3 4 5; do
    box uncore_imc_$i $((20 + i)) event=config:0-7 umask=config:8-15 edge=config:18 inv=config:23 \
      thresh=config:24-31
  done
  for i in 0 1 2 3; do
    box uncore_cha_$i $((30 + i)) event=config:0-7 umask=config:8-15 edge=config:18 tid_en=config:19 \
      inv=config:23 thresh=config:24-31 filter_tid=config1:0-8 filter_state=config1:17-26 \
      filter_rem=config1:32 filter_loc=config1:33 filter_all_op=config1:35 filter_nm=config1:36 \
      filter_not_nm=config1:37 filter_opc0=config1:41-50 filter_opc1=config1:51-60 \
      filter_nc=config1:62 filter_isoc=config1:63
  done
elif [ "$U" = zen3 ]; then
  box amd_l3 11 event=config:0-7 umask=config:8-15 coreid=config:42-44 enallslices=config:46 \
    enallcores=config:47 sliceid=config:48-50 threadmask=config:56-57
  box amd_df 12 event=config:0-7,32-35,59-60 umask=config:8-15
fi
