/* cmd_report.c — perfev report: perf report's command line over a perf.data
 * file, plus exports (folded stacks, SVG flame graph, pprof, Firefox
 * Profiler). It parses the options, opens the file once and hands both to
 * the library: perfev_report_print (perfev/report.h) decides the view and
 * prints it; the exports load one profile through perfev_report_load. */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"
#include "browser/browser.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: perfev report [-i FILE] [--sort KEYS] [--children | --no-children]\n"
	"                     [-g none|caller|callee[,MIN%%]] [--percent-limit P] [--stdio | --tui | --json]\n"
	"                     [--folded] [--flame FILE.svg] [--pprof FILE.pb.gz] [--firefox FILE.json]\n"
	"                     [-b | --no-branch-stack] [--max-stack N] [-T]\n"
	"  -i, --input FILE      perf.data file to read (default: perf.data; - for a pipe)\n"
	"  -s, --sort KEYS       comma-separated: comm, pid (perf's: the thread), tgid (the\n"
	"                        process), dso, sym, srcline, srcfile, cpu, socket, dso_size,\n"
	"                        symbol_size, weight, local_weight, ins_lat, local_ins_lat,\n"
	"                        p_stage_cyc, local_p_stage_cyc, time, addr, and the columns\n"
	"                        overhead, sample, period (default comm,dso,sym)\n"
	"      --time-quantum T  what the time key cuts sample times to: N[ns|us|ms|s] (100ms)\n"
	"      --mem-mode        perf's memory access view: percentages of the samples' weights,\n"
	"                        the keys mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr,\n"
	"                        dcacheline, phys_daddr, data_page_size (default " PERFEV_REPORT_MEM_SORT ")\n"
	"      --children        add a Children column: samples with the entry anywhere on the stack\n"
	"      --no-children     only the entry's own (self) samples\n"
	"  -g, --call-graph[=ARG] none, caller, callee or graph[,MIN_PERCENT[,caller|callee]]\n"
	"                        (alone: graph,0.5,caller; the next word is ARG unless it starts with -)\n"
	"  -G, --inverted        same as -g caller\n"
	"      --percent-limit P hide entries (and call graph branches) below P percent\n"
	"  -F, --fields LIST     the columns in order: overhead, overhead_children, sample, period\n"
	"                        and sort keys (perf's -F)\n"
	"  -n, --show-nr-samples a Samples column\n"
	"      --show-total-period  a Period column\n"
	"      --group           show each event group's members side by side (the default for\n"
	"                        files recorded with groups; --no-group: one table per event)\n"
	"      --stdio           the text table (the default when stdout is not a terminal)\n"
	"      --tui             the browser, perf's keys (h shows them; the default on a\n"
	"                        terminal): the same lines as --stdio, folded, filtered, zoomed\n"
	"      --json            the entries as JSON\n"
	"      --folded          folded stacks (comm;outer;...;leaf count) on stdout instead of a table\n"
	"      --flame FILE      write an interactive SVG flame graph (exports print no table\n"
	"                        unless --stdio or --json asks for it too)\n"
	"      --pprof FILE      write a gzipped pprof profile\n"
	"      --firefox FILE    write a Firefox Profiler JSON profile\n"
	"  -c, --comms LIST, -d, --dsos LIST, -S, --symbols LIST   keep only the samples of these\n"
	"                        (comma-separated); --pid PID, --tid TID likewise\n"
	"      --time START,END  only samples within [START, END] (seconds of sample time, either\n"
	"                        end empty; several ranges separated by spaces), the others left\n"
	"                        out of every total, as perf\n"
	"      --value samples|period  what percentages measure (default: period, as perf)\n"
	"  -C, --cpu LIST        only samples taken on these CPUs (0,2-3), the others left out\n"
	"                        of every total, as perf\n"
	"      --percentage relative|absolute  with filters: percentages of the samples kept\n"
	"                        (relative) or of all of them (absolute, the default)\n"
	"      --event N         only the N-th event of the file (default: every event; the\n"
	"                        first for --json and the exports)\n"
	"      --no-inline       do not expand inlined functions (faster); --inline: expand them\n"
	"                        (the default, as perf's)\n"
	"      --symbol-filter STR  only the rows whose symbol's name holds STR (the totals stay)\n"
	"  -U, --hide-unresolved only samples a symbol names, their chains' unnamed frames dropped\n"
	"      --no-demangle     C++/Rust symbols as mangled in the binary (demangled: without\n"
	"                        their parameter lists, as perf)\n"
	"      --kallsyms FILE   kernel symbols from FILE instead of /proc/kallsyms\n"
	"  -k, --vmlinux FILE    kernel symbols from the symbol table of FILE, the recorded kernel's\n"
	"                        vmlinux (ELF, uncompressed)\n"
	"      --symfs DIR       binaries and debug files under DIR (the recording machine's)\n"
	"      --no-cache        neither use nor write ~/.cache/perfev (kallsyms index,\n"
	"                        inflated debug files)\n"
	"  -b, --branch-stack    perf's branch view: one row per branch of the samples' branch\n"
	"                        stacks (the default for files recorded with them, as perf;\n"
	"                        with --json: its rows as JSON)\n"
	"      --no-branch-stack the samples' own addresses even for branch-stack files\n"
	"      --max-stack N     keep at most N entries of each call chain (default 127, as perf):\n"
	"                        the innermost, or in caller order (--children, -g caller) the\n"
	"                        outermost under the sampled address\n"
	"  -q, --quiet           no notes about missing symbols\n"
	"      --header          the file's header (perf's --header format) before the report\n"
	"      --header-only     the file's header only\n"
	"  -I, --show-info       with --header: CPU, NUMA, cache and memory topologies in full\n"
	"      --stats           the count of each record type in the file and of each event's\n"
	"                        samples and lost samples (perf's --stats), instead of a report\n"
	"                        (with --json: as one JSON object)\n"
	"      --tasks           the recorded processes and threads as a tree (perf's --tasks)\n"
	"      --mmaps           --tasks with each task's memory maps\n"
	"  -T, --threads         after the report, the per-thread values of the file's READ\n"
	"                        records (perf record -s), as perf's table\n"
	"  -t, --field-separator SEP  the table's columns separated by SEP, values unpadded (perf's\n"
	"                        -t; SEP inside a name becomes '.')\n"
	"      --pretty normal|raw  -T's table: one column per event (normal), or one line per\n"
	"                        thread and event (raw)\n";

