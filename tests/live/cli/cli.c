/* The perfev command line under bad input: every mistake gets one message
 * naming the file or option and the fix, a non-zero exit, and nothing lost
 * (a killed recording is still read). */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PERFEV PERFEV_BIN

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* perfev record [extra] of workloads/spin in dir/name, SIGKILLed (perfev, then
 * its workload) after 1.5 s: the header is never finalized. */
static void record_killed(const char *dir, const char *name, const char *extra)
{
	struct run_result r = run_cmd(
		"cd %s && { %s record -e cpu-clock -F 4000 -m 2 %s -- %s 4000 2>/dev/null & rp=$!; "
		"sleep 1.5; ch=$(pgrep -P $rp); kill -9 $rp; wait $rp 2>/dev/null; "
		"[ -n \"$ch\" ] && kill -9 $ch; true; }",
		dir, PERFEV, extra, WORKLOAD("spin"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
}

Test(live_cli, killed_recording_is_read_with_a_warning, .timeout = 60)
{
	require_root();
	const char *dir = test_tmpdir();
	record_killed(dir, "killed.data", "-o killed.data");
	struct run_result r = run_cmd("cd %s && %s script -i killed.data", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	int n = count_lines(r.out);
	cr_assert_gt(n, 100, "%d samples read from a killed recording:\n%s", n, r.err);
	cr_assert(strstr(r.out, "spin_kernel"), "%.400s", r.out);
	cr_assert(strstr(r.err, "killed.data was not closed cleanly"), "%s", r.err);
	cr_assert_eq(count_lines(r.err), 1, "one warning, once:\n%s", r.err);
	run_result_free(&r);

	r = run_cmd("cd %s && %s report -i killed.data --stdio --sort sym", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "spin_kernel"), "%s", r.out);
	cr_assert(strstr(r.err, "warning: killed.data was not closed cleanly"), "%s", r.err);
	run_result_free(&r);

	/* perf 6.1 warns about the same file ("data size field is 0") and, on
	 * perf's own killed recordings as on this one, reads no sample: only
	 * the warning is compared. */
	if (system("perf --version >/dev/null 2>&1") == 0) {
		r = run_cmd("cd %s && perf script -i killed.data", dir);
		cr_assert(strstr(r.err, "data size field is 0"), "%s", r.err);
		cr_log_info("perf script on the killed file: exit %d, %d lines", r.status, count_lines(r.out));
		run_result_free(&r);
	}
}

Test(live_cli, killed_pipe_recording_is_read_up_to_the_cut, .timeout = 60)
{
	require_root();
	const char *dir = test_tmpdir();
	record_killed(dir, "pipe.data", "-o - > pipe.data");
	/* cut inside its last record, as a writer killed mid-write leaves it
	 * (the stream itself ends on a record: whole records are written) */
	struct run_result r = run_cmd("cd %s && head -c $(($(stat -c %%s pipe.data) - 1)) pipe.data > cut.data && "
				      "%s script -i - < cut.data", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_gt(count_lines(r.out), 100, "%s", r.err);
	cr_assert(strstr(r.err, "standard input was not closed cleanly"), "%s", r.err);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i cut.data", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "cut.data was not closed cleanly"), "%s", r.err);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && %s report -i cut.data --stdio --sort sym", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "spin_kernel"), "%s", r.out);
	cr_assert(strstr(r.err, "warning: cut.data was not closed cleanly: it ends inside the record"), "%s", r.err);
	run_result_free(&r);
}

/* One line on stderr, naming what and how to fix it, and exit 1. */
static void one_line_error(struct run_result *r, const char *must)
{
	cr_assert_eq(r->status, 1, "exit %d: %s", r->status, r->err);
	cr_assert_eq(count_lines(r->err), 1, "%s", r->err);
	cr_assert(strstr(r->err, must), "no '%s' in: %s", must, r->err);
	cr_assert_eq(r->out_len, 0, "%s", r->out);
}

Test(live_cli, bad_inputs_name_the_file)
{
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s script -i /etc", dir, PERFEV);
	one_line_error(&r, "/etc is a directory");
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i no-such.data", dir, PERFEV);
	one_line_error(&r, "cannot open no-such.data: No such file or directory");
	run_result_free(&r);
	r = run_cmd("cd %s && : > empty.data && %s script -i empty.data", dir, PERFEV);
	one_line_error(&r, "empty.data is empty");
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i /bin/sh", dir, PERFEV);
	one_line_error(&r, "/bin/sh is not a perf.data file");
	run_result_free(&r);
	r = run_cmd("cd %s && %s report -i /etc --stdio", dir, PERFEV);
	one_line_error(&r, "/etc is a directory");
	run_result_free(&r);
	/* -i - on a terminal waited for input that never comes */
	if (system("command -v script >/dev/null") == 0) {
		r = run_cmd("script -qc '%s script -i -; echo status=$?' /dev/null </dev/null", PERFEV);
		cr_assert(strstr(r.out, "standard input is a terminal, not a recording"), "%s", r.out);
		cr_assert(strstr(r.out, "status=1"), "%s", r.out);
		run_result_free(&r);
		/* and record -o - to a terminal wrote binary on it */
		r = run_cmd("script -qc '%s record -o - -- true; echo status=$?' /dev/null </dev/null", PERFEV);
		cr_assert(strstr(r.out, "standard output is a terminal"), "%s", r.out);
		cr_assert(strstr(r.out, "status=1") && !strstr(r.out, "PERFILE2"), "%s", r.out);
		run_result_free(&r);
	}
	/* numbers that were read as 0 (the first event, the idle task) */
	static const char *const report_bad[][2] = {{"--event abc", "--event 'abc'"},
		{"--pid abc", "--pid 'abc'"}, {"--tid 1x", "--tid '1x'"}, {"--time 1,x", "--time '1,x': '1,x' is not START,END"}};
	for (size_t i = 0; i < sizeof(report_bad) / sizeof(report_bad[0]); i++) {
		r = run_cmd("cd %s && %s report %s", dir, PERFEV, report_bad[i][0]);
		one_line_error(&r, report_bad[i][1]);
		run_result_free(&r);
	}
	r = run_cmd("%s addr2line -e /etc/passwd 0x10", PERFEV);
	one_line_error(&r, "/etc/passwd: file format not recognized");
	run_result_free(&r);
	r = run_cmd("%s stat -a -C 4096 -e task-clock", PERFEV);
	one_line_error(&r, "CPU 4096 is not online here");
	run_result_free(&r);
	r = run_cmd("%s record -F 100 -c 1000 -- true", PERFEV);
	one_line_error(&r, "cannot set frequency and period at the same time");
	run_result_free(&r);
	r = run_cmd("%s record -z30 -- true", PERFEV);
	one_line_error(&r, "zstd levels go from 1 to 22");
	run_result_free(&r);
	r = run_cmd("%s record --compression-level=fast -- true", PERFEV);
	one_line_error(&r, "-z 'fast': want a positive number");
	run_result_free(&r);
}

/* A damaged file named other than perf.data: the message names it. */
Test(live_cli, errors_name_the_actual_file)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -e cpu-clock -o good.data -- true 2>/dev/null && "
				      "cp good.data bad.data && "
				      "printf '\\377\\377' | dd of=bad.data bs=1 seek=8 conv=notrunc 2>/dev/null && "
				      "%s script -i bad.data",
				      dir, PERFEV, PERFEV);
	one_line_error(&r, "bad.data: header size");
	cr_assert(!strstr(r.err, "perf.data:"), "%s", r.err);
	run_result_free(&r);
}

