/* perfev script on perf's tracepoint recordings: the `trace` field (and the
 * default tracepoint line) equal perf script's, read through the file's
 * TRACING_DATA; perfev's own TRACING_DATA read back by perf. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *record_tracepoints(const char *opts, const char *cmd)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/tp.data", test_tmpdir());
	bool pipe = !strcmp(opts, "pipe");
	struct run_result r = run_cmd("perf record -q %s -e sched:sched_switch "
				      "-e syscalls:sys_enter_openat -o %s%s%s -- %s", pipe ? "" : opts,
				      pipe ? "- >'" : "'", path, "'", cmd);
	if (r.status != 0)
		cr_skip_test("perf record of tracepoints fails here: %s", r.err);
	run_result_free(&r);
	return path;
}

static void compare_all(const char *path)
{
	compare_script(path, "trace");
	compare_script(path, "comm,tid,cpu,time,event,trace");
	/* the default fields of a tracepoint sample */
	struct run_result p = run_cmd("perf script -i '%s' 2>/dev/null", path);
	struct run_result q = run_cmd("%s script -i '%s'", PERFEV_BIN, path);
	cr_assert_eq(q.status, 0, "%s", q.err);
	cr_assert_gt(p.out_len, 0);
	cr_assert_str_eq(q.out, p.out, "default output differs");
	run_result_free(&p);
	run_result_free(&q);
}

Test(interop_tracepoint, script_trace_of_a_command, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *path = record_tracepoints("", "sh -c 'for f in /etc/hostname /etc/passwd; do "
						  "cat $f >/dev/null; done; sleep 0.02'");
	compare_all(path);
}

/* pipe mode: the formats come as a TRACING_DATA record and its payload */
Test(interop_tracepoint, script_trace_of_a_pipe, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *path = record_tracepoints("pipe", "sh -c 'cat /etc/hostname >/dev/null; sleep 0.02'");
	compare_all(path);
}

Test(interop_tracepoint, script_trace_system_wide, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	/* every task on every CPU: many comms, states and openat arguments */
	const char *path = record_tracepoints("-a", "sleep 0.2");
	compare_all(path);
}

struct ringbuf {
	struct perfev_perfdata_writer *w;
	int n;
};

static int to_file(void *ctx, const void *rec, size_t size)
{
	struct ringbuf *b = ctx;
	cr_assert_eq(perfev_perfdata_writer_write(b->w, rec, size), 0, "%s", perfev_errmsg());
	b->n++;
	return 0;
}

/* perfev writes sched_switch samples of a command (file or pipe mode) with
 * its TRACING_DATA; perf script decodes them as perfev script does. */
static void perf_reads_perfevs_tracing_data(bool pipe)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	int64_t id = perfev_tp_event_id("sched", "sched_switch");
	cr_assert_gt(id, 0, "%s", perfev_errmsg());
	struct perfev_attr a = {0};
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.comm = 1;
	a.sample_id_all = 1;
	char path[256];
	snprintf(path, sizeof(path), "%s/perfev-tp.data", test_tmpdir());
	struct perfev_perfdata_event ev = {&a, "sched:sched_switch", NULL, 0};
	struct perfev_perfdata_write_opts wo = {.sz = sizeof(wo), .pipe = pipe};
	struct ringbuf b = {perfev_perfdata_writer_open(path, -1, &ev, 1, &wo), 0};
	cr_assert(b.w, "%s", perfev_errmsg());
	char *argv[] = {"/bin/sh", "-c", "sleep 0.02; sleep 0.02", NULL};
	pid_t pid = fork();
	int go[2];
	(void)go;
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		raise(SIGSTOP);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, WUNTRACED);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fds[64];
	struct perfev_ring *rings[64];
	for (long i = 0; i < ncpu && i < 64; i++) {
		fds[i] = perfev_open(&a, pid, (int)i, -1, 0);
		cr_assert_geq(fds[i], 0, "%s", perfev_errmsg());
		rings[i] = perfev_ring_mmap(fds[i], 16, false);
		cr_assert(rings[i]);
	}
	kill(pid, SIGCONT);
	waitpid(pid, &st, 0);
	for (long i = 0; i < ncpu && i < 64; i++) {
		perfev_ring_drain(rings[i], to_file, &b);
		perfev_ring_munmap(rings[i]);
		close(fds[i]);
	}
	cr_assert_eq(perfev_perfdata_writer_close(b.w), 0, "%s", perfev_errmsg());
	cr_assert_gt(b.n, 2, "only %d records", b.n);
	struct run_result p = run_cmd("perf script -i '%s' -F trace", path);
	struct run_result q = run_cmd("%s script -i '%s' -F trace", PERFEV_BIN, path);
	cr_assert_eq(p.status, 0, "perf script: %s", p.err);
	cr_assert(strstr(p.out, "prev_comm=sleep"), "perf did not decode perfev's file:\n%s\n%s",
		  p.out, p.err);
	cr_assert_str_eq(q.out, p.out);
	run_result_free(&p);
	run_result_free(&q);
}

