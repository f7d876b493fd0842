/* cmd_top.c — `perfev top`: perf top's live profile. The recorder samples
 * without a file (perfev_record_opts.no_output) and hands every record to a
 * profile builder; every -d seconds its tick shows a snapshot through the
 * report model (the table perfev report --stdio prints: as text, or in the
 * report's browser, whose keys the tick reads in between), then ages the
 * profile as perf top does (7/8, or -z: zero). */
#define _GNU_SOURCE
#include "cli.h"
#include "cli_events.h"
#include "browser/browser.h"
#include "perfev.h"

#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfev top [OPTIONS]\n\n"
		"A live profile of the whole system (or -C/-p/-t/-u), refreshed every -d seconds,\n"
		"as perf top shows it: the table perfev report --stdio prints, each entry aged\n"
		"to 7/8 at every refresh. Ctrl-C (q in the browser) ends it.\n\n"
		"  -e, --event EVENT       the event in perf's syntax (default: cycles, or\n"
		"                          cpu-clock where no PMU counts cycles)\n"
		"  -F, --freq HZ           samples per second (default 4000)\n"
		"  -c, --count PERIOD      a sample every PERIOD events instead\n"
		"  -a, --all-cpus          every CPU, every process (the default)\n"
		"  -C, --cpu CPUS          these CPUs, e.g. 0-3,5\n"
		"  -p, --pid PID           every thread of the running process PID\n"
		"  -t, --tid TID           the thread TID\n"
		"  -u, --uid USER          the processes of USER (a name or uid) running now\n"
		"  -g                      call graphs from frame pointers (and Children)\n"
		"  -K, --hide_kernel_symbols  drop the kernel's samples\n"
		"  -U, --hide_user_symbols    drop user space's samples\n"
		"  -d, --delay SECONDS     the refresh period (default 2; decimals work)\n"
		"  -z, --zero              show each period's samples alone (no history)\n"
		"      --stdio             print each refresh as text (the default when stdin or\n"
		"                          stdout is not a terminal), to log it; else a browser\n"
		"                          (perfev report's keys, and d delay, e lines, z zero,\n"
		"                          K/U hide kernel/user, q quit)\n"
		"  -s, --sort KEYS         perf report's keys (default dso,sym)\n"
		"  -E, --entries LINES     lines of the table shown (default: the terminal's\n"
		"                          height less the header, 20 off a terminal)\n"
		"      --percent-limit P   hide entries below P percent\n"
		"  -n, --iterations N      end after N refreshes (perfev's own, for scripts)\n");
}

struct top {
	struct perfev_record_opts o;
	struct perfev_evlist *events;
	struct perfev_report_opts ro;
	struct perfev_profile_load_opts lo; /* the builder's: what ro's table needs */
	struct perfev_recorder *rec;
	struct perfev_profile_builder *b;
	double delay;          /* seconds */
	long entries;          /* -E (0: the terminal's) */
	unsigned long iterations, shown;
	bool zero, hide_kernel, hide_user, stdio_forced, tty;
	const char *user;      /* -u's, as given */
	/* this period's samples, for perf's header */
	uint64_t samples, kernel_samples, exact_samples, lost_shown;
	double last_shown, next_show; /* CLOCK_MONOTONIC seconds */
	bool browse;           /* the live browser, else text */
	struct browser br;
	char title[512];       /* the browser's header: perf top's */
	struct perfev_profile *shown_p; /* the browser's model's profile */
	int err;               /* the builder's first failure */
	char errmsg[512];
};

