/* perf script -L (--Latency, perf 6.1): its latency_format columns, the
 * command as "%8.8s" and the CPU as "%3d", on samples, tracepoints and
 * side-band lines alike; refused with --json in one line. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(interop_script, latency_columns_like_perf, .timeout = 60)
{
	require_root();
	char *data = perf_record("-e sched:sched_switch,cpu-clock -c 100000",
				 "latency.data", "sh -c 'ls / >/dev/null; sleep 0.01; ls /usr >/dev/null'");
	cr_expect(compare_script_args(data, "-L", NULL));
	cr_expect(compare_script_args(data, "--Latency -F comm,tid,cpu,time,event,ip,sym --show-task-events", NULL));
	cr_expect(compare_script_args(data, "-L --show-mmap-events -F comm,pid,tid,cpu,time", NULL));
	/* the columns really changed: "[001]" became "  1" */
	struct run_result r = run_cmd("%s script -L -i '%s' | grep -m1 sched_switch | cut -c1-30", PERFEV_BIN, data);
	cr_expect(r.out && strlen(r.out) > 20 && !strchr(r.out, '['), "-L's line: '%s'", r.out);
	run_result_free(&r);
	r = run_cmd("%s script -L --json -i '%s'", PERFEV_BIN, data);
	cr_expect(r.status != 0 && r.err && strstr(r.err, "-L"), "-L --json: %s", r.err);
	run_result_free(&r);
	free(data);
}
