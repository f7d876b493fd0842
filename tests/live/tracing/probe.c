/* uprobes and kprobes against the real kernel: exact counts, and nothing
 * left behind in tracefs. */
#define _GNU_SOURCE
#include "support.h"
#include "support_dynevents.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 1234

static void require_uprobes(void)
{
	require_root();
	require_tracefs();
	if (access("/sys/bus/event_source/devices/uprobe/type", R_OK) != 0 &&
	    access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no uprobe PMU and no tracefs uprobe_events (CONFIG_UPROBE_EVENTS)");
}

/* Runs `calls_n calls N` with the probe counting on it; returns the count. */
static uint64_t count_calls(const char *spec, struct perfev_probe **keep)
{
	struct perfev_probe *p = perfev_probe_new(spec);
	cr_assert(p, "probe %s: %s", spec, perfev_errmsg());
	char n[16];
	snprintf(n, sizeof(n), "%d", N);
	char *argv[] = {(char *)WORKLOAD("calls_n"), "calls", n, NULL};
	struct held_child c = hold_child(argv);
	struct perfev_attr a = *perfev_probe_attr(p);
	int fd = perfev_open(&a, c.pid, -1, -1, 0);
	cr_assert_geq(fd, 0, "open %s: %s", spec, perfev_errmsg());
	cr_assert_eq(release_child(&c), 0);
	uint64_t v = read_count(fd);
	close(fd);
	if (keep)
		*keep = p;
	else
		perfev_probe_free(p);
	return v;
}

Test(live_probe, uprobe_counts_entries_and_returns)
{
	require_uprobes();
	unsetenv("PERFEV_PROBE_TRACEFS");
	uint64_t in = count_calls("u:" WORKLOAD("calls_n") ":probe_target", NULL);
	cr_assert_eq(in, N, "entry probe counted %llu of %d calls", (unsigned long long)in, N);
	uint64_t out = count_calls("u:" WORKLOAD("calls_n") ":probe_target%return", NULL);
	cr_assert_eq(out, N, "return probe counted %llu of %d returns", (unsigned long long)out, N);
	cr_assert(!probe_events_mention(getpid()));
}

Test(live_probe, uprobe_through_tracefs_is_removed)
{
	require_uprobes();
	if (access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no tracefs uprobe_events here");
	setenv("PERFEV_PROBE_TRACEFS", "1", 1);
	struct perfev_probe *p = NULL;
	uint64_t in = count_calls("u:" WORKLOAD("calls_n") ":probe_target", &p);
	cr_assert_eq(in, N, "tracefs entry probe counted %llu of %d", (unsigned long long)in, N);
	cr_assert_not_null(perfev_probe_tracefs_event(p));
	cr_assert(probe_events_mention(getpid()), "the probe is not in uprobe_events");
	perfev_probe_free(p);
	cr_assert(!probe_events_mention(getpid()), "the probe is still in uprobe_events");
	uint64_t out = count_calls("u:" WORKLOAD("calls_n") ":probe_target%return", NULL);
	cr_assert_eq(out, N);
	cr_assert(!probe_events_mention(getpid()));
}

Test(live_probe, tracefs_probes_go_on_sigint_and_exit)
{
	require_uprobes();
	if (access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no tracefs uprobe_events here");
	for (int how = 0; how < 2; how++) {
		/* ready: the child's probe exists; go: the parent has seen it (the
		 * child must not exit before that, or the check below races it) */
		int ready[2], go[2];
		cr_assert(pipe(ready) == 0 && pipe(go) == 0);
		pid_t pid = fork();
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			setenv("PERFEV_PROBE_TRACEFS", "1", 1);
			signal(SIGINT, SIG_DFL);
			perfev_probe_cleanup_on_signals(); /* opt-in, as the CLI does */
			struct perfev_evlist *l = perfev_evlist_new();
			struct perfev_evsel *e = perfev_probe_add(l, "u:" WORKLOAD("calls_n") ":probe_target");
			if (!e)
				_exit(3);
			/* an open event keeps the probe busy: cleanup must close it */
			int fd = perfev_open(perfev_evsel_attr(e), 0, -1, -1, 0);
			if (fd < 0)
				_exit(4);
			close(go[1]);
			if (write(ready[1], "x", 1) != 1)
				_exit(5);
			char gc;
			/* how 0: SIGINT arrives while this waits */
			if (read(go[0], &gc, 1) != 1)
				_exit(6);
			perfev_evlist_free(l); /* the attr is copied: the fd stays open */
			exit(0); /* atexit path, fd still open */
		}
		close(ready[1]);
		close(go[0]);
		char c;
		cr_assert_eq(read(ready[0], &c, 1), 1, "the child could not create its probe");
		close(ready[0]);
		cr_assert(probe_events_mention(pid), "the child's probe is not in uprobe_events");
		if (how == 0)
			kill(pid, SIGINT);
		else
			cr_assert_eq(write(go[1], "g", 1), 1);
		close(go[1]);
		int st;
		waitpid(pid, &st, 0);
		if (how == 0)
			cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "status 0x%x", st);
		else
			cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
		cr_assert(!probe_events_mention(pid), "%s left the probe behind",
			  how ? "exit" : "SIGINT");
	}
}

/* The library installs no signal handler unasked: a tracefs probe leaves
 * SIGINT as it was until the program opts in. */
Test(live_probe, no_signal_handler_unless_asked)
{
	require_uprobes();
	if (access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no tracefs uprobe_events here");
	setenv("PERFEV_PROBE_TRACEFS", "1", 1);
	signal(SIGINT, SIG_DFL);
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_not_null(perfev_probe_add(l, "u:" WORKLOAD("calls_n") ":probe_target"), "%s", perfev_errmsg());
	struct sigaction sa;
	cr_assert_eq(sigaction(SIGINT, NULL, &sa), 0);
	cr_assert(sa.sa_handler == SIG_DFL, "a probe installed a SIGINT handler unasked");
	cr_assert_eq(perfev_probe_cleanup_on_signals(), 0);
	cr_assert_eq(sigaction(SIGINT, NULL, &sa), 0);
	cr_assert(sa.sa_handler != SIG_DFL, "asked, after a probe: no SIGINT handler");
	perfev_evlist_free(l);
	cr_assert_eq(perfev_probe_cleanup_all(), 0);
	cr_assert(!probe_events_mention(getpid()), "the probe was left behind");
}

Test(live_probe, missing_symbol_is_explained)
{
	require_uprobes();
	cr_assert_null(perfev_probe_new("u:" WORKLOAD("calls_n") ":no_such_fn"));
	cr_assert_eq(errno, ENOENT);
	cr_assert(strstr(perfev_errmsg(), "no_such_fn"), "%s", perfev_errmsg());
}

Test(live_probe, kprobe_counts_kernel_calls)
{
	require_root();
	require_tracefs();
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK) != 0 &&
	    access("/sys/kernel/tracing/kprobe_events", W_OK) != 0)
		cr_skip_test("this kernel has neither a kprobe PMU nor tracefs kprobe_events "
			     "(built without CONFIG_KPROBES)");
	/* `calls_n syscalls 10` makes exactly one write(2) */
	struct perfev_probe *p = perfev_probe_new("k:ksys_write");
	cr_assert(p, "%s", perfev_errmsg());
	char *argv[] = {(char *)WORKLOAD("calls_n"), "syscalls", "10", NULL};
	struct held_child c = hold_child(argv);
	struct perfev_attr a = *perfev_probe_attr(p);
	a.exclude_kernel = 0;
	int fd = perfev_open(&a, c.pid, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	cr_assert_eq(release_child(&c), 0);
	cr_assert_eq(read_count(fd), 1);
	close(fd);
	perfev_probe_free(p);
	cr_assert(!probe_events_mention(getpid()));
}

Test(live_probe, kprobe_absent_is_explained)
{
	require_root();
	require_tracefs();
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0 ||
	    access("/sys/kernel/tracing/kprobe_events", F_OK) == 0)
		cr_skip_test("this kernel has kprobes: nothing to explain");
	cr_assert_null(perfev_probe_new("k:ksys_write"));
	cr_assert_eq(errno, ENOTSUP);
	cr_assert(strstr(perfev_errmsg(), "CONFIG_KPROBES"), "%s", perfev_errmsg());
}

