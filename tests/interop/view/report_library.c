/* perfev report is the library's report (perfev/report.h) over one open
 * file: strace counts the opens of the input for every view; a pipe-mode
 * stream (perf inject -o -) gives each view the file gives; a program that
 * links only libperfev and includes only <perfev.h> (examples/report.c)
 * prints what the command prints. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CORPUS_FILE(name) CORPUS_DIR "/perf.data." name

/* A tracepoint recording of this machine (sched_switch, system-wide). */
static const char *tracepoint_file(void)
{
	static char path[512];
	require_root();
	require_tracefs();
	snprintf(path, sizeof(path), "%s/tp.data", test_tmpdir());
	struct run_result r = run_cmd("%s record -q -e sched:sched_switch -a -o '%s' -- sleep 0.2", PERFEV_BIN, path);
	cr_assert_eq(r.status, 0, "perfev record: %s", r.err);
	run_result_free(&r);
	return path;
}

/* How many times `perfev report -i PATH ARGS` opens PATH (openat/open of it). */
static int opens_of(const char *path, const char *args)
{
	char log[512];
	snprintf(log, sizeof(log), "%s/strace.log", test_tmpdir());
	/* (LeakSanitizer cannot run under ptrace: off for the traced command) */
	struct run_result r = run_cmd("ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 strace -f -qq -e trace=openat,open "
				      "-o '%s' %s report -q -i '%s' %s > /dev/null", log, PERFEV_BIN, path, args);
	cr_assert_eq(r.status, 0, "perfev report -i %s %s: %s", path, args, r.err);
	run_result_free(&r);
	struct run_result c = run_cmd("grep -c -F '\"%s\"' '%s'", path, log);
	int n = atoi(c.out);
	run_result_free(&c);
	return n;
}

Test(interop_report_library, each_view_opens_the_file_once, .timeout = 180)
{
	require_corpus();
	struct run_result s = run_cmd("strace -V");
	if (s.status != 0)
		cr_skip_test("strace is not installed (scripts/deps.sh installs it)");
	run_result_free(&s);
	static const struct { const char *file, *args; } views[] = {
		{CORPUS_FILE("callgraph-3.8"), ""},
		{CORPUS_FILE("callgraph-3.8"), "--sort dso,sym"},
		{CORPUS_FILE("callgraph-3.8"), "--sort period,sym -n"},
		{CORPUS_FILE("callgraph-3.8"), "--json"},
		{CORPUS_FILE("callgraph-3.8"), "--header"},
		{CORPUS_FILE("callgraph-3.8"), "--stats"},
		{CORPUS_FILE("callgraph-3.8"), "--tasks"},
		{CORPUS_FILE("callgraph-3.8"), "--folded"},
		{CORPUS_FILE("branch-4.14"), ""},     /* the branch view, perf's default for it */
		{CORPUS_FILE("branch-4.14"), "-b --sort dso_from,symbol_to"},
		{CORPUS_FILE("branch-4.14"), "--sort sym"}, /* branch targets' entries */
		{CORPUS_FILE("branch-4.14"), "--no-branch-stack"},
		{CORPUS_FILE("weight_struct"), "--mem-mode"},
		{CORPUS_FILE("group_desc-4.14"), "--group"},
		{CORPUS_FILE("piped.target-3.8"), ""}, /* a saved stream */
	};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++)
		cr_expect_eq(opens_of(views[i].file, views[i].args), 1, "perfev report -i %s %s: opened %d times",
			     views[i].file, views[i].args, opens_of(views[i].file, views[i].args));
	const char *tp = tracepoint_file();
	cr_expect_eq(opens_of(tp, "--sort prev_comm,next_comm"), 1, "the tracepoint-field view");
}

/* Both ran, want printed a report, got printed the same; both freed. */
static void expect_same(struct run_result *want, struct run_result *got, const char *file, const char *args,
			const char *differs)
{
	cr_assert_eq(want->status, 0, "%s %s: %s", file, args, want->err);
	cr_assert_eq(got->status, 0, "%s %s: %s", file, args, got->err);
	cr_assert_gt(want->out_len, 100, "%s", want->out);
	cr_expect_str_eq(got->out, want->out, "%s %s: %s", file, args, differs);
	run_result_free(want);
	run_result_free(got);
}