static int feed(void *ctx, const struct perfev_record *rec)
{
	struct top *t = ctx;
	if (rec->type == PERF_RECORD_SAMPLE) {
		uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		t->samples++;
		t->kernel_samples += mode == PERF_RECORD_MISC_KERNEL;
		t->exact_samples += (rec->misc & PERF_RECORD_MISC_EXACT_IP) != 0;
	}
	if (perfev_profile_builder_add(t->b, rec) < 0 && !t->err) {
		t->err = errno ? errno : ENOMEM;
		snprintf(t->errmsg, sizeof(t->errmsg), "%s", perfev_errmsg());
		return -t->err; /* the recording ends with it */
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* perf top's header line (perf_top__header_snprintf), of the samples since
 * the last one (the rate over the time really gone by). */
static void header(struct top *t, char *h, size_t len)
{
	double now = now_s(), secs = now - t->last_shown;
	t->last_shown = now;
	double per_sec = secs > 0 ? (double)t->samples / secs : 0;
	double kpct = t->samples ? 100.0 * (double)t->kernel_samples / (double)t->samples : 0;
	double epct = t->samples ? 100.0 * (double)t->exact_samples / (double)t->samples : 0;
	struct perfev_record_stats s;
	perfev_recorder_stats(t->rec, &s);
	uint64_t lost = s.lost + s.lost_samples;
	size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(h + n, n < len ? len - n : 0, __VA_ARGS__))
	ADD("   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %llu/%llu drop: 0/0 [", per_sec, kpct, epct,
	    (unsigned long long)(lost - t->lost_shown), (unsigned long long)lost);
	t->lost_shown = lost;
	const struct perfev_attr *a = perfev_recorder_event_attr(t->rec, 0);
	if (perfev_recorder_nr_events(t->rec) == 1 && a)
		ADD("%llu%s ", (unsigned long long)a->sample_period, a->freq ? "Hz" : "");
	ADD("%s], ", perfev_recorder_event_name(t->rec, 0));
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (t->o.pid)
		ADD(" (target_pid: %d", (int)t->o.pid);
	else if (t->o.tid)
		ADD(" (target_tid: %d", (int)t->o.tid);
	else if (t->o.by_uid)
		ADD(" (uid: %s", t->user);
	else
		ADD(" (all");
	if (t->o.cpus)
		ADD(", CPU%s: %s)", strpbrk(t->o.cpus, ",-") ? "s" : "", t->o.cpus);
	else if (t->o.tid)
		ADD(")");
	else
		ADD(", %ld CPU%s)", ncpus, ncpus > 1 ? "s" : "");
#undef ADD
	t->samples = t->kernel_samples = t->exact_samples = 0;
}

/* The table's lines shown: -E, else the terminal's height less the header. */
static long max_lines(const struct top *t)
{
	if (t->entries > 0)
		return t->entries;
	struct winsize ws;
	if (t->tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 5)
		return ws.ws_row - 5;
	return 20;
}

/* The report model of the profile now (its profile in *p, the caller's
 * to free after the model); NULL with the error set. */
static struct perfev_report_model *snapshot(struct top *t, struct perfev_profile **p)
{
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	*p = perfev_profile_builder_snapshot(t->b, &info);
	if (!*p)
		return NULL;
	struct perfev_report_model *m = perfev_report_model_new_profile(*p, &info, &t->ro);
	if (!m) {
		int e = errno;
		perfev_profile_free(*p);
		*p = NULL;
		errno = e;
	}
	return m;
}

/* One refresh on stdout: the header, the snapshot's table; 0 or -errno. */
static int print_snapshot(struct top *t)
{
	struct perfev_profile *p;
	struct perfev_report_model *m = snapshot(t, &p);
	if (!m)
		return -errno;
	if (t->tty)
		fputs("\033[H\033[2J", stdout); /* perf's CONSOLE_CLEAR */
	char h[512];
	header(t, h, sizeof(h));
	printf("%s\n-------------------------------------------------------------------------------\n\n", h);
	long max = max_lines(t);
	struct perfev_report_model_info in = {.sz = sizeof(in)};
	perfev_report_model_info(m, &in);
	for (size_t i = 0; i < in.nr_lines && (long)i < max; i++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		if (perfev_report_model_line(m, i, &l) == 0)
			printf("%s\n", l.text);
	}
	putchar('\n');
	fflush(stdout);
	perfev_report_model_free(m);
	perfev_profile_free(p);
	return 0;
}

/* One refresh in the browser: the new model (and its profile) shown. */
static int browse_snapshot(struct top *t)
{
	struct perfev_profile *p;
	struct perfev_report_model *m = snapshot(t, &p);
	if (!m)
		return -errno;
	header(t, t->title, sizeof(t->title));
	browser_live_show(&t->br, m); /* (frees the model before) */
	perfev_profile_free(t->shown_p); /* ... which was the last user of its profile */
	t->shown_p = p;
	return 0;
}

/* Hide (-K/-U), show, age: a refresh as perf_top__resort_hists makes it. */
static int show_and_age(struct top *t)
{
	unsigned hide = (t->hide_kernel ? PERFEV_DECAY_HIDE_KERNEL : 0) | (t->hide_user ? PERFEV_DECAY_HIDE_USER : 0);
	int e = hide ? perfev_profile_builder_decay(t->b, 1, 1, hide) : 0;
	if (e == 0)
		e = t->browse ? browse_snapshot(t) : print_snapshot(t);
	if (e == 0)
		e = perfev_profile_builder_decay(t->b, t->zero ? 0 : 7, t->zero ? 1 : 8, 0);
	if (e == 0 && t->iterations && ++t->shown >= t->iterations)
		perfev_recorder_stop(t->rec);
	t->next_show = now_s() + t->delay;
	return e;
}

/* perf top's keys (d, e, z, K, U) and the browser's; false: quit. */
static bool top_key(struct top *t, int c)
{
	char text[64], *end;
	struct browser *b = &t->br;
	b->status[0] = 0;
	switch (c) {
	case 'd':
		if (!browser_ask("Refresh delay in seconds: ", text, sizeof(text)))
			break;
		double d = strtod(text, &end);
		if (end == text || *end || !(d >= 0.01 && d <= 86400))
			snprintf(b->status, sizeof(b->status), "'%s': give the delay in seconds, e.g. 2 or 0.5", text);
		else
			t->delay = d, t->next_show = now_s() + d;
		break;
	case 'e':
		if (!browser_ask("Lines shown (0: all): ", text, sizeof(text)))
			break;
		long n = strtol(text, &end, 10);
		if (end == text || *end || n < 0)
			snprintf(b->status, sizeof(b->status), "'%s': give a number of lines", text);
		else
			b->max_lines = (size_t)n;
		break;
	case 'z':
		t->zero = !t->zero;
		snprintf(b->status, sizeof(b->status), "zeroing at each refresh %s", t->zero ? "on" : "off");
		break;
	case 'K':
	case 'U': {
		bool *hide = c == 'K' ? &t->hide_kernel : &t->hide_user;
		*hide = !*hide;
		if (t->hide_kernel && t->hide_user)
			*hide = false, snprintf(b->status, sizeof(b->status), "hiding both hides everything: not done");
		else
			snprintf(b->status, sizeof(b->status), "%s samples %s", c == 'K' ? "kernel" : "user space",
				 *hide ? "hidden (from the next refresh)" : "shown again");
		break;
	}
	default:
		return !browser_key(b, c);
	}
	return true;
}

/* The recorder's tick: keys in the browser, the refresh when its time has come. */
static int tick(void *ctx)
{
	struct top *t = ctx;
	bool redraw = false;
	if (t->browse) {
		int c;
		while ((c = getch()) != ERR) {
			redraw = true;
			if (!top_key(t, c)) {
				perfev_recorder_stop(t->rec);
				return 0;
			}
		}
		if (browser_stopping()) { /* SIGINT, SIGTERM, SIGHUP: a clean end */
			perfev_recorder_stop(t->rec);
			return 0;
		}
	}
	if (!t->browse || now_s() >= t->next_show) { /* (text: the tick is the refresh) */
		int e = show_and_age(t);
		if (e < 0)
			return e;
		redraw = true;
	}
	if (t->browse && redraw)
		browser_draw(&t->br);
	return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
	return cli_parse_positive("top", opt, s, out);
}

static int parse_opt(void *ctx, int c)
{
	struct top *t = ctx;
	struct perfev_record_opts *o = &t->o;
	uint64_t v;
	char *end;
	switch (c) {
	case 'e': return cli_parse_events("top", t->events, optarg) < 0;
	case 'u': {
		struct passwd *pw = getpwnam(optarg);
		errno = 0;
		unsigned long uid = pw ? pw->pw_uid : strtoul(optarg, &end, 10);
		if (!pw && (errno || end == optarg || *end || optarg[0] == '-' || uid != (uid_t)uid))
			return cli_error("top", "-u %s: no such user (give a user name or a uid)", optarg);
		o->uid = (uid_t)uid;
		o->by_uid = true;
		t->user = optarg;
		break;
	}
	case 'g': o->call_graph = PERFEV_CALLGRAPH_FP; break;
	case 'K': t->hide_kernel = true; break;
	case 'U': t->hide_user = true; break;
	case 'z': t->zero = true; break;
	case 'd':
		errno = 0;
		t->delay = strtod(optarg, &end);
		if (errno || end == optarg || *end || !isfinite(t->delay) || t->delay < 0.01 || t->delay > 86400)
			return cli_error("top", "-d '%s': want the refresh period in seconds, e.g. 2 or 0.5", optarg);
		break;
	case 'E':
		if (parse_u64("-E", optarg, &v))
			return 1;
		t->entries = v > 1000000 ? 1000000 : (long)v;
		break;
	case 'n':
		if (parse_u64("-n", optarg, &v))
			return 1;
		t->iterations = (unsigned long)v;
		break;
	case 's': t->ro.sort = optarg; break;
	case 256: t->stdio_forced = true; break;
	case 257:
		errno = 0;
		t->ro.percent_limit = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(t->ro.percent_limit >= 0 && t->ro.percent_limit <= 100))
			return cli_error("top", "--percent-limit '%s': want a percentage, e.g. 0.5", optarg);
		break;
	default: return cli_sampling_opt("top", o, c, optarg); /* -F -c -a -C -p -t */
	}
	return 0;
}

