/* perfev trace -s against perf trace -s on the same command: the same
 * syscall rows (calls and errors) for each command; no "-1" row for the
 * sys_exit of rt_sigreturn, which perf does not show. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "comm syscall calls errors" per row of a trace -s summary of the command
 * only, sorted (sleep's own lookups differ under perf's environment: one
 * more failing newfstatat). */
static char *summary_rows(const char *text, const char *only)
{
	char *out = NULL, comm[64] = "?";
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	char *copy = strdup(text);
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long calls, errors;
		if (sscanf(l, " %63s (%*d), %*u events", name) == 1 && strstr(l, " events, "))
			snprintf(comm, sizeof(comm), "%s", name);
		else if (sscanf(l, " %63s %lu %lu %*f", name, &calls, &errors) == 3 && !strcmp(comm, only))
			fprintf(f, "%s %s %lu %lu\n", comm, name, calls, errors);
	}
	fclose(f);
	char *sorted = sorted_lines(out, NULL, NULL);
	free(copy), free(out);
	return sorted;
}

Test(interop_trace, summary_rows_like_perf_without_minus_one, .timeout = 120)
{
	require_root();
	require_perf_tool();
	require_tracefs();
	/* the shell's SIGCHLD handler returns through rt_sigreturn */
	const char *cmd = "sh -c 'sleep 0.1 & wait'";
	struct run_result p = run_cmd("perf trace -s -- %s", cmd);
	struct run_result v = run_cmd(PERFEV_BIN " trace -s -- %s", cmd);
	cr_assert_eq(p.status, 0, "perf trace: %s", p.err);
	cr_assert_eq(v.status, 0, "perfev trace: %s", v.err);
	char *want = summary_rows(p.err, "sh"), *got = summary_rows(v.err, "sh");
	cr_assert(strstr(want, "sh rt_sigsuspend"), "perf's summary not understood:\n%s", p.err);
	cr_expect(!strstr(got, " -1 "), "a -1 row:\n%s", v.err);
	cr_expect_str_eq(got, want, "perfev:\n%s\nperf:\n%s", v.err, p.err);
	free(want), free(got);
	run_result_free(&p), run_result_free(&v);
}