enum { O_CHILDREN = 256, O_NO_CHILDREN, O_PERCENT, O_STDIO, O_JSON, O_FOLDED, O_FLAME, O_PPROF,
       O_FIREFOX, O_COMM, O_PID, O_TID, O_DSO, O_SYMBOL, O_TIME, O_VALUE, O_EVENT, O_NO_INLINE, O_INLINE,
       O_KALLSYMS, O_TITLE, O_NO_KCACHE, O_GROUP, O_NO_GROUP, O_TOTAL_PERIOD, O_NO_BRANCH,
       O_MAX_STACK, O_HEADER, O_HEADER_ONLY, O_SHOW_INFO, O_SYMFS, O_PERCENTAGE, O_STATS, O_TASKS, O_MMAPS,
       O_TIME_QUANTUM, O_MEM_MODE, O_DEMANGLE, O_NO_DEMANGLE, O_SYMBOL_FILTER, O_HIDE_UNRESOLVED, O_TUI,
       O_PRETTY, O_STDIO2 };
static const struct option options[] = {
	{"input", required_argument, NULL, 'i'},
	{"sort", required_argument, NULL, 's'},
	{"children", no_argument, NULL, O_CHILDREN},
	{"no-children", no_argument, NULL, O_NO_CHILDREN},
	{"call-graph", optional_argument, NULL, 'g'},
	{"inverted", no_argument, NULL, 'G'},
	{"percent-limit", required_argument, NULL, O_PERCENT},
	{"stdio", no_argument, NULL, O_STDIO},
	{"tui", no_argument, NULL, O_TUI},
	{"json", no_argument, NULL, O_JSON},
	{"folded", no_argument, NULL, O_FOLDED},
	{"flame", required_argument, NULL, O_FLAME},
	{"pprof", required_argument, NULL, O_PPROF},
	{"firefox", required_argument, NULL, O_FIREFOX},
	{"comm", required_argument, NULL, O_COMM},
	{"comms", required_argument, NULL, 'c'},
	{"pid", required_argument, NULL, O_PID},
	{"tid", required_argument, NULL, O_TID},
	{"dso", required_argument, NULL, O_DSO},
	{"dsos", required_argument, NULL, 'd'},
	{"symbol", required_argument, NULL, O_SYMBOL},
	{"symbols", required_argument, NULL, 'S'},
	{"time", required_argument, NULL, O_TIME},
	{"value", required_argument, NULL, O_VALUE},
	{"event", required_argument, NULL, O_EVENT},
	{"no-inline", no_argument, NULL, O_NO_INLINE}, {"inline", no_argument, NULL, O_INLINE},
	{"demangle", no_argument, NULL, O_DEMANGLE},
	{"no-demangle", no_argument, NULL, O_NO_DEMANGLE},
	{"symbol-filter", required_argument, NULL, O_SYMBOL_FILTER},
	{"hide-unresolved", no_argument, NULL, O_HIDE_UNRESOLVED},
	{"kallsyms", required_argument, NULL, O_KALLSYMS},
	{"no-cache", no_argument, NULL, O_NO_KCACHE},
	{"title", required_argument, NULL, O_TITLE},
	{"group", no_argument, NULL, O_GROUP},
	{"fields", required_argument, NULL, 'F'},
	{"show-nr-samples", no_argument, NULL, 'n'},
	{"show-total-period", no_argument, NULL, O_TOTAL_PERIOD},
	{"event-group", no_argument, NULL, O_GROUP},
	{"no-group", no_argument, NULL, O_NO_GROUP},
	{"branch-stack", no_argument, NULL, 'b'},
	{"no-branch-stack", no_argument, NULL, O_NO_BRANCH},
	{"max-stack", required_argument, NULL, O_MAX_STACK},
	{"header", no_argument, NULL, O_HEADER},
	{"header-only", no_argument, NULL, O_HEADER_ONLY},
	{"show-info", no_argument, NULL, 'I'},
	{"symfs", required_argument, NULL, O_SYMFS},
	{"percentage", required_argument, NULL, O_PERCENTAGE},
	{"time-quantum", required_argument, NULL, O_TIME_QUANTUM},
	{"mem-mode", no_argument, NULL, O_MEM_MODE},
	{"cpu", required_argument, NULL, 'C'},
	{"quiet", no_argument, NULL, 'q'},
	{"stats", no_argument, NULL, O_STATS},
	{"stat", no_argument, NULL, O_STATS},
	{"tasks", no_argument, NULL, O_TASKS},
	{"mmaps", no_argument, NULL, O_MMAPS},
	{"threads", no_argument, NULL, 'T'},
	{"show-threads", no_argument, NULL, 'T'},
	{"pretty", required_argument, NULL, O_PRETTY},
	{"field-separator", required_argument, NULL, 't'},
	{"stdio2", no_argument, NULL, O_STDIO2},
	{"vmlinux", required_argument, NULL, 'k'},
	{"help", no_argument, NULL, 'h'},
	{0},
};

