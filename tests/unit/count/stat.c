/* Pure logic of counting and perf stat output: CPU lists, scaling,
 * metrics, and the text/CSV/JSON layouts (fed with known numbers). */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Test(unit_stat, cpu_lists)
{
	struct perfev_cpus *c = perfev_cpus_parse("7,0-3,2\n");
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert_eq(perfev_cpus_count(c), 5);
	cr_assert_eq(perfev_cpus_at(c, 0), 0);
	cr_assert_eq(perfev_cpus_at(c, 4), 7);
	cr_assert_eq(perfev_cpus_at(c, 5), -1);
	cr_assert(perfev_cpus_has(c, 3) && !perfev_cpus_has(c, 5));
	char buf[64];
	perfev_cpus_format(c, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0-3,7");
	perfev_cpus_free(c);
	c = perfev_cpus_parse("");
	cr_assert(c && perfev_cpus_count(c) == 0);
	perfev_cpus_free(c);
	const char *bad[] = {"3-1", "a", "1,,2", "0-", "1-2-3", "99999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_null(perfev_cpus_parse(bad[i]), "'%s' accepted", bad[i]);
		cr_assert_eq(errno, EINVAL);
		cr_assert(strstr(perfev_errmsg(), bad[i]), "%s", perfev_errmsg());
	}
}

Test(unit_stat, scaling_reports_the_running_fraction)
{
	struct perfev_count v = {1000, 400, 100, 0};
	double f;
	cr_assert_float_eq(perfev_count_scaled(&v, &f), 4000.0, 1e-9);
	cr_assert_float_eq(f, 0.25, 1e-12);
	v = (struct perfev_count){1000, 400, 400, 0};
	cr_assert_float_eq(perfev_count_scaled(&v, &f), 1000.0, 1e-9);
	cr_assert_float_eq(f, 1.0, 1e-12);
	v = (struct perfev_count){0, 400, 0, 0};
	cr_assert_float_eq(perfev_count_scaled(&v, &f), 0.0, 1e-12);
	cr_assert_float_eq(f, 0.0, 1e-12);
}

static struct perfev_attr attr(uint32_t type, uint64_t config)
{
	struct perfev_attr a = {0};
	a.type = type;
	a.config = config;
	return a;
}

/* task-clock, page-faults, cycles, instructions, branches, branch-misses */
static struct perfev_evlist *six(void)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a[] = {attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
				  attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
				  attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
				  attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
				  attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
				  attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)};
	const char *n[] = {"task-clock", "page-faults", "cycles", "instructions", "branches",
			   "branch-misses"};
	for (int i = 0; i < 6; i++)
		perfev_evlist_add(l, &a[i], n[i]);
	return l;
}

/* one run of 2 ms wall time: 1 ms task-clock, 50 faults, 3M cycles,
 * 6M instructions, 1M branches (multiplexed: half the time), 25k misses */
static struct perfev_stat *one_run(struct perfev_evlist *l, const int *status)
{
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	struct perfev_count c[6] = {{1000000, 1000000, 1000000, 0}, {50, 1000000, 1000000, 0},
				    {3000000, 1000000, 1000000, 0}, {6000000, 1000000, 1000000, 0},
				    {500000, 1000000, 500000, 0}, {25000, 1000000, 1000000, 0}};
	cr_assert_eq(perfev_stat_add_counts(s, c, NULL, false, 1, status, 2000000), 0);
	return s;
}

