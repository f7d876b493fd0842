#!/usr/bin/env bash
# Builds every libFuzzer target in fuzz/*.c (clang, ASan+UBSan) and runs
# each for PERFEV_FUZZ_SECONDS (default 20) from its seeds. A target NAME
# gets its seeds from fuzz/seeds/NAME/ (committed inputs) and, if there is
# an executable fuzz/NAME.seed, from what that script writes into the
# directory given as its argument (e.g. copies of the perf.data corpus).
# Fails if any target crashes, leaks, hangs or trips a sanitizer.
# The mutation seed is fixed (PERFEV_FUZZ_SEED, default 1) so that a run
# can be repeated exactly; PERFEV_FUZZ_SEED=0 draws a random one for longer
# exploratory runs, e.g. PERFEV_FUZZ_SECONDS=600 PERFEV_FUZZ_SEED=0.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
targets=(fuzz/*.c)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no targets"; exit 0; }

dir=build-fuzz
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang cmake -S . -B "$dir" -G Ninja -DPERFEV_FUZZ=ON -DPERFEV_SANITIZE=ON \
    -DPERFEV_TESTS=OFF >/dev/null
fi
# Only the fuzz targets: clang's sanitized libperfev.so cannot link with
# --no-undefined (the ASan runtime is not linked into shared libraries).
names=()
for src in "${targets[@]}"; do names+=("$(basename "$src" .c)"); done
cmake --build "$dir" -j"$(nproc)" --target "${names[@]}" >/dev/null

secs=${PERFEV_FUZZ_SECONDS:-20}
seed=${PERFEV_FUZZ_SEED:-1}
status=0
for src in "${targets[@]}"; do
  name=$(basename "$src" .c)
  work="$dir/corpus/$name"
  mkdir -p "$work"
  [ -d "fuzz/seeds/$name" ] && cp -n "fuzz/seeds/$name"/* "$work"/ 2>/dev/null || true
  [ -x "fuzz/$name.seed" ] && "fuzz/$name.seed" "$work"
  echo "=== fuzz: $name for ${secs}s ($(ls "$work" | wc -l) seeds) ==="
  mkdir -p "$dir/artifacts"
  if ! "$dir/fuzz/$name" -artifact_prefix="$dir/artifacts/$name-" -seed="$seed" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 "$work" >"$dir/$name.log" 2>&1; then
    echo "FAILED: fuzz target $name (log: $dir/$name.log)"
    tail -40 "$dir/$name.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|Done" "$dir/$name.log" | tail -2
  fi
done
exit $status
