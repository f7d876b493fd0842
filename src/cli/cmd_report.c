/* cmd_report.c — perfev report: perf report's core over a perf.data file,
 * accepting perf's spelling of the options, plus exports (folded stacks,
 * SVG flame graph, pprof, Firefox Profiler). The library does the work:
 * perfev_profile_load() builds the profile, report_out.c prints it. */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"
#include "perfev.h"
#include "core/internal.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"usage: perfev report [-i FILE] [--sort KEYS] [--children | --no-children]\n"
	"                     [-g none|caller|callee[,MIN%%]] [--percent-limit P] [--stdio | --json]\n"
	"                     [--folded] [--flame FILE.svg] [--pprof FILE.pb.gz] [--firefox FILE.json]\n"
	"                     [-b | --no-branch-stack] [--max-stack N]\n"
	"  -i, --input FILE      perf.data file to read (default: perf.data; - for a pipe)\n"
	"  -s, --sort KEYS       comma-separated: comm, pid (perf's: the thread), tgid (the\n"
	"                        process), dso, sym, srcline, srcfile, cpu, socket, dso_size,\n"
	"                        symbol_size, weight, local_weight, ins_lat, local_ins_lat,\n"
	"                        p_stage_cyc, local_p_stage_cyc, time, addr, and the columns\n"
	"                        overhead, sample, period (default comm,dso,sym)\n"
	"      --time-quantum T  what the time key cuts sample times to: N[ns|us|ms|s] (100ms)\n"
	"      --mem-mode        perf's memory access view: percentages of the samples' weights,\n"
	"                        the keys mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr,\n"
	"                        dcacheline, phys_daddr, data_page_size (default " REPORT_MEM_SORT ")\n"
	"      --children        add a Children column: samples with the entry anywhere on the stack\n"
	"      --no-children     only the entry's own (self) samples\n"
	"  -g, --call-graph ARG  none, caller, callee or graph[,MIN_PERCENT[,caller|callee]]\n"
	"  -G, --inverted        same as -g caller\n"
	"      --percent-limit P hide entries (and call graph branches) below P percent\n"
	"  -F, --fields LIST     the columns in order: overhead, overhead_children, sample, period\n"
	"                        and sort keys (perf's -F)\n"
	"  -n, --show-nr-samples a Samples column\n"
	"      --show-total-period  a Period column\n"
	"      --group           show each event group's members side by side (the default for\n"
	"                        files recorded with groups; --no-group: one table per event)\n"
	"      --stdio           the text table (default)\n"
	"      --json            the entries as JSON\n"
	"      --folded          folded stacks (comm;outer;...;leaf count) on stdout instead of a table\n"
	"      --flame FILE      write an interactive SVG flame graph\n"
	"      --pprof FILE      write a gzipped pprof profile\n"
	"      --firefox FILE    write a Firefox Profiler JSON profile\n"
	"      --comm COMM, --pid PID, --tid TID, --dso DSO, --symbol SYM   keep only those samples\n"
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
	"      --no-inline       do not expand inlined functions (faster)\n"
	"      --symbol-filter STR  only the rows whose symbol's name holds STR (the totals stay)\n"
	"  -U, --hide-unresolved only samples a symbol names, their chains' unnamed frames dropped\n"
	"      --no-demangle     C++/Rust symbols as mangled in the binary (demangled: without\n"
	"                        their parameter lists, as perf)\n"
	"      --kallsyms FILE   kernel symbols from FILE instead of /proc/kallsyms\n"
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
	"      --mmaps           --tasks with each task's memory maps\n";

