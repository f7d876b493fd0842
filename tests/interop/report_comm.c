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

static void put_comm(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint32_t pid,
		     const char *comm, uint64_t time)
{
	struct perfev_record r = {.type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_COMM_EXEC, .has_sid = true};
	r.u.comm.pid = r.u.comm.tid = pid;
	r.u.comm.comm = comm;
	r.sid.pid = r.sid.tid = pid;
	r.sid.time = time;
	report_put_record(w, &r, a);
}

static void put_sample(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint32_t pid,
		       uint64_t time, uint64_t period)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
	r.u.sample.ip = 0x401000 + time;
	r.u.sample.pid = r.u.sample.tid = pid;
	r.u.sample.time = time;
	r.u.sample.period = period;
	report_put_record(w, &r, a);
}

Test(interop_report, command_width_from_thread_name_at_end_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200];
	snprintf(data, sizeof(data), "%s/comm.data", test_tmpdir());
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	put_comm(w, &a, 5001, "python3", 1);
	put_comm(w, &a, 5002, "pyenv-version-f", 2);
	put_sample(w, &a, 5001, 10, 3000);
	put_sample(w, &a, 5002, 11, 2000);
	put_sample(w, &a, 5002, 12, 1000);
	put_comm(w, &a, 5002, "bash", 20); /* the interpreter: no sample after it */
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	static const char *const options[] = {"--no-children --sort comm", "--no-children",
					      "--no-children --sort comm,dso"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		char *diff;
		size_t lines;
		int differ = report_diff_perf(data, options[i], &diff, &lines);
		cr_expect_eq(differ, 0, "perfev report --stdio %s: %d of %zu lines differ from perf's:\n%s",
			     options[i], differ, lines, diff);
		free(diff);
	}
}
