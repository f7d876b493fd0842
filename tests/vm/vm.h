/*
 * vm.h — what the arm64 VM's tests share (tests/vm runs only there, built
 * by scripts/vm-build.sh and booted by scripts/vm-check.sh under QEMU with
 * -icount shift=0: one instruction per virtual nanosecond, so the PMU's
 * instruction counts are exact and its cycles are virtual nanoseconds).
 */
#ifndef PERFEV_TEST_VM_H
#define PERFEV_TEST_VM_H

#include "support.h"
#include "support_stat.h"
#include <perfev.h>
#include <stdint.h>

#define PERFEV PERFEV_BIN
#define INSNS WORKLOAD("insns")
/* The arm64 PMU's sysfs name in the VM. */
#define VM_PMU "armv8_pmuv3"

/* Fails the test unless this is the VM: arm64 with the PMU in sysfs (no
 * test here may skip for want of it). */
void vm_require_pmu(void);

/* `perfev stat -x, -e EVENTS -- CMD`, the count of event `name` (the test
 * fails if perfev does or the event is absent). */
double vm_stat(const char *events, const char *name, const char *cmd, double *pct);

/* System calls of the calling thread, counted by raw_syscalls:sys_enter. */
struct vm_syscalls { int fd; uint64_t base; };
void vm_syscalls_start(struct vm_syscalls *s);
/* Stops and returns how many system calls began since start (the
 * counter's own stopping ioctl, measured at start, taken off). */
uint64_t vm_syscalls_stop(struct vm_syscalls *s);

/* A hardware event's attr (PERF_TYPE_HARDWARE, config), user space only. */
#define vm_hw_attr(config) user_attr(PERF_TYPE_HARDWARE, (config))

/* Writes v to /proc/sys/kernel/NAME; the test fails if it cannot. */
void vm_sysctl(const char *name, long v);

#endif