enum { O_CHILDREN = 256, O_NO_CHILDREN, O_PERCENT, O_STDIO, O_JSON, O_FOLDED, O_FLAME, O_PPROF,
       O_FIREFOX, O_COMM, O_PID, O_TID, O_DSO, O_SYMBOL, O_TIME, O_VALUE, O_EVENT, O_NO_INLINE,
       O_KALLSYMS, O_TITLE, O_NO_KCACHE, O_GROUP, O_NO_GROUP, O_TOTAL_PERIOD, O_NO_BRANCH,
       O_MAX_STACK, O_HEADER, O_HEADER_ONLY, O_SHOW_INFO, O_SYMFS, O_PERCENTAGE, O_STATS, O_TASKS, O_MMAPS,
       O_TIME_QUANTUM, O_MEM_MODE, O_DEMANGLE, O_NO_DEMANGLE, O_SYMBOL_FILTER, O_HIDE_UNRESOLVED };
static struct perfev_cpus *cpu_filter; /* -C: freed at exit */
static void free_cpu_filter(void)
{
	perfev_cpus_free(cpu_filter);
	cpu_filter = NULL;
}

static const struct option options[] = {
	{"input", required_argument, NULL, 'i'},
	{"sort", required_argument, NULL, 's'},
	{"children", no_argument, NULL, O_CHILDREN},
	{"no-children", no_argument, NULL, O_NO_CHILDREN},
	{"call-graph", required_argument, NULL, 'g'},
	{"inverted", no_argument, NULL, 'G'},
	{"percent-limit", required_argument, NULL, O_PERCENT},
	{"stdio", no_argument, NULL, O_STDIO},
	{"json", no_argument, NULL, O_JSON},
	{"folded", no_argument, NULL, O_FOLDED},
	{"flame", required_argument, NULL, O_FLAME},
	{"pprof", required_argument, NULL, O_PPROF},
	{"firefox", required_argument, NULL, O_FIREFOX},
	{"comm", required_argument, NULL, O_COMM},
	{"comms", required_argument, NULL, O_COMM},
	{"pid", required_argument, NULL, O_PID},
	{"tid", required_argument, NULL, O_TID},
	{"dso", required_argument, NULL, O_DSO},
	{"dsos", required_argument, NULL, O_DSO},
	{"symbol", required_argument, NULL, O_SYMBOL},
	{"symbols", required_argument, NULL, O_SYMBOL},
	{"time", required_argument, NULL, O_TIME},
	{"value", required_argument, NULL, O_VALUE},
	{"event", required_argument, NULL, O_EVENT},
	{"no-inline", no_argument, NULL, O_NO_INLINE},
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
	{"help", no_argument, NULL, 'h'},
	{0},
};

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
	for (size_t i = 0; end != arg && !errno && n && i < PV_ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].unit) && n <= UINT64_MAX / units[i].mult) {
			*ns = n * units[i].mult;
			return 0;
		}
	return cli_error("report", "cannot parse the time quantum '%s': give a positive number with "
			 "ns, us, ms or s (e.g. --time-quantum 10ms)", arg);
}

/* perf's --sort may name output columns (overhead, sample, period): a
 * --sort holding any is taken as -F overhead,LIST (its columns in that
 * order, the entries sorted by them). The fields, or NULL. */
static char *sort_as_fields(const char *sort)
{
	static const char *const cols[] = {"overhead", "sample", "period"};
	bool any = false;
	for (size_t i = 0; i < PV_ARRAY_SIZE(cols); i++) {
		size_t n = strlen(cols[i]);
		for (const char *at = strstr(sort, cols[i]); at && !any; at = strstr(at + 1, cols[i]))
			any = (at == sort || at[-1] == ',') && (at[n] == ',' || !at[n]);
	}
	if (!any)
		return NULL;
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, "overhead");
	char *copy = strdup(sort), *save = NULL;
	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save))
		if (strcmp(k, "overhead") != 0)
			pv_buf_printf(&b, ",%s", k);
	free(copy);
	return b.data;
}

/* perf --mem-mode's check: no event of the file (a pipe is not read
 * ahead) samples PERF_SAMPLE_DATA_SRC. */
