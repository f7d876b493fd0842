/* The recorder library against the running kernel. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

Test(live_recorder, command_samples_and_exit_status, .timeout = 120)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/rec.data", test_tmpdir());
	char *argv[] = {"sh", "-c", WORKLOAD("spin") " 300; exit 3", NULL};
	struct perfev_record_opts o = {.size = sizeof(o), .argv = argv, .output = out, .freq = 1000};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	struct perfev_record_stats s;
	perfev_recorder_stats(r, &s);
	cr_log_info("%llu samples, %llu bytes, %llu wakeups, lost %llu",
		    (unsigned long long)s.samples, (unsigned long long)s.bytes,
		    (unsigned long long)s.wakeups, (unsigned long long)s.lost);
	cr_assert(s.command_ran);
	cr_assert(WIFEXITED(s.command_status) && WEXITSTATUS(s.command_status) == 3);
	cr_assert(s.samples > 300 * 0.9 && s.samples < 300 * 1.2, "%llu samples",
		  (unsigned long long)s.samples);
	cr_assert_eq(s.lost, 0);
	perfev_recorder_free(r);
}

Test(live_recorder, missing_command_is_explained, .timeout = 60)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/rec.data", test_tmpdir());
	char *argv[] = {"/nonexistent/cmd", NULL};
	struct perfev_record_opts o = {.size = sizeof(o), .argv = argv, .output = out};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "/nonexistent/cmd"), "%s", perfev_errmsg());
	perfev_recorder_free(r);
}

Test(live_recorder, no_target_is_explained)
{
	struct perfev_record_opts o = {.size = sizeof(o)};
	cr_assert_null(perfev_recorder_new(&o));
	cr_assert(strstr(perfev_errmsg(), "nothing to record"), "%s", perfev_errmsg());
	o.mmap_pages = 3;
	o.all_cpus = true;
	cr_assert_null(perfev_recorder_new(&o));
	cr_assert(strstr(perfev_errmsg(), "power of two"), "%s", perfev_errmsg());
}

/* A one-page ring cannot hold 16 KiB stack copies: every sample is lost, and counted. */
Test(live_recorder, lost_samples_are_counted, .timeout = 120)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/lost.data", test_tmpdir());
	char *argv[] = {WORKLOAD("spin"), "200", NULL};
	struct perfev_record_opts o = {.size = sizeof(o), .argv = argv, .output = out, .freq = 1000,
				       .mmap_pages = 1, .call_graph = PERFEV_CALLGRAPH_DWARF,
				       .dwarf_stack_size = 16384};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	struct perfev_record_stats s;
	perfev_recorder_stats(r, &s);
	cr_log_info("%llu samples, lost %llu", (unsigned long long)s.samples, (unsigned long long)s.lost);
	cr_assert_gt(s.lost, 100, "lost %llu", (unsigned long long)s.lost);
	perfev_recorder_free(r);
}