Test(interop_tracepoint, perf_reads_perfevs_file, .timeout = 60)
{
	perf_reads_perfevs_tracing_data(false);
}

Test(interop_tracepoint, perf_reads_perfevs_pipe, .timeout = 60)
{
	perf_reads_perfevs_tracing_data(true);
}

/* perf report --stdio --sort with tracepoint fields (perf's dynamic keys)
 * against perfev_tp_report, the tip perf appends cut off. */
static void compare_report(const char *path, const char *sort)
{
	struct run_result p = run_cmd("perf report -i '%s' --stdio --sort '%s' 2>/dev/null | "
				      "sed '/^# (Tip:/,$d' | sed '$d'", path, sort);
	cr_assert_gt(p.out_len, 0, "perf report --sort %s printed nothing", sort);
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert(pd, "%s", perfev_errmsg());
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int r = perfev_tp_report(pd, sort, f);
	fclose(f);
	perfev_perfdata_close(pd);
	cr_assert_eq(r, 0, "--sort %s: %s", sort, perfev_errmsg());
	cr_assert_str_eq(text, p.out, "--sort %s differs", sort);
	/* without perf's first line, the header hint (report --header's view) */
	static const char hint[] = "# To display the perf.data header info, please use --header/--header-only "
				   "options.\n#\n";
	cr_assert_eq(strncmp(text, hint, sizeof(hint) - 1), 0, "%s", text);
	char *nohint = NULL;
	size_t nlen = 0;
	f = open_memstream(&nohint, &nlen);
	pd = perfev_perfdata_open(path);
	struct perfev_tp_report_opts o = {.sz = sizeof(o), .no_header_hint = true};
	cr_assert_eq(perfev_tp_report_with(pd, sort, f, &o), 0, "%s", perfev_errmsg());
	fclose(f);
	perfev_perfdata_close(pd);
	cr_assert_str_eq(nohint, text + sizeof(hint) - 1, "--sort %s, no hint", sort);
	free(nohint);
	free(text);
	/* and through the command */
	struct run_result q = run_cmd("%s report -i '%s' --sort '%s'", PERFEV_BIN, path, sort);
	cr_assert_eq(q.status, 0, "%s", q.err);
	cr_assert_str_eq(q.out, p.out, "perfev report --sort %s differs", sort);
	run_result_free(&q);
	run_result_free(&p);
}

Test(interop_tracepoint, report_sort_by_fields, .timeout = 120)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *path = record_tracepoints("-a", "sleep 0.2");
	static const char *const sorts[] = {"prev_comm", "sched_switch.next_comm,prev_state",
					    "sched:sched_switch.prev_state,prev_prio", "filename",
					    "flags", "next_pid", "trace", "prev_comm,trace"};
	for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
		compare_report(path, sorts[i]);
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_tp_report(pd, "no_such_field", f), -ENOENT);
	fclose(f);
	free(text);
	perfev_perfdata_close(pd);
	cr_assert(strstr(perfev_errmsg(), "no_such_field"), "%s", perfev_errmsg());
	struct run_result r = run_cmd("%s report -i '%s' --sort no_such_field", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "no_such_field") && strstr(r.err, "tracepoint fields"), "%s", r.err);
	run_result_free(&r);
}

/* perfev record of tracepoints (file and pipe): perf script decodes the
 * fields through perfev's TRACING_DATA, and perfev script prints the same. */
static void perfev_records_tracepoints(bool pipe)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	char path[256];
	snprintf(path, sizeof(path), "%s/rec.data", test_tmpdir());
	struct run_result r = run_cmd("%s record -e sched:sched_switch -e syscalls:sys_enter_openat "
				      "-o %s%s -- sh -c 'cat /etc/hostname >/dev/null; sleep 0.02'",
				      PERFEV_BIN, pipe ? "- > " : "", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	struct run_result p = run_cmd("perf script -i '%s' 2>/dev/null", path);
	struct run_result q = run_cmd("%s script -i '%s'", PERFEV_BIN, path);
	cr_assert(strstr(p.out, "syscalls:sys_enter_openat: dfd: 0xffffff9c, filename: 0x") &&
		  strstr(p.out, "sched:sched_switch: prev_comm="), "perf script:\n%s", p.out);
	cr_assert_str_eq(q.out, p.out);
	run_result_free(&p);
	run_result_free(&q);
}

Test(interop_tracepoint, perfev_record_file, .timeout = 60) { perfev_records_tracepoints(false); }
Test(interop_tracepoint, perfev_record_pipe, .timeout = 60) { perfev_records_tracepoints(true); }
