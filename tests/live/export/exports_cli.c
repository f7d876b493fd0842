/* The exports as a user meets them: the Firefox profile's meta.interval is
 * the recording's sampling interval (it was 1 ms whatever the rate),
 * record -q --flame prints nothing, report --flame writes the file and
 * leaves stdout alone unless --stdio or --json asks for the table too. */
#define _GNU_SOURCE
#include "support.h"

#include <stdlib.h>
#include <string.h>

/* meta.interval of the Firefox profile report writes of a recording made
 * with record OPTIONS. */
static double firefox_interval(const char *options)
{
	const char *d = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q %s -o i.data -- %s 20 >/dev/null && "
				      "%s report -q -i i.data --firefox i.json && cat i.json", d, PERFEV_BIN,
				      options, WORKLOAD("calls"), PERFEV_BIN);
	cr_assert_eq(r.status, 0, "record %s: %s", options, r.err);
	const char *at = strstr(r.out, "\"meta\":{\"interval\":");
	cr_assert(at, "no meta.interval: %.300s", r.out);
	double v = strtod(at + strlen("\"meta\":{\"interval\":"), NULL);
	run_result_free(&r);
	return v;
}

Test(live_export, firefox_interval_is_the_sampling_interval, .timeout = 120)
{
	require_root();
	cr_expect_float_eq(firefox_interval("-e cpu-clock -F 250"), 4.0, 1e-9, "-F 250: 4 ms");
	cr_expect_float_eq(firefox_interval("-e cpu-clock -F 4000"), 0.25, 1e-9, "-F 4000: 0.25 ms");
	cr_expect_float_eq(firefox_interval("-e task-clock -c 2000000"), 2.0, 1e-9, "-c 2000000 ns: 2 ms");
	/* an event that counts no time: the mean time between its samples */
	double v = firefox_interval("-e page-faults -c 1");
	cr_expect(v > 0 && v != 1.0, "page-faults -c 1: %g ms", v);
}

Test(live_export, record_quiet_flame_prints_nothing, .timeout = 120)
{
	require_root();
	struct run_result r = run_cmd("cd %s && %s record -q -e cpu-clock --flame q.svg -o q.data -- %s 20 "
				      ">/dev/null && test -s q.svg", test_tmpdir(), PERFEV_BIN, WORKLOAD("calls"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(r.err_len, 0, "record -q printed: %s", r.err);
	run_result_free(&r);
}

Test(live_export, report_flame_leaves_stdout_alone, .timeout = 120)
{
	require_root();
	const char *d = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q -e cpu-clock -o f.data -- %s 20 >/dev/null && "
				      "%s report -i f.data --flame f.svg && test -s f.svg", d, PERFEV_BIN,
				      WORKLOAD("calls"), PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(r.out_len, 0, "report --flame printed the table: %.300s", r.out);
	cr_expect(strstr(r.err, "wrote the flame graph to f.svg"), "%s", r.err);
	run_result_free(&r);
	/* asked for, the table comes too */
	r = run_cmd("cd %s && %s report -i f.data --stdio --flame f.svg", d, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "leaf_a"), "--stdio --flame: %.300s", r.out);
	run_result_free(&r);
}