/* A command that cannot be executed: one line saying why and the shell's
 * status, the same from every command; from record no "Captured" lines,
 * no output file, and the previous recording kept. */
Test(live_cli, record_of_a_missing_command)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && echo previous > prev.data && "
				      "%s record -o prev.data -- perfev-no-such-command", dir, PERFEV);
	cr_assert_eq(r.status, 127, "%s", r.err);
	cr_assert_str_eq(r.err, "perfev record: cannot run 'perfev-no-such-command': command not found (not a "
				"file in any directory of PATH)\n");
	run_result_free(&r);
	r = run_cmd("cd %s && cat prev.data && ls", dir);
	cr_assert_str_eq(r.out, "previous\nprev.data\n", "the old file must stay, no .old, no new file");
	run_result_free(&r);
	r = run_cmd("cd %s && %s record -o new.data -- /etc/passwd; echo status=$?; ls", dir, PERFEV);
	cr_assert_str_eq(r.err, "perfev record: cannot run '/etc/passwd': permission denied (not executable, or "
				"on a noexec mount): chmod +x it\n");
	cr_assert(strstr(r.out, "status=126\nprev.data\n"), "%s", r.out);
	run_result_free(&r);
	/* stat, trace and watch say it as record does */
	r = run_cmd("%s stat -e task-clock -- perfev-no-such-command", PERFEV);
	cr_assert_eq(r.status, 127, "%s", r.err);
	cr_assert_str_eq(r.err, "perfev stat: cannot run 'perfev-no-such-command': command not found (not a "
				"file in any directory of PATH)\n");
	run_result_free(&r);
	r = run_cmd("%s trace -s -- /no/such/dir/cmd", PERFEV);
	cr_assert_eq(r.status, 127, "%s", r.err);
	cr_assert_str_eq(r.err, "perfev trace: cannot run '/no/such/dir/cmd': command not found (no such file)\n");
	run_result_free(&r);
	r = run_cmd("%s watch main -- /etc", PERFEV);
	cr_assert_eq(r.status, 126, "%s", r.err);
	cr_assert_str_eq(r.err, "perfev watch: cannot run '/etc': it is a directory, not a program\n");
	run_result_free(&r);
}