/* What the command line says: the library's options, and the command's own. */
struct args {
	int argc;                  /* the command line (-g's optional value) */
	char **argv;
	struct perfev_report_opts o;
	struct perfev_profile_load_opts lo;
	struct perfev_profile_filter filter;
	struct report_exports x;
	struct perfev_cpus *cpus;  /* -C */
	char graph[1024];          /* -g and --percent-limit, in the order given */
	const char *input;
	bool folded, quiet, show_info, stats;
	bool shown;                /* --stdio or --json: the report beside the exports */
	int header;                /* 1: --header, 2: --header-only */
	int inspect;               /* O_STATS, O_TASKS or O_MMAPS: perf's inspection modes */
	int tui;                   /* -1: the browser on a terminal, 0: --stdio, 1: --tui */
};

static void usage(FILE *f) { fprintf(f, usage_text); }

/* perf's -g and --percent-limit act in the order given (the later
 * threshold wins): the library takes them as one list. */
static int add_graph(struct args *a, const char *what)
{
	size_t n = strlen(a->graph);
	if (snprintf(a->graph + n, sizeof(a->graph) - n, "%s%s", n ? "," : "", what) >= (int)(sizeof(a->graph) - n))
		return cli_error("report", "too many -g/--percent-limit options");
	a->o.call_graph = a->graph;
	return 0;
}

