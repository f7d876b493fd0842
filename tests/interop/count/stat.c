/* perfev stat against the installed `perf stat` on the same workloads:
 * the same counts for software events, tracepoints and breakpoints, and
 * the same CSV/JSON field layout. */
#define _GNU_SOURCE
#include "support.h"
#include "support_stat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Field `field` (0: value) of the CSV line whose event field is `event`
 * (perf's CSV: value,unit,event,...); NULL if absent. Caller frees. */
static char *csv_field(const char *csv, const char *event, int field)
{
	char *copy = strdup(csv), *save, *res = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line && !res; line = strtok_r(NULL, "\n", &save)) {
		char *f[16] = {0}, *p = line;
		int n = 0;
		while (n < 16 && (f[n] = strsep(&p, ",")))
			n++;
		if (n > 2 && !strcmp(f[2], event) && field < n)
			res = strdup(f[field]);
	}
	free(copy);
	return res;
}

static double count_with(const char *tool, const char *event, const char *cmd)
{
	struct run_result r = run_cmd("%s stat -x, -e %s -- %s", tool, event, cmd);
	cr_assert_eq(r.status, 0, "%s: %s", tool, r.err);
	char *v = csv_field(r.err, event, 0);
	cr_assert(v, "%s printed no %s:\n%s", tool, event, r.err);
	double d = atof(v);
	free(v);
	run_result_free(&r);
	return d;
}

Test(interop_stat, page_faults_agree)
{
	require_perf_tool();
	double a = count_with(PERFEV_BIN, "page-faults", WORKLOAD("pages") " 4000");
	double b = count_with("perf", "page-faults", WORKLOAD("pages") " 4000");
	cr_assert(fabs(a - b) <= 10, "perfev %.0f, perf %.0f", a, b);
	cr_assert_geq(a, 4000);
}

Test(interop_stat, tracepoint_counts_agree)
{
	require_perf_tool();
	require_root();
	require_tracefs();
	double a = count_with(PERFEV_BIN, "syscalls:sys_enter_write", WORKLOAD("writes") " 2500");
	double b = count_with("perf", "syscalls:sys_enter_write", WORKLOAD("writes") " 2500");
	cr_assert_eq(a, 2500);
	cr_assert_eq(b, 2500);
}

Test(interop_stat, breakpoint_counts_agree)
{
	require_perf_tool();
	require_breakpoint();
	char ev[64];
	snprintf(ev, sizeof(ev), "mem:0x%llx:w", (unsigned long long)stores_address());
	double a = count_with(PERFEV_BIN, ev, WORKLOAD("stores") " 3333");
	double b = count_with("perf", ev, WORKLOAD("stores") " 3333");
	cr_assert_eq(a, 3333);
	cr_assert_eq(b, 3333);
}

Test(interop_stat, task_clock_agrees)
{
	require_perf_tool();
	double a = count_with(PERFEV_BIN, "task-clock", WORKLOAD("spin") " 300");
	double b = count_with("perf", "task-clock", WORKLOAD("spin") " 300");
	cr_assert(fabs(a - b) / b < 0.05, "task-clock: perfev %.2f ms, perf %.2f ms", a, b);
}

Test(interop_stat, software_set_agrees)
{
	require_perf_tool();
	const char *ev = "context-switches,cpu-migrations,minor-faults";
	struct run_result a = run_cmd("%s stat -x, -e %s -- %s 2000", PERFEV_BIN, ev, WORKLOAD("pages"));
	struct run_result b = run_cmd("perf stat -x, -e %s -- %s 2000", ev, WORKLOAD("pages"));
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_assert_eq(b.status, 0, "%s", b.err);
	char *fa = csv_field(a.err, "minor-faults", 0), *fb = csv_field(b.err, "minor-faults", 0);
	cr_assert(fa && fb, "perfev:\n%s\nperf:\n%s", a.err, b.err);
	cr_assert(fabs(atof(fa) - atof(fb)) <= 10, "minor-faults: perfev %s, perf %s", fa, fb);
	free(fa);
	free(fb);
	run_result_free(&a);
	run_result_free(&b);
}

