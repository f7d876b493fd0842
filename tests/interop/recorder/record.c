/* perfev record's files read by perf: report and script, file and pipe
 * mode, call graphs, compression, side-band records, signals. */
#define _GNU_SOURCE
#include "support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEMO WORKLOAD("demo") " 2000 1 1"

/* The hottest symbol perf report finds in a file ("" when none). */
static char *top_symbol(const char *file, const char *extra, char **err)
{
	struct run_result r = run_cmd("perf report --stdio --no-children --sort sym %s -i %s "
				      "| grep -v '^#' | grep '%%' | head -1 | sed 's/.*\\] //'",
				      extra, file);
	cr_assert_eq(r.status, 0, "perf report on %s: %s", file, r.err);
	r.out[strcspn(r.out, " \n")] = 0;
	if (err)
		*err = strdup(r.err);
	char *s = strdup(r.out);
	run_result_free(&r);
	return s;
}

static void assert_no_warnings(const char *what, const char *err)
{
	cr_assert(!strcasestr(err, "warning") && !strcasestr(err, "error") &&
			  !strcasestr(err, "lost") && !strcasestr(err, "invalid"),
		  "%s warned: %s", what, err);
}

/* perf's and perfev's recordings of the same workload agree on the hottest symbol. */
static void compare_with_perf(const char *opts, const char *report_opts)
{
	require_perf_tool();
	const char *d = test_tmpdir();
	struct run_result a = run_cmd("cd %s && perf record -q %s -o perf.data -- " DEMO, d, opts);
	cr_assert_eq(a.status, 0, "perf record %s: %s", opts, a.err);
	struct run_result b = run_cmd("cd %s && " PERFEV_BIN " record %s -o perfev.data -- " DEMO, d, opts);
	cr_assert_eq(b.status, 0, "perfev record %s: %s", opts, b.err);
	cr_assert(strstr(b.err, "[ perfev record: Captured and wrote"), "%s", b.err);
	char pf[512], pv[512];
	snprintf(pf, sizeof(pf), "%s/perf.data", d);
	snprintf(pv, sizeof(pv), "%s/perfev.data", d);
	char *err;
	char *theirs = top_symbol(pf, report_opts, NULL);
	char *ours = top_symbol(pv, report_opts, &err);
	assert_no_warnings("perf report", err);
	cr_assert_str_eq(ours, theirs, "hottest symbol: perfev '%s', perf '%s'", ours, theirs);
	struct run_result s = run_cmd("perf script -i %s > /dev/null", pv);
	cr_assert_eq(s.status, 0, "perf script: %s", s.err);
	assert_no_warnings("perf script", s.err);
	free(err), free(theirs), free(ours);
	run_result_free(&a), run_result_free(&b), run_result_free(&s);
}

Test(interop_record, file_mode_same_hottest_symbol, .timeout = 180)
{
	compare_with_perf("-F 4000", "");
}

Test(interop_record, frame_pointer_call_graphs, .timeout = 180)
{
	compare_with_perf("-F 4000 -g", "");
	/* The callchain reaches main through work (the kernel's frame-pointer walk
	 * skips the leaf's caller, hot_loop, for perf's own files too). */
	struct run_result r = run_cmd("perf script -F ip,sym -i %s/perfev.data | head -400", test_tmpdir());
	cr_assert(strstr(r.out, "spin") && strstr(r.out, "work") && strstr(r.out, "main"),
		  "callchains lack spin/work/main:\n%.2000s", r.out);
	run_result_free(&r);
}

Test(interop_record, dwarf_call_graphs, .timeout = 180)
{
	compare_with_perf("-F 1000 --call-graph dwarf", "");
	struct run_result r = run_cmd("perf script -F ip,sym -i %s/perfev.data | head -400", test_tmpdir());
	cr_assert(strstr(r.out, "hot_loop") && strstr(r.out, "main"),
		  "DWARF-unwound callchains lack hot_loop/main:\n%.2000s", r.out);
	run_result_free(&r);
}

Test(interop_record, compressed, .timeout = 180)
{
	compare_with_perf("-F 4000 -z", "");
	struct run_result r = run_cmd("perf report --header-only -i %s/perfev.data", test_tmpdir());
	cr_assert(strstr(r.out, "compressed"), "no compression feature:\n%s", r.out);
	run_result_free(&r);
}

Test(interop_record, pipe_mode, .timeout = 180)
{
	require_perf_tool();
	struct run_result r = run_cmd(PERFEV_BIN " record -F 4000 -o - -- " DEMO
				      " | perf report --stdio --no-children --sort sym -i - "
				      "| grep -v '^#' | grep '%%' | head -3");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "spin"), "pipe mode report:\n%s\n%s", r.out, r.err);
	run_result_free(&r);
	/* stdout a pipe and no -o: pipe mode, as perf does */
	r = run_cmd(PERFEV_BIN " record -F 4000 -g -- " DEMO " | perf script -i - | grep -c work");
	cr_assert_gt(atoi(r.out), 10, "%s %s", r.out, r.err);
	run_result_free(&r);
}

/* Pipe mode with compression and DWARF call graphs, read by perf report. */
Test(interop_record, pipe_mode_compressed_dwarf, .timeout = 180)
{
	require_perf_tool();
	const char *d = test_tmpdir();
	struct run_result r = run_cmd("cd %s && " PERFEV_BIN " record -F 1000 -z --call-graph dwarf -o - -- "
				      DEMO " > p.data 2>rec.err && perf report --stdio --no-children "
				      "--sort sym -i - < p.data 2>rep.err | grep -v '^#' | grep '%%' | head -1; "
				      "cat rep.err >&2", d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "spin"), "hottest symbol:\n%s\n%s", r.out, r.err);
	assert_no_warnings("perf report (pipe, -z, dwarf)", r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && perf script -F ip,sym -i - < p.data | grep -c hot_loop", d);
	cr_assert_gt(atoi(r.out), 10, "DWARF-unwound chains through hot_loop: %s %s", r.out, r.err);
	run_result_free(&r);
}