Test(live_cli, stat_refuses_two_output_formats)
{
	struct run_result r = run_cmd("%s stat -x, --json -e task-clock true", PERFEV);
	one_line_error(&r, "-x (CSV) and --json");
	run_result_free(&r);
	r = run_cmd("%s stat --json -x, -e task-clock true", PERFEV);
	one_line_error(&r, "give one of them");
	run_result_free(&r);
}

Test(live_cli, trace_without_a_target)
{
	struct run_result r = run_cmd("%s trace -s", PERFEV);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "nothing to trace: give a command (perfev trace -- CMD ARGS), -p PID or -a"),
		  "%s", r.err);
	cr_assert(strstr(r.err, "usage: perfev trace"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s trace -s -o", PERFEV);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "'-o' needs a value"), "%s", r.err);
	run_result_free(&r);
}

/* Every command: --help is the usage on stdout and 0; a bogus option, and
 * each option without its value, name the option, show the usage line and
 * exit 1; without arguments a command needing some says what is missing. */
static const struct {
	const char *cmd;
	bool runs_bare;      /* no arguments is a valid command line */
	const char *value_opts[32];
} commands[] = {
	{"addr2line", true, {"-e", "--exe"}},
	{"annotate", true, {"-i", "--input", "-s", "--symbol", "-d", "--dsos", "--percent-type", "-M",
			    "--disassembler-style", "--symfs", "--kallsyms", "--event", "--min-percent"}},
	{"attr", false, {0}},
	{"buildid-list", true, {"-i", "--input"}},
	{"evlist", true, {"-i", "--input"}},
	{"list", true, {0}},
	{"record", false, {"-e", "--event", "-F", "--freq", "-c", "--count", "--call-graph", "-C", "--cpu",
			   "-p", "--pid", "-t", "--tid", "-m", "--mmap-pages", "-o", "--output", "--filter",
			   "--flame", "--pprof", "--firefox", "--folded", "-k", "--clockid"}},
	/* (report's -g/--call-graph take their value optionally, as perf's) */
	{"report", true, {"-i", "--input", "-s", "--sort", "--percent-limit", "--flame",
			  "--pprof", "--firefox", "--comm", "--pid", "--tid", "--dso", "--symbol", "--time",
			  "--value", "--event", "--kallsyms", "--title", "-t", "--field-separator", "--pretty"}},
	{"script", true, {"-i", "--input", "-F", "--fields"}},
	{"stat", false, {"-e", "--event", "-C", "--cpu", "-p", "--pid", "-t", "--tid", "-G", "--cgroup", "-I",
			 "--interval-print", "-r", "--repeat", "-x", "--field-separator", "-o", "--output",
			 "--filter"}},
	{"trace", false, {"-p", "--pid", "-o", "--output", "-e", "--event", "--duration"}},
	{"watch", false, {"--len"}},
	{"version", true, {0}},
};

static void assert_usage_error(struct run_result *r, const char *cmdline, const char *must)
{
	cr_assert_eq(r->status, 1, "%s: exit %d\n%s", cmdline, r->status, r->err);
	cr_assert(strstr(r->err, must), "%s: no '%s' in:\n%s", cmdline, must, r->err);
	cr_assert(strstr(r->err, "usage: perfev "), "%s: no usage line in:\n%s", cmdline, r->err);
	cr_assert_eq(r->out_len, 0, "%s printed on stdout: %s", cmdline, r->out);
}

Test(live_cli, every_command_refuses_a_bad_command_line, .timeout = 120)
{
	const char *dir = test_tmpdir(); /* no perf.data, no a.out there */
	struct run_result r = run_cmd("%s --help", PERFEV);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		cr_assert(strstr(r.out, commands[i].cmd), "perfev --help lists %s:\n%s", commands[i].cmd, r.out);
	run_result_free(&r);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const char *c = commands[i].cmd;
		r = run_cmd("cd %s && %s %s --help", dir, PERFEV, c);
		cr_assert_eq(r.status, 0, "%s --help: %d %s", c, r.status, r.err);
		cr_assert(!strncmp(r.out, "usage: perfev ", 14), "%s --help:\n%s", c, r.out);
		cr_assert_eq(r.err_len, 0, "%s --help: %s", c, r.err);
		run_result_free(&r);
		r = run_cmd("cd %s && %s %s --bogus-option", dir, PERFEV, c);
		assert_usage_error(&r, c, "'--bogus-option'");
		run_result_free(&r);
		r = run_cmd("cd %s && %s %s --help=yes", dir, PERFEV, c);
		if (strcmp(c, "version") && strcmp(c, "attr") && strcmp(c, "list") &&
		    strcmp(c, "watch")) /* getopt_long's commands */
			assert_usage_error(&r, c, "option '--help' takes no value");
		run_result_free(&r);
		r = run_cmd("cd %s && %s %s -Q", dir, PERFEV, c);
		assert_usage_error(&r, c, "'-Q'");
		run_result_free(&r);
		if (!commands[i].runs_bare) {
			r = run_cmd("cd %s && %s %s </dev/null", dir, PERFEV, c);
			assert_usage_error(&r, c, "perfev ");
			run_result_free(&r);
		}
		for (size_t k = 0; commands[i].value_opts[k]; k++) {
			const char *o = commands[i].value_opts[k];
			r = run_cmd("cd %s && %s %s %s </dev/null", dir, PERFEV, c, o);
			char want[64];
			snprintf(want, sizeof(want), "option '%s' needs a value", o);
			char line[128];
			snprintf(line, sizeof(line), "perfev %s %s", c, o);
			assert_usage_error(&r, line, want);
			run_result_free(&r);
		}
	}
}