Test(unit_stat, metrics)
{
	struct perfev_evlist *l = six();
	struct perfev_stat *s = one_run(l, NULL);
	double v;
	const char *u;
	cr_assert(perfev_stat_metric(s, 0, 0, &v, &u));
	cr_assert_str_eq(u, "CPUs utilized");
	cr_assert_float_eq(v, 0.5, 1e-9);
	cr_assert(perfev_stat_metric(s, 1, 0, &v, &u));
	cr_assert_str_eq(u, "K/sec");
	cr_assert_float_eq(v, 50.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 2, 0, &v, &u));
	cr_assert_str_eq(u, "GHz");
	cr_assert_float_eq(v, 3.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 3, 0, &v, &u));
	cr_assert_str_eq(u, "insn per cycle");
	cr_assert_float_eq(v, 2.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 4, 0, &v, &u)); /* scaled: 1M in 1 ms */
	cr_assert_str_eq(u, "G/sec");
	cr_assert_float_eq(v, 1.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 5, 0, &v, &u));
	cr_assert_str_eq(u, "of all branches");
	cr_assert_float_eq(v, 2.5, 1e-9);
	struct perfev_stat_value sv;
	perfev_stat_value(s, 4, 0, &sv);
	cr_assert_float_eq(sv.pcnt_running, 50.0, 1e-9);
	cr_assert_float_eq(sv.raw, 1000000.0, 1e-6);
	perfev_stat_value(s, 0, 0, &sv);
	cr_assert_str_eq(sv.unit, "msec");
	cr_assert_float_eq(sv.val, 1.0, 1e-9);
	perfev_stat_free(s);
	/* without cycles counted there is no IPC */
	int status[6] = {0, 0, -ENOENT, 0, 0, 0};
	s = one_run(l, status);
	cr_assert(perfev_stat_metric(s, 3, 0, &v, &u));
	cr_assert_str_eq(u, "G/sec", "instructions without cycles fall back to a rate");
	cr_assert_not(perfev_stat_metric(s, 2, 0, &v, &u));
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

static char *print_with(struct perfev_stat *s, const struct perfev_stat_output *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(perfev_stat_print(s, f, o), 0);
	fclose(f);
	return buf;
}

static char *print(struct perfev_stat *s, enum perfev_stat_format fmt, const char *sep)
{
	struct perfev_stat_output o = {sizeof(o), fmt, sep, "'true'"};
	return print_with(s, &o);
}