static const struct option longopts[] = {
	{"event", required_argument, 0, 'e'},      {"freq", required_argument, 0, 'F'},
	{"count", required_argument, 0, 'c'},      {"all-cpus", no_argument, 0, 'a'},
	{"cpu", required_argument, 0, 'C'},        {"pid", required_argument, 0, 'p'},
	{"tid", required_argument, 0, 't'},        {"uid", required_argument, 0, 'u'},
	{"hide_kernel_symbols", no_argument, 0, 'K'}, {"hide_user_symbols", no_argument, 0, 'U'},
	{"delay", required_argument, 0, 'd'},      {"zero", no_argument, 0, 'z'},
	{"stdio", no_argument, 0, 256},            {"sort", required_argument, 0, 's'},
	{"entries", required_argument, 0, 'E'},    {"percent-limit", required_argument, 0, 257},
	{"iterations", required_argument, 0, 'n'}, {"help", no_argument, 0, 'h'},
	{0, 0, 0, 0},
};

/* After the options: what they ask for together. 0, or 1 after saying why not. */
static int check_opts(struct top *t)
{
	struct perfev_record_opts *o = &t->o;
	if (o->freq && o->period)
		return cli_error("top", "cannot set frequency and period at the same time: give -F HZ or -c PERIOD");
	int targets = (o->pid != 0) + (o->tid != 0) + o->by_uid + (o->all_cpus || o->cpus);
	if (targets > 1)
		return cli_error("top", "give only one target: -p PID, -t TID, -u USER, or -a/-C CPUS");
	if (!targets)
		o->all_cpus = true; /* perf top's default: the whole system */
	if (t->hide_kernel && t->hide_user)
		return cli_error("top", "-K and -U together hide every sample: give one of them");
	if (perfev_evlist_count(t->events))
		o->events = t->events;
	if (!t->ro.sort)
		t->ro.sort = "dso,sym"; /* perf's default_top_sort_order */
	if (perfev_report_check(&t->ro) < 0)
		return cli_error("top", "%s", perfev_errmsg());
	/* what the builder must keep for these keys (refused: a view the live
	 * table has not, such as a tracepoint field taken for a key) */
	t->lo = (struct perfev_profile_load_opts){.sz = sizeof(t->lo)};
	int e = perfev_report_load_opts(&t->ro, &t->lo);
	if (e == -EOPNOTSUPP)
		return cli_error("top", "--sort %s: not a key of perf's table here (comm, pid, tid, dso, sym, "
				 "srcline, srcfile, cpu...; tracepoint fields are perfev report's alone)", t->ro.sort);
	if (e < 0)
		return cli_error("top", "%s", perfev_errmsg());
	t->lo.event = 0; /* the first event's profile, as perf top's first */
	t->lo.group = PERFEV_GROUP_THREAD;
	return 0;
}

