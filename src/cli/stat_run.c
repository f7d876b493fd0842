/*
 * stat_run.c — perfev stat's run: the target from the options, Ctrl-C,
 * the command started and waited for (-I: the intervals printed on the
 * way), -r's repeats, and the counts printed at the end. The counting
 * itself is the library's (perfev/counter.h, stat.h).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "cmd_stat.h"
#include "perfev.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t forward_pid;

/* SIGINT from the terminal reaches the command too; one sent to perfev
 * alone (kill) is passed on, so the command ends and its counts print. */
static void on_sigint(int sig, siginfo_t *si, void *uc)
{
	interrupted = 1;
	if (forward_pid > 0 && si && si->si_code <= 0)
		kill((pid_t)forward_pid, sig);
}

static void on_sigchld(int sig) {}

/* Ctrl-C ends the counting, not perfev: the counts are printed. */
static void catch_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_sigaction = on_sigint;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct sigaction sc = {0};
	sc.sa_handler = on_sigchld;
	sigaction(SIGCHLD, &sc, NULL);
	/* SIGCHLD and SIGINT are taken only inside ppoll: no lost wake-up */
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

char *stat_describe(const struct stat_opts *o)
{
	char *s = NULL;
	if (o->pid) {
		if (asprintf(&s, "process id '%d'", (int)o->pid) < 0)
			s = NULL;
	} else if (o->tid) {
		if (asprintf(&s, "thread id '%d'", (int)o->tid) < 0)
			s = NULL;
	} else if (o->cpus && !o->system_wide) {
		if (asprintf(&s, "'CPU(s) %s'", o->cpus) < 0)
			s = NULL;
	} else if (o->system_wide || o->cgroup) {
		s = strdup("'system wide'");
	} else {
		size_t len = 3;
		for (char **a = o->argv; *a; a++)
			len += strlen(*a) + 1;
		s = malloc(len);
		if (!s)
			return NULL;
		strcpy(s, "'");
		for (char **a = o->argv; *a; a++) {
			strcat(s, *a);
			if (a[1])
				strcat(s, " ");
		}
		strcat(s, "'");
	}
	return s;
}

/* How the counts print (the interval's fields aside). */
static struct perfev_stat_output output_opts(const struct stat_run *r)
{
	const struct stat_opts *o = r->o;
	struct perfev_stat_output so = {sizeof(so), o->format, o->sep, r->what};
	so.metrics = r->metrics;
	so.metric_only = o->metric_only || o->topdown;
	so.no_merge = o->no_merge;
	so.null_run = o->null_run;
	so.table = o->table;
	/* perf: thousands separators by default in text, as the locale has them */
	so.big_num = o->big_num < 0 ? o->format == PERFEV_STAT_TEXT : o->big_num;
	return so;
}

/* -v: each event's raw count, enabled and running time, summed over the
 * places, as perf stat -v prints them on stderr */
static void print_raw(const struct stat_run *r, const struct perfev_counters *c)
{
	if (!r->o->verbose)
		return;
	for (size_t ev = 0; ev < perfev_evlist_count(r->list); ev++) {
		struct perfev_count sum = {0}, v;
		for (size_t pl = 0; pl < perfev_counters_nr_places(c); pl++)
			if (perfev_counters_get(c, ev, pl, &v) == 0)
				sum.val += v.val, sum.ena += v.ena, sum.run += v.run;
		fprintf(stderr, "%s: %llu %llu %llu\n", perfev_evsel_name(perfev_evlist_at(r->list, ev)),
			(unsigned long long)sum.val, (unsigned long long)sum.ena, (unsigned long long)sum.run);
	}
}

/* -I: the counts of the interval that ended at t (since last) */
static void print_interval(struct stat_run *r, struct perfev_counters *c, uint64_t t, uint64_t last,
			   uint64_t start)
{
	perfev_counters_read(c);
	print_raw(r, c);
	perfev_stat_add_interval(r->stat, c, t - last);
	struct perfev_stat_output so = output_opts(r);
	so.interval = true;
	so.interval_ts = (double)(t - start) / 1e9;
	so.interval_header = r->first_interval;
	if (!r->o->quiet)
		perfev_stat_print(r->stat, r->out, &so);
	r->first_interval = false;
}