/* The event-string parser hands u:/k: to the probe module. */
Test(live_probe, event_strings_take_probes)
{
	require_uprobes();
	unsetenv("PERFEV_PROBE_TRACEFS");
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	int r = perfev_evlist_parse(l, "u:" WORKLOAD("calls_n") ":probe_target%return,task-clock", &err);
	cr_assert_eq(r, 0, "%s", err.msg);
	cr_assert_eq(perfev_evlist_count(l), 2);
	struct perfev_evsel *e = perfev_evlist_at(l, 0);
	cr_assert_str_eq(perfev_evsel_name(e), "probe_calls_n:probe_target__return");
	const struct perfev_attr *a = perfev_evsel_attr_const(e);
	cr_assert_str_eq((const char *)(uintptr_t)a->uprobe_path, WORKLOAD("calls_n"));
	cr_assert_neq(a->probe_offset, 0);
	cr_assert_eq(a->config & 1, 1, "the retprobe bit (format/retprobe config:0) is not set");
	r = perfev_evlist_parse(l, "u:" WORKLOAD("calls_n") ":nope", &err);
	cr_assert_eq(r, -ENOENT);
	cr_assert(strstr(err.msg, "nope"), "%s", err.msg);
	perfev_evlist_free(l);
}

/* A command that takes -e leaves no probe behind once it has ended. */
Test(live_probe, command_leaves_nothing_behind)
{
	require_uprobes();
	if (access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no tracefs uprobe_events here");
	struct run_result r = run_cmd("PERFEV_PROBE_TRACEFS=1 %s attr 'u:%s:probe_target' & "
				      "p=$!; wait $p; echo pid=$p", PERFEV_BIN, WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"type\": 2") || strstr(r.out, "\"type\":2"),
		  "not opened as a tracepoint: %s", r.out);
	const char *pid = strstr(r.out, "pid=");
	cr_assert(pid);
	cr_assert(!probe_events_mention(atoi(pid + 4)), "perfev attr left its probe in uprobe_events");
	run_result_free(&r);
}

