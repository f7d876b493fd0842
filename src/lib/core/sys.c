/* sys.c — perf_event_open(2), its ioctls, prctl and the perf sysctls. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/sys.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

PERFEV_API int perfev_open(struct perfev_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	if (!attr)
		return pv_error(EINVAL, "perfev_open: attr is NULL");
	if (attr->size == 0)
		attr->size = PERFEV_ATTR_SIZE_LATEST;
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			  flags | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		char msg[1024];
		perfev_explain_open(msg, sizeof(msg), attr, pid, cpu, e);
		return pv_error(e, "%s", msg);
	}
	return (int)fd;
}

static int ioc(int fd, unsigned long req, unsigned long arg, const char *what)
{
	int r = ioctl(fd, req, arg);
	if (r < 0)
		return pv_error(errno, "ioctl %s on fd %d: %s", what, fd, strerror(errno));
	return r;
}

#define GROUP(g) ((g) ? PERF_IOC_FLAG_GROUP : 0)

PERFEV_API int perfev_ioc_enable(int fd, bool group)
{
	return ioc(fd, PERF_EVENT_IOC_ENABLE, GROUP(group), "ENABLE");
}

PERFEV_API int perfev_ioc_disable(int fd, bool group)
{
	return ioc(fd, PERF_EVENT_IOC_DISABLE, GROUP(group), "DISABLE");
}

PERFEV_API int perfev_ioc_reset(int fd, bool group)
{
	return ioc(fd, PERF_EVENT_IOC_RESET, GROUP(group), "RESET");
}

PERFEV_API int perfev_ioc_refresh(int fd, int count)
{
	return ioc(fd, PERF_EVENT_IOC_REFRESH, (unsigned long)count, "REFRESH");
}

PERFEV_API int perfev_ioc_period(int fd, uint64_t period)
{
	return ioc(fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&period, "PERIOD");
}

PERFEV_API int perfev_ioc_set_output(int fd, int target_fd)
{
	return ioc(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)(long)target_fd,
		   "SET_OUTPUT");
}

PERFEV_API int perfev_ioc_set_filter(int fd, const char *filter)
{
	return ioc(fd, PERF_EVENT_IOC_SET_FILTER, (unsigned long)filter, "SET_FILTER");
}

PERFEV_API int perfev_ioc_id(int fd, uint64_t *id)
{
	return ioc(fd, PERF_EVENT_IOC_ID, (unsigned long)id, "ID");
}

PERFEV_API int perfev_ioc_set_bpf(int fd, int prog_fd)
{
	return ioc(fd, PERF_EVENT_IOC_SET_BPF, (unsigned long)(long)prog_fd, "SET_BPF");
}

PERFEV_API int perfev_ioc_pause_output(int fd, bool pause)
{
	return ioc(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0, "PAUSE_OUTPUT");
}

PERFEV_API int perfev_ioc_query_bpf(int fd, uint32_t *ids, uint32_t *nr)
{
	uint32_t cap = *nr;
	struct perf_event_query_bpf *q = calloc(1, sizeof(*q) + (size_t)cap * sizeof(uint32_t));
	if (!q)
		return pv_error(ENOMEM, "out of memory");
	q->ids_len = cap;
	int r = ioc(fd, PERF_EVENT_IOC_QUERY_BPF, (unsigned long)q, "QUERY_BPF");
	if (r >= 0) {
		memcpy(ids, q->ids, (size_t)PV_MIN(cap, q->prog_cnt) * sizeof(uint32_t));
		*nr = q->prog_cnt;
	}
	free(q);
	return r;
}

PERFEV_API int perfev_ioc_modify_attributes(int fd, struct perfev_attr *attr)
{
	if (attr->size == 0)
		attr->size = PERFEV_ATTR_SIZE_LATEST;
	return ioc(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (unsigned long)attr,
		   "MODIFY_ATTRIBUTES");
}

PERFEV_API int perfev_prctl_enable(void)
{
	if (prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) < 0)
		return pv_error(errno, "prctl(PR_TASK_PERF_EVENTS_ENABLE): %s", strerror(errno));
	return 0;
}

PERFEV_API int perfev_prctl_disable(void)
{
	if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) < 0)
		return pv_error(errno, "prctl(PR_TASK_PERF_EVENTS_DISABLE): %s", strerror(errno));
	return 0;
}

static int64_t sysctl_get(const char *name)
{
	char path[128];
	int64_t v;
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	return pv_read_i64(path, &v) == 0 ? v : PERFEV_SYSCTL_ABSENT;
}

PERFEV_API void perfev_sysctl_read(struct perfev_sysctl *s)
{
	s->paranoid = sysctl_get("perf_event_paranoid");
	s->mlock_kb = sysctl_get("perf_event_mlock_kb");
	s->max_sample_rate = sysctl_get("perf_event_max_sample_rate");
	s->cpu_time_max_percent = sysctl_get("perf_cpu_time_max_percent");
	s->max_stack = sysctl_get("perf_event_max_stack");
	s->max_contexts_per_stack = sysctl_get("perf_event_max_contexts_per_stack");
	s->user_access = sysctl_get("perf_user_access");
}

PERFEV_API int perfev_sysctl_write(const char *name, int64_t value)
{
	char path[128], val[32];
	if (strchr(name, '/'))
		return pv_error(EINVAL, "sysctl name '%s' must not contain '/'", name);
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	snprintf(val, sizeof(val), "%lld\n", (long long)value);
	int r = pv_write_str(path, val);
	if (r < 0)
		return pv_error(-r, "cannot write %s: %s%s", path, strerror(-r),
				r == -EACCES || r == -EPERM ? " (writing it needs root)" : "");
	return 0;
}

PERFEV_API int perfev_kernel_attr_size(void)
{
	static int cached; /* relaxed atomics: racing probes find the same size */
	int size = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (size)
		return size;
	/* An absurd size makes the kernel answer E2BIG and write the size of
	 * its own struct perf_event_attr back, without looking at the rest. */
	struct perfev_attr probe;
	memset(&probe, 0, sizeof(probe));
	probe.type = PERF_TYPE_SOFTWARE;
	probe.size = UINT32_MAX;
	long fd = syscall(SYS_perf_event_open, &probe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close((int)fd);
		return pv_error(EPROTO, "kernel accepted an attr of size 4 GiB");
	}
	if (errno != E2BIG)
		return pv_error(errno, "perf_event_open is unavailable: %s", strerror(errno));
	__atomic_store_n(&cached, (int)probe.size, __ATOMIC_RELAXED);
	return (int)probe.size;
}