/* --timeout: the command is ended (SIGTERM, as perf), the counting stops
 * when it has; the run is not a failure */
static void end_command(struct stat_run *r, struct perfev_child *ch, bool *ending)
{
	if (ch && !*ending)
		kill(perfev_child_pid(ch), SIGTERM);
	*ending = true;
	r->ended_early = true;
}

/* Whether the command (ch), or else the target or Ctrl-C, has ended: 1
 * (the command's wait status in *ws, *ru), 0 not yet, -1 after saying what
 * failed. */
static int ended(struct perfev_child *ch, const struct perfev_target *t, int *ws, struct rusage *ru)
{
	if (!ch)
		return interrupted || perfev_target_ended(t);
	int w = perfev_child_poll(ch, ws, ru);
	if (w == 0 || w == -EAGAIN)
		return w == 0;
	cli_error("stat", "%s", perfev_errmsg());
	return -1;
}

/* Sleeps ms (-1: until a signal); SIGCHLD and SIGINT, blocked elsewhere, wake it. */
static void nap(long ms)
{
	sigset_t none;
	sigemptyset(&none);
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	ppoll(NULL, 0, ms < 0 ? NULL : &ts, &none);
}

/* Waits for the command to end (or Ctrl-C, or the target process to end),
 * printing intervals on the way. Returns 0, or 1 on a failure. */
static int wait_loop(struct stat_run *r, struct perfev_counters *c, struct perfev_child *ch,
		     const struct perfev_target *target, uint64_t start, int *wstatus, struct rusage *ru)
{
	const struct stat_opts *o = r->o;
	uint64_t iv = (uint64_t)o->interval_ms * 1000000ULL, next = start + iv, last = start;
	uint64_t deadline = o->timeout_ms ? start + (uint64_t)o->timeout_ms * 1000000ULL : 0;
	long intervals = 0;
	bool ending = false; /* the command was told to end (--timeout, --interval-count) */
	for (;;) {
		int e = ended(ch, target, wstatus, ru);
		if (e < 0)
			return 1;
		if (e || (!ch && ending))
			break;
		long timeout_ms = ch ? -1 : 100;
		uint64_t t = now_ns();
		if (deadline && !ending) {
			if (t >= deadline) {
				end_command(r, ch, &ending);
				continue;
			}
			long ms = (long)((deadline - t + 999999) / 1000000);
			timeout_ms = timeout_ms < 0 || ms < timeout_ms ? ms : timeout_ms;
		}
		if (iv && !ending) {
			if (t >= next) {
				print_interval(r, c, t, last, start);
				last = t;
				next += iv;
				if (next <= t)
					next = t + iv;
				if (o->interval_count && ++intervals == o->interval_count) {
					/* perf prints no more, and waits for the command */
					iv = 0; /* (no last, partial interval) */
					ending = !ch;
				}
				continue;
			}
			long ms = (long)((next - t + 999999) / 1000000);
			timeout_ms = timeout_ms < 0 || ms < timeout_ms ? ms : timeout_ms;
		}
		nap(timeout_ms);
	}
	if (iv) { /* the last, partial interval */
		uint64_t t = now_ns();
		perfev_counters_disable(c);
		print_interval(r, c, t, last, start);
	}
	return 0;
}

static struct perfev_target target_of(const struct stat_run *r)
{
	const struct stat_opts *o = r->o;
	struct perfev_target t = {sizeof(t)};
	t.no_inherit = o->no_inherit;
	t.keep_unsupported = true;
	t.cpus = r->cpus;
	if (o->cgroup) {
		t.kind = PERFEV_TARGET_CGROUP;
		t.cgroup = o->cgroup;
	} else if (o->system_wide || o->cpus) {
		t.kind = PERFEV_TARGET_CPUS;
	} else if (o->pid) {
		t.kind = PERFEV_TARGET_PROCESS;
		t.pid = o->pid;
	} else if (o->tid) {
		t.kind = PERFEV_TARGET_THREAD;
		t.pid = o->tid;
	} else {
		t.kind = PERFEV_TARGET_CHILD;
	}
	return t;
}