/* The acceptance, through the command line: perfev stat counts N entries
 * and N returns, and no probe is left once perfev has ended. */
static void stat_probes(bool tracefs)
{
	require_uprobes();
	if (tracefs && access("/sys/kernel/tracing/uprobe_events", W_OK) != 0)
		cr_skip_test("no tracefs uprobe_events here");
	struct run_result r = run_cmd(
		"%s %s stat -e 'u:%s:probe_target,u:%s:probe_target%%return' -- %s calls %d 2>&1 & "
		"p=$!; wait $p; echo pid=$p", tracefs ? "PERFEV_PROBE_TRACEFS=1" : "", PERFEV_BIN,
		WORKLOAD("calls_n"), WORKLOAD("calls_n"), WORKLOAD("calls_n"), N);
	cr_assert_eq(r.status, 0, "%s", r.out);
	char want[160];
	snprintf(want, sizeof(want), "%d      %s", N, tracefs ? "perfev_" : "probe_calls_n:probe_target");
	const char *first = strstr(r.out, want);
	cr_assert(first, "no count of %d entries:\n%s", N, r.out);
	cr_assert(strstr(first + 1, want) && strstr(r.out, "probe_target__return"),
		  "no count of %d returns:\n%s", N, r.out);
	const char *pid = strstr(r.out, "pid=");
	cr_assert(pid);
	cr_assert(!probe_events_mention(atoi(pid + 4)), "a probe was left behind:\n%s", r.out);
	run_result_free(&r);
}

Test(live_probe, stat_counts_n_through_the_pmu) { stat_probes(false); }
Test(live_probe, stat_counts_n_through_tracefs) { stat_probes(true); }

/* A shared library by its name: `calls_n syscalls 25` calls libc's
 * syscall() 25 + 12 + 1 times. */
Test(live_probe, library_by_name)
{
	require_uprobes();
	struct run_result r = run_cmd("%s stat -e u:libc.so.6:syscall -- %s syscalls 25 2>&1",
				      PERFEV_BIN, WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.out);
	cr_assert(strstr(r.out, "38      probe_libc_so_6:syscall"), "%s", r.out);
	run_result_free(&r);
}