/* A builder of what the report of the recording would show, fed the
 * recorder's events. 0, or 1 after saying why not. */
static int builder_begin(struct top *t)
{
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = &t->lo};
	t->b = perfev_profile_builder_new(&bo);
	bool ok = t->b != NULL;
	for (size_t i = 0; ok && i < perfev_recorder_nr_events(t->rec); i++)
		ok = perfev_profile_builder_add_event(t->b, perfev_recorder_event_attr(t->rec, i),
						      perfev_recorder_event_name(t->rec, i)) >= 0;
	return ok ? 0 : cli_error("top", "%s", perfev_errmsg());
}

static int top_run(struct top *t)
{
	cli_recorder_signals();
	t->o.no_output = true;
	t->o.on_record = feed;
	t->o.on_record_ctx = t;
	/* the browser reads keys between refreshes */
	t->o.tick_ms = t->browse ? 50 : (unsigned)lround(t->delay * 1000);
	t->o.on_tick = tick;
	t->o.on_tick_ctx = t;
	t->rec = perfev_recorder_new(&t->o);
	if (!t->rec)
		return cli_error("top", "%s", perfev_errmsg());
	if (builder_begin(t))
		return 1;
	struct perfev_record_stats s0;
	perfev_recorder_stats(t->rec, &s0);
	if (s0.user_only)
		fprintf(stderr, "perfev top: kernel.perf_event_paranoid forbids kernel samples to this user: "
				"user space only (fix: run as root, or sysctl -w kernel.perf_event_paranoid=1)\n");
	cli_recorder_watch(t->rec);
	t->last_shown = now_s();
	t->next_show = t->last_shown + t->delay;
	if (t->browse) {
		t->br = (struct browser){.z = {.sz = sizeof(t->br.z), .tid = -1}, .title = t->title,
					 .max_lines = (size_t)t->entries,
					 .keys = "d: delay  e: lines  z: zero  K/U: hide kernel/user  Enter: expand  "
						 "/: filter  t: zoom  h: help  q: quit"};
		snprintf(t->title, sizeof(t->title), "perfev top: the first refresh comes in %g s", t->delay);
		struct perfev_profile *p;
		if (!(t->br.m = snapshot(t, &p))) /* (an empty table until then) */
			return cli_error("top", "%s", perfev_errmsg());
		t->shown_p = p;
		if (browser_live_begin(&t->br))
			return 1;
		browser_draw(&t->br);
	}
	int e = perfev_recorder_run(t->rec);
	if (t->browse)
		browser_live_end(&t->br); /* (the terminal back before any message) */
	if (e < 0)
		return cli_error("top", "%s", t->err ? t->errmsg : perfev_errmsg());
	return 0;
}

