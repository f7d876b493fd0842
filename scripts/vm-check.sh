#!/usr/bin/env bash
# scripts/vm-check.sh: the arm64 VM suite (make check-arm64). Installs what
# is missing (vm-deps.sh), fetches the kernel and busybox once
# (vm-fetch.sh, cached in PERFEV_VM_CACHE, default /var/cache/perfev-vm),
# cross-builds (vm-build.sh, build-arm64/), packs an initramfs and boots it
# in QEMU's arm64 system emulator, whose PMUv3 the tests measure:
#   -cpu max             PMUv3 with 6 event counters and the cycle counter
#   -icount shift=0      one instruction per virtual ns: instructions count
#                        exactly (without it QEMU has no instruction event)
# The VM's console is build-arm64/vm/console.log; the tests' Criterion-style
# lines and summary are printed here. Fails if a test fails, is skipped
# (nothing here may skip: the VM has the PMU), or the VM
# does not finish within PERFEV_VM_TIMEOUT seconds (default 900).
# PERFEV_VM_FILTER=GLOB runs only the tests matching suite/name.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/vm-deps.sh
cache=$(scripts/vm-fetch.sh)
scripts/vm-build.sh build-arm64
b=build-arm64
vm=$b/vm
rm -rf "$vm/root"
mkdir -p "$vm/root"/{bin,dev,proc,sys,tmp,lib/aarch64-linux-gnu,opt/perfev/bench}
r=$vm/root
cp "$cache/busybox" "$r/bin/busybox"
cp tests/vm/init.sh "$r/init"
chmod 755 "$r/init"
# glibc for the dynamically linked workloads (perfev and the tests are static)
for lib in ld-linux-aarch64.so.1 libc.so.6 libm.so.6; do
  cp -L "/usr/lib/aarch64-linux-gnu/$lib" "$r/lib/aarch64-linux-gnu/"
done
ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$r/lib/ld-linux-aarch64.so.1"
cp $b/perfev $b/perfev-vm-tests "$r/opt/perfev/"
cp -r $b/workloads "$r/opt/perfev/"
cp $b/bench/selfmon_read "$r/opt/perfev/bench/"
(cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) > "$vm/initrd.gz"
built=$(date +%s)

append="console=ttyAMA0 panic=-1 quiet"
[ -n "${PERFEV_VM_FILTER:-}" ] && append="$append PERFEV_VM_FILTER=$PERFEV_VM_FILTER"
echo "=== tests: arm64 VM ($(cat "$cache/VERSION"), qemu-system-aarch64 -cpu max -icount shift=0) ==="
set +e
nice timeout "${PERFEV_VM_TIMEOUT:-900}" qemu-system-aarch64 -M virt -cpu max -m 1024 -smp 1 \
  -icount shift=0 -nographic -nic none -no-reboot \
  -kernel "$cache/vmlinuz" -initrd "$vm/initrd.gz" -append "$append" </dev/null |
  tr -d '\r' | tee "$vm/console.log" | grep -v '^\[ *[0-9]*\.[0-9]*\]'
qrc=${PIPESTATUS[0]}
set -e
log=$vm/console.log
end=$(date +%s)
echo "arm64 VM suite: build $((built - start)) s, VM $((end - built)) s, total $((end - start)) s"
status=0
if [ "$qrc" -ne 0 ]; then
  echo "FAILED: qemu-system-aarch64 exited with $qrc (124: timed out after ${PERFEV_VM_TIMEOUT:-900} s)"
  status=1
fi
trc=$(sed -n 's/^PERFEV-VM-TESTS-EXIT //p' "$log")
if [ "$trc" != 0 ]; then
  echo "FAILED: perfev-vm-tests in the VM: ${trc:-did not finish} (see $log)"
  status=1
fi
if ! grep -q '^\[====\] Synthesis: ' "$log"; then
  echo "FAILED: no summary line from the VM's tests"
  status=1
fi
skips=$(grep -c '^\[SKIP\]' "$log" || true)
if [ "$skips" -ne 0 ]; then
  echo "FAILED: $skips test(s) skipped in the VM, where every hardware path must run"
  status=1
fi
[ "$status" -eq 0 ] && echo "=== ARM64 VM CHECK PASSED ===" || echo "=== ARM64 VM CHECK FAILED ==="
exit "$status"
