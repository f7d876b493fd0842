/*
 * cmd_stat.c — perfev stat: count events of a command, a process, threads,
 * CPUs or a cgroup, and print them as perf stat does. This file reads the
 * options and assembles the events; stat_run.c runs the counting. The
 * counting, the figures and the layouts are the library's
 * (perfev/counter.h, stat.h, metric.h).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "cli_events.h"
#include "cmd_stat.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
		"      --no-merge      an event on many boxes of a PMU (uncore): a line per box\n"
		"  -d, --detailed      add L1 and last-level cache events; -dd adds TLB and\n"
		"                      instruction cache events, -ddd prefetches\n"
		"      --topdown       the TopdownL1 metrics, metric-only; --td-level 2 adds level 2\n"
		"      --per-core, --per-die, --per-socket, --per-node  one line per core, die,\n"
		"                      socket or NUMA node of the CPUs counted (with -a or -C)\n"
		"  -n, --null          no default events (only -e's; none: the time alone)\n"
		"      --timeout MS    stop after MS milliseconds, ending COMMAND (SIGTERM)\n"
		"      --interval-count N  with -I: stop after N intervals\n"
		"  -D, --delay MS      start counting MS milliseconds after COMMAND starts\n"
		"  -B, --big-num       counts with the locale's thousands separator (the\n"
		"                      default in text; --no-big-num: without)\n"
		"  -r N --table        with -r: each run's time before the mean\n"
		"      --pre CMD, --post CMD  shell commands run before and after each run\n"
		"  -q, --quiet         print no counts (the exit status is the command's)\n"
		"  -v, --verbose       each event's raw count, enabled and running ns\n");
}

enum {
	OPT_PER_THREAD = 256, OPT_FILTER, OPT_METRIC_ONLY, OPT_TOPDOWN, OPT_TD_LEVEL, OPT_NO_MERGE,
	OPT_PER_CORE, OPT_PER_DIE, OPT_PER_SOCKET, OPT_PER_NODE, OPT_PER_CACHE, OPT_TIMEOUT,
	OPT_INTERVAL_COUNT, OPT_NO_BIG_NUM, OPT_PRE, OPT_POST, OPT_TABLE,
};
static const struct option longopts[] = {
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
	{"json-output", no_argument, NULL, 'j'},
	{"output", required_argument, NULL, 'o'},
	{"no-inherit", no_argument, NULL, 'i'},
	{"no-aggr", no_argument, NULL, 'A'},
	{"per-thread", no_argument, NULL, OPT_PER_THREAD},
	{"filter", required_argument, NULL, OPT_FILTER},
	{"metrics", required_argument, NULL, 'M'},
	{"metric-only", no_argument, NULL, OPT_METRIC_ONLY},
	{"no-merge", no_argument, NULL, OPT_NO_MERGE},
	{"detailed", no_argument, NULL, 'd'},
	{"topdown", no_argument, NULL, OPT_TOPDOWN},
	{"td-level", required_argument, NULL, OPT_TD_LEVEL},
	{"per-core", no_argument, NULL, OPT_PER_CORE},
	{"per-die", no_argument, NULL, OPT_PER_DIE},
	{"per-socket", no_argument, NULL, OPT_PER_SOCKET},
	{"per-node", no_argument, NULL, OPT_PER_NODE},
	{"per-cache", optional_argument, NULL, OPT_PER_CACHE},
	{"null", no_argument, NULL, 'n'},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"interval-count", required_argument, NULL, OPT_INTERVAL_COUNT},
	{"delay", required_argument, NULL, 'D'},
	{"big-num", no_argument, NULL, 'B'},
	{"no-big-num", no_argument, NULL, OPT_NO_BIG_NUM},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"pre", required_argument, NULL, OPT_PRE},
	{"post", required_argument, NULL, OPT_POST},
	{"table", no_argument, NULL, OPT_TABLE},
	{"help", no_argument, NULL, 'h'},
	{0},
};

/* A whole number of milliseconds (or a count) of at least min for option
 * name; 0, or 1 after saying what is wrong. */