static int cmd_top(int argc, char **argv)
{
	struct top t = {.o = {.sz = sizeof(t.o)}, .ro = {.sz = sizeof(t.ro), .children = -1, .group = -1, .branch = -1},
			.delay = 2};
	if (!(t.events = perfev_evlist_new()))
		return cli_error("top", "out of memory");
	int ret = cli_parse("top", argc, argv, ":e:F:c:aC:p:t:u:gKUd:zs:E:n:h", longopts, usage, parse_opt, &t);
	if (ret == 0 && optind < argc)
		ret = cli_usage_error("top", usage, "unexpected argument '%s' (perfev top takes no command: "
				      "start it, then give -p PID)", argv[optind]);
	/* a live view of the whole system meets many binaries without symbols:
	 * their notes would bury the table (warnings still show) */
	cli_log_to_stderr("top", true);
	if (ret == 0 && !(ret = check_opts(&t))) {
		t.tty = isatty(STDOUT_FILENO);
		t.browse = !t.stdio_forced && browser_wanted("top", false);
		ret = top_run(&t);
	}
	browser_live_end(&t.br);
	perfev_profile_free(t.shown_p);
	cli_recorder_watch(NULL);
	perfev_recorder_free(t.rec);
	perfev_profile_builder_free(t.b);
	perfev_evlist_free(t.events);
	return ret == CLI_HELP ? 0 : ret;
}
CLI_COMMAND(top, cmd_top, "a live profile of the system, refreshed (perf top)");