static bool no_mem_data(const char *input)
{
	if (!strcmp(input, "-"))
		return false;
	struct perfev_perfdata *pd = perfev_perfdata_open(input);
	if (!pd)
		return false; /* (the load names the problem) */
	bool none = true;
	for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		none &= !(a && (a->sample_type & PERF_SAMPLE_DATA_SRC));
	}
	perfev_perfdata_close(pd);
	return none;
}

/* -g: none | caller | callee | graph|fractal|flat[,MIN][,caller|callee] */
static int parse_graph(const char *arg, enum report_graph *g, double *min, int *explicit_order,
		       enum report_graph_mode *mode, enum report_graph_value *value)
{
	char *copy = strdup(arg), *save = NULL;
	int ret = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		double v = strtod(t, &end);
		if (end != t && !*end)
			*min = v;
		else if (!strcmp(t, "none"))
			*g = GRAPH_NONE, *explicit_order = 1;
		else if (!strcmp(t, "caller"))
			*g = GRAPH_CALLER, *explicit_order = 1;
		else if (!strcmp(t, "callee"))
			*g = GRAPH_CALLEE, *explicit_order = 1;
		else if (!strcmp(t, "graph"))
			*mode = GRAPH_ABS;
		else if (!strcmp(t, "fractal"))
			*mode = GRAPH_FRACTAL;
		else if (!strcmp(t, "flat"))
			*mode = GRAPH_FLAT;
		else if (!strcmp(t, "folded"))
			*mode = GRAPH_FOLDED;
		else if (!strcmp(t, "percent"))
			*value = GRAPH_PERCENT;
		else if (!strcmp(t, "period"))
			*value = GRAPH_PERIOD;
		else if (!strcmp(t, "count"))
			*value = GRAPH_COUNT;
		else if (!strcmp(t, "function"))
			; /* perf's default key, and ours */
		else if (!strcmp(t, "address")) {
			fprintf(stderr, "perfev report: -g ...,address (call-graph nodes keyed by address, "
				"shown with their source lines) is not supported: drop it for perf's default, "
				"function; --sort srcline shows source lines\n");
			ret = -2;
		} else
			ret = -1;
	}
	free(copy);
	return ret;
}

static void usage(FILE *f) { fprintf(f, usage_text); }

/* When the filter left nothing: which options did it, and how to see what
 * the file holds (perf prints an empty table and says nothing). */
static void empty_filter_note(const struct perfev_profile_filter *f, uint64_t samples, uint64_t filtered)
{
	if (!samples || filtered < samples)
		return;
	char what[512] = "";
	size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(what + n, n < sizeof(what) ? sizeof(what) - n : 0, __VA_ARGS__))
	if (f->comm)
		ADD(" --comms %s", f->comm);
	if (f->pid >= 0)
		ADD(" --pid %lld", (long long)f->pid);
	if (f->tid >= 0)
		ADD(" --tid %lld", (long long)f->tid);
	if (f->dso)
		ADD(" --dsos %s", f->dso);
	if (f->symbol)
		ADD(" --symbols %s", f->symbol);
#undef ADD
	fprintf(stderr, "perfev report: note: none of the %llu samples passed%s; see what the file "
		"holds with --sort comm,pid,dso (and perfev script -F time for its times)\n",
		(unsigned long long)samples, what);
}

/* --time kept nothing: say what to look at */
static void empty_time_note(const char *time, uint64_t kept, bool quiet)
{
	if (time && !kept && !quiet)
		fprintf(stderr, "perfev report: note: no sample of the event is within --time '%s'; perfev "
			"script -F time shows the samples' times\n", time);
}

/* -g on a file without call chains: perf refuses ("Selected -g ... But no
 * callchain or branch data"); perfev shows the table and says why it has no
 * graphs. */
/* -g or --children asked of a file without call chains: perf draws nothing
 * and drops the Children column (it would equal Self); say why */
