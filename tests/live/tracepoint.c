/* Tracepoint formats of the running kernel, and perf.data TRACING_DATA
 * against what perf writes. */
#define _GNU_SOURCE
#include "support.h"
#include "support_dynevents.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Test(live_tracepoint, formats_load_from_tracefs)
{
	require_root();
	require_tracefs();
	struct perfev_tp *tp = perfev_tp_new();
	int64_t sw = perfev_tp_load(tp, "sched", "sched_switch");
	cr_assert_gt(sw, 0, "%s", perfev_errmsg());
	cr_assert_eq(sw, perfev_tp_event_id("sched", "sched_switch"));
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)sw), "sched:sched_switch");
	int64_t op = perfev_tp_event_id("syscalls", "sys_enter_openat");
	if (op < 0)
		cr_skip_test("no syscalls:sys_enter_openat (CONFIG_FTRACE_SYSCALLS)");
	cr_assert_eq(perfev_tp_load_id(tp, (uint64_t)op), 0, "%s", perfev_errmsg());
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)op), "syscalls:sys_enter_openat");
	cr_assert_eq(perfev_tp_load_system(tp, 0), 0);
	cr_assert_eq(perfev_tp_load(tp, "sched", "no_such_event"), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "sched:no_such_event"), "%s", perfev_errmsg());
	perfev_tp_free(tp);
}

Test(live_tracepoint, tracing_data_round_trip)
{
	require_root();
	require_tracefs();
	uint64_t ids[3];
	int64_t a = perfev_tp_event_id("sched", "sched_switch");
	int64_t b = perfev_tp_event_id("raw_syscalls", "sys_enter");
	cr_assert(a > 0 && b > 0, "%s", perfev_errmsg());
	ids[0] = (uint64_t)a;
	ids[1] = (uint64_t)b;
	ids[2] = (uint64_t)a; /* a duplicate is written once */
	void *data;
	size_t len, used;
	cr_assert_eq(perfev_tracing_data_write(ids, 3, 0, &data, &len), 0, "%s", perfev_errmsg());
	cr_assert_eq(memcmp(data, "\027\010\104tracing", 10), 0);
	struct perfev_tp *tp = perfev_tp_from_tracing_data(data, len, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, len);
	cr_assert_str_eq(perfev_tp_name(tp, ids[0]), "sched:sched_switch");
	cr_assert_str_eq(perfev_tp_name(tp, ids[1]), "raw_syscalls:sys_enter");
	perfev_tp_free(tp);
	free(data);
}

/* perf's own TRACING_DATA (interop): perfev reads every part of it. */
Test(live_tracepoint, reads_perfs_tracing_data)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("perf record -q -o %s/tp.data -e sched:sched_switch "
				      "-e syscalls:sys_enter_openat -- sh -c 'cat /etc/hostname "
				      ">/dev/null; sleep 0.01' 2>&1", dir);
	cr_assert_eq(r.status, 0, "perf record: %s", r.out);
	run_result_free(&r);
	char path[512];
	snprintf(path, sizeof(path), "%s/tp.data", dir);
	size_t len = 0, used = 0;
	void *td = perfdata_feature(path, 1, &len);
	cr_assert(td, "perf.data has no TRACING_DATA feature");
	struct perfev_tp *tp = perfev_tp_from_tracing_data(td, len, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, len, "read %zu of the feature's %zu bytes", used, len);
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)perfev_tp_event_id("sched", "sched_switch")),
			 "sched:sched_switch");
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)perfev_tp_event_id("syscalls",
									 "sys_enter_openat")),
			 "syscalls:sys_enter_openat");
	perfev_tp_free(tp);
	free(td);
	r = run_cmd("rm -rf %s", dir);
	run_result_free(&r);
}
