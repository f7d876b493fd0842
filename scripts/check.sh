#!/usr/bin/env bash
# The whole test suite, in the normal build and the sanitizer build.
# Exits non-zero, loudly, if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# each phase's wall time, printed at the end (where make check's time goes)
phases=""
phase() { phases+="$(printf '  %-22s %5d s' "$1" $((SECONDS - phase_start)))"$'\n'; phase_start=$SECONDS; }
phase_start=$SECONDS
scripts/deps.sh; phase "packages"
scripts/build.sh build; phase "build"
scripts/build.sh build-asan -DPERFEV_SANITIZE=ON; phase "build (sanitizers)"

# tracefs is where tracepoint tests look; mount it if the machine did not.
if [ "$(id -u)" -eq 0 ] && [ ! -d /sys/kernel/tracing/events ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

status=0
run_suite() {
  local dir=$1 log=$2
  echo "=== tests: $dir ==="
  # Live tests measure the kernel: one at a time keeps them honest.
  set +e
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$dir/perfev-tests" --verbose --jobs 1 --timeout 300 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" -ne 0 ]; then
    echo "FAILED: $dir/perfev-tests exited with $rc"
    status=1
  fi
  # A sanitizer report in a passing child still fails the suite.
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$log"; then
    echo "FAILED: sanitizer reports in $dir (see $log)"
    status=1
  fi
  echo "skipped in $dir: $(grep -c '^\[SKIP\]' "$log" || true)"
}
run_suite build build/tests.log; phase "tests"
run_suite build-asan build-asan/tests.log; phase "tests (sanitizers)"

if [ -x scripts/fuzz.sh ]; then
  scripts/fuzz.sh || status=1
fi
phase "fuzz"

# The hardware paths, live on a PMU: the arm64 VM suite (make check-arm64).
scripts/vm-check.sh || status=1
phase "arm64 VM suite"
printf 'wall time per phase:\n%s  %-22s %5d s\n' "$phases" total "$SECONDS"

if [ "$status" -ne 0 ]; then
  # The logs are long and CI shows their ends: repeat each failure here,
  # with the assertion messages criterion printed just before it.
  for log in build/tests.log build-asan/tests.log build-arm64/vm/console.log; do
    [ -f "$log" ] || continue
    if grep -q '^\[FAIL\]' "$log"; then
      echo "=== failures in $log ==="
      awk '/^\[RUN \]/ { n = 0 } { buf[n++] = $0 }
           /^\[FAIL\]/ { for (i = (n > 80 ? n - 80 : 0); i < n; i++) print buf[i]; n = 0 }' "$log"
    fi
  done
  echo "=== CHECK FAILED ==="
  exit 1
fi
echo "=== CHECK PASSED ==="
