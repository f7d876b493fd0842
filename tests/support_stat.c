#define _GNU_SOURCE
#include "support.h"
#include "support_stat.h"

#include <grp.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct perfev_attr user_attr(uint32_t type, uint64_t config)
{
	struct perfev_attr a = {0};
	a.type = type;
	a.config = config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

struct perfev_attr sw_attr(uint64_t config)
{
	return user_attr(PERF_TYPE_SOFTWARE, config);
}

uint64_t tracepoint_id(const char *sys, const char *name)
{
	require_tracefs();
	char path[256], line[32];
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id", sys, name);
	FILE *f = fopen(path, "r");
	if (!f)
		cr_skip_test("tracepoint %s:%s is not in tracefs (%s)", sys, name, path);
	cr_assert(fgets(line, sizeof(line), f));
	fclose(f);
	return strtoull(line, NULL, 10);
}

int count_child(struct perfev_evlist *list, char *const argv[], uint64_t *vals, struct rusage *ru)
{
	struct perfev_child *ch = perfev_child_new(argv);
	cr_assert(ch, "fork: %s", perfev_errmsg());
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_CHILD, perfev_child_pid(ch)};
	struct perfev_counters *c = perfev_counters_open(list, &t);
	cr_assert(c, "open: %s", perfev_errmsg());
	cr_assert_eq(perfev_child_start(ch), 0, "start: %s", perfev_errmsg());
	int ws;
	struct rusage r;
	cr_assert_eq(perfev_child_wait(ch, &ws, &r), 0);
	cr_assert_eq(perfev_counters_read(c), 0, "read: %s", perfev_errmsg());
	for (size_t i = 0; vals && i < perfev_evlist_count(list); i++) {
		struct perfev_count v;
		cr_assert_eq(perfev_counters_sum(c, i, &v), 0);
		vals[i] = v.val;
	}
	if (ru)
		*ru = r;
	perfev_counters_close(c);
	perfev_child_free(ch);
	return perfev_exit_code(ws);
}

double stat_csv_count(const char *csv, const char *name, double *pct)
{
	char *copy = strdup(csv), *save;
	double v = -1;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[12] = {0}, *p = line;
		int n = 0;
		while (n < 12 && (f[n] = strsep(&p, ",")))
			n++;
		/* value, unit, event, run time, running %: after any interval/CPU/thread prefix */
		for (int i = 2; i < n; i++)
			if (!strcmp(f[i], name)) {
				v = f[i - 2][0] == '<' ? -2 : atof(f[i - 2]);
				if (pct)
					*pct = i + 2 < n ? atof(f[i + 2]) : -1;
			}
	}
	free(copy);
	return v;
}

uint64_t stores_address(void)
{
	struct run_result r = run_cmd("%s --address", WORKLOAD("stores"));
	cr_assert_eq(r.status, 0, "stores --address: %s", r.err);
	uint64_t a = strtoull(r.out, NULL, 16);
	run_result_free(&r);
	cr_assert_neq(a, 0);
	return a;
}

void become_nobody(void)
{
	require_root();
	cr_assert_eq(setgroups(0, NULL), 0);
	cr_assert_eq(setresgid(65534, 65534, 65534), 0);
	cr_assert_eq(setresuid(65534, 65534, 65534), 0);
}
