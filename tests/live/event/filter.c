/* --filter on perfev stat and perfev record: the kernel keeps only the
 * tracepoint hits the expression accepts; a wrong field is named. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One openat with O_CREAT (0x40): the shell's redirection. */
#define CREATE_ONE "sh -c 'echo > %s/created'"

static unsigned long stat_count(const char *out)
{
	const char *p = strstr(out, "syscalls:sys_enter_openat");
	cr_assert(p, "%s", out);
	while (p > out && p[-1] == ' ')
		p--;
	while (p > out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return strtoul(p, NULL, 10);
}

Test(live_filter, stat_counts_what_the_filter_keeps)
{
	require_root();
	require_tracefs();
	if (perfev_tp_event_id("syscalls", "sys_enter_openat") < 0)
		cr_skip_test("no syscalls:sys_enter_openat here");
	const char *dir = test_tmpdir();
	struct run_result all = run_cmd("%s stat -e syscalls:sys_enter_openat -- " CREATE_ONE,
					PERFEV_BIN, dir);
	cr_assert_eq(all.status, 0, "%s", all.err);
	struct run_result one = run_cmd("%s stat -e syscalls:sys_enter_openat --filter 'flags & 0x40' "
					"-- " CREATE_ONE, PERFEV_BIN, dir);
	cr_assert_eq(one.status, 0, "%s", one.err);
	cr_assert_gt(stat_count(all.err), 1, "%s", all.err);
	cr_assert_eq(stat_count(one.err), 1, "%s", one.err);
	run_result_free(&all);
	run_result_free(&one);
}

Test(live_filter, record_keeps_what_the_filter_keeps)
{
	require_root();
	require_tracefs();
	if (perfev_tp_event_id("syscalls", "sys_enter_openat") < 0)
		cr_skip_test("no syscalls:sys_enter_openat here");
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("%s record -o %s/f.data -e syscalls:sys_enter_openat "
				      "--filter 'flags & 0x40' -- " CREATE_ONE, PERFEV_BIN, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "(1 samples)"), "%s", r.err);
	run_result_free(&r);
}

Test(live_filter, bad_filters_are_explained)
{
	require_root();
	require_tracefs();
	struct run_result r = run_cmd("%s stat -e syscalls:sys_enter_openat --filter 'nofield == 1' -- true",
				      PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "has no field 'nofield'"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s record -e task-clock --filter 'x == 1' -- true", PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "must follow a -e tracepoint"), "%s", r.err);
	run_result_free(&r);
}