/* perf's --time-quantum: N, Nns, Nus, Nms or Ns (a bare number is ns) */
static int parse_time_quantum(const char *arg, uint64_t *ns)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(arg, &end, 0);
	while (*end == ' ')
		end++;
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{"", 1}, {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	for (size_t i = 0; end != arg && !errno && n && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && n <= UINT64_MAX / units[i].mult) {
			*ns = n * units[i].mult;
			return 0;
		}
	return cli_error("report", "cannot parse the time quantum '%s': give a positive number with "
			 "ns, us, ms or s (e.g. --time-quantum 10ms)", arg);
}

/* The view's options (perfev_report_opts). 0, 1 after an error, -1: not one of them. */
static int view_option(struct args *a, int c)
{
	char *end;
	switch (c) {
	case 's': a->o.sort = optarg; return 0;
	case 'F': a->o.fields = optarg; return 0;
	case O_CHILDREN: a->o.children = 1; return 0;
	case O_NO_CHILDREN: a->o.children = 0; return 0;
	case 'g': return add_graph(a, optarg);
	case 'G': return add_graph(a, "caller");
	case O_PERCENT: {
		a->o.percent_limit = strtod(optarg, &end);
		if (end == optarg || a->o.percent_limit < 0)
			return cli_error("report", "bad --percent-limit '%s': give a percentage, e.g. 0.5", optarg);
		char p[64];
		snprintf(p, sizeof(p), "%.17g", a->o.percent_limit); /* the call graph threshold too */
		return add_graph(a, p);
	}
	case O_GROUP: a->o.group = 1; return 0;
	case O_NO_GROUP: a->o.group = 0; return 0;
	case 'n': a->o.show_samples = true; return 0;
	case O_TOTAL_PERIOD: a->o.show_period = true; return 0;
	case O_STDIO: a->o.json = false, a->shown = true, a->tui = 0; return 0;
	case O_JSON: a->o.json = true, a->shown = true; return 0;
	case O_VALUE: a->o.value = optarg; return 0;
	case O_SYMBOL_FILTER: a->o.symbol_filter = optarg; return 0;
	case O_MEM_MODE: a->o.mem_mode = true; return 0;
	case 'T': a->o.show_threads = true; return 0;
	case 't': a->o.field_sep = optarg; return 0;
	case O_PRETTY:
		if (strcmp(optarg, "normal") && strcmp(optarg, "raw"))
			return cli_error("report", "bad --pretty '%s': normal or raw", optarg);
		a->o.threads_raw = !strcmp(optarg, "raw");
		return 0;
	case 'b': a->o.branch = 1; return 0;
	case O_NO_BRANCH: a->o.branch = 0; return 0;
	case O_PERCENTAGE:
		if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
			return cli_error("report", "bad --percentage '%s': relative (of the samples the "
					 "filters keep) or absolute (of all, the default)", optarg);
		a->o.relative = !strcmp(optarg, "relative");
		return 0;
	}
	return -1;
}