Test(unit_stat, text_layout_is_perfs)
{
	struct perfev_evlist *l = six();
	int status[6] = {0, 0, -ENOENT, 0, 0, 0};
	struct perfev_stat *s = one_run(l, status);
	char *t = print(s, PERFEV_STAT_TEXT, NULL);
	cr_assert(strstr(t, "\n Performance counter stats for 'true':\n\n"), "%s", t);
	cr_assert(strstr(t, "              1.00 msec task-clock                       #    0.500 CPUs utilized          \n"), "%s", t);
	cr_assert(strstr(t, "                50      page-faults                      #   50.000 K/sec                  \n"), "%s", t);
	cr_assert(strstr(t, "   <not supported>      cycles                   "), "%s", t);
	cr_assert(strstr(t, "           1000000      branches                         #    1.000 G/sec                    (50.00%)\n"), "%s", t);
	cr_assert(strstr(t, "#    2.50% of all branches"), "%s", t);
	cr_assert(strstr(t, "\n       0.002000000 seconds time elapsed\n"), "%s", t);
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

Test(unit_stat, csv_fields_in_perfs_order)
{
	struct perfev_evlist *l = six();
	int status[6] = {0, 0, -ENOENT, 0, 0, 0};
	struct perfev_stat *s = one_run(l, status);
	char *t = print(s, PERFEV_STAT_CSV, ";");
	cr_assert(strstr(t, "1.00;msec;task-clock;1000000;100.00;0.500;CPUs utilized\n"), "%s", t);
	cr_assert(strstr(t, "50;;page-faults;1000000;100.00;50.000;K/sec\n"), "%s", t);
	cr_assert(strstr(t, "<not supported>;;cycles;0;100.00;;\n"), "%s", t);
	cr_assert(strstr(t, "1000000;;branches;500000;50.00;1.000;G/sec\n"), "%s", t);
	cr_assert(strstr(t, "25000;;branch-misses;1000000;100.00;2.50;of all branches\n"), "%s", t);
	cr_assert_null(strstr(t, "Performance"), "CSV has no header");
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

Test(unit_stat, json_one_object_per_line)
{
	struct perfev_evlist *l = six();
	int status[6] = {0, 0, -ENOENT, 0, 0, 0};
	struct perfev_stat *s = one_run(l, status);
	char *t = print(s, PERFEV_STAT_JSON, NULL);
	cr_assert(strstr(t, "{\"counter-value\" : \"1.000000\", \"unit\" : \"msec\", \"event\" : "
			    "\"task-clock\", \"event-runtime\" : 1000000, \"pcnt-running\" : 100.00, "
			    "\"metric-value\" : 0.500000, \"metric-unit\" : \"CPUs utilized\"}\n"), "%s", t);
	cr_assert(strstr(t, "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : "
			    "\"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, "
			    "\"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"), "%s", t);
	int lines = 0;
	for (char *p = t; *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 6);
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

Test(unit_stat, repeats_give_mean_and_noise)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	perfev_evlist_add(l, &a, "page-faults");
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	uint64_t vals[] = {90, 100, 110};
	for (int i = 0; i < 3; i++) {
		struct perfev_count c = {vals[i], 10, 10, 0};
		perfev_stat_add_counts(s, &c, NULL, false, 1, NULL, 1000000 * (i + 1));
	}
	struct perfev_stat_value v;
	perfev_stat_value(s, 0, 0, &v);
	cr_assert_eq(v.runs, 3);
	cr_assert_float_eq(v.val, 100.0, 1e-9);
	/* sample stddev 10, of the mean 10/sqrt(3) */
	cr_assert_float_eq(v.stddev, 10.0 / sqrt(3.0), 1e-9);
	char *t = print(s, PERFEV_STAT_TEXT, NULL);
	cr_assert(strstr(t, "for 'true' (3 runs):"), "%s", t);
	cr_assert(strstr(t, "  ( +-  5.77% )\n"), "%s", t);
	cr_assert(strstr(t, "          0.002000 +- 0.000577 seconds time elapsed  ( +- 28.87% )"), "%s", t);
	free(t);
	t = print(s, PERFEV_STAT_CSV, ",");
	cr_assert_str_eq(t, "100,,page-faults,5.77%,10,100.00,,\n");
	free(t);
	t = print(s, PERFEV_STAT_JSON, NULL);
	cr_assert(strstr(t, "\"event\" : \"page-faults\", \"variance\" : 5.77, "), "%s", t);
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

Test(unit_stat, per_cpu_lines)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	perfev_evlist_add(l, &a, "cs");
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_PLACE);
	struct perfev_count c[2] = {{17, 5, 5, 0}, {22, 5, 5, 0}};
	int cpus[2] = {0, 3};
	perfev_stat_add_counts(s, c, cpus, true, 2, NULL, 100);
	cr_assert_eq(perfev_stat_nr_lines(s), 2);
	char *t = print(s, PERFEV_STAT_TEXT, NULL);
	cr_assert(strstr(t, "CPU0" "                       " "17      cs     "), "%s", t);
	cr_assert(strstr(t, "CPU3" "                       " "22      cs     "), "%s", t);
	free(t);
	t = print(s, PERFEV_STAT_CSV, ",");
	cr_assert_str_eq(t, "CPU0,17,,cs,5,100.00,,\nCPU3,22,,cs,5,100.00,,\n");
	free(t);
	t = print(s, PERFEV_STAT_JSON, NULL);
	cr_assert(strstr(t, "{\"cpu\" : \"3\", \"counter-value\" : \"22.000000\""), "%s", t);
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

Test(unit_stat, intervals_print_the_time)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	perfev_evlist_add(l, &a, "page-faults");
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	struct perfev_count c = {77, 5, 5, 0};
	perfev_stat_add_counts(s, &c, NULL, false, 1, NULL, 100000000);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct perfev_stat_output o = {sizeof(o), PERFEV_STAT_CSV, ",", NULL, true, 0.100201598, false};
	perfev_stat_print(s, f, &o);
	fclose(f);
	cr_assert_str_eq(buf, "     0.100201598,77,,page-faults,5,100.00,,\n");
	free(buf);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

/* Every errno of perf_event_open(2)'s ERRORS section gets a cause and a
 * fix, not strerror() alone. */
Test(unit_stat, every_manual_errno_is_explained)
{
	static const int errs[] = {E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE,
				   ENODEV, ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM, ESRCH};
	struct perfev_attr a = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	a.size = PERF_ATTR_SIZE_VER7;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		char buf[2048];
		int n = perfev_explain_open(buf, sizeof(buf), &a, 1234, -1, errs[i]);
		cr_assert_gt(n, 60, "errno %d: '%s'", errs[i], buf);
		cr_assert_null(strstr(buf, strerror(errs[i])), "errno %d is only strerror: %s", errs[i], buf);
	}
	char buf[2048];
	perfev_explain_open(buf, sizeof(buf), &a, -1, 0, EACCES);
	if (geteuid() != 0)
		cr_assert(strstr(buf, "system-wide") && strstr(buf, "CAP_PERFMON"), "%s", buf);
}

Test(unit_stat, cache_and_stall_ratios)
{
	struct perfev_evlist *l = perfev_evlist_new();
	uint64_t l1d_load = PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8);
	struct perfev_attr a[] = {
		attr(PERF_TYPE_HW_CACHE, l1d_load | ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16)),
		attr(PERF_TYPE_HW_CACHE, l1d_load | ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16)),
		attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
		attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
		attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
		attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES),
		attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES)};
	const char *n[] = {"L1-dcache-loads", "L1-dcache-load-misses", "cycles",
			   "stalled-cycles-frontend", "stalled-cycles-backend", "cache-references",
			   "cache-misses"};
	for (int i = 0; i < 7; i++)
		perfev_evlist_add(l, &a[i], n[i]);
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	struct perfev_count c[7] = {{1000, 1, 1, 0}, {50, 1, 1, 0}, {4000, 1, 1, 0}, {1000, 1, 1, 0},
				    {2000, 1, 1, 0}, {800, 1, 1, 0}, {200, 1, 1, 0}};
	perfev_stat_add_counts(s, c, NULL, false, 1, NULL, 1000);
	double v;
	const char *u;
	cr_assert(perfev_stat_metric(s, 1, 0, &v, &u));
	cr_assert_str_eq(u, "of all L1-dcache accesses");
	cr_assert_float_eq(v, 5.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 3, 0, &v, &u));
	cr_assert_str_eq(u, "frontend cycles idle");
	cr_assert_float_eq(v, 25.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 4, 0, &v, &u));
	cr_assert_str_eq(u, "backend cycles idle");
	cr_assert_float_eq(v, 50.0, 1e-9);
	cr_assert(perfev_stat_metric(s, 6, 0, &v, &u));
	cr_assert_str_eq(u, "of all cache refs");
	cr_assert_float_eq(v, 25.0, 1e-9);
	/* no task-clock: no rate for the others */
	cr_assert_not(perfev_stat_metric(s, 0, 0, &v, &u));
	char *t = print(s, PERFEV_STAT_TEXT, NULL);
	cr_assert(strstr(t, "L1-dcache-load-misses            #    5.00% of all L1-dcache accesses"), "%s", t);
	cr_assert(strstr(t, "cache-misses                     #   25.000 % of all cache refs"), "%s", t);
	free(t);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