/* The benchmarks take numbers: --help is their usage, anything else refused
 * (selfmon_read --help used to run with 0 reads and print "inf ns"). */
Test(live_cli, benchmarks_have_usage)
{
	static const char *const benches[] = {"selfmon_read", "stat_startup", "record_overhead"};
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		struct run_result r = run_cmd("%s/bench/%s --help", PERFEV_BUILDDIR, benches[i]);
		cr_assert_eq(r.status, 0, "%s --help: %s", benches[i], r.err);
		cr_assert(!strncmp(r.out, "usage: ", 7), "%s --help: %s", benches[i], r.out);
		run_result_free(&r);
		r = run_cmd("%s/bench/%s --bogus", PERFEV_BUILDDIR, benches[i]);
		cr_assert_eq(r.status, 1, "%s --bogus: %d", benches[i], r.status);
		cr_assert(strstr(r.err, "usage: "), "%s --bogus: %s", benches[i], r.err);
		cr_assert(!strstr(r.out, "ns/read"), "%s --bogus ran: %s", benches[i], r.out);
		run_result_free(&r);
	}
}

/* -F trace on a file without tracepoints printed a blank line per sample. */
Test(live_cli, script_trace_field_without_tracepoints)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -e cpu-clock -o cc.data -- %s 50 2>/dev/null && "
				      "%s script -i cc.data -F trace", dir, PERFEV, WORKLOAD("spin"), PERFEV);
	one_line_error(&r, "Samples for 'cpu-clock' event do not have RAW attribute set. "
			   "Cannot print 'trace' field.");
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i cc.data -F sw:comm,trace", dir, PERFEV);
	one_line_error(&r, "do not have RAW attribute set");
	run_result_free(&r);
}