/* How the file is read (perfev_profile_load_opts and its filter). */
static int load_option(struct args *a, int c)
{
	char *end;
	long n;
	switch (c) {
	case 'c':
	case O_COMM: a->filter.comm = optarg; break;
	case 'd':
	case O_DSO: a->filter.dso = optarg; break;
	case 'S':
	case O_SYMBOL: a->filter.symbol = optarg; break;
	case O_PID:
	case O_TID:
		n = strtol(optarg, &end, 10);
		if (*end || end == optarg || n < 0 || n > 0x7fffffff)
			return cli_error("report", "--%s '%s': give one process/thread id", c == O_PID ? "pid" : "tid",
					 optarg);
		*(c == O_PID ? &a->filter.pid : &a->filter.tid) = (int)n;
		break;
	case O_TIME: a->lo.time = optarg; return 0;
	case O_EVENT:
		a->lo.event = (int)strtol(optarg, &end, 10);
		if (*end || end == optarg || a->lo.event < 0)
			return cli_error("report", "--event '%s': give the event's number, 0 for the first", optarg);
		return 0;
	case O_NO_INLINE: a->lo.no_inline = true; return 0;
	case O_INLINE: a->lo.no_inline = false; return 0; /* (the last of the two wins, as perf's) */
	case O_DEMANGLE: a->lo.no_demangle = false; return 0;
	case O_NO_DEMANGLE: a->lo.no_demangle = true; return 0;
	case 'U':
	case O_HIDE_UNRESOLVED: a->lo.hide_unresolved = true; return 0;
	case O_KALLSYMS: a->lo.kallsyms = optarg; return 0;
	case 'k': a->lo.vmlinux = optarg; return 0;
	case O_SYMFS: a->lo.symfs = optarg; return 0;
	case O_NO_KCACHE: a->lo.no_cache = true; return 0;
	case O_TIME_QUANTUM: return parse_time_quantum(optarg, &a->lo.time_quantum) ? 1 : 0;
	case 'C':
		perfev_cpus_free(a->cpus);
		if (!(a->lo.cpus = a->cpus = perfev_cpus_parse(optarg)))
			return cli_error("report", "bad -C '%s': %s", optarg, perfev_errmsg());
		return 0;
	case O_MAX_STACK:
		n = strtol(optarg, &end, 10);
		if (end == optarg || *end || n < 1 || n > 1000000)
			return cli_error("report", "bad --max-stack '%s': give a number of frames, e.g. 127", optarg);
		a->lo.max_stack = (int)n;
		return 0;
	default: return -1;
	}
	a->lo.filter = &a->filter; /* (a filter option) */
	return 0;
}

/* The command's own: input, exports, header, inspection modes. */
static int command_option(struct args *a, int c)
{
	switch (c) {
	case 'i': a->input = optarg; return 0;
	case O_TUI: a->tui = 1; return 0;
	case O_FOLDED: a->folded = true; return 0;
	case O_FLAME: a->x.flame = optarg; return 0;
	case O_PPROF: a->x.pprof = optarg; return 0;
	case O_FIREFOX: a->x.firefox = optarg; return 0;
	case O_TITLE: a->x.title = optarg; return 0;
	case 'q': a->quiet = a->x.quiet = true; return 0;
	case O_HEADER: a->header = a->header ? a->header : 1; return 0;
	case O_HEADER_ONLY: a->header = 2; return 0;
	case 'I': a->show_info = true; return 0;
	case O_STATS: a->stats = true; return 0;
	case O_TASKS: a->inspect = a->inspect == O_MMAPS ? O_MMAPS : O_TASKS; return 0;
	case O_MMAPS: a->inspect = O_MMAPS; return 0;
	/* not perf 6.1's either (perf 6.1's own are refused by perf_options.c) */
	case O_STDIO2:
		return cli_error("report", "--stdio2 is not an option of perf 6.1's report (perf refuses it too): "
				 "use --stdio");
	}
	return -1;
}

/* The option another output is refused with (perf's inspection modes), or NULL. */
static const char *other_output(const struct args *a)
{
	return a->folded ? "--folded" : a->x.flame ? "--flame" : a->x.pprof ? "--pprof" :
	       a->x.firefox ? "--firefox" : a->o.json ? "--json" : NULL;
}

/* Exports (and --folded) load one profile, written to each file; the
 * report of that profile follows unless --folded. */
static int report_exports(const struct args *a, struct perfev_perfdata *pd)
{
	if (a->o.branch > 0)
		return cli_error("report", "the branch view (-b, the default for files with branch stacks) "
				 "takes no filters but --comms, no --event and no exports: drop them, or add "
				 "--no-branch-stack");
	struct perfev_profile_load_opts lo = a->lo;
	report_exports_load_opts(&a->x, &lo);
	struct perfev_report_opts o = a->o;
	o.load = &lo;
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_report_load(pd, &o, &info);
	if (!p)
		return cli_error("report", "%s", perfev_errmsg());
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s from %s",
		 (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES), info.event_name, a->input);
	bool weight = o.mem_mode || (o.value && !strcmp(o.value, "weight"));
	int ret = report_write_exports("report", p, &a->x, subtitle,
				       weight ? PERFEV_VALUE_WEIGHT : PERFEV_VALUE_SAMPLES, info.interval_ms);
	struct perfev_export_options eo = {.sz = sizeof(eo)};
	if (a->folded ? perfev_export_folded(p, &eo, stdout) < 0
		      : a->shown && perfev_report_print_profile(p, &info, &o, stdout) < 0)
		ret = cli_error("report", "%s", perfev_errmsg());
	perfev_profile_free(p);
	return ret;
}

