/*
 * stat_events.c — the events perf stat counts when none are given, its
 * -d/-dd/-ddd additions, its user-space fallback under perf_event_paranoid,
 * and whether a -p/-t target has ended (perfev stat's wait).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/counter.h"
#include "perfev/event.h"
#include "perfev/stat.h"
#include "perfev/sys.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* perf_event_paranoid forbids kernel counting to this user */
static bool kernel_forbidden(void)
{
	if (geteuid() == 0)
		return false;
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	return s.paranoid >= 2;
}

PERFEV_API int perfev_stat_default_events(struct perfev_evlist *l)
{
	static const struct { uint32_t type; uint64_t config; const char *name; } d[] = {
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses"},
	};
	if (!l)
		return pv_error(EINVAL, "perfev_stat_default_events: no event list");
	bool user_only = kernel_forbidden();
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		struct perfev_attr a = {0};
		char name[64];
		a.type = d[i].type;
		a.config = d[i].config;
		a.exclude_kernel = a.exclude_hv = user_only;
		snprintf(name, sizeof(name), "%s%s", d[i].name, user_only ? ":u" : "");
		if (!perfev_evlist_add(l, &a, name))
			return -errno;
	}
	return 0;
}

PERFEV_API int perfev_stat_detailed_events(struct perfev_evlist *l, int level)
{
	static const char *const d[] = {
		"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
		"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
		"L1-dcache-prefetches,L1-dcache-prefetch-misses",
	};
	if (!l || level < 0 || level > 3)
		return pv_error(EINVAL, "perf stat's detail levels are 1 to 3 (-d to -ddd), not %d", level);
	for (int i = 0; i < level; i++)
		if (perfev_evlist_parse(l, d[i], NULL) < 0)
			return -errno;
	return 0;
}

PERFEV_API bool perfev_stat_user_fallback(struct perfev_evlist *l, const struct perfev_target *t)
{
	if (!l || !t || t->kind == PERFEV_TARGET_CPUS || t->kind == PERFEV_TARGET_CGROUP || !kernel_forbidden())
		return false;
	bool changed = false;
	for (size_t i = 0; i < perfev_evlist_count(l); i++) {
		struct perfev_evsel *e = perfev_evlist_at(l, i);
		struct perfev_attr *a = perfev_evsel_attr(e);
		if (a->exclude_kernel || a->exclude_user)
			continue;
		a->exclude_kernel = a->exclude_hv = 1;
		char name[512];
		snprintf(name, sizeof(name), "%s:u", perfev_evsel_name(e));
		perfev_evsel_set_name(e, name);
		changed = true;
	}
	errno = EACCES;
	return changed;
}

PERFEV_API bool perfev_target_ended(const struct perfev_target *t)
{
	if (!t || (t->kind != PERFEV_TARGET_PROCESS && t->kind != PERFEV_TARGET_THREAD) || t->pid <= 0)
		return false;
	if (kill(t->pid, 0) < 0 && errno == ESRCH)
		return true;
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)t->pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *rp = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}