/* With a tracepoint in the file, the other events print nothing, as perf. */
Test(live_cli, script_trace_field_with_a_tracepoint)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -e cpu-clock,syscalls:sys_enter_write -o mix.data "
				      "-- %s 20 2>/dev/null && %s script -i mix.data -F trace",
				      dir, PERFEV, WORKLOAD("writes"), PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "\n\n") && r.out[0] != '\n', "blank lines:\n%s", r.out);
	cr_assert_geq(count_lines(r.out), 20, "%s", r.out);
	struct run_result p = run_cmd("cd %s && perf script -i mix.data -F trace 2>/dev/null", dir);
	cr_assert_str_eq(r.out, p.out);
	run_result_free(&p);
	run_result_free(&r);
}

/* u:PATH:SYMBOL+OFFSET inside an instruction is refused, naming the
 * boundaries around it (objdump tells where they are); a boundary is taken. */
Test(live_cli, uprobe_offset_inside_an_instruction)
{
	struct run_result d = run_cmd("objdump -d --no-show-raw-insn %s | awk '/<main>:/,/^$/' | "
				      "sed -n 's/^ *\\([0-9a-f]*\\):.*/\\1/p'", WORKLOAD("calls"));
	if (d.status || !d.out_len)
		cr_skip_test("objdump cannot disassemble %s: %s", WORKLOAD("calls"), d.err);
	unsigned long long a[64];
	int n = 0;
	for (char *p = d.out; n < 64 && *p; n++) {
		a[n] = strtoull(p, &p, 16);
		while (*p == '\n')
			p++;
	}
	run_result_free(&d);
	int i = 0;
	while (i + 1 < n && a[i + 1] - a[i] < 2)
		i++;
	cr_assert_lt(i + 1, n, "main has no instruction longer than one byte?");
	unsigned long long start = a[i] - a[0], end = a[i + 1] - a[0];
	struct run_result r = run_cmd("%s attr 'u:%s:main+%llu'", PERFEV, WORKLOAD("calls"), start + 1);
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	char want[160];
	snprintf(want, sizeof(want), "main+%llu is not on an instruction boundary", start + 1);
	cr_assert(strstr(r.err, want), "no '%s' in %s", want, r.err);
	snprintf(want, sizeof(want), "probe at main+%llu or main+%llu", start, end);
	cr_assert(strstr(r.err, want), "no '%s' in %s", want, r.err);
	run_result_free(&r);
	r = run_cmd("%s attr 'u:%s:main+%llu'", PERFEV, WORKLOAD("calls"), end);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s attr 'u:%s:main+0x100000'", PERFEV, WORKLOAD("calls"));
	cr_assert_eq(r.status, 1, "%s", r.out);
	cr_assert(strstr(r.err, "past the end of main"), "%s", r.err);
	run_result_free(&r);
}

/* -q: errors only. */
Test(live_cli, record_quiet)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q -e cpu-clock -o q.data -- %s 30 && "
				      "%s script -i q.data | wc -l", dir, PERFEV, WORKLOAD("spin"), PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(r.err_len, 0, "-q printed: %s", r.err);
	cr_assert_gt(atoi(r.out), 10, "%s", r.out);
	run_result_free(&r);
}

/* -k CLOCK as perf record: use_clockid/clockid in the attrs, the CLOCKID and
 * CLOCK_DATA features; perf script reads the file and shows the times in
 * that clock (realtime: seconds since 1970) and the tod field. */
