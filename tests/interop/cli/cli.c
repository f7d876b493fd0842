/* The perfev command line against perf's: names perf gives events that the
 * user spelled in a group with a modifier. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The event names of `-x,` output (third field), one per line. */
static void names(const char *csv, char *out, size_t len)
{
	out[0] = 0;
	char *copy = strdup(csv), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f1 = strchr(l, ','), *f2 = f1 ? strchr(f1 + 1, ',') : NULL;
		char *f3 = f2 ? strchr(f2 + 1, ',') : NULL;
		if (f3)
			snprintf(out + strlen(out), len - strlen(out), "%.*s\n", (int)(f3 - f2 - 1), f2 + 1);
	}
	free(copy);
}

/* perf 6.1 names the members of '{a,b}:u' "a" and "b" (the group modifier
 * is not appended, unlike 'a:u' alone, which is "a:u"): perfev the same. */
Test(interop_cli, group_modifier_names_as_perf)
{
	require_perf_tool();
	static const char *const ev[] = {"{cpu-clock,task-clock}:u", "cpu-clock:u,task-clock",
					 "{cpu-clock:k,page-faults}:u"};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		struct run_result p = run_cmd("perf stat -x, -e '%s' true", ev[i]);
		struct run_result r = run_cmd("%s stat -x, -e '%s' true", PERFEV_BIN, ev[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		char a[512], b[512];
		names(p.err, a, sizeof(a));
		names(r.err, b, sizeof(b));
		cr_assert(a[0], "perf printed no counts for %s: %s", ev[i], p.err);
		cr_assert_str_eq(b, a, "%s: perfev names\n%s perf names\n%s", ev[i], b, a);
		run_result_free(&p);
		run_result_free(&r);
	}
}

/* perf record SIGKILLed leaves a header with data size 0: perf 6.1 warns
 * and then fails ("failed to process sample"); perfev warns once and reads
 * the samples that are there. */
Test(interop_cli, perfs_killed_recording_is_read, .timeout = 60)
{
	require_root();
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd(
		"cd %s && { perf record -e cpu-clock -F 4000 -m 2 -o killed.data -- %s 4000 2>/dev/null & "
		"rp=$!; sleep 1.5; ch=$(pgrep -P $rp); kill -9 $rp; wait $rp 2>/dev/null; "
		"[ -n \"$ch\" ] && kill -9 $ch; true; }", dir, WORKLOAD("spin"));
	run_result_free(&r);
	r = run_cmd("cd %s && perf script -i killed.data", dir);
	cr_assert(strstr(r.err, "data size field is 0"), "%s", r.err);
	cr_log_info("perf script on its killed recording: exit %d, %zu bytes out", r.status, r.out_len);
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i killed.data", dir, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "killed.data was not closed cleanly"), "%s", r.err);
	cr_assert(strstr(r.out, "spin_kernel"), "%.300s", r.out);
	run_result_free(&r);
}