static void no_chains_note(const char *input, bool graph, bool children, bool chains, bool quiet)
{
	if ((graph || children) && !chains && !quiet)
		fprintf(stderr, "perfev report: note: %s records no call chains, so %s has nothing to %s "
			"(record with -g or --call-graph dwarf)\n", input,
			graph ? "-g" : "--children", graph ? "draw" : "add");
}

static void dwarf_note(const struct perfev_profile_load_info *info, bool quiet)
{
	if (!quiet && info->dwarf_samples)
		fprintf(stderr, "perfev report: note: DWARF unwinding reached the root in %.1f%% of %llu samples\n",
			100.0 * (double)info->dwarf_to_root / (double)info->dwarf_samples,
			(unsigned long long)info->dwarf_samples);
}

int report_command(int argc, char **argv)
{
	const char *input = "perf.data", *flame = NULL, *pprof = NULL, *firefox = NULL, *title = NULL;
	const char *sort = "comm,dso,sym";
	bool sort_given = false;
	int children = -1, json = 0, folded = 0, order_given = 0, group = -1;
	const char *fields = NULL;
	bool show_samples = false, show_period = false;
	bool quiet = false;
	int branch = -1; /* perf's tristate: -1 decides by the file */
	int header = 0;   /* 1: --header, 2: --header-only */
	bool show_info = false; /* -I: the header's topologies in full */
	int inspect = 0;        /* O_STATS, O_TASKS or O_MMAPS: perf's inspection modes */
	bool stats = false;
	struct report_view v = {.graph = GRAPH_CALLER, .graph_min = 0.5, .value = PERFEV_VALUE_PERIOD};
	struct perfev_profile_filter filter = {.sz = sizeof(filter), .pid = -1, .tid = -1};
	bool filtered = false;
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD, .event = -1};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:g:GF:nqbhIC:U", options, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'i': input = optarg; break;
		case 's': sort = optarg, sort_given = true; break;
		case O_CHILDREN: children = 1; break;
		case O_NO_CHILDREN: children = 0; break;
		case 'g': {
			int r = parse_graph(optarg, &v.graph, &v.graph_min, &order_given, &v.graph_mode, &v.graph_value);
			if (r == -2)
				return 1; /* (said why) */
			if (r < 0)
				return cli_error("report", "bad --call-graph '%s': use none, caller, callee or "
						 "graph|fractal|flat|folded,MIN_PERCENT,caller|callee,"
						 "percent|period|count", optarg);
			break;
		}
		case 'G': v.graph = GRAPH_CALLER, order_given = 1; break;
		case O_PERCENT:
			v.percent_limit = strtod(optarg, &end);
			if (end == optarg || v.percent_limit < 0)
				return cli_error("report", "bad --percent-limit '%s': give a percentage, e.g. 0.5", optarg);
			v.graph_min = v.percent_limit; /* perf: the call graph threshold too (the later option wins) */
			break;
		case O_GROUP: group = 1; break;
		case 'F': fields = optarg; break;
		case 'n': show_samples = true; break;
		case O_TOTAL_PERIOD: show_period = true; break;
		case O_NO_GROUP: group = 0; break;
		case O_STDIO: json = 0; break;
		case O_JSON: json = 1; break;
		case O_FOLDED: folded = 1; break;
		case O_FLAME: flame = optarg; break;
		case O_PPROF: pprof = optarg; break;
		case O_FIREFOX: firefox = optarg; break;
		case O_COMM: filter.comm = optarg, filtered = true; break;
		case O_PID:
		case O_TID: {
			long id = strtol(optarg, &end, 10);
			if (*end || end == optarg || id < 0 || id > 0x7fffffff)
				return cli_error("report", "--%s '%s': give one process/thread id",
						 c == O_PID ? "pid" : "tid", optarg);
			*(c == O_PID ? &filter.pid : &filter.tid) = (int)id;
			filtered = true;
			break;
		}
		case O_DSO: filter.dso = optarg, filtered = true; break;
		case O_SYMBOL: filter.symbol = optarg, filtered = true; break;
		case O_TIME: { /* the loader parses it again: this says what is wrong before the file is read */
			struct pv_time_range *ranges;
			size_t n;
			if (pv_time_ranges_parse(optarg, &ranges, &n) < 0)
				return cli_error("report", "%s", perfev_errmsg());
			free(ranges);
			lo.time = v.time_slices = optarg;
			break;
		}
		case O_VALUE:
			if (!strcmp(optarg, "samples"))
				v.value = PERFEV_VALUE_SAMPLES;
			else if (!strcmp(optarg, "period"))
				v.value = PERFEV_VALUE_PERIOD;
			else if (!strcmp(optarg, "weight"))
				v.value = PERFEV_VALUE_WEIGHT;
			else
				return cli_error("report", "bad --value '%s': use samples, period or weight", optarg);
			break;
		case O_EVENT:
			lo.event = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || lo.event < 0)
				return cli_error("report", "--event '%s': give the event's number, 0 for the first", optarg);
			break;
		case O_NO_INLINE: lo.no_inline = true; break;
		case O_DEMANGLE: lo.no_demangle = false; break;
		case O_NO_DEMANGLE: lo.no_demangle = true; break;
		case O_SYMBOL_FILTER: v.symbol_filter = optarg; break;
		case 'U':
		case O_HIDE_UNRESOLVED: lo.hide_unresolved = true; break;
		case O_KALLSYMS: lo.kallsyms = optarg; break;
		case O_SYMFS: lo.symfs = optarg; break;
		case 'C':
			if (!cpu_filter && atexit(free_cpu_filter) != 0)
				return cli_error("report", "out of memory");
			free_cpu_filter();
			if (!(cpu_filter = perfev_cpus_parse(optarg)))
				return cli_error("report", "bad -C '%s': %s", optarg, perfev_errmsg());
			lo.cpus = cpu_filter;
			break;
		case O_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
				return cli_error("report", "bad --percentage '%s': relative (of the samples the "
						 "filters keep) or absolute (of all, the default)", optarg);
			v.relative = !strcmp(optarg, "relative");
			break;
		case O_MEM_MODE: v.mem_mode = true; break;
		case O_TIME_QUANTUM:
			if (parse_time_quantum(optarg, &lo.time_quantum) != 0)
				return 1;
			break;
		case O_NO_KCACHE: lo.no_cache = true; break;
		case O_TITLE: title = optarg; break;
		case 'q': quiet = true; break;
		case 'b': branch = 1; break;
		case O_NO_BRANCH: branch = 0; break;
		case O_HEADER: header = header ? header : 1; break;
		case O_HEADER_ONLY: header = 2; break;
		case 'I': show_info = true; break;
		case O_STATS: stats = true; break;
		case O_TASKS: inspect = inspect == O_MMAPS ? O_MMAPS : O_TASKS; break;
		case O_MMAPS: inspect = O_MMAPS; break;
		case O_MAX_STACK: {
			long ms = strtol(optarg, &end, 10);
			if (end == optarg || *end || ms < 1 || ms > 1000000)
				return cli_error("report", "bad --max-stack '%s': give a number of frames, "
						 "e.g. 127", optarg);
			lo.max_stack = (int)ms;
			break;
		}
		case 'h': printf(usage_text); return 0;
		default: return cli_bad_option("report", usage, c, argv);
		}
	}
	if (optind < argc)
		return cli_error("report", "unexpected argument '%s' (the input file goes after -i)", argv[optind]);
	struct report_exports x = {.flame = flame, .pprof = pprof, .firefox = firefox, .title = title};
	if (report_exports_check("report", &x))
		return 1; /* before the work, not after it */
	if (header == 1 && (json || folded))
		return cli_error("report", "--header prints perf's text header before a text report: not with "
				 "%s (run --header-only separately)", json ? "--json" : "--folded");
	if (header) { /* perf's --header/--header-only: the file's header, then (--header) the report */
		if (cli_print_header("report", input, show_info))
			return 1;
		if (header == 2)
			return 0;
		report_header_shown = true;
	}
	if (stats || inspect) /* perf's inspection modes print instead of the report */
		return report_inspect(input, stats, inspect == O_MMAPS ? 2 : inspect ? 1 : 0,
				      folded ? "--folded" : flame ? "--flame" : pprof ? "--pprof" :
				      firefox ? "--firefox" : json ? "--json" : NULL);
	cli_warn_unclean("report", input); /* killed recordings are read up to their last record */
	cli_quiet = quiet; /* the library's notes (main.c's log hook) */
	bool table = !json && !folded && !flame && !pprof && !firefox;
	/* the branch view filters by command only */
	bool other_filter = filter.pid >= 0 || filter.tid >= 0 || filter.dso || filter.symbol || lo.time;
	bool asked = branch > 0;
	if (branch < 0 && table && lo.event < 0)
		branch = perfev_branch_table_wanted(input) > 0; /* perf's default for LBR recordings */
	/* perf's branch mode under --sort/-F: the keys of every branch's target */
	bool branch_keys = branch > 0 && (sort_given || fields);
	if (branch_keys && ((sort_given && report_names_branch_key(sort)) || (fields && report_names_branch_key(fields)))) {
		if (fields) /* (perf takes them in -F too) */
			return cli_error("report", "perfev takes perf's branch keys (dso_from, symbol_to...) in "
					 "--sort only, without -F: give them as --sort KEYS");
		v.branch_sort = sort; /* the branch table, by these keys */
		branch_keys = false;
	}
	if (branch_keys) {
		if (!table || other_filter || lo.event >= 0)
			return cli_error("report", "the branch view (-b, the default for files with branch stacks) "
					 "with --sort/-F is a text table filtered by --comms only: drop %s, or add "
					 "--no-branch-stack", !table ? "--json, --folded and the exports" :
					 other_filter ? "the filters but --comms" : "--event");
		if (asked && perfev_branch_table_wanted(input) <= 0)
			return cli_error("report", "%s has no branch stacks (record them with perf record -b or "
					 "-j any), so there is no branch view: drop -b", input);
		lo.flags |= PERFEV_PROFILE_BRANCH_TARGETS;
		lo.no_callchain = true;
		/* perf filters entries, not branches: one of a command's branches
		 * shows its entry whole (report_view.first_comms) */
		v.first_comms = filter.comm;
		filter.comm = NULL, filtered = false;
		children = 0, v.graph = GRAPH_NONE, order_given = 1; /* perf: no graphs, no Children */
		branch = 0;
	}
	if (branch > 0) {
		if ((!table && !(json && !folded && !flame && !pprof && !firefox)) || other_filter || lo.event >= 0)
			return cli_error("report", "the branch view (-b, the default for files with branch stacks) "
					 "takes no filters but --comms, no --event and no exports: drop them, or add "
					 "--no-branch-stack");
		int r = report_branch_file(input, &lo, &v, show_samples, show_period, filter.comm, asked, json);
		if (r != -ENOENT)
			return r;
	}
	if (sort_given && !json && !folded && !flame && !pprof && !firefox) {
		int tr = report_tracepoint_sort(input, sort);
		if (tr != -ENOENT)
			return tr;
	}
	if (v.mem_mode && no_mem_data(input))
		return cli_error("report", "--mem-mode: %s has no memory access data (no event samples "
				 "PERF_SAMPLE_DATA_SRC): record with perf record -d, or drop --mem-mode", input);
	if (v.mem_mode) { /* perf: weights as periods, no children */
		if (!sort_given)
			sort = REPORT_MEM_SORT;
		children = 0;
		v.value = PERFEV_VALUE_WEIGHT;
		lo.flags |= PERFEV_PROFILE_KEEP_MEM;
	}
	/* perf (builtin-report.c): a --sort naming "symbol" (symbol, symbol_size)
	 * gets the IPC columns, "-" for samples without branch stacks */
	char *sort_ipc = NULL;
	if (sort_given && strstr(sort, "symbol")) {
		if (asprintf(&sort_ipc, "%s,%s", sort, branch_keys ? "ipc_lbr" : "ipc_null") < 0)
			return cli_error("report", "out of memory");
		sort = sort_ipc;
	}
	if (v.mem_mode && sort_given) /* (perf's header names its sort order with the IPC key added) */
		v.sort_order = sort;
	static char *sort_fields; /* (kept to the end: fields points into it) */
	free(sort_fields);
	sort_fields = sort_given && !fields ? sort_as_fields(sort) : NULL;
	if (sort_fields) {
		fields = sort_fields;
		sort_given = false;
		v.fields_from_sort = true;
		v.sort_list = sort;
	}
	int parsed = sort_fields ? 0 : report_parse_sort(&v, sort); /* (v's keys are report_out.c's names) */
	v.graph_skip_first = (sort_given || v.fields_from_sort) && (!fields || v.fields_from_sort) &&
			     !strncmp(sort, "sym", 3);
	static char *sort_order_kept; /* (the header prints it after the profile is read) */
	free(sort_order_kept);
	sort_order_kept = NULL;
	if ((v.sort_order && v.sort_order == sort_ipc) || (v.sort_list && v.sort_list == sort_ipc))
		sort_order_kept = sort_ipc;
	else
		free(sort_ipc);
	if (parsed < 0 || (fields && report_parse_fields(&v, fields, sort_given) < 0))
		return 1;
	lo.filter = filtered ? &filter : NULL;
	v.only_comm = filter.comm, v.only_dso = filter.dso, v.only_sym = filter.symbol;
	if (v.first_comms && !strchr(v.first_comms, ','))
		v.only_comm = v.first_comms; /* one command: its column left out, named */
	/* pprof carries file names and line numbers, so its frames need them */
	lo.srclines = (v.key_mask & (PERFEV_KEY_SRCLINE | PERFEV_KEY_SRCFILE)) != 0 || pprof;
	if (v.key_mask & (PERFEV_KEY_CPU | PERFEV_KEY_SOCKET)) /* groups apart per CPU only when shown */
		lo.flags |= PERFEV_PROFILE_KEEP_CPU;
	if (v.key_mask & (PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC))
		lo.flags |= PERFEV_PROFILE_KEEP_WEIGHTS; /* (likewise per sample) */
	if (v.key_mask & PERFEV_KEY_TIME)
		lo.flags |= PERFEV_PROFILE_KEEP_TIME;
	if (v.key_mask & PERFEV_KEY_ADDR)
		lo.flags |= PERFEV_PROFILE_KEEP_ADDR;
	if (firefox)
		lo.flags |= PERFEV_PROFILE_KEEP_SAMPLES;
	/* Stacks cost most of the time (DWARF unwinding above all): skip them
	 * when nothing shown needs them, as perf does for -g none --no-children */
	if (children == 0 && (v.graph == GRAPH_NONE && order_given) && !flame && !pprof && !firefox && !folded)
		lo.no_callchain = true;
	/* perf cuts chains in its call-graph order: caller when asked, or by
	 * default with --children (not for -g none, which leaves the order) */
	bool text = !json && !folded && !flame && !pprof && !firefox;
	if (order_given && v.graph != GRAPH_NONE)
		lo.max_stack_outer = text && v.graph == GRAPH_CALLER;
	else
		lo.max_stack_outer = text && children != 0;
	/* perf's [k]/[.] of --children rows of frames outside any map follow
	 * its cursor, in callee order when asked */
	lo.unmapped_levels_callee = text && children != 0 && order_given && v.graph == GRAPH_CALLEE;
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	if (!json && !folded && !flame && !pprof && !firefox && lo.event < 0) {
		/* the text report: every event, as perf prints them */
		lo.inline_dwarf_only = true; /* perf expands inlines of DWARF call chains only */
		size_t nev;
		struct perfev_profile_event *ev = perfev_profile_load_events(input, &lo, &info, &nev);
		if (!ev)
			return cli_error("report", "%s", perfev_errmsg());
		bool callchains = false;
		for (size_t i = 0; i < nev && !branch_keys; i++)
			callchains |= ev[i].has_callchains;
		v.children = children != 0 && callchains;
		no_chains_note(input, order_given && v.graph != GRAPH_NONE, children > 0, callchains, quiet);
		if (!order_given)
			v.graph = v.children ? GRAPH_CALLER : GRAPH_CALLEE; /* perf's defaults */
		v.lost = info.lost_samples; /* perf's "Total Lost Samples" */
		report_set_columns(&v, fields, show_samples, show_period);
		dwarf_note(&info, quiet);
		uint64_t all = 0, out = 0;
		for (size_t i = 0; i < nev; i++)
			all += ev[i].samples, out += perfev_profile_filtered(ev[i].profile);
		if (filtered && !quiet)
			empty_filter_note(&filter, all, out);
		empty_time_note(lo.time, all, quiet);
		int ret = report_print_events(input, ev, nev, group, &v, stdout);
		perfev_profile_events_free(ev, nev);
		return ret;
	}
	lo.inline_dwarf_only = !json && !folded && !flame && !pprof && !firefox; /* the text: as perf */
	struct perfev_profile *p = perfev_profile_load(input, &lo, &info);
	if (!p)
		return cli_error("report", "%s", perfev_errmsg());
	no_chains_note(input, order_given && v.graph != GRAPH_NONE, children > 0, info.has_callchains, quiet);
	children = children != 0 && info.has_callchains;
	v.children = children;
	if (!info.has_callchains)
		v.graph = GRAPH_NONE;
	else if (!order_given)
		v.graph = children ? GRAPH_CALLER : GRAPH_CALLEE; /* perf's defaults */
	v.event_name = info.event_name;
	v.nr_samples = perfev_profile_total(p, PERFEV_VALUE_SAMPLES);
	v.lost = info.lost;
	if (!quiet && info.other_samples)
		fprintf(stderr, "perfev report: note: %llu samples of other events not shown "
			"(choose one with --event N)\n", (unsigned long long)info.other_samples);
	dwarf_note(&info, quiet);
	if (filtered && !quiet)
		empty_filter_note(&filter, info.samples, perfev_profile_filtered(p));
	empty_time_note(lo.time, info.samples, quiet);

	int ret = 0;
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s from %s",
		 (unsigned long long)v.nr_samples, info.event_name, input);
	ret = report_write_exports("report", p, &x, subtitle,
				   v.value == PERFEV_VALUE_WEIGHT ? PERFEV_VALUE_WEIGHT : PERFEV_VALUE_SAMPLES);
	struct perfev_export_options eo = {.sz = sizeof(eo)};
	if (folded) {
		if (perfev_export_folded(p, &eo, stdout) < 0)
			ret = cli_error("report", "%s", perfev_errmsg());
	} else if (json) {
		ret |= report_print_json(p, &v, stdout);
	} else {
		report_set_columns(&v, fields, show_samples, show_period);
		struct report_section sec = {.p = {p}, .nr = 1, .samples = v.nr_samples};
		snprintf(sec.title, sizeof(sec.title), "event '%s'", info.event_name);
		struct report_view pv = v;
		pv.lost = info.lost_samples;
		report_print_preamble(&pv, stdout);
		ret |= report_print_stdio(&sec, &v, stdout);
	}
	perfev_profile_free(p);
	return ret;
}
CLI_COMMAND(report, report_command, "read a perf.data file: perf report's table, call graphs, flame graphs, pprof");
