/* Files written by perfev's writer, read by perf: perf script prints the
 * same samples as for the original, perf report reads them without warnings. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <string.h>

#define COPY PERFEV_BUILDDIR "/examples/perfdata_copy"

static void no_warnings(const char *what, const char *err)
{
	/* perf's complaints about a file it reads */
	static const char *const bad[] = {"Warning", "WARNING", "rror", "nvalid", "corrupt", "unsupported",
					   "failed", "Can't", "can't", "not processed", "unknown"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_null(strstr(err, bad[i]), "%s: perf says: %s", what, err);
}

static void copy_and_check(const char *src, const char *opts)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/copy.data", test_tmpdir());
	struct run_result c = run_cmd("'%s' '%s' '%s' %s", COPY, src, out, opts);
	cr_assert_eq(c.status, 0, "perfdata_copy %s: %s", opts, c.err);
	run_result_free(&c);
	struct run_result a = run_cmd("perf script -i '%s' -F pid,tid,time,ip,sym,dso,period,event", src);
	struct run_result b = run_cmd("perf script -i '%s' -F pid,tid,time,ip,sym,dso,period,event", out);
	cr_assert_eq(b.status, 0, "perf script refuses perfev's copy (%s): %s", opts, b.err);
	cr_assert_str_eq(b.out, a.out, "perf script shows other samples in perfev's copy (%s)", opts);
	no_warnings("perf script", b.err);
	run_result_free(&a);
	run_result_free(&b);
	struct run_result r = run_cmd("perf report --stdio -i '%s' --sort pid 2>&1 >/dev/null", out);
	cr_assert_eq(r.status, 0, "perf report: %s", r.out);
	no_warnings("perf report", r.out);
	run_result_free(&r);
}

static const char *perf_recording(void)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/orig.data", test_tmpdir());
	struct run_result r = run_cmd("perf record -q -e cpu-clock -F 2000 -g -o '%s' -- '%s' 30 100 20", path,
				      WORKLOAD("demo"));
	if (r.status)
		cr_skip_test("perf record cannot record here: %s", r.err);
	run_result_free(&r);
	return path;
}

Test(interop_perfdata, copy_of_perf_recording_file_mode)
{
	require_perf_tool();
	require_root();
	copy_and_check(perf_recording(), "");
}

Test(interop_perfdata, copy_of_perf_recording_compressed)
{
	require_perf_tool();
	require_root();
	copy_and_check(perf_recording(), "-z 3");
}

Test(interop_perfdata, copy_of_perf_recording_pipe_mode)
{
	require_perf_tool();
	require_root();
	copy_and_check(perf_recording(), "--pipe");
}

Test(interop_perfdata, copy_of_corpus_files)
{
	require_perf_tool();
	require_corpus();
	static const char *const files[] = {"perf.data.busy.1-3.8", "perf.data.callgraph-3.8",
					    "perf.data.piped.target-3.8", "perf.data.branch_stack_hw_index",
					    "perf.data.weight_struct"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char src[512];
		snprintf(src, sizeof(src), "%s/%s", CORPUS_DIR, files[i]);
		struct run_result a = run_cmd("perf script -i '%s' -F pid,tid,time,ip,period", src);
		char out[512];
		snprintf(out, sizeof(out), "%s/c%zu.data", test_tmpdir(), i);
		struct run_result c = run_cmd("'%s' '%s' '%s' -z 1", COPY, src, out);
		cr_assert_eq(c.status, 0, "%s: %s", files[i], c.err);
		struct run_result b = run_cmd("perf script -i '%s' -F pid,tid,time,ip,period", out);
		cr_assert_str_eq(b.out, a.out, "%s: perf script differs on perfev's copy", files[i]);
		run_result_free(&a);
		run_result_free(&b);
		run_result_free(&c);
	}
}