static int parse_long(const char *name, const char *arg, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (*end || end == arg || errno || v < min)
		return cli_error("stat", "%s needs a whole number of at least %ld (got '%s')", name, min, arg);
	*out = v;
	return 0;
}

/* One option c (its value optarg); 0, or 1 after saying what is wrong. */
static int parse_opt(void *ctx, int c)
{
	struct stat_opts *o = ctx;
	char *end;
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
	case OPT_NO_MERGE: o->no_merge = true; break;
	case 'd': o->detailed++; break;
	case OPT_TOPDOWN: o->topdown = o->topdown ? o->topdown : 1; break;
	case OPT_PER_CORE: o->aggr = PERFEV_AGGR_CORE; break;
	case OPT_PER_DIE: o->aggr = PERFEV_AGGR_DIE; break;
	case OPT_PER_SOCKET: o->aggr = PERFEV_AGGR_SOCKET; break;
	case OPT_PER_NODE: o->aggr = PERFEV_AGGR_NODE; break;
	case OPT_PER_CACHE:
		return cli_error("stat", "--per-cache is not a perf 6.1 option (perf 6.5 added it): use "
				 "--per-core, --per-die or --per-socket, or -A for each CPU");
	case 'n': o->null_run = true; break;
	case OPT_TIMEOUT: return parse_long("--timeout", optarg, 10, &o->timeout_ms);
	case OPT_INTERVAL_COUNT: return parse_long("--interval-count", optarg, 1, &o->interval_count);
	case 'D':
		if (!strcmp(optarg, "-1"))
			return cli_error("stat", "-D -1 starts with the events disabled for --control to enable, "
					 "which perfev stat does not have: give a delay in ms");
		return parse_long("-D", optarg, 0, &o->delay_ms);
	case 'B': o->big_num = 1; break;
	case OPT_NO_BIG_NUM: o->big_num = 0; break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose = true; break;
	case OPT_PRE: o->pre = optarg; break;
	case OPT_POST: o->post = optarg; break;
	case OPT_TABLE: o->table = true; break;
	case OPT_TD_LEVEL:
		o->topdown = (int)strtol(optarg, &end, 10);
		if (*end || o->topdown < 1 || o->topdown > 2)
			return cli_error("stat", "--td-level is 1 or 2 (got '%s')", optarg);
		break;
	default: return CLI_UNKNOWN;
	}
	return 0;
}

/* The options that do not go together; 0, or 1 after saying why. */
static int check_opts(struct stat_opts *o)
{
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
	if (o->aggr && !o->system_wide && !o->cpus)
		return cli_error("stat", "--per-core, --per-die, --per-socket and --per-node sum CPUs: "
				 "use them with -a or -C");
	if (o->aggr && (o->per_place || o->cgroup))
		return cli_error("stat", "--per-%s and %s are two layouts: choose one",
				 o->aggr == PERFEV_AGGR_CORE ? "core" : o->aggr == PERFEV_AGGR_DIE ? "die"
				 : o->aggr == PERFEV_AGGR_SOCKET ? "socket" : "node",
				 o->cgroup ? "-G" : o->per_thread ? "--per-thread" : "-A");
	if (o->interval_count && !o->interval_ms)
		return cli_error("stat", "--interval-count counts -I intervals: give -I MS too");
	if (o->table && o->repeat < 2)
		return cli_error("stat", "--table shows each run of -r: give -r N (N >= 2)");
	if (o->big_num == 1 && o->format == PERFEV_STAT_CSV)
		return cli_error("stat", "-B and -x do not go together (perf: big-num is for text): drop -B");
	if (!o->repeat)
		o->repeat = 1;
	return 0;
}

static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	o->big_num = -1;
	int r = cli_parse("stat", argc, argv, "+:e:aC:p:t:G:I:r:x:jo:iAhM:dnD:Bqv", longopts, usage, parse_opt, o);
	if (r)
		return r;
	if (optind < argc)
		o->argv = argv + optind;
	return check_opts(o);
}

/* Each --filter goes to the last event of the -e options before it: the
 * events of that prefix of the list, counted by parsing it again. */
