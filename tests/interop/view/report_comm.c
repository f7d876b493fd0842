/* perfev report against perf report on a crafted recording of a thread
 * sampled as "pyenv-version-f" (a script's name) that then execs its
 * interpreter ("bash") without further samples: perf sizes the Command
 * column by the thread's name at the end of the file (thread__comm_len),
 * so the column is as wide as "Command" and the sampled name is cut to it.
 * pyenv's shims do this on every python3 run. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>

/* A sample of pid at an address of its own (0x401000 + time). */
static void put_sample(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid, uint64_t time,
		       uint64_t period)
{
	report_put_sample(w, a, PERF_RECORD_MISC_USER, pid, 0x401000 + time, time, period, NULL, 0);
}

Test(interop_report, command_width_from_thread_name_at_end_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200];
	snprintf(data, sizeof(data), "%s/comm.data", test_tmpdir());
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	report_put_comm(w, &a, 5001, "python3", 1, true);
	report_put_comm(w, &a, 5002, "pyenv-version-f", 2, true);
	put_sample(w, &a, 5001, 10, 3000);
	put_sample(w, &a, 5002, 11, 2000);
	put_sample(w, &a, 5002, 12, 1000);
	report_put_comm(w, &a, 5002, "bash", 20, true); /* the interpreter: no sample after it */
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	static const char *const options[] = {"--no-children --sort comm", "--no-children",
					      "--no-children --sort comm,dso"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		report_expect_like_perf(data, options[i], 0);
	}
}
