/* perfev trace -s against strace -c: the same calls and errors per syscall. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct count {
	char name[32];
	unsigned long calls, errors;
};

/* strace -c's table: "% time seconds usecs/call calls [errors] syscall". */
static size_t parse_strace(const char *text, struct count *c, size_t max)
{
	size_t n = 0;
	char *copy = strdup(text), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save)) {
		char *tok[8];
		int k = 0;
		char *s2 = NULL;
		for (char *t = strtok_r(l, " \t", &s2); t && k < 8; t = strtok_r(NULL, " \t", &s2))
			tok[k++] = t;
		if ((k != 5 && k != 6) || !strcmp(tok[k - 1], "total") || !strchr(tok[0], '.'))
			continue;
		snprintf(c[n].name, sizeof(c[n].name), "%s", tok[k - 1]);
		c[n].calls = strtoul(tok[3], NULL, 10);
		c[n].errors = k == 6 ? strtoul(tok[4], NULL, 10) : 0;
		n++;
	}
	free(copy);
	return n;
}

/* perfev's rows: "   name calls errors total min avg max pct%". */
static size_t parse_perfev(const char *text, struct count *c, size_t max)
{
	size_t n = 0;
	char *copy = strdup(text), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save)) {
		char name[32], pct[32];
		unsigned long calls, errors;
		double t, mi, av, ma;
		if (sscanf(l, " %31s %lu %lu %lf %lf %lf %lf %31s", name, &calls, &errors, &t, &mi,
			   &av, &ma, pct) == 8 && strchr(pct, '%')) {
			snprintf(c[n].name, sizeof(c[n].name), "%s", name);
			c[n].calls = calls;
			c[n].errors = errors;
			n++;
		}
	}
	free(copy);
	return n;
}

static const struct count *find(const struct count *c, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

Test(live_trace, summary_counts_equal_strace)
{
	require_root();
	require_tracefs();
	struct run_result r = run_cmd("strace -V");
	bool have = r.status == 0;
	run_result_free(&r);
	if (!have)
		cr_skip_test("strace is not installed");
	const char *dir = test_tmpdir();
	r = run_cmd("strace -c -o %s/strace.txt %s syscalls 40 >/dev/null", dir, WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "strace: %s", r.err);
	run_result_free(&r);
	r = run_cmd("%s trace -s -o %s/perfev.txt -- %s syscalls 40 >/dev/null", PERFEV_BIN, dir,
		    WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "perfev trace: %s", r.err);
	run_result_free(&r);
	char path[512];
	snprintf(path, sizeof(path), "%s/strace.txt", dir);
	char *st = slurp(path, NULL);
	snprintf(path, sizeof(path), "%s/perfev.txt", dir);
	char *pv = slurp(path, NULL);
	struct count s[128], p[128];
	size_t ns = parse_strace(st, s, 128), np = parse_perfev(pv, p, 128);
	cr_assert_geq(ns, 10, "strace table not understood:\n%s", st);
	cr_assert_eq(np, ns, "perfev has %zu syscalls, strace %zu:\n%s\n%s", np, ns, pv, st);
	for (size_t i = 0; i < ns; i++) {
		const struct count *q = find(p, np, s[i].name);
		cr_assert(q, "perfev lacks %s:\n%s", s[i].name, pv);
		cr_assert_eq(q->calls, s[i].calls, "%s: perfev %lu calls, strace %lu", s[i].name,
			     q->calls, s[i].calls);
		cr_assert_eq(q->errors, s[i].errors, "%s: perfev %lu errors, strace %lu", s[i].name,
			     q->errors, s[i].errors);
	}
	/* the workload's own: 40 getppid, 20 failing close(-1) */
	cr_assert_eq(find(p, np, "getppid")->calls, 40);
	cr_assert_geq(find(p, np, "close")->errors, 20);
	free(st);
	free(pv);
	r = run_cmd("rm -rf %s", dir);
	run_result_free(&r);
}

Test(live_trace, follows_a_process_until_it_ends)
{
	require_root();
	require_tracefs();
	/* a shell that sleeps, then runs the workload's syscalls in itself;
	 * attached 0.2 s after it starts, as dash calls getppid() once at start-up */
	struct run_result r = run_cmd(
		"sh -c 'sleep 1; exec %s syscalls 25' & p=$!; sleep 0.2; %s trace -s -p $p -o /dev/stdout",
		WORKLOAD("calls_n"), PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "Summary of events"), "%s", r.out);
	cr_assert(strstr(r.out, " calls_n ("), "the thread is not named:\n%s", r.out);
	struct count p[128];
	size_t np = parse_perfev(r.out, p, 128);
	const struct count *g = find(p, np, "getppid");
	cr_assert(g, "no getppid in:\n%s", r.out);
	cr_assert_eq(g->calls, 25, "%s", r.out);
	run_result_free(&r);
}

Test(live_trace, usage_errors_say_what_to_do)
{
	const char *bad[][2] = {
		{"-s", "-p PID or -a"},
		{"-s -S -- true", "give one"},
		{"-s --duration 1 -- true", "drop one"},
		{"-p 1 -- true", "not with a command"},
		{"-e no_such_call -- true", "'no_such_call' is not a system call"},
		{"-e , -- true", "empty list"},
		{"--duration x -- true", "needs milliseconds"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r = run_cmd("%s trace %s", PERFEV_BIN, bad[i][0]);
		cr_assert_eq(r.status, 1, "%s: %d %s", bad[i][0], r.status, r.err);
		cr_assert(strstr(r.err, bad[i][1]), "%s: %s", bad[i][0], r.err);
		run_result_free(&r);
	}
}
