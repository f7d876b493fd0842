/* perfev report's everyday options against perf report's (perf 6.1) on
 * recordings of one small program (threads and a child):
 * - -T (--threads): the per-thread values of the READ records perf record
 *   -s writes (one per thread and event at its exit), after the report, in
 *   perf's two styles (--pretty normal and raw); on a recording without
 *   READ records, perf's empty table;
 * - -t SEP (--field-separator): the columns joined by SEP;
 * and each refused in one line where it has no meaning; perf's options
 * perfev lacks (--stdio2, which perf 6.1 lacks too, -v, -D) refused
 * in one line naming what to use instead. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Three threads and a forked child, each spinning a little. */
static const char threads_c[] =
	"#include <pthread.h>\n#include <unistd.h>\n#include <sys/wait.h>\n"
	"static volatile long x;\n"
	"static void *spin(void *a) { for (long i = 0; i < 3000000; i++) x += i; return a; }\n"
	"int main(void) {\n"
	"	pthread_t t[3];\n"
	"	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, spin, 0);\n"
	"	if (fork() == 0) { spin(0); _exit(0); }\n"
	"	spin(0);\n"
	"	for (int i = 0; i < 3; i++) pthread_join(t[i], 0);\n"
	"	wait(0);\n"
	"	return 0;\n"
	"}\n";

static void expect_refused(const char *data, const char *options);

Test(interop_report, threads_table_like_perf, .timeout = 60)
{
	char *exe = build_program("threads", threads_c, "-O1 -pthread");
	char *data = perf_record("-s -e cpu-clock,task-clock", "threads.data", exe);
	static const char *const options[] = {"-T", "-T --pretty raw", "--threads --no-children --sort pid"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		size_t lines = report_expect_like_perf(data, options[i], 0);
		cr_expect_gt(lines, 10, "perf report %s printed %zu lines", options[i], lines);
	}
	/* the table is there: a row per thread that exited under perf (the 3
	 * threads, the child; the main thread when it ends before perf's read) */
	struct run_result r = run_cmd("%s report -q -T --stdio -i '%s'", PERFEV_BIN, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *head = strstr(r.out, "\n#   PID    TID  cpu-clock  task-clock\n");
	if (!head) /* (pids of fewer digits) */
		head = strstr(r.out, "\n#  PID   TID  cpu-clock  task-clock\n");
	cr_expect_not_null(head, "no -T table in:\n%s", r.out);
	size_t rows = 0;
	for (const char *l = head ? strchr(head + 1, '\n') : NULL; l && l[1]; l = strchr(l + 1, '\n'))
		rows++;
	cr_expect(rows == 4 || rows == 5, "%zu -T rows, not 4 or 5:\n%s", rows, head ? head : "");
	run_result_free(&r);
	free(data);

	/* no READ records: perf's header line alone */
	data = perf_record("-e cpu-clock", "plain.data", exe);
	report_expect_like_perf(data, "-T", 0);
	r = run_cmd("%s report -q -T --stdio -i '%s'", PERFEV_BIN, data);
	cr_expect(r.out && strstr(r.out, "\n# PID  TID\n"), "no empty -T table in:\n%s", r.out);
	run_result_free(&r);

	/* where -T means nothing: one line saying so */
	static const char *const refused[] = {"-T --json", "-T --folded", "-T --pretty fancy"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		expect_refused(data, refused[i]);
	free(data);
	free(exe);
}

/* perfev report OPTIONS on data fails with one line naming the problem. */
static void expect_refused(const char *data, const char *options)
{
	struct run_result r = run_cmd("%s report --stdio -i '%s' %s", PERFEV_BIN, data, options);
	cr_expect_neq(r.status, 0, "perfev report %s succeeded", options);
	cr_expect(r.err && strstr(r.err, "perfev report: ") == r.err && strchr(r.err, '\n'),
		  "perfev report %s: %s", options, r.err);
	run_result_free(&r);
}

Test(interop_report, field_separator_like_perf, .timeout = 60)
{
	char *exe = build_program("threads", threads_c, "-O1 -pthread");
	char *data = perf_record("-g -e '{cpu-clock,task-clock}'", "sep.data", exe);
	/* x: a separator inside names (ld-linux-x86-64.so.2 -> ld-linu.-.86-64.so.2) */
	static const char *const options[] = {"-t '|'", "-t , -n --show-total-period --no-children --sort pid,dso,sym",
					      "-t x --sort dso", "--field-separator ';' --no-group -g none",
					      "-t , --group --sort comm"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	struct run_result r = run_cmd("%s report -q --stdio -t '|' -i '%s'", PERFEV_BIN, data);
	cr_expect(r.out && strstr(r.out, "Children|            Self|Command|Shared Object"), "no -t header in:\n%s",
		  r.out);
	cr_expect(r.out && !strstr(r.out, "# ....."), "-t with a dots line:\n%s", r.out);
	run_result_free(&r);
	expect_refused(data, "-t , --json");
	expect_refused(data, "-t ''");
	free(data);
	free(exe);
}

/* perf options perfev does not have: refused in one line that names what
 * to use instead, before any file is read. */
Test(interop_report, perf_options_refused_with_reason, .timeout = 10)
{
	static const struct { const char *cmd, *options, *instead; } cases[] = {
		{"report", "--stdio2", "--stdio"},      {"report", "-v", "script -F"},
		{"report", "-D", "--json"},             {"script", "-D", "--json"},
		{"script", "--dump-unsorted-raw-trace", "--json"},
		{"script", "-v", "stderr"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r = run_cmd("%s %s -i /no/such.data %s", PERFEV_BIN, cases[i].cmd, cases[i].options);
		cr_expect_eq(r.status, 1, "perfev %s %s: status %d", cases[i].cmd, cases[i].options, r.status);
		const char *nl = r.err ? strchr(r.err, '\n') : NULL;
		cr_expect(nl && !nl[1] && strstr(r.err, cases[i].instead) && !strstr(r.err, "unknown option"),
			  "perfev %s %s: %s", cases[i].cmd, cases[i].options, r.err);
		run_result_free(&r);
	}
}
