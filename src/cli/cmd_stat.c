/*
 * cmd_stat.c — perfev stat: count events of a command, a process, threads,
 * CPUs or a cgroup, and print them as perf stat does. The counting, the
 * figures and the layouts are the library's (perfev/counter.h, stat.h).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "cli_events.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct opts {
	char *events;
	bool system_wide, no_inherit, per_place, per_thread;
	const char *cpus, *cgroup, *output, *sep;
	pid_t pid, tid;
	long interval_ms;
	int repeat;
	enum perfev_stat_format format;
	char **argv; /* the command, or NULL */
	/* --filter: each applies to the last event of events[0..at) */
	struct { size_t at; const char *expr; } filters[16];
	size_t nr_filters;
	const char *metrics;   /* -M */
	bool metric_only;      /* --metric-only */
	int detailed;          /* -d, -dd, -ddd */
	int topdown;           /* --topdown: the TMA level (--td-level) */
};

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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfev stat [-e EVENTS] [-a | -C CPUS | -p PID | -t TID | -G CGROUP]\n"
		"                   [-I MS] [-r N] [-x SEP | --json] [-o FILE] [--no-inherit]\n"
		"                   [-A] [--per-thread] [-- COMMAND [ARGS...]]\n\n"
		"Counts events while COMMAND runs (or, with -a/-C/-p/-t/-G and no command,\n"
		"until Ctrl-C or the process ends) and prints them as perf stat does.\n\n"
		"  -e, --event EVENTS  events in perf's syntax (repeatable); default: task-clock,\n"
		"                      context-switches, cpu-migrations, page-faults and the\n"
		"                      hardware cycles, instructions, branches, branch-misses\n"
		"  -a, --all-cpus      every CPU (system-wide)\n"
		"  -C, --cpu CPUS      these CPUs (\"0-3,7\")\n"
		"  -p, --pid PID       every thread of process PID\n"
		"  -t, --tid TID       thread TID only\n"
		"  -G, --cgroup NAME   tasks of a cgroup (on every CPU, or -C)\n"
		"  -I, --interval-print MS  print the counts of every MS milliseconds\n"
		"  -r, --repeat N      run COMMAND N times: mean and +- deviation\n"
		"  -x, --field-separator SEP  CSV output in perf's field order\n"
		"  -j, --json          one JSON object per line, perf's keys\n"
		"  -o, --output FILE   write the counts to FILE (default: stderr)\n"
		"  -i, --no-inherit    do not count the tasks COMMAND creates\n"
		"  -A, --no-aggr       one line per CPU (with -a/-C)\n"
		"      --per-thread    one line per thread (with -p/-t)\n"
		"      --filter EXPR   tracepoint filter for the -e event just before it\n"
		"  -M, --metrics LIST  metrics or metric groups ('perfev list metrics' and\n"
		"                      'perfev list metricgroups' show this CPU's; PERF_CPUID=MODEL\n"
		"                      another model's), computed from the counts\n"
		"      --metric-only   print the metrics alone, as columns\n"
		"  -d, --detailed      add L1 and last-level cache events; -dd adds TLB and\n"
		"                      instruction cache events, -ddd prefetches\n"
		"      --topdown       the TopdownL1 metrics, metric-only; --td-level 2 adds level 2\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	enum { OPT_PER_THREAD = 256, OPT_FILTER, OPT_METRIC_ONLY, OPT_TOPDOWN, OPT_TD_LEVEL };
	static const struct option lo[] = {
		{"event", required_argument, NULL, 'e'},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"pid", required_argument, NULL, 'p'},
		{"tid", required_argument, NULL, 't'},
		{"cgroup", required_argument, NULL, 'G'},
		{"interval-print", required_argument, NULL, 'I'},
		{"repeat", required_argument, NULL, 'r'},
		{"field-separator", required_argument, NULL, 'x'},
		{"json", no_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},
		{"no-inherit", no_argument, NULL, 'i'},
		{"no-aggr", no_argument, NULL, 'A'},
		{"per-thread", no_argument, NULL, OPT_PER_THREAD},
		{"filter", required_argument, NULL, OPT_FILTER},
		{"metrics", required_argument, NULL, 'M'},
		{"metric-only", no_argument, NULL, OPT_METRIC_ONLY},
		{"detailed", no_argument, NULL, 'd'},
		{"topdown", no_argument, NULL, OPT_TOPDOWN},
		{"td-level", required_argument, NULL, OPT_TD_LEVEL},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	char *end;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:aC:p:t:G:I:r:x:jo:iAhM:d", lo, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!o->events) {
				o->events = strdup(optarg);
			} else {
				char *n;
				if (asprintf(&n, "%s,%s", o->events, optarg) < 0)
					return cli_error("stat", "out of memory");
				free(o->events);
				o->events = n;
			}
			break;
		case 'a': o->system_wide = true; break;
		case 'C': o->cpus = optarg; break;
		case 'G': o->cgroup = optarg; break;
		case 'p':
		case 't': {
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0)
				return cli_error("stat", "-%c needs a process/thread id, not '%s'", c, optarg);
			*(c == 'p' ? &o->pid : &o->tid) = (pid_t)v;
			break;
		}
		case 'I':
			o->interval_ms = strtol(optarg, &end, 10);
			if (*end || o->interval_ms < 10)
				return cli_error("stat", "-I needs milliseconds, at least 10 (got '%s')", optarg);
			break;
		case 'r':
			o->repeat = (int)strtol(optarg, &end, 10);
			if (*end || o->repeat < 1 || o->repeat > 1000000)
				return cli_error("stat", "-r needs a number of runs >= 1 (got '%s')", optarg);
			break;
		case 'x':
		case 'j':
			if (o->format && o->format != (c == 'x' ? PERFEV_STAT_CSV : PERFEV_STAT_JSON))
				return cli_error("stat", "-x (CSV) and --json are two output formats: give one of them");
			o->format = c == 'x' ? PERFEV_STAT_CSV : PERFEV_STAT_JSON;
			if (c == 'x')
				o->sep = optarg;
			break;
		case 'o': o->output = optarg; break;
		case 'i': o->no_inherit = true; break;
		case 'A': o->per_place = true; break;
		case OPT_PER_THREAD: o->per_place = o->per_thread = true; break;
		case OPT_FILTER:
			if (o->nr_filters == sizeof(o->filters) / sizeof(o->filters[0]))
				return cli_error("stat", "at most 16 --filter options");
			o->filters[o->nr_filters].at = o->events ? strlen(o->events) : 0;
			o->filters[o->nr_filters++].expr = optarg;
			break;
		case 'M': o->metrics = optarg; break;
		case OPT_METRIC_ONLY: o->metric_only = true; break;
		case 'd': o->detailed++; break;
		case OPT_TOPDOWN: o->topdown = o->topdown ? o->topdown : 1; break;
		case OPT_TD_LEVEL:
			o->topdown = (int)strtol(optarg, &end, 10);
			if (*end || o->topdown < 1 || o->topdown > 2)
				return cli_error("stat", "--td-level is 1 or 2 (got '%s')", optarg);
			break;
		case 'h': usage(stdout); exit(0);
		default:
			return cli_bad_option("stat", usage, c, argv);
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	int targets = (o->system_wide || o->cpus) + !!o->pid + !!o->tid;
	if (targets > 1)
		return cli_error("stat", "choose one target: -a/-C, -p or -t");
	if (o->cgroup && (o->pid || o->tid))
		return cli_error("stat", "-G counts a cgroup on CPUs: it cannot be combined with -p/-t");
	if (!o->argv && !targets && !o->cgroup)
		return cli_usage_error("stat", usage, "nothing to count: give a command (perfev stat -- CMD) "
				       "or a target (-a, -C, -p, -t, -G)");
	if (o->repeat > 1 && !o->argv)
		return cli_error("stat", "-r repeats a command: give one after --");
	if (o->repeat > 1 && o->interval_ms)
		return cli_error("stat", "-r and -I do not go together: choose one");
	if (o->per_place && !o->per_thread && !o->system_wide && !o->cpus && !o->cgroup)
		return cli_error("stat", "-A prints one line per CPU: use it with -a or -C");
	if (o->per_thread && !o->pid && !o->tid)
		return cli_error("stat", "--per-thread needs -p or -t");
	if (o->topdown && o->metrics)
		return cli_error("stat", "--topdown is the TopdownL1 metrics: give it or -M, not both");
	if (o->metric_only && !o->metrics && !o->topdown)
		return cli_error("stat", "--metric-only prints metrics: give them with -M (or --topdown)");
	if (o->detailed > 3)
		return cli_error("stat", "-d goes up to -ddd");
	if (!o->repeat)
		o->repeat = 1;
	return 0;
}

