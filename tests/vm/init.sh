#!/bin/busybox sh
# /init of the arm64 VM (scripts/vm-check.sh packs it with busybox, glibc's
# loader and libraries for the dynamic workloads, and build-arm64's perfev,
# perfev-vm-tests, workloads and bench under /opt/perfev). Runs the tests
# (vm_selfmon::bench_read_cost_against_read2 runs bench/selfmon_read --hw),
# prints the marker the host reads, powers off.
/bin/busybox --install -s /bin
export PATH=/opt/perfev:/bin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing
# Exact instruction counts: without address randomisation a program's
# start-up runs the same instructions each time (string functions' loops
# depend on where the stack lands).
echo 0 > /proc/sys/kernel/randomize_va_space
echo "PERFEV-VM: $(uname -r), $(cat /sys/bus/event_source/devices/armv8_pmuv3/cpus 2>/dev/null | sed 's/^/cpus /'), $(dmesg | sed -n 's/.*hw perfevents: //p')"
cd /tmp
# Kernel parameters that are not the kernel's reach init as variables.
/opt/perfev/perfev-vm-tests --verbose ${PERFEV_VM_FILTER:+--filter "$PERFEV_VM_FILTER"}
echo "PERFEV-VM-TESTS-EXIT $?"
echo o > /proc/sysrq-trigger
sleep 10
