/* The syscall summary's arithmetic and text, against perf trace -s's. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(unit_trace, names)
{
#if defined(__x86_64__)
	cr_assert_str_eq(perfev_syscall_name(0), "read");
	cr_assert_str_eq(perfev_syscall_name(231), "exit_group");
	cr_assert_eq(perfev_syscall_nr("openat"), 257);
#endif
	cr_assert_null(perfev_syscall_name(-1));
	cr_assert_null(perfev_syscall_name(100000));
	cr_assert_lt(perfev_syscall_nr("no_such_call"), 0);
}

Test(unit_trace, stats_as_perf_computes_them)
{
	struct perfev_sctrace *t = perfev_sctrace_new();
	/* thread 7: read x3 taking 1, 2, 3 ms; one fails. write x1 10 ms. */
	uint64_t ms = 1000000, now = 1000 * ms;
	for (int i = 1; i <= 3; i++) {
		perfev_sctrace_enter(t, 7, 7, now, 0);
		now += (uint64_t)i * ms;
		perfev_sctrace_exit(t, 7, 7, now, 0, i == 2 ? -9 : 10);
		now += ms;
	}
	perfev_sctrace_enter(t, 7, 7, now, 1);
	perfev_sctrace_exit(t, 7, 7, now + 10 * ms, 1, 1);
	/* exit_group never returns: not a call */
	perfev_sctrace_enter(t, 7, 7, now + 20 * ms, 231);
	/* thread 5: an exit whose enter came before tracing: 0 ms */
	perfev_sctrace_exit(t, 5, 5, now, 59, 0);
	perfev_sctrace_comm(t, 7, 7, "work");
	struct perfev_syscall_stat *rows;
	int n = perfev_sctrace_stats(t, &rows);
	cr_assert_eq(n, 3);
	cr_assert_eq(rows[0].tid, 5); /* threads by tid */
	cr_assert_eq(rows[0].calls, 1);
	cr_assert_float_eq(rows[0].total_ms, 0.0, 1e-12);
	cr_assert_eq(rows[1].tid, 7);
	cr_assert_eq(rows[1].nr, 1); /* write: 10 ms total, before read's 6 */
	cr_assert_float_eq(rows[1].total_ms, 10.0, 1e-9);
	const struct perfev_syscall_stat *rd = &rows[2];
	cr_assert_str_eq(rd->comm, "work");
	cr_assert_eq(rd->calls, 3);
	cr_assert_eq(rd->errors, 1);
	cr_assert_float_eq(rd->total_ms, 6.0, 1e-9);
	cr_assert_float_eq(rd->min_ms, 1.0, 1e-9);
	cr_assert_float_eq(rd->max_ms, 3.0, 1e-9);
	cr_assert_float_eq(rd->avg_ms, 2.0, 1e-9);
	/* sample variance 1 ms^2; standard error sqrt(1/3) ms; / 2 ms mean */
	cr_assert_float_eq(rd->stddev_pct, 100.0 * sqrt(1.0 / 3.0) / 2.0, 1e-6);
	free(rows);

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_sctrace_print(t, f), 0);
	fclose(f);
	cr_assert(strstr(text, "\n Summary of events:\n\n :5 (5), 1 events, 10.0%\n"), "%s", text);
	cr_assert(strstr(text, " work (7), 9 events, 90.0%\n"), "%s", text);
	cr_assert(strstr(text, "   syscall            calls  errors  total       min       avg       max       stddev\n"),
		  "%s", text);
	cr_assert(strstr(text, "   read                   3      1     6.000     1.000     2.000     3.000     28.87%\n"),
		  "%s", text);
	free(text);
	perfev_sctrace_free(t);
}

/* perf trace -s: an enter or exit whose id is negative (sys_exit of
 * rt_sigreturn reads orig_ax -1) has no syscall (trace__syscall_info):
 * no row, not an event of its thread, but one of the total. */
Test(unit_trace, negative_syscall_ids_have_no_row)
{
	struct perfev_sctrace *t = perfev_sctrace_new();
	perfev_sctrace_enter(t, 7, 7, 1000, 0);
	perfev_sctrace_exit(t, 7, 7, 2000, 0, 1);
	perfev_sctrace_exit(t, 7, 7, 3000, -1, -4);
	perfev_sctrace_enter(t, 8, 8, 4000, -1);
	perfev_sctrace_comm(t, 7, 7, "sh");
	struct perfev_syscall_stat *rows;
	int n = perfev_sctrace_stats(t, &rows);
	cr_assert_eq(n, 1, "%d rows (a -1 row?)", n);
	cr_assert_eq(rows[0].nr, 0);
	free(rows);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	perfev_sctrace_print(t, f);
	fclose(f);
	cr_assert(strstr(text, " sh (7), 2 events, 50.0%"), "%s", text); /* 2 of the 4 */
	cr_assert(!strstr(text, "(8)"), "a thread of no syscall: %s", text);
	free(text);
	perfev_sctrace_free(t);
}