static int apply_filters(const struct stat_opts *o, struct perfev_evlist *list)
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

/* The events to count: -e's (with their --filter), or perf stat's default
 * set; -d's cache events; -M's (or --topdown's) metrics and their events.
 * 0, or 1 after saying why not. */
static int build_events(const struct stat_opts *o, struct stat_run *r)
{
	if (o->events) {
		if (cli_parse_events("stat", r->list, o->events) < 0 || apply_filters(o, r->list) < 0)
			return 1;
	} else if (o->nr_filters) {
		return cli_error("stat", "--filter must follow a -e tracepoint");
	} else if (!o->metrics && !o->topdown && !o->null_run && perfev_stat_default_events(r->list) < 0) {
		return cli_error("stat", "%s", perfev_errmsg());
	}
	if (o->detailed && perfev_stat_detailed_events(r->list, o->detailed) < 0)
		return cli_error("stat", "-d: %s", perfev_errmsg());
	if (o->metrics || o->topdown) {
		const char *spec = o->metrics ? o->metrics : o->topdown == 2 ? "TopdownL1,TopdownL2" : "TopdownL1";
		if (!(r->metrics = perfev_metrics_add(r->list, spec)))
			return cli_error("stat", "%s%s", o->metrics ? "-M: " : "--topdown: ", perfev_errmsg());
	}
	return 0;
}

/* -C: the CPUs, each online (perf counts "<not supported>" on a CPU that is
 * not there: say so instead). 0, or 1 after saying why not. */
static int parse_cpus(const struct stat_opts *o, struct stat_run *r)
{
	if (!o->cpus)
		return 0;
	if (!(r->cpus = perfev_cpus_parse(o->cpus)))
		return cli_error("stat", "-C: %s", perfev_errmsg());
	int status = 0;
	struct perfev_cpus *online = perfev_cpus_online();
	for (size_t i = 0; online && i < perfev_cpus_count(r->cpus); i++) {
		int cpu = perfev_cpus_at(r->cpus, i);
		if (!perfev_cpus_has(online, cpu)) {
			char list[256] = "";
			perfev_cpus_format(online, list, sizeof(list));
			status = cli_error("stat", "-C %s: CPU %d is not online here: give CPUs of %s", o->cpus,
					   cpu, list);
			break;
		}
	}
	perfev_cpus_free(online);
	return status;
}

/* Where the counts go: stderr, or -o's file (which, as perf's, says when
 * the counting began). 0, or 1 after saying why not. */
static int open_output(const struct stat_opts *o, struct stat_run *r)
{
	r->out = stderr;
	if (!o->output)
		return 0;
	if (!(r->out = fopen(o->output, "w")))
		return cli_error("stat", "cannot write %s: %s", o->output, strerror(errno));
	time_t now = time(NULL);
	fprintf(r->out, "# started on %s\n", ctime(&now)); /* ctime ends in \n */
	return 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = {0};
	struct stat_run r = {&o};
	r.first_interval = true;
	int status = parse_opts(argc, argv, &o);
	if (status)
		goto out;
	if (!(r.list = perfev_evlist_new())) {
		status = cli_error("stat", "%s", perfev_errmsg());
		goto out;
	}
	if ((status = build_events(&o, &r)) || (status = parse_cpus(&o, &r)) || (status = open_output(&o, &r)))
		goto out;
	r.what = stat_describe(&o);
	r.stat = perfev_stat_new(r.list, o.aggr ? o.aggr : o.per_place ? PERFEV_AGGR_PLACE : PERFEV_AGGR_GLOBAL);
	if (!r.stat || !r.what) {
		status = cli_error("stat", "out of memory");
		goto out;
	}
	status = stat_run(&r);
out:
	if (r.out && r.out != stderr)
		fclose(r.out);
	perfev_stat_free(r.stat);
	perfev_metrics_free(r.metrics);
	perfev_cpus_free(r.cpus);
	perfev_evlist_free(r.list);
	free(r.what);
	free(o.events);
	return status == CLI_HELP ? 0 : status;
}
CLI_COMMAND(stat, cmd_stat, "count events of a command, process or CPUs (perf stat)");