/* After the wait: the counts collected, the command's status and CPU time. */
static int collect(struct stat_run *r, struct perfev_counters *c, struct perfev_child *ch, int ws,
		   const struct rusage *ru, uint64_t elapsed)
{
	const struct stat_opts *o = r->o;
	if (!o->interval_ms) {
		perfev_counters_disable(c);
		if (perfev_counters_read(c) < 0 || perfev_stat_add(r->stat, c, elapsed) < 0)
			return cli_error("stat", "%s", perfev_errmsg());
		print_raw(r, c);
	}
	if (ch) {
		/* ended by --timeout: perf's status is 0 */
		r->exit_code = r->ended_early && WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM ? 0 : perfev_exit_code(ws);
		perfev_stat_set_rusage(r->stat, ru);
		if (WIFSIGNALED(ws) && WTERMSIG(ws) != SIGINT)
			fprintf(stderr, "%s: %s\n", o->argv[0], strsignal(WTERMSIG(ws)));
	}
	return 0;
}

/* -D: waits the delay out; 1 when it passed, 0 when the command (or the
 * target, or Ctrl-C) ended first, -1 after saying what failed. */
static int delay(struct stat_run *r, struct perfev_child *ch, const struct perfev_target *t, int *ws,
		 struct rusage *ru)
{
	uint64_t until = now_ns() + (uint64_t)r->o->delay_ms * 1000000ULL;
	for (uint64_t now; (now = now_ns()) < until;) {
		int e = ended(ch, t, ws, ru);
		if (e)
			return e < 0 ? -1 : 0;
		long ms = (long)((until - now + 999999) / 1000000);
		nap(!ch && ms > 100 ? 100 : ms); /* (a target's end is polled) */
	}
	return 1;
}

/* Counts from c's open to the end of the command or target (ch: the command,
 * or NULL), then collects. */
static int count(struct stat_run *r, struct perfev_counters *c, struct perfev_child *ch,
		 const struct perfev_target *t)
{
	const struct stat_opts *o = r->o;
	uint64_t start = now_ns();
	if (o->delay_ms)
		fprintf(stderr, "Events disabled\n");
	else if (t->kind != PERFEV_TARGET_CHILD && perfev_counters_enable(c) < 0)
		return cli_error("stat", "%s", perfev_errmsg());
	if (ch) {
		forward_pid = perfev_child_pid(ch);
		if (perfev_child_start(ch) < 0) {
			int status = cli_error("stat", "%s", perfev_errmsg());
			int ws;
			perfev_child_wait(ch, &ws, NULL);
			r->exit_code = perfev_exit_code(ws);
			return status;
		}
	}
	int ws = 0;
	struct rusage ru;
	if (o->delay_ms) { /* -D: counting starts (and the time with it) after the delay */
		int w = delay(r, ch, t, &ws, &ru);
		if (w < 0)
			return 1;
		if (w == 0) { /* the command ended before the delay: nothing counted */
			forward_pid = 0;
			return collect(r, c, ch, ws, &ru, 0);
		}
		if (perfev_counters_enable(c) < 0)
			return cli_error("stat", "%s", perfev_errmsg());
		fprintf(stderr, "Events enabled\n");
		start = now_ns();
	}
	if (wait_loop(r, c, ch, t, start, &ws, &ru))
		return 1;
	forward_pid = 0;
	return collect(r, c, ch, ws, &ru, now_ns() - start);
}

