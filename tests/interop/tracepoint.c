/* perfev script on perf's tracepoint recordings: the `trace` field (and the
 * default tracepoint line) equal perf script's, read through the file's
 * TRACING_DATA; perfev's own TRACING_DATA read back by perf. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *record_tracepoints(const char *opts, const char *cmd)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/tp.data", test_tmpdir());
	struct run_result r = run_cmd("perf record -q %s -e sched:sched_switch "
				      "-e syscalls:sys_enter_openat -o '%s' -- %s", opts, path, cmd);
	if (r.status != 0)
		cr_skip_test("perf record of tracepoints fails here: %s", r.err);
	run_result_free(&r);
	return path;
}

static void compare_all(const char *path)
{
	compare_script(path, "trace");
	compare_script(path, "comm,tid,cpu,time,event,trace");
	/* the default fields of a tracepoint sample */
	struct run_result p = run_cmd("perf script -i '%s' 2>/dev/null", path);
	struct run_result q = run_cmd("%s script -i '%s'", PERFEV_BIN, path);
	cr_assert_eq(q.status, 0, "%s", q.err);
	cr_assert_gt(p.out_len, 0);
	cr_assert_str_eq(q.out, p.out, "default output differs");
	run_result_free(&p);
	run_result_free(&q);
}

Test(interop_tracepoint, script_trace_of_a_command, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *path = record_tracepoints("", "sh -c 'for f in /etc/hostname /etc/passwd; do "
						  "cat $f >/dev/null; done; sleep 0.02'");
	compare_all(path);
}

Test(interop_tracepoint, script_trace_system_wide, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	/* every task on every CPU: many comms, states and openat arguments */
	const char *path = record_tracepoints("-a", "sleep 0.2");
	compare_all(path);
}
