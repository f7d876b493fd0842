/* perf report's option forms a perf user types, against perf on the same
 * recording: comma lists in --symbols/--comms/--dsos and their short forms
 * -S, -c, -d; -g/--call-graph with its argument optional. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <stdlib.h>

/* User space only (:u): with --children perf keeps the Children of a listed
 * symbol from every sample with it on the stack, even one whose leaf (a
 * kernel function interrupting it) is not listed; perfev counts the
 * samples of listed leaves only, which differ from perf's only there. */
static char *calls_data(void)
{
	return perf_record("-g -e cpu-clock:u -F 2000", "calls.data", WORKLOAD("calls") " 100");
}

/* Lists kept every sample out ("none of the samples passed --symbols
 * leaf_a,shared"); perf keeps the samples of any name listed, and elides
 * a column only for a single name. */
Test(interop_report, filter_lists_and_short_forms_like_perf, .timeout = 180)
{
	require_perf_tool();
	char *data = calls_data();
	static const char *const options[] = {
		"--no-children --symbols leaf_a,shared",
		"--no-children -S leaf_a,shared",
		"--no-children -S leaf_a",
		"--children --symbols=leaf_a,recurse",
		"--children --percentage relative -S leaf_a,recurse",
		"--children -S leaf_a",
		"--no-children --comms calls,sh",
		"--no-children -c calls",
		"--no-children --dsos calls,libc.so.6",
		"--no-children -d calls",
		"--no-children -g none -c calls -d calls -S leaf_a,alpha,beta",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

/* perf's -g takes an argument when attached, or the next word when it does
 * not start with '-'; alone it is perf's default graph,0.5,caller. perfev
 * took the next option as its argument ("bad --call-graph '--no-children'"). */
Test(interop_report, call_graph_argument_optional_like_perf, .timeout = 180)
{
	require_perf_tool();
	char *data = calls_data();
	static const char *const options[] = {
		"-g --no-children",
		"--no-children -g",
		"--call-graph --no-children",
		"-gcallee --no-children",
		"-g callee --no-children",
		"-g 0.5 --no-children",
		"-g fractal,5 --children",
		"--call-graph=none --children",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	/* a next word that is no call-graph spec is refused, as perf refuses it */
	struct run_result r = run_cmd(PERFEV_BIN " report -i %s --stdio -g xyz", data);
	cr_expect_neq(r.status, 0, "-g xyz accepted: %s", r.out);
	cr_expect(strstr(r.err, "xyz"), "the message names the bad argument: %s", r.err);
	run_result_free(&r);
	r = run_cmd("perf report -i %s --stdio -g xyz", data);
	cr_expect_neq(r.status, 0, "perf accepted -g xyz");
	run_result_free(&r);
	free(data);
}