/* One run: open, (start the command), wait, read, collect. */
static int run_once(struct stat_run *r)
{
	const struct stat_opts *o = r->o;
	struct perfev_child *ch = NULL;
	struct perfev_target t = target_of(r);
	if (o->argv) {
		ch = perfev_child_new(o->argv);
		if (!ch)
			return cli_error("stat", "%s", perfev_errmsg());
		if (t.kind == PERFEV_TARGET_CHILD)
			t.pid = perfev_child_pid(ch);
		/* -D: the command's counters start disabled, not at its exec */
		if (t.kind == PERFEV_TARGET_CHILD && o->delay_ms)
			t.kind = PERFEV_TARGET_PROCESS;
	}
	struct perfev_counters *c = perfev_counters_open(r->list, &t);
	if (!c && (errno == EACCES || errno == EPERM) && perfev_stat_user_fallback(r->list, &t))
		c = perfev_counters_open(r->list, &t);
	if (!c) {
		cli_error("stat", "%s", perfev_errmsg());
		perfev_child_free(ch);
		return 1;
	}
	int status = count(r, c, ch, &t);
	forward_pid = 0;
	perfev_counters_close(c);
	perfev_child_free(ch);
	return status;
}

/* A vendor event that could not open: say why (the model is not this CPU's,
 * or the kernel refused it), beside perf's bare "<not supported>". */
static void vendor_notes(const struct stat_run *r)
{
	char why[512];
	perfev_cpu_model_mismatch(why, sizeof(why));
	size_t failed = 0;
	const char *first = NULL;
	for (size_t i = 0; i < perfev_evlist_count(r->list); i++) {
		const struct perfev_evsel *e = perfev_evlist_at(r->list, i);
		struct perfev_stat_value v;
		if (!(perfev_evsel_flags(e) & PERFEV_EVSEL_VENDOR) ||
		    perfev_stat_value(r->stat, i, 0, &v) < 0 || !v.status)
			continue;
		if (!*why) /* the model is this CPU's: the kernel's own refusal */
			fprintf(stderr, "perfev stat: %s: <not supported>: %s\n", perfev_evsel_name(e),
				strerror(-v.status));
		failed++;
		first = first ? first : perfev_evsel_name(e);
	}
	if (failed && *why)
		fprintf(stderr, "perfev stat: %s%s%zu vendor event%s <not supported>: %s\n", first,
			failed > 1 ? " and others: " : ": ", failed, failed > 1 ? "s" : "", why);
}

/* --pre/--post: the shell command, which must succeed; 0, or 1 after
 * saying how it failed (the runs stop there) */
static int shell_step(const char *opt, const char *cmd)
{
	if (!cmd)
		return 0;
	fflush(NULL);
	int ws = system(cmd);
	if (ws == -1)
		return cli_error("stat", "%s '%s': cannot run the shell: %s", opt, cmd, strerror(errno));
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
		return 0;
	if (WIFSIGNALED(ws))
		return cli_error("stat", "%s '%s' was killed by %s: the runs stop here", opt, cmd,
				 strsignal(WTERMSIG(ws)));
	return cli_error("stat", "%s '%s' exited with %d: the runs stop here", opt, cmd, WEXITSTATUS(ws));
}

int stat_run(struct stat_run *r)
{
	const struct stat_opts *o = r->o;
	int status = 0;
	catch_signals();
	struct perfev_stat_output so = output_opts(r);
	if (so.big_num)
		setlocale(LC_NUMERIC, ""); /* (the separator is the locale's, as perf's) */
	for (int i = 0; i < o->repeat && !status; i++) {
		if (o->verbose && o->repeat > 1)
			fprintf(stderr, "[ perfev stat: executing run #%d ... ]\n", i + 1);
		if ((status = shell_step("--pre", o->pre)))
			break;
		status = run_once(r);
		if (!status)
			status = shell_step("--post", o->post);
		if (interrupted)
			break;
	}
	if (!status)
		vendor_notes(r);
	if (!status && !o->interval_ms && !o->quiet && perfev_stat_print(r->stat, r->out, &so) < 0)
		status = cli_error("stat", "%s", perfev_errmsg());
	if (!status && o->argv)
		status = r->exit_code;
	else if (status && r->exit_code)
		status = r->exit_code;
	return status;
}