/* One option: the view's, the loading's or the command's. */
static int option(void *ctx, int c)
{
	struct args *a = ctx;
	int r;
	if (c == 'g') /* perf's -g: its argument optional */
		optarg = (char *)cli_optional_arg(a->argc, a->argv, "graph,0.5,caller,function,percent");
	if ((r = view_option(a, c)) < 0 && (r = load_option(a, c)) < 0 && (r = command_option(a, c)) < 0)
		return CLI_UNKNOWN;
	return r;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	a->argc = argc, a->argv = argv;
	int r = cli_parse("report", argc, argv, ":i:s:g::GF:nqbhIC:Uc:d:S:Tt:k:", options, usage, option, a);
	if (r)
		return r;
	if (optind < argc)
		return cli_error("report", "unexpected argument '%s' (the input file goes after -i)", argv[optind]);
	if (report_exports_check("report", &a->x))
		return 1; /* before the work, not after it */
	if (a->header == 1 && (a->o.json || a->folded))
		return cli_error("report", "--header prints perf's text header before a text report: not with "
				 "%s (run --header-only separately)", a->o.json ? "--json" : "--folded");
	if ((a->stats || a->inspect) &&
	    report_inspect_check(a->stats, a->inspect == O_MMAPS ? 2 : a->inspect ? 1 : 0, other_output(a)))
		return 1;
	return perfev_report_check(&a->o) < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
}

static int run(struct args *a, struct perfev_perfdata *pd)
{
	if (a->header) { /* perf's --header/--header-only: the file's header, then (--header) the report */
		if (cli_print_header("report", pd, a->show_info))
			return 1;
		if (a->header == 2)
			return 0;
		a->o.no_hint = true;
	}
	if (a->stats || a->inspect) /* perf's inspection modes print instead of the report */
		return report_inspect(pd, a->stats, a->inspect == O_MMAPS ? 2 : a->inspect ? 1 : 0, a->o.json);
	cli_warn_unclean("report", pd); /* killed recordings are read up to their last record */
	if (a->folded || report_exports_wanted(&a->x))
		return report_exports(a, pd);
	int r = 2; /* the browser on a terminal (cli/browser), unless it has no such view: --stdio */
	if (a->tui && !a->o.json && a->header != 1 && browser_wanted("report", a->tui == 1))
		r = report_browse(pd, &a->o);
	if (r == 2) { /* --stdio (or --json): in a pager on a terminal, percentages coloured */
		a->o.color = !a->o.json && cli_color(stdout);
		if (!a->o.json)
			cli_pager_start();
		if (perfev_report_print(pd, &a->o, stdout) < 0)
			return cli_error("report", "%s", perfev_errmsg());
	}
	return r == 2 ? 0 : r;
}

int report_command(int argc, char **argv)
{
	struct args a = {
		.o = {.sz = sizeof(a.o), .children = -1, .group = -1, .branch = -1},
		.lo = {.sz = sizeof(a.lo), .group = PERFEV_GROUP_THREAD, .event = -1},
		.filter = {.sz = sizeof(a.filter), .pid = -1, .tid = -1},
		.input = "perf.data",
		.tui = -1,
	};
	a.o.load = &a.lo;
	int ret = parse_args(&a, argc, argv);
	if (ret == 0) {
		cli_log_to_stderr("report", a.quiet);
		struct perfev_perfdata *pd = perfev_perfdata_open(a.input);
		ret = pd ? run(&a, pd) : cli_error("report", "%s", perfev_errmsg());
		perfev_perfdata_close(pd);
	}
	perfev_cpus_free(a.cpus);
	return ret < 0 ? 0 : ret; /* (-1: --help) */
}
CLI_COMMAND(report, report_command, "read a perf.data file: perf report's table, call graphs, flame graphs, pprof");
