/* perfev stat against the installed `perf stat` on the same workloads:
 * the same counts for software events, tracepoints and breakpoints, and
 * the same CSV/JSON field layout. */
#define _GNU_SOURCE
#include "support.h"
#include "support_stat.h"

#include <ctype.h>
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
/* Each CSV line's fields that do not change run to run, as
 * "N:f[a]:f[b]...;" for the field numbers in keep (ended by -1). */
static void csv_shape(const char *csv, const int *keep, char *out, size_t len)
{
	out[0] = 0;
	char *copy = strdup(csv), *save;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[16] = {0}, *p = line;
		int n = 0;
		while (n < 16 && (f[n] = strsep(&p, ",")))
			n++;
		if (n < 6)
			continue;
		char row[256];
		int at = snprintf(row, sizeof(row), "%d", n);
		for (const int *k = keep; *k >= 0 && at < (int)sizeof(row); k++)
			at += snprintf(row + at, sizeof(row) - (size_t)at, ":%s", f[*k] ? f[*k] : "");
		strncat(out, row, len - strlen(out) - 2);
		strcat(out, ";");
	}
	free(copy);
}

static void shape(const char *csv, char *out, size_t len)
{
	static const int keep[] = {1, 3, 4, -1};
	csv_shape(csv, keep, out, len);
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

/* the line's name and CPU number (per core, die, socket, node), unit, event */
static void topo_csv_shape(const char *csv, char *out, size_t len)
{
	static const int keep[] = {0, 1, 3, 4, -1};
	csv_shape(csv, keep, out, len);
}

/* The text lines' names, CPU counts and where the event name starts. */
static void topo_text_shape(const char *text, char *out, size_t len)
{
	out[0] = 0;
	char *copy = strdup(text), *save;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *ev = strstr(line, " cpu-clock");
		ev = ev ? ev : strstr(line, " context-switches");
		char id[64] = "", nr[16] = "";
		if (!ev || sscanf(line, "%63s %15s", id, nr) != 2)
			continue;
		char row[160];
		snprintf(row, sizeof(row), "%s:%s:%d;", id, nr, (int)(ev - line));
		strncat(out, row, len - strlen(out) - 1);
	}
	free(copy);
}

/* --per-core, --per-die, --per-socket, --per-node: the same lines, in the
 * same order, named and laid out alike (CSV and text) */
Test(interop_stat, per_core_die_socket_node_lines_match, .timeout = 60)
{
	require_perf_tool();
	require_root();
	const char *modes[] = {"--per-core", "--per-die", "--per-socket", "--per-node"};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (int csv = 0; csv < 2; csv++) {
			char args[256];
			snprintf(args, sizeof(args), "%s -a %s -e cpu-clock,context-switches -- sleep 0.1", modes[m],
				 csv ? "-x," : "");
			struct run_result a = run_cmd("%s stat %s", PERFEV_BIN, args);
			struct run_result b = run_cmd("perf stat %s", args);
			cr_assert_eq(a.status, 0, "%s", a.err);
			char sa[4096], sb[4096];
			(csv ? topo_csv_shape : topo_text_shape)(a.err, sa, sizeof(sa));
			(csv ? topo_csv_shape : topo_text_shape)(b.err, sb, sizeof(sb));
			cr_assert(strlen(sa) > 0, "%s: no lines:\n%s", args, a.err);
			cr_assert_str_eq(sa, sb, "%s\nperfev:\n%s\nperf:\n%s", args, a.err, b.err);
			run_result_free(&a);
			run_result_free(&b);
		}
	}
}

/* Lines as they look whatever the numbers: digits one 9, a sign before a
 * number ±, a bar of #s one #, blanks one. */
static void text_shape(const char *in, char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = in; *p && o + 4 < len; p++) {
		char ch = *p;
		if (isdigit((unsigned char)ch)) {
			while (isdigit((unsigned char)p[1]) || (p[1] == '.' && isdigit((unsigned char)p[2])))
				p++;
			ch = '9';
		} else if ((ch == '+' || ch == '-') && isdigit((unsigned char)p[1])) {
			ch = '~';
		} else if (ch == '#' || ch == ' ') {
			while (p[1] == ch)
				p++;
		}
		out[o++] = ch;
	}
	out[o] = 0;
}

/* -n, --table with -r, --timeout: perf's lines (numbers aside) */
Test(interop_stat, null_run_table_and_timeout_look_like_perfs, .timeout = 60)
{
	require_perf_tool();
	const char *cases[] = {"-n -- true", "-n -r 3 -- true", "-n -e task-clock -- true",
			       "-r 3 --table -e task-clock -- true", "--timeout 100 -e task-clock -- sleep 3"};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result a = run_cmd("%s stat %s", PERFEV_BIN, cases[i]);
		struct run_result b = run_cmd("perf stat %s", cases[i]);
		cr_assert_eq(a.status, b.status, "%s: perfev %d, perf %d\n%s", cases[i], a.status, b.status, a.err);
		char sa[4096], sb[4096];
		text_shape(a.err, sa, sizeof(sa));
		text_shape(b.err, sb, sizeof(sb));
		cr_assert_str_eq(sa, sb, "%s\nperfev:\n%s\nperf:\n%s", cases[i], a.err, b.err);
		run_result_free(&a);
		run_result_free(&b);
	}
}
