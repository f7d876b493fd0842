/* Parsed events open on this kernel, and count what they name. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile long target;

Test(live_parse, parsed_events_open_and_count, .timeout = 60)
{
	require_tracefs();
	char events[256];
	snprintf(events, sizeof(events),
		 "cs,faults:u,{task-clock,cpu-clock}:k,mem:%p:w,syscalls:sys_enter_getppid", (void *)&target);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	cr_assert_eq(perfev_evlist_parse(l, events, &err), 0, "%s at %d", err.msg, err.pos);
	cr_assert_eq(perfev_evlist_count(l), 6);
	int fd[6];
	for (size_t i = 0; i < 6; i++) {
		struct perfev_evsel *e = perfev_evlist_at(l, i);
		struct perfev_attr a = *perfev_evsel_attr(e);
		a.sample_period = 0; /* counting, as perf stat does */
		int leader = perfev_evsel_is_leader(e) ? -1 : fd[perfev_evsel_index(perfev_evsel_leader(e))];
		fd[i] = perfev_open(&a, 0, -1, leader, 0);
		cr_assert_geq(fd[i], 0, "'%s' does not open: %s", perfev_evsel_name(e), perfev_errmsg());
	}
	for (int i = 0; i < 3; i++) {
		target = i;
		getppid();
	}
	uint64_t v;
	cr_assert_eq(read(fd[4], &v, sizeof(v)), (ssize_t)sizeof(v));
	const char *no_bp = breakpoints_unusable();
	if (no_bp)
		cr_log_info("mem:&target:w opened, its count (%llu) not checked: %s", (unsigned long long)v, no_bp);
	else
		cr_assert_eq(v, 3, "mem:&target:w counted %llu stores, want 3", (unsigned long long)v);
	cr_assert_eq(read(fd[5], &v, sizeof(v)), (ssize_t)sizeof(v));
	cr_assert_eq(v, 3, "sys_enter_getppid counted %llu, want 3", (unsigned long long)v);
	for (int i = 0; i < 6; i++)
		close(fd[i]);
	perfev_evlist_free(l);
}

Test(live_parse, real_pmu_alias_and_format)
{
	struct perfev_pmus *s = perfev_pmus_load(NULL);
	const struct perfev_pmu *msr = s ? perfev_pmus_find(s, "msr") : NULL;
	if (!msr || !perfev_pmu_alias_find(msr, "tsc")) {
		perfev_pmus_free(s);
		cr_skip_test("no msr PMU with a tsc event here");
	}
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_eq(perfev_evlist_parse(l, "msr/tsc/,tsc,msr/event=0/", NULL), 0, "%s", perfev_errmsg());
	for (size_t i = 0; i < 3; i++) {
		struct perfev_attr a = *perfev_evsel_attr(perfev_evlist_at(l, i));
		cr_assert_eq(a.type, perfev_pmu_type(msr));
		cr_assert_eq(a.config, 0);
		/* msr refuses every exclusion bit, exclude_guest too: perf retries without it, so must we */
		a.exclude_guest = 0;
		int fd = perfev_open(&a, 0, -1, -1, 0);
		cr_assert_geq(fd, 0, "%s", perfev_errmsg());
		close(fd);
	}
	perfev_evlist_free(l);
	perfev_pmus_free(s);
}