Test(live_cli, record_clockid, .timeout = 60)
{
	require_root();
	require_perf_tool();
	const char *dir = test_tmpdir();
	static const struct {
		const char *arg, *perf_name;
		int id;
	} clocks[] = {{"realtime", "realtime", 0},         {"CLOCK_MONOTONIC_RAW", "monotonic_raw", 4},
		      {"mono", "monotonic", 1},            {"7", "boottime", 7},
		      {"TAI", "tai", 11}};
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		struct run_result r = run_cmd("cd %s && %s record -q -k %s -e cpu-clock -o k.data -- %s 30 && "
					      "perf report -i k.data --header-only 2>&1 | grep clockid",
					      dir, PERFEV, clocks[i].arg, WORKLOAD("spin"));
		cr_assert_eq(r.status, 0, "-k %s: %s", clocks[i].arg, r.err);
		char want[64];
		snprintf(want, sizeof(want), "# clockid: %s (%d)", clocks[i].perf_name, clocks[i].id);
		cr_assert(strstr(r.out, want), "-k %s: no '%s' in\n%s", clocks[i].arg, want, r.out);
		cr_assert(strstr(r.out, "use_clockid = 1"), "%s", r.out);
		run_result_free(&r);
		/* perf script: times in that clock, and wall-clock tod */
		struct timespec now[2];
		clock_gettime(CLOCK_REALTIME, &now[0]);
		clock_gettime(clocks[i].id, &now[1]);
		r = run_cmd("cd %s && perf script -i k.data -F tod,time | tail -1", dir);
		cr_assert_eq(r.status, 0, "%s", r.err);
		int y = 0;
		double t = 0;
		cr_assert_eq(sscanf(r.out, "%d-%*d-%*d %*d:%*d:%*f %lf:", &y, &t), 2, "-k %s: %s", clocks[i].arg, r.out);
		cr_assert_geq(y, 2024, "%s", r.out);
		double ck = (double)now[1].tv_sec + now[1].tv_nsec * 1e-9;
		cr_assert(t <= ck && t > ck - 30, "-k %s: sample at %.6f, the clock reads %.6f now",
			  clocks[i].arg, t, ck);
		run_result_free(&r);
		r = run_cmd("cd %s && %s script -i k.data -F tod,time | tail -1 && "
			    "perf script -i k.data -F tod,time | tail -1", dir, PERFEV);
		char *nl = strchr(r.out, '\n');
		cr_assert(nl && !strncmp(r.out, nl + 1, (size_t)(nl - r.out)), "perfev and perf differ:\n%s", r.out);
		run_result_free(&r);
	}
	struct run_result r = run_cmd("%s record -k sundial -- true", PERFEV);
	one_line_error(&r, "unknown clockid 'sundial'");
	run_result_free(&r);
}

/* -o naming something that is not a recording: a device (as /dev/null)
 * is written to, never moved to .old (nor removed when the command cannot
 * run); a directory is refused; an empty file is not kept as .old. */
Test(live_cli, record_output_that_is_not_a_file)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && mknod null c 1 3 && %s record -q -o null -- true && "
				      "%s record -q -o null -- perfev-no-such-command; ls -l", dir, PERFEV, PERFEV);
	cr_assert(strstr(r.out, "crw"), "the device was replaced:\n%s", r.out);
	cr_assert(!strstr(r.out, "null.old"), "the device was moved:\n%s", r.out);
	run_result_free(&r);
	r = run_cmd("cd %s && mkdir d && %s record -o d -- true", dir, PERFEV);
	one_line_error(&r, "d is a directory: give the output file's name (-o d/perf.data)");
	run_result_free(&r);
	r = run_cmd("cd %s && : > e.data && %s record -q -o e.data -- true && ls", dir, PERFEV);
	cr_assert(!strstr(r.out, "e.data.old"), "%s", r.out);
	run_result_free(&r);
	/* a write error names the output, not "perf.data" */
	r = run_cmd("cd %s && mknod full c 1 7 && %s record -o full -- true", dir, PERFEV);
	one_line_error(&r, "to full: No space left on device");
	run_result_free(&r);
}

/* An export that cannot be written fails before the work (record does not
 * run the command, report prints nothing); a written one replaces a file of
 * that name whole, keeping its mode, and leaves no temporary behind. */