Test(interop_record, task_events_of_fork_and_exec, .timeout = 180)
{
	require_perf_tool();
	const char *d = test_tmpdir();
	struct run_result r = run_cmd("cd %s && " PERFEV_BIN " record -F 1000 -o f.data -- sh -c '"
				      WORKLOAD("spin") " 50 & wait; /bin/true' && "
				      "perf script --show-task-events --show-mmap-events -i f.data", d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "PERF_RECORD_COMM exec"), "%.3000s", r.out);
	cr_assert(strstr(r.out, "PERF_RECORD_FORK"), "%.3000s", r.out);
	cr_assert(strstr(r.out, "PERF_RECORD_EXIT"), "%.3000s", r.out);
	cr_assert(strstr(r.out, "PERF_RECORD_MMAP2"), "%.3000s", r.out);
	cr_assert(strstr(r.out, "workloads/spin"), "%.3000s", r.out);
	run_result_free(&r);
}

Test(interop_record, switch_events, .timeout = 180)
{
	require_perf_tool();
	struct run_result r = run_cmd("cd %s && " PERFEV_BIN " record --switch-events -o s.data -- "
				      "sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done' && "
				      "perf script --show-switch-events -i s.data | grep -c PERF_RECORD_SWITCH",
				      test_tmpdir());
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_geq(atoi(r.out), 10, "%s %s", r.out, r.err);
	run_result_free(&r);
}

Test(interop_record, attach_to_pid_and_sigint, .timeout = 180)
{
	require_perf_tool();
	struct run_result r = run_cmd(
		"cd %s; " WORKLOAD("spin") " 6000 & p=$!; sleep 0.2; "
		PERFEV_BIN " record -o p.data -p $p & r=$!; sleep 1.5; kill -INT $r; wait $r; echo rc=$?; kill $p; "
		"perf report --stdio --sort comm,sym -i %s/p.data 2>&1 | grep -v '^#' | grep '%%' | head -3",
		test_tmpdir(), test_tmpdir());
	cr_assert(strstr(r.out, "rc=0"), "%s %s", r.out, r.err);
	cr_assert(strstr(r.out, "spin_kernel"), "perf report after SIGINT:\n%s\n%s", r.out, r.err);
	run_result_free(&r);
}

Test(interop_record, sigterm_and_crash_leave_valid_files, .timeout = 180)
{
	require_perf_tool();
	const char *d = test_tmpdir();
	struct run_result r = run_cmd("cd %s && " PERFEV_BIN " record -o c.data -- sh -c '"
				      WORKLOAD("spin") " 100; kill -SEGV $$'; echo rc=$?; "
				      "perf report --stdio -i c.data 2>&1 | grep -c spin_kernel", d);
	cr_assert(strstr(r.out, "rc=139"), "a crashed command's status: %s", r.out);
	cr_assert_gt(atoi(strchr(r.out, '\n') + 1), 0, "%s %s", r.out, r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && (" PERFEV_BIN " record -o t.data -- " WORKLOAD("spin") " 5000 & r=$!; "
		    "sleep 0.7; kill -TERM $r; wait $r; echo rc=$?); "
		    "perf report --stdio -i t.data 2>&1 | grep -c spin_kernel", d);
	cr_assert(strstr(r.out, "rc=143"), "the command was ended by SIGTERM: %s %s", r.out, r.err);
	cr_assert_gt(atoi(strchr(r.out, '\n') + 1), 0, "%s %s", r.out, r.err);
	run_result_free(&r);
}

Test(interop_record, build_ids_of_hit_binaries, .timeout = 180)
{
	require_perf_tool();
	struct run_result r = run_cmd("cd %s && " PERFEV_BIN " record -o b.data -- " WORKLOAD("spin")
				      " 100 && perf buildid-list -i b.data", test_tmpdir());
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "workloads/spin"), "%s", r.out);
	run_result_free(&r);
}

/* Pipe mode: the command's stdout goes to stderr, as perf sends it, so a
 * command that prints does not corrupt the stream (perf report failed on
 * the digits: "failed to process type: 909587761"). Both tools alike. */
Test(interop_record, pipe_mode_command_stdout_to_stderr, .timeout = 180)
{
	require_perf_tool();
	const char *d = test_tmpdir();
	static const char *const tools[] = {"perf", PERFEV_BIN};
	for (size_t i = 0; i < 2; i++) {
		struct run_result r = run_cmd("cd %s && %s record -o - -- sh -c 'echo 1234567890; exec %s 20' "
					      "> p.data 2> rec.err && perf report --stdio --no-children --sort sym "
					      "-i - < p.data | grep -c leaf_a; cat rec.err >&2", d, tools[i],
					      WORKLOAD("calls"));
		cr_assert_eq(r.status, 0, "%s: %s", tools[i], r.err);
		cr_assert_eq(atoi(r.out), 1, "%s: perf report of the stream: %s %s", tools[i], r.out, r.err);
		cr_assert(strstr(r.err, "1234567890\n"), "%s: the command's output on stderr: %s", tools[i], r.err);
		run_result_free(&r);
	}
}