/* The same view of a file and of a stream of it: perf inject -o - of a
 * file, or (the file itself a saved stream) the file through a pipe.
 * Corpus files recorded elsewhere leave kernel symbols out: a stream is
 * read with this machine's kernel, as perf reads one, a file with the
 * kernel it names. */
static void same_from_a_pipe(const char *file, const char *args, bool saved_stream)
{
	struct run_result f = run_cmd("%s report -q --kallsyms '' -i '%s' %s", PERFEV_BIN, file, args);
	struct run_result p = saved_stream
		? run_cmd("cat '%s' | %s report -q --kallsyms '' -i - %s", file, PERFEV_BIN, args)
		: run_cmd("perf inject -i '%s' -o - 2>/dev/null | %s report -q --kallsyms '' -i - %s", file,
			  PERFEV_BIN, args);
	expect_same(&f, &p, file, args, "the stream's report differs from the file's");
}

Test(interop_report_library, every_view_reads_a_pipe, .timeout = 300)
{
	require_root();
	require_corpus();
	require_perf_tool();
	char calls[512], tp[512];
	snprintf(calls, sizeof(calls), "%s/calls.data", test_tmpdir());
	snprintf(tp, sizeof(tp), "%s/tp.stream", test_tmpdir());
	struct run_result r = run_cmd("%s record -q -g -o '%s' -- %s && perf record -q -e sched:sched_switch -a "
				      "-o - -- sleep 0.2 > '%s' 2>/dev/null", PERFEV_BIN, calls, WORKLOAD("calls"), tp);
	cr_assert_eq(r.status, 0, "recording: %s", r.err);
	run_result_free(&r);
	same_from_a_pipe(calls, "", false);
	same_from_a_pipe(calls, "--no-children -g caller --sort dso,sym", false);
	same_from_a_pipe(calls, "--json", false);
	same_from_a_pipe(calls, "--tasks", false);
	same_from_a_pipe(CORPUS_FILE("branch-4.14"), "-b", false);
	same_from_a_pipe(CORPUS_FILE("branch-4.14"), "-b --sort sym", false);
	same_from_a_pipe(CORPUS_FILE("branch-4.14"), "-b --json", false);
	same_from_a_pipe(CORPUS_FILE("weight_struct"), "--mem-mode", false);
	same_from_a_pipe(tp, "--sort prev_comm,next_comm", true);
	same_from_a_pipe(CORPUS_FILE("piped.target-3.8"), "--sort comm,dso", true);
}

/* examples/report links libperfev.so and includes <perfev.h> alone. */
static void library_prints_the_report(const char *file, const char *args)
{
	struct run_result l = run_cmd("%s/examples/report %s '%s'", PERFEV_BUILDDIR, args, file);
	struct run_result c = run_cmd("%s report -q --stdio %s -i '%s'", PERFEV_BIN, args, file);
	expect_same(&c, &l, file, args, "the library program's report differs from perfev report's");
}

Test(interop_report_library, a_program_on_the_public_api_prints_the_report, .timeout = 120)
{
	require_corpus();
	struct run_result d = run_cmd("ldd %s/examples/report", PERFEV_BUILDDIR);
	cr_assert(strstr(d.out, "libperfev.so"), "examples/report does not link libperfev.so: %s", d.out);
	run_result_free(&d);
	library_prints_the_report(CORPUS_FILE("callgraph-3.8"), "");              /* call graphs, --children */
	library_prints_the_report(CORPUS_FILE("callgraph-3.8"), "--no-children -s dso,sym");
	library_prints_the_report(CORPUS_FILE("branch-4.14"), "");                /* the branch view */
	library_prints_the_report(CORPUS_FILE("callgraph_and_branch-3.8"), "");
}