Test(live_cli, exports_checked_before_the_work, .timeout = 60)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q -e cpu-clock -o r.data --flame no/such/f.svg -- "
				      "touch ran; echo status=$?; ls", dir, PERFEV);
	cr_assert_str_eq(r.err, "perfev record: cannot write the flame graph to no/such/f.svg: No such file or "
				"directory (check the directory exists and is writable)\n");
	cr_assert_str_eq(r.out, "status=1\n", "the command ran or a file was made: %s", r.out);
	run_result_free(&r);
	r = run_cmd("cd %s && %s record -q -e cpu-clock -o r.data -- true && mkdir d && "
		    "%s report -q -i r.data --pprof d", dir, PERFEV, PERFEV);
	cr_assert_neq(r.status, 0);
	cr_assert_str_eq(r.out, "", "report printed before failing: %s", r.out);
	cr_assert_str_eq(r.err, "perfev report: cannot write the pprof profile to d: it is a directory "
				"(name a file in it)\n");
	run_result_free(&r);
	r = run_cmd("cd %s && echo old > f.svg && chmod 640 f.svg && %s report -q -i r.data --flame f.svg "
		    ">/dev/null && stat -c %%a f.svg && head -c 5 f.svg && echo && ls -a", dir, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "640\n<?xml\n.\n..\nd\nf.svg\nr.data\n", "%s", r.out);
	run_result_free(&r);
}

/* A filter that leaves no sample: the table stays perf's (empty), and a
 * note says which options did it and how to see what the file holds. */
Test(live_cli, filter_that_matches_nothing_says_so)
{
	require_corpus();
	struct run_result r = run_cmd("%s report -i %s/perf.data.callgraph-3.8 --comms nosuch --pid 7 --stdio",
				      PERFEV, CORPUS_DIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "# comm: nosuch"), "%s", r.out);
	cr_assert(strstr(r.err, "\nperfev report: note: none of the 1768 samples passed --comms nosuch --pid 7; "
			       "see what the file holds with --sort comm,pid,dso (and perfev script -F time "
			       "for its times)\n"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -q -i %s/perf.data.callgraph-3.8 --comms nosuch --stdio", PERFEV, CORPUS_DIR);
	cr_assert(!strstr(r.err, "passed"), "-q keeps it quiet: %s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -i %s/perf.data.callgraph-3.8 --comms chrome --stdio", PERFEV, CORPUS_DIR);
	cr_assert(!strstr(r.err, "passed"), "a filter some samples pass: no note: %s", r.err);
	run_result_free(&r);
}

/* A hardware trace perfev does not decode (Intel PT) is named, with what
 * the report shows instead, file and pipe mode alike. */
Test(live_cli, undecoded_hardware_trace_is_named)
{
	require_corpus();
	const char *files[] = {"perf.data.intel_pt-4.14", "perf.data.piped.intel_pt-4.14"};
	for (size_t i = 0; i < 2; i++) {
		struct run_result r = run_cmd("%s report -i %s/%s --stdio", PERFEV, CORPUS_DIR, files[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.err, "holds 0.1 MB of Intel PT trace, which perfev does not decode: this report "
				       "shows the sampled events only"), "%s: %s", files[i], r.err);
		cr_expect(strstr(r.out, "  of event 'cycles'"), "%s", r.out);
		run_result_free(&r);
		/* script refuses: perf script's lines are the decoded trace's */
		r = run_cmd("%s script -i %s/%s", PERFEV, CORPUS_DIR, files[i]);
		cr_expect_neq(r.status, 0);
		cr_expect(strstr(r.err, "perfev does not decode AUX traces"), "script %s: %s", files[i], r.err);
		run_result_free(&r);
	}
	struct run_result r = run_cmd("%s report -i %s/perf.data.callgraph-3.8 --stdio", PERFEV, CORPUS_DIR);
	cr_expect(!strstr(r.err, "trace"), "no trace, no note: %s", r.err);
	run_result_free(&r);
}

/* -C on a file whose samples do not record their CPU, or with a CPU the
 * recording machine did not have: one line each, the file named. */
Test(live_cli, cpu_filter_refusals)
{
	require_corpus();
	require_perf_tool();
	struct run_result r = run_cmd("cd %s && perf record -q -e cpu-clock -o nocpu.data -- true 2>/dev/null; "
				      "%s report -i nocpu.data -C 0", test_tmpdir(), PERFEV);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "nocpu.data: its samples do not say which CPU took them (record "
			       "with -a, -C or --sample-cpu): remove the CPU filter\n"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -i %s/perf.data.systemwide.1-3.8 -C 9", PERFEV, CORPUS_DIR);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "CPU 9 was not there: the recording machine had 4 CPUs (0-3)\n"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -i %s/perf.data.systemwide.1-3.8 -C x", PERFEV, CORPUS_DIR);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "bad -C 'x'"), "%s", r.err);
	run_result_free(&r);
}