/* perf stat -d/-dd/-ddd: its detailed cache events */
static int detailed_events(struct perfev_evlist *l, int level)
{
	static const char *const d[] = {
		"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
		"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
		"L1-dcache-prefetches,L1-dcache-prefetch-misses",
	};
	for (int i = 0; i < level; i++)
		if (perfev_evlist_parse(l, d[i], NULL) < 0)
			return -errno;
	return 0;
}

/* The default set: software events that work everywhere, then the hardware
 * ones (kept as <not supported> where they cannot open). Kernel time is
 * left out where perf_event_paranoid forbids it to this user, as perf's
 * fallback does (the names get perf's ":u"). */
static int default_events(struct perfev_evlist *l)
{
	static const struct { uint32_t type; uint64_t config; const char *name; } d[] = {
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations"},
		{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches"},
		{PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses"},
	};
	bool user_only = false;
	if (geteuid() != 0) {
		struct perfev_sysctl s;
		perfev_sysctl_read(&s);
		user_only = s.paranoid >= 2;
	}
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		struct perfev_attr a = {0};
		char name[64];
		a.type = d[i].type;
		a.config = d[i].config;
		a.exclude_kernel = a.exclude_hv = user_only;
		snprintf(name, sizeof(name), "%s%s", d[i].name, user_only ? ":u" : "");
		if (!perfev_evlist_add(l, &a, name))
			return -errno;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static char *describe(const struct opts *o)
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

struct run {
	const struct opts *o;
	struct perfev_evlist *list;
	struct perfev_metrics *metrics;
	struct perfev_stat *stat;
	struct perfev_cpus *cpus;
	FILE *out;
	char *what;
	int exit_code;
	bool first_interval;
};

/* The -p/-t target has ended: gone, or a zombie its parent has not reaped. */
static bool target_gone(const struct opts *o)
{
	pid_t p = o->pid ? o->pid : o->tid;
	if (!p)
		return false;
	if (kill(p, 0) < 0 && errno == ESRCH)
		return true;
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *rp = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

/* Waits for the command to end (or Ctrl-C, or the target process to end),
 * printing intervals on the way. Returns 0, or 1 on a failure. */
static int wait_loop(struct run *r, struct perfev_counters *c, struct perfev_child *ch,
		     uint64_t start, int *wstatus, struct rusage *ru)
{
	const struct opts *o = r->o;
	sigset_t none;
	sigemptyset(&none);
	uint64_t iv = (uint64_t)o->interval_ms * 1000000ULL, next = start + iv, last = start;
	for (;;) {
		if (ch) {
			int w = perfev_child_poll(ch, wstatus, ru);
			if (w == 0)
				break;
			if (w != -EAGAIN)
				return cli_error("stat", "%s", perfev_errmsg());
		} else if (interrupted || target_gone(o)) {
			break;
		}
		long timeout_ms = ch ? -1 : 100;
		uint64_t t = now_ns();
		if (iv) {
			if (t >= next) {
				perfev_counters_read(c);
				perfev_stat_add_interval(r->stat, c, t - last);
				struct perfev_stat_output so = {sizeof(so), o->format, o->sep, r->what, true,
								(double)(t - start) / 1e9, r->first_interval};
				so.metrics = r->metrics;
				so.metric_only = o->metric_only || o->topdown;
				perfev_stat_print(r->stat, r->out, &so);
				r->first_interval = false;
				last = t;
				next += iv;
				if (next <= t)
					next = t + iv;
				continue;
			}
			long ms = (long)((next - t + 999999) / 1000000);
			timeout_ms = timeout_ms < 0 || ms < timeout_ms ? ms : timeout_ms;
		}
		struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
		ppoll(NULL, 0, timeout_ms < 0 ? NULL : &ts, &none);
	}
	if (iv) { /* the last, partial interval */
		uint64_t t = now_ns();
		perfev_counters_disable(c);
		perfev_counters_read(c);
		perfev_stat_add_interval(r->stat, c, t - last);
		struct perfev_stat_output so = {sizeof(so), o->format, o->sep, r->what, true,
						(double)(t - start) / 1e9, r->first_interval};
		so.metrics = r->metrics;
		so.metric_only = o->metric_only || o->topdown;
		perfev_stat_print(r->stat, r->out, &so);
	}
	return 0;
}

/*
 * perf's fallback: where perf_event_paranoid forbids kernel counting to this
 * user, events that did not ask for kernel space explicitly (no :k, so
 * exclude_user is clear) count user space only and are named with ":u".
 * An explicit kernel request, or CPU-wide counting, still fails with the
 * explanation. Returns true if anything changed.
 */
static bool user_fallback(struct perfev_evlist *l, const struct perfev_target *t)
{
	if (geteuid() == 0 || t->kind == PERFEV_TARGET_CPUS || t->kind == PERFEV_TARGET_CGROUP)
		return false;
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < 2)
		return false;
	bool changed = false;
	for (size_t i = 0; i < perfev_evlist_count(l); i++) {
		struct perfev_evsel *e = perfev_evlist_at(l, i);
		struct perfev_attr *a = perfev_evsel_attr(e);
		if (a->exclude_kernel || a->exclude_user)
			continue;
		a->exclude_kernel = a->exclude_hv = 1;
		char name[512];
		snprintf(name, sizeof(name), "%s:u", perfev_evsel_name(e));
		perfev_evsel_set_name(e, name);
		changed = true;
	}
	errno = EACCES;
	return changed;
}

/* One run: open, (start the command), wait, read, collect. */
static int run_once(struct run *r)
{
	const struct opts *o = r->o;
	struct perfev_child *ch = NULL;
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
	if (o->argv) {
		ch = perfev_child_new(o->argv);
		if (!ch)
			return cli_error("stat", "%s", perfev_errmsg());
		if (t.kind == PERFEV_TARGET_CHILD)
			t.pid = perfev_child_pid(ch);
	}
	struct perfev_counters *c = perfev_counters_open(r->list, &t);
	if (!c && (errno == EACCES || errno == EPERM) && user_fallback(r->list, &t))
		c = perfev_counters_open(r->list, &t);
	if (!c) {
		cli_error("stat", "%s", perfev_errmsg());
		perfev_child_free(ch);
		return 1;
	}
	int status = 0;
	uint64_t start = now_ns();
	if (t.kind != PERFEV_TARGET_CHILD && perfev_counters_enable(c) < 0) {
		status = cli_error("stat", "%s", perfev_errmsg());
		goto out;
	}
	if (ch) {
		forward_pid = perfev_child_pid(ch);
		if (perfev_child_start(ch) < 0) {
			status = cli_error("stat", "%s", perfev_errmsg());
			int ws;
			perfev_child_wait(ch, &ws, NULL);
			r->exit_code = perfev_exit_code(ws);
			goto out;
		}
	}
	int ws = 0;
	struct rusage ru;
	if (wait_loop(r, c, ch, start, &ws, &ru)) {
		status = 1;
		goto out;
	}
	forward_pid = 0;
	uint64_t elapsed = now_ns() - start;
	if (!o->interval_ms) {
		perfev_counters_disable(c);
		if (perfev_counters_read(c) < 0 || perfev_stat_add(r->stat, c, elapsed) < 0) {
			status = cli_error("stat", "%s", perfev_errmsg());
			goto out;
		}
	}
	if (ch) {
		r->exit_code = perfev_exit_code(ws);
		perfev_stat_set_rusage(r->stat, &ru);
		if (WIFSIGNALED(ws) && WTERMSIG(ws) != SIGINT)
			fprintf(stderr, "%s: %s\n", o->argv[0], strsignal(WTERMSIG(ws)));
	}
out:
	forward_pid = 0;
	perfev_counters_close(c);
	perfev_child_free(ch);
	return status;
}

/* A vendor event that could not open: say why (the model is not this CPU's,
 * or the kernel refused it), beside perf's bare "<not supported>". */
static void vendor_notes(const struct run *r)
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

/* Each --filter goes to the last event of the -e options before it: the
 * events of that prefix of the list, counted by parsing it again. */
static int apply_filters(const struct opts *o, struct perfev_evlist *list)
{
	for (size_t i = 0; i < o->nr_filters; i++) {
		char *prefix = strndup(o->events, o->filters[i].at);
		struct perfev_evlist *tmp = perfev_evlist_new();
		size_t n = 0;
		if (prefix && tmp && perfev_evlist_parse(tmp, prefix, NULL) == 0)
			n = perfev_evlist_count(tmp);
		free(prefix);
		perfev_evlist_free(tmp);
		if (cli_set_filter("stat", list, n ? n - 1 : (size_t)-1, o->filters[i].expr) < 0)
			return -1;
	}
	return 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct opts o = {0};
	int status = parse_opts(argc, argv, &o);
	struct run r = {&o};
	r.first_interval = true;
	if (status)
		goto out;
	if (!(r.list = perfev_evlist_new())) {
		status = cli_error("stat", "%s", perfev_errmsg());
		goto out;
	}
	if (o.events) {
		if (cli_parse_events("stat", r.list, o.events) < 0 || apply_filters(&o, r.list) < 0) {
			status = 1;
			goto out;
		}
	} else if (o.nr_filters) {
		status = cli_error("stat", "--filter must follow a -e tracepoint");
		goto out;
	} else if (!o.metrics && !o.topdown && default_events(r.list) < 0) {
		status = cli_error("stat", "%s", perfev_errmsg());
		goto out;
	}
	if (o.detailed && detailed_events(r.list, o.detailed) < 0) {
		status = cli_error("stat", "-d: %s", perfev_errmsg());
		goto out;
	}
	if (o.metrics || o.topdown) {
		const char *spec = o.metrics ? o.metrics : o.topdown == 2 ? "TopdownL1,TopdownL2" : "TopdownL1";
		if (!(r.metrics = perfev_metrics_add(r.list, spec))) {
			status = cli_error("stat", "%s%s", o.metrics ? "-M: " : "--topdown: ", perfev_errmsg());
			goto out;
		}
	}
	if (o.cpus && !(r.cpus = perfev_cpus_parse(o.cpus))) {
		status = cli_error("stat", "-C: %s", perfev_errmsg());
		goto out;
	}
	if (r.cpus) { /* perf counts "<not supported>" on a CPU that is not there: say so */
		struct perfev_cpus *online = perfev_cpus_online();
		for (size_t i = 0; online && i < perfev_cpus_count(r.cpus); i++) {
			int cpu = perfev_cpus_at(r.cpus, i);
			if (!perfev_cpus_has(online, cpu)) {
				char list[256] = "";
				perfev_cpus_format(online, list, sizeof(list));
				status = cli_error("stat", "-C %s: CPU %d is not online here: give CPUs of %s",
						   o.cpus, cpu, list);
				break;
			}
		}
		perfev_cpus_free(online);
		if (status)
			goto out;
	}
	r.out = stderr;
	if (o.output) {
		if (!(r.out = fopen(o.output, "w"))) {
			status = cli_error("stat", "cannot write %s: %s", o.output, strerror(errno));
			goto out;
		}
		/* as perf, a file says when the counting began (ctime ends in \n) */
		time_t now = time(NULL);
		fprintf(r.out, "# started on %s\n", ctime(&now));
	}
	r.what = describe(&o);
	r.stat = perfev_stat_new(r.list, o.per_place ? PERFEV_AGGR_PLACE : PERFEV_AGGR_GLOBAL);
	if (!r.stat || !r.what) {
		status = cli_error("stat", "out of memory");
		goto out;
	}

	/* Ctrl-C ends the counting, not perfev: the counts are printed. */
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

	for (int i = 0; i < o.repeat && !status; i++) {
		status = run_once(&r);
		if (interrupted)
			break;
	}
	if (!status)
		vendor_notes(&r);
	if (!status && !o.interval_ms) {
		struct perfev_stat_output so = {sizeof(so), o.format, o.sep, r.what};
		so.metrics = r.metrics;
		so.metric_only = o.metric_only || o.topdown;
		if (perfev_stat_print(r.stat, r.out, &so) < 0)
			status = cli_error("stat", "%s", perfev_errmsg());
	}
	if (!status && o.argv)
		status = r.exit_code;
	else if (status && r.exit_code)
		status = r.exit_code;
out:
	if (r.out && r.out != stderr)
		fclose(r.out);
	perfev_stat_free(r.stat);
	perfev_metrics_free(r.metrics);
	perfev_cpus_free(r.cpus);
	perfev_evlist_free(r.list);
	free(r.what);
	free(o.events);
	return status;
}
CLI_COMMAND(stat, cmd_stat, "count events of a command, process or CPUs (perf stat)");