/* The same fields in the same order: unit, event, and the shape of the rest. */
Test(interop_stat, csv_layout_matches)
{
	require_perf_tool();
	const char *ev = "task-clock,page-faults,cycles";
	struct run_result a = run_cmd("%s stat -x, -e %s -- true", PERFEV_BIN, ev);
	struct run_result b = run_cmd("perf stat -x, -e %s -- true", ev);
	cr_assert_eq(a.status, 0, "%s", a.err);
	const char *names[] = {"task-clock", "page-faults", "cycles"};
	for (int i = 0; i < 3; i++) {
		for (int f = 1; f < 8; f++) {
			if (f == 3 || f == 5) /* run time and metric value differ run to run */
				continue;
			char *x = csv_field(a.err, names[i], f), *y = csv_field(b.err, names[i], f);
			cr_assert((x == NULL) == (y == NULL), "%s field %d: perfev '%s', perf '%s'\n%s\n%s",
				  names[i], f, x, y, a.err, b.err);
			if (x)
				cr_assert_str_eq(x, y, "%s field %d\nperfev:\n%s\nperf:\n%s", names[i], f,
						 a.err, b.err);
			free(x);
			free(y);
		}
		char *x = csv_field(a.err, names[i], 0), *y = csv_field(b.err, names[i], 0);
		cr_assert(x && y);
		cr_assert_eq(x[0] == '<', y[0] == '<', "%s: perfev '%s', perf '%s'", names[i], x, y);
		free(x);
		free(y);
	}
	run_result_free(&a);
	run_result_free(&b);
}

/* The JSON keys, in order, for a counted and an unsupported event. */
static char *keys(const char *json, const char *event)
{
	char needle[128];
	snprintf(needle, sizeof(needle), "\"event\" : \"%s\"", event);
	const char *line = strstr(json, needle);
	cr_assert(line, "no %s in %s", event, json);
	while (line > json && line[-1] != '\n')
		line--;
	char *out = calloc(1, 1024);
	for (const char *p = line; *p && *p != '\n'; p++) {
		if (*p != '"')
			continue;
		const char *e = strchr(p + 1, '"');
		if (e && !strncmp(e + 1, " : ", 3)) {
			strncat(out, p + 1, (size_t)(e - p - 1));
			strcat(out, ",");
		}
		p = e ? e : p;
	}
	return out;
}

Test(interop_stat, json_keys_match)
{
	require_perf_tool();
	struct run_result a = run_cmd("%s stat -j -e task-clock,cycles -- true", PERFEV_BIN);
	struct run_result b = run_cmd("perf stat -j -e task-clock,cycles -- true");
	cr_assert_eq(a.status, 0, "%s", a.err);
	const char *names[] = {"task-clock", "cycles"};
	for (int i = 0; i < 2; i++) {
		char *x = keys(a.err, names[i]), *y = keys(b.err, names[i]);
		cr_assert_str_eq(x, y, "%s\nperfev: %s\nperf: %s", names[i], a.err, b.err);
		free(x);
		free(y);
	}
	run_result_free(&a);
	run_result_free(&b);
}

/* -I and -A prefix each CSV line with the time and the CPU, as perf does:
 * the same number of fields, the same labels, units and events. */
static void shape(const char *csv, char *out, size_t len)
{
	out[0] = 0;
	char *copy = strdup(csv), *save;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[16] = {0}, *p = line;
		int n = 0;
		while (n < 16 && (f[n] = strsep(&p, ",")))
			n++;
		if (n < 5)
			continue;
		char row[128];
		snprintf(row, sizeof(row), "%d:%s:%s:%s;", n, f[1], f[3], f[4]);
		strncat(out, row, len - strlen(out) - 1);
	}
	free(copy);
}

Test(interop_stat, interval_per_cpu_csv_layout_matches)
{
	require_perf_tool();
	require_root();
	const char *args = "-I 100 -a -A -x, -e cpu-clock -- sleep 0.25";
	struct run_result a = run_cmd("%s stat %s", PERFEV_BIN, args);
	struct run_result b = run_cmd("perf stat %s", args);
	cr_assert_eq(a.status, 0, "%s", a.err);
	char sa[4096], sb[4096];
	shape(a.err, sa, sizeof(sa));
	shape(b.err, sb, sizeof(sb));
	/* the first two intervals: the last partial one may be missing in either */
	char *cut_a = strstr(sa, ";"), *cut_b = strstr(sb, ";");
	cr_assert(cut_a && cut_b, "perfev:\n%s\nperf:\n%s", a.err, b.err);
	size_t ncpu = 0;
	for (char *p = sa; (p = strstr(p, "cpu-clock;")); p++)
		ncpu++;
	cr_assert_geq(ncpu, 2);
	sa[strlen(sa) < strlen(sb) ? strlen(sa) : strlen(sb)] = 0;
	sb[strlen(sa)] = 0;
	cr_assert_str_eq(sa, sb, "perfev:\n%s\nperf:\n%s", a.err, b.err);
	run_result_free(&a);
	run_result_free(&b);
}