static void assert_names(const struct perfev_evlist *l, size_t from, const char *const *names, size_t n,
			 const char *suffix)
{
	cr_assert_eq(perfev_evlist_count(l), from + n);
	for (size_t i = 0; i < n; i++) {
		char want[64];
		snprintf(want, sizeof(want), "%s%s", names[i], suffix);
		cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, from + i)), want);
	}
}

Test(unit_stat, default_events)
{
	static const char *const names[] = {"task-clock", "context-switches", "cpu-migrations", "page-faults",
					    "cycles", "instructions", "branches", "branch-misses"};
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	bool user_only = geteuid() != 0 && s.paranoid >= 2;
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_eq(perfev_stat_default_events(l), 0, "%s", perfev_errmsg());
	assert_names(l, 0, names, 8, user_only ? ":u" : "");
	const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(l, 0));
	cr_assert_eq(a->type, PERF_TYPE_SOFTWARE);
	cr_assert_eq(a->config, PERF_COUNT_SW_TASK_CLOCK);
	cr_assert_eq(a->exclude_kernel, user_only);
	a = perfev_evsel_attr_const(perfev_evlist_at(l, 7));
	cr_assert_eq(a->type, PERF_TYPE_HARDWARE);
	cr_assert_eq(a->config, PERF_COUNT_HW_BRANCH_MISSES);
	cr_assert_eq(perfev_stat_default_events(NULL), -EINVAL);
	perfev_evlist_free(l);
}

