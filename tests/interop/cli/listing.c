/* perfev buildid-list and perfev evlist against perf 6.1's, byte for byte,
 * on recordings of one small program: the file's build-id table, -H (the
 * objects the samples are in, a binary without a build-id among them with
 * a blank id), a pipe (perf lists its hits), an ELF file, the running
 * kernel; the events' names, -v (attrs), -F, -g (groups), --trace-fields
 * and the tracepoint tip. Options perf has and perfev not: refused in one
 * line. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char prog_c[] = "static volatile long x;\n"
			     "int main(void) { for (long i = 0; i < 20000000; i++) x += i; return 0; }\n";

/* `perf ARGS` and `perfev ARGS` print the same, both succeeding (stdin
 * from `in` when not NULL). */
static void expect_same(const char *args, const char *in)
{
	char redirect[4200] = "";
	if (in)
		snprintf(redirect, sizeof(redirect), " < '%s'", in);
	struct run_result want = run_cmd("perf %s%s 2>/dev/null", args, redirect);
	struct run_result got = run_cmd("%s %s%s", PERFEV_BIN, args, redirect);
	cr_expect_eq(want.status, 0, "perf %s: %s", args, want.err);
	cr_expect_eq(got.status, 0, "perfev %s: %s", args, got.err);
	cr_expect_gt(want.out_len, 0, "perf %s printed nothing", args);
	cr_expect_str_eq(got.out, want.out, "perfev %s:\n%s\nperf:\n%s", args, got.out, want.out);
	run_result_free(&want);
	run_result_free(&got);
}

static void expect_refused(const char *args, const char *instead)
{
	struct run_result r = run_cmd("%s %s", PERFEV_BIN, args);
	const char *nl = r.err ? strchr(r.err, '\n') : NULL;
	cr_expect(r.status == 1 && nl && !nl[1] && strstr(r.err, instead), "perfev %s: %d %s", args, r.status, r.err);
	run_result_free(&r);
}

Test(interop_cli, buildid_list_like_perf, .timeout = 60)
{
	char *exe = build_program("bid", prog_c, "-O1");
	char *nobid = build_program("nobid", prog_c, "-O1 -Wl,--build-id=none");
	char *data = perf_record("-e cpu-clock", "bid.data", exe);
	char *none = perf_record("-e cpu-clock", "nobid.data", nobid);
	char args[8400];
	static const char *const opts[] = {"", "-H", "--with-hits"};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		snprintf(args, sizeof(args), "buildid-list -i '%s' %s", data, opts[i]);
		expect_same(args, NULL);
		snprintf(args, sizeof(args), "buildid-list -i '%s' %s", none, opts[i]);
		expect_same(args, NULL);
	}
	/* -H names the sampled binary without a build-id, its id blank */
	snprintf(args, sizeof(args), "%s buildid-list -H -i '%s' | grep -c '^ \\{41\\}/.*nobid$'", PERFEV_BIN, none);
	struct run_result r = run_cmd("%s", args);
	cr_expect_eq(atoi(r.out), 1, "%s: %s", args, r.out);
	run_result_free(&r);
	/* a pipe: its hits */
	char pipe[4200];
	snprintf(pipe, sizeof(pipe), "%s/bid.pipe", test_tmpdir());
	r = run_cmd("perf record -q -e cpu-clock -o - -- '%s' > '%s'", exe, pipe);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	expect_same("buildid-list -i -", pipe);
	/* an ELF file: its build-id alone; the running kernel's */
	snprintf(args, sizeof(args), "buildid-list -i '%s'", exe);
	expect_same(args, NULL);
	expect_same("buildid-list -k", NULL);
	expect_refused("buildid-list -m", "-k");
	free(data), free(none), free(exe), free(nobid);
}

Test(interop_cli, evlist_like_perf, .timeout = 60)
{
	char *exe = build_program("evl", prog_c, "-O1");
	char *data = perf_record("-e cpu-clock,task-clock -c 100000", "evl.data", exe);
	char *grp = perf_record("-e '{cpu-clock,task-clock}' -F 2000", "evl-group.data", exe);
	char args[8400];
	static const char *const opts[] = {"", "-v", "-F", "-g", "--freq", "--verbose", "--group"};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		snprintf(args, sizeof(args), "evlist -i '%s' %s", data, opts[i]);
		expect_same(args, NULL);
		snprintf(args, sizeof(args), "evlist -i '%s' %s", grp, opts[i]);
		expect_same(args, NULL);
	}
	/* the group really is one line */
	struct run_result r = run_cmd("%s evlist -g -i '%s'", PERFEV_BIN, grp);
	cr_expect_str_eq(r.out, "{cpu-clock,task-clock}\n");
	run_result_free(&r);
	snprintf(args, sizeof(args), "evlist -g -v -i '%s'", grp);
	expect_refused(args, "--group");
	snprintf(args, sizeof(args), "evlist --trace-fields -i '%s'", grp);
	expect_same(args, NULL);
	free(data), free(grp);
	/* tracepoints: perf's tip after the list */
	if (geteuid() == 0) {
		char *tp = perf_record("-e sched:sched_process_exec,cpu-clock", "evl-tp.data", exe);
		static const char *const tp_opts[] = {"-F", "--trace-fields", "--trace-fields -F", "-v --trace-fields"};
		for (size_t i = 0; i < sizeof(tp_opts) / sizeof(tp_opts[0]); i++) {
			snprintf(args, sizeof(args), "evlist %s -i '%s'", tp_opts[i], tp);
			expect_same(args, NULL);
		}
		r = run_cmd("%s evlist --trace-fields -i '%s'", PERFEV_BIN, tp);
		cr_expect(r.out && strstr(r.out, "sched:sched_process_exec: trace_fields: ") &&
			  strstr(r.out, "cpu-clock: (not a tracepoint)"), "--trace-fields:\n%s", r.out);
		run_result_free(&r);
		free(tp);
	}
	free(exe);
}
