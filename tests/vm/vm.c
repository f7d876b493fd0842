/* vm.c — helpers of the arm64 VM's tests (see vm.h). */
#define _GNU_SOURCE
#include "vm.h"
#include "support_stat.h"

#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void vm_require_pmu(void)
{
	cr_assert_eq(access("/sys/bus/event_source/devices/" VM_PMU "/type", R_OK), 0,
		     "no %s PMU in sysfs: these tests run in the arm64 VM (scripts/vm-check.sh)", VM_PMU);
	cr_assert_eq(geteuid(), 0, "the VM runs its tests as root");
}

double vm_stat(const char *events, const char *name, const char *cmd, double *pct)
{
	struct run_result r = run_cmd("%s stat -x, -e %s -- %s", PERFEV, events, cmd);
	cr_assert_eq(r.status, 0, "perfev stat -e %s -- %s: %s", events, cmd, r.err);
	double v = stat_csv_count(r.err, name, pct);
	cr_assert_geq(v, 0, "no count of %s in:\n%s", name, r.err);
	run_result_free(&r);
	return v;
}

static uint64_t syscalls_read(int fd)
{
	uint64_t n = 0;
	cr_assert_eq(read(fd, &n, sizeof(n)), (ssize_t)sizeof(n));
	return n;
}

void vm_syscalls_start(struct vm_syscalls *s)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = tracepoint_id("raw_syscalls", "sys_enter");
	a.disabled = 1;
	s->fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(s->fd, 0, "raw_syscalls:sys_enter: %s", perfev_errmsg());
	/* an empty window counts the disabling ioctl alone */
	cr_assert_eq(ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	cr_assert_eq(ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	s->base = syscalls_read(s->fd);
	cr_assert_eq(ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
}

uint64_t vm_syscalls_stop(struct vm_syscalls *s)
{
	cr_assert_eq(ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	uint64_t n = syscalls_read(s->fd);
	close(s->fd);
	return n - 2 * s->base;
}

void vm_sysctl(const char *name, long v)
{
	cr_assert_eq(perfev_sysctl_write(name, v), 0, "%s = %ld: %s", name, v, perfev_errmsg());
}