Test(unit_stat, detailed_events)
{
	static const char *const d[] = {
		"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses",
		"L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
		"iTLB-load-misses", "L1-dcache-prefetches", "L1-dcache-prefetch-misses",
	};
	static const size_t per_level[] = {0, 4, 10, 12};
	for (int level = 0; level <= 3; level++) {
		struct perfev_evlist *l = perfev_evlist_new();
		perfev_evlist_parse(l, "task-clock", NULL);
		cr_assert_eq(perfev_stat_detailed_events(l, level), 0, "-d level %d: %s", level, perfev_errmsg());
		assert_names(l, 1, d, per_level[level], "");
		perfev_evlist_free(l);
	}
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_eq(perfev_stat_detailed_events(l, 4), -EINVAL);
	cr_assert_eq(perfev_stat_detailed_events(l, -1), -EINVAL);
	cr_assert_eq(perfev_evlist_count(l), 0);
	perfev_evlist_free(l);
}

/* An uncore event is one evsel per box (Skylake-SP's six uncore_imc_N):
 * perf stat prints one line of their sum, and with --no-merge one line per
 * box named "NAME [PMU]" (both seen from perf 6.1 over a fake sysfs). */
Test(unit_stat, uncore_boxes_merge_into_one_line)
{
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	cr_assert_eq(perfev_evlist_parse(l, "unc_m_cas_count.rd,task-clock", &err), 0, "%s", err.msg);
	size_t n = perfev_evlist_count(l);
	cr_assert_eq(n, 7, "6 boxes and task-clock: %zu events", n);
	struct perfev_count c[7] = {{0}};
	for (size_t i = 0; i < 6; i++)
		c[i] = (struct perfev_count){.val = 1000 * (i + 1), .ena = 1000000, .run = 1000000};
	c[6] = (struct perfev_count){.val = 2000000, .ena = 2000000, .run = 2000000};
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	int label = -1;
	cr_assert_eq(perfev_stat_add_counts(s, c, &label, false, 1, NULL, 1000000), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct perfev_stat_output o = {.sz = sizeof(o), .format = PERFEV_STAT_CSV};
	cr_assert_eq(perfev_stat_print(s, f, &o), 0, "%s", perfev_errmsg());
	fclose(f);
	/* 1000 + 2000 + ... + 6000 = 21000, over 6 ms of running time; its rate
	 * per task-clock second: 21000 / 2 ms = 10.5 M/sec */
	cr_assert(strstr(text, "21000,,unc_m_cas_count.rd,6000000,100.00,10.500,M/sec\n"), "%s", text);
	cr_assert_null(strstr(text, "uncore_imc"), "%s", text);
	free(text);
	f = open_memstream(&text, &len);
	o.no_merge = true;
	cr_assert_eq(perfev_stat_print(s, f, &o), 0, "%s", perfev_errmsg());
	fclose(f);
	for (int i = 0; i < 6; i++) {
		char want[96];
		double rate = 500e3 * (i + 1); /* per second of the 2 ms task-clock */
		snprintf(want, sizeof(want), "%d,,unc_m_cas_count.rd [uncore_imc_%d],1000000,100.00,%.3f,%s\n",
			 1000 * (i + 1), i, rate >= 1e6 ? rate / 1e6 : rate / 1e3, rate >= 1e6 ? "M/sec" : "K/sec");
		cr_assert(strstr(text, want), "no '%s' in:\n%s", want, text);
	}
	cr_assert(strstr(text, ",task-clock,"), "%s", text);
	free(text);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

/* perf's --table: each run, its distance from the mean and one '#' per 5%
 * of it (print_table), then the final result; runs of 10, 20 and 30 ms:
 * mean 0.02, deviation of the mean 0.00577 (5 decimals, as perf). */
Test(unit_stat, table_of_each_run_as_perfs)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	for (int i = 1; i <= 3; i++)
		cr_assert_eq(perfev_stat_add_counts(s, NULL, NULL, false, 0, NULL, 10000000ull * i), 0);
	struct perfev_stat_output o = {sizeof(o), PERFEV_STAT_TEXT, NULL, "'true'"};
	o.table = o.null_run = true;
	char *buf = print_with(s, &o);
	cr_assert_str_eq(buf, "\n Performance counter stats for 'true' (3 runs):\n\n"
			      "           # Table of individual measurements:\n"
			      "           0.01000 (-0.01000) #####################\n"
			      "           0.02000 (+0.00000) #\n"
			      "           0.03000 (+0.01000) #######\n"
			      "\n           # Final result:\n"
			      "           0.02000 +- 0.00577 seconds time elapsed  ( +- 28.87% )\n\n");
	free(buf);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

/* perf's -n: no events; the elapsed time follows the header directly */
Test(unit_stat, null_run_has_no_blank_before_the_time)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	cr_assert_eq(perfev_stat_add_counts(s, NULL, NULL, false, 0, NULL, 7771368), 0);
	struct perfev_stat_output o = {sizeof(o), PERFEV_STAT_TEXT, NULL, "'true'"};
	o.null_run = true;
	char *buf = print_with(s, &o);
	cr_assert_str_eq(buf, "\n Performance counter stats for 'true':\n\n       0.007771368 seconds time elapsed\n\n");
	free(buf);
	perfev_stat_free(s);
	perfev_evlist_free(l);
}

static int sysfs_id(int cpu, const char *file)
{
	char path[128], line[32];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	FILE *f = fopen(path, "r");
	int v = -1;
	if (f && fgets(line, sizeof(line), f))
		v = atoi(line);
	if (f)
		fclose(f);
	return v;
}

/* --per-core, --per-socket...: CPUs summed by where sysfs puts them, each
 * line named and laid out as perf's aggr_printout; CPU 0 counted twice is
 * one core, die and socket of 2 CPUs on any machine. */
Test(unit_stat, topology_lines_sum_cpus_as_perf_names_them)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	perfev_evlist_add(l, &a, "cs");
	int socket = sysfs_id(0, "physical_package_id"), die = sysfs_id(0, "die_id"), core = sysfs_id(0, "core_id");
	struct perfev_count c[2] = {{17, 5, 5, 0}, {22, 5, 5, 0}};
	int cpus[2] = {0, 0};
	char want[128];
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_CORE);
	cr_assert_eq(perfev_stat_add_counts(s, c, cpus, true, 2, NULL, 100), 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_stat_nr_lines(s), 1);
	char *t = print(s, PERFEV_STAT_TEXT, NULL);
	char id[64];
	snprintf(id, sizeof(id), "S%d-D%d-C%d", socket, die, core);
	snprintf(want, sizeof(want), "%-*s    2                 39      cs ", (int)strlen(id) - 1 + 8, id);
	cr_assert(strstr(t, want), "no '%s' in:\n%s", want, t);
	free(t);
	t = print(s, PERFEV_STAT_CSV, ",");
	snprintf(want, sizeof(want), "%s,2,39,,cs,10,100.00,,\n", id);
	cr_assert_str_eq(t, want);
	free(t);
	t = print(s, PERFEV_STAT_JSON, NULL);
	snprintf(want, sizeof(want), "{\"core\" : \"%s\", \"aggregate-number\" : 2, \"counter-value\" : \"39.000000\"", id);
	cr_assert(strstr(t, want), "no '%s' in:\n%s", want, t);
	free(t);
	perfev_stat_free(s);
	s = perfev_stat_new(l, PERFEV_AGGR_SOCKET);
	cr_assert_eq(perfev_stat_add_counts(s, c, cpus, true, 2, NULL, 100), 0, "%s", perfev_errmsg());
	t = print(s, PERFEV_STAT_TEXT, NULL);
	snprintf(id, sizeof(id), "S%d", socket);
	snprintf(want, sizeof(want), "%-6s    2                 39      cs ", id);
	cr_assert(strstr(t, want), "no '%s' in:\n%s", want, t);
	free(t);
	/* threads are not CPUs */
	cr_assert_lt(perfev_stat_add_counts(s, c, cpus, false, 2, NULL, 100), 0);
	cr_assert(strstr(perfev_errmsg(), "-a or -C"), "%s", perfev_errmsg());
	perfev_stat_free(s);
	cr_assert_null(perfev_stat_new(l, (enum perfev_stat_aggr)99));
	perfev_evlist_free(l);
}