/* -g on a file without call chains: the table, and a note saying why it has
 * no graphs (perf refuses with "no callchain or branch data"). */
Test(live_cli, graphs_asked_of_a_file_without_chains)
{
	require_corpus();
	struct run_result r = run_cmd("%s report -i %s/perf.data.systemwide.1-3.8 -g caller", PERFEV, CORPUS_DIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "perf.data.systemwide.1-3.8 records no call chains, so -g has nothing to draw "
			       "(record with -g or --call-graph dwarf)\n"), "%s", r.err);
	cr_expect(strstr(r.out, "# Overhead"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -i %s/perf.data.callgraph-3.8 -g caller", PERFEV, CORPUS_DIR);
	cr_expect(!strstr(r.err, "no call chains"), "%s", r.err);
	run_result_free(&r);
}

/* record --flame/--folded build the profile from the records as they are
 * written: the recording is opened for writing only, never read back, and
 * the exports are the ones perfev report makes of the file (the flame
 * graph's subtitle aside: report's names the file it read). fp and DWARF
 * call graphs. */
static void record_exports_live(const char *dir, const char *callgraph, const char *tag)
{
	/* LeakSanitizer cannot run under ptrace: off for the traced command */
	struct run_result r = run_cmd("cd %s && ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 strace -f -qq "
				      "-e trace=openat,open -o %s.trace %s record -q -e cpu-clock -F 2000 %s "
				      "--flame %s.svg --folded %s.folded -o %s.data -- %s 60 >/dev/null && "
				      "grep -F '\"%s.data\"' %s.trace | grep -v O_WRONLY; "
				      "grep -cF '\"%s.data\", O_WRONLY' %s.trace",
				      dir, tag, PERFEV, callgraph, tag, tag, tag, WORKLOAD("calls"), tag, tag, tag,
				      tag);
	cr_assert_str_eq(r.out, "1\n", "%s.data opened once, for writing, else: %s\n%s", tag, r.out, r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && %s report -q -i %s.data --flame r%s.svg >/dev/null && %s report -q -i %s.data --folded "
		    "> r%s.folded && diff %s.folded r%s.folded && diff %s.svg r%s.svg; grep -c '<g class=\"f\"' "
		    "%s.svg", dir, PERFEV, tag, tag, PERFEV, tag, tag, tag, tag, tag, tag, tag);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* the subtitle alone differs */
	char want[256];
	snprintf(want, sizeof(want), "119c119\n< <text id=\"subtitle\" x=\"600\" y=\"42\">");
	cr_assert(!strncmp(r.out, want, strlen(want)), "%s: exports differ:\n%s", tag, r.out);
	const char *from = strstr(r.out, "\n---\n> ");
	cr_assert(from && strstr(from, " from ") && strstr(from, ".data</text>\n"), "%s", r.out);
	const char *count = strrchr(r.out, '>');
	cr_assert(count && strtol(strchr(count, '\n') + 1, NULL, 10) > 10, "a flame graph of a few frames: %s",
		  r.out);
	run_result_free(&r);
}

Test(live_cli, record_exports_built_while_recording, .timeout = 180)
{
	require_root();
	struct run_result probe = run_cmd("strace -f -qq -e trace=openat -o /dev/null true");
	if (probe.status != 0)
		cr_skip_test("strace cannot trace here: %s", probe.err);
	run_result_free(&probe);
	const char *dir = test_tmpdir();
	record_exports_live(dir, "-g", "fp");
	record_exports_live(dir, "--call-graph dwarf", "dwarf");
}
