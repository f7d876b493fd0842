/* cmd_script.c — perfev script: a perf.data file's samples as perf script prints them. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfev script [-i FILE|-] [-F FIELDS] [--json] [--show-task-events] [--show-mmap-events]\n"
		"                     [--show-switch-events] [--show-lost-events] [--show-namespace-events]\n"
		"                     [--show-round-events] [--kallsyms FILE] [--symfs DIR] [--header | --header-only]\n"
		"                     [-c COMMS] [--pid PIDS] [--tid TIDS] [-C CPUS] [--time START,END]\n"
		"                     [-S SYMBOLS] [--dsos DSOS] [-G] [--max-stack N] [--stop-bt SYMBOLS]\n"
		"                     [--ns] [--reltime | --deltatime] [--no-demangle]\n"
		"  -i FILE   the perf.data file to read (default perf.data; '-' reads a pipe-mode stream)\n"
		"  -F FIELDS perf script's fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,addr,period,\n"
		"            flags,misc,... ('+f' adds to the defaults, 'sw:f' for one event type)\n"
		"  --json    one JSON object per record, side-band records included\n"
		"  --kallsyms FILE  kernel symbols from FILE (the recording kernel's) instead of /proc/kallsyms\n"
		"  -k, --vmlinux FILE  kernel symbols from the symbol table of FILE, the recorded kernel's vmlinux\n"
		"  --symfs DIR      binaries and debug files under DIR (the recording machine's files)\n"
		"  --no-demangle    C++/Rust symbols as mangled in the binary (demangled: without parameters)\n"
		"  --inline         call chains with their inlined frames (perf's default); --no-inline: without\n"
		"  -L, --Latency    perf's latency columns: the command as %%8.8s, the CPU as %%3d\n"
		"  --header, --header-only  the file's header (as perf report --header) before the records, or alone\n"
		"samples shown (perf script's filters; lists are comma-separated):\n"
		"  -c, --comms LIST   of threads of these names (as named when sampled)\n"
		"  --pid LIST, --tid LIST  of these processes, of these threads\n"
		"  -C, --cpu LIST     taken on these CPUs (0,2-3); side-band lines too\n"
		"  --time START,END   taken in [START, END], seconds as printed (either end may be empty;\n"
		"                     several ranges separated by spaces)\n"
		"  -S, --symbols LIST in these symbols (names, or a symbol's start as 0x...)\n"
		"  --dsos LIST        in these objects (base names or paths)\n"
		"call chains and times:\n"
		"  -G, --hide-call-graph  the sampled address only, on the sample's line\n"
		"  --max-stack N      at most N entries of each call chain (default 127)\n"
		"  --stop-bt LIST     end each call chain after the first of these symbols\n"
		"  --ns               times with nanoseconds; --reltime since the first record shown;\n"
		"  --deltatime        since the previous one\n");
}

static bool stdin_is_fifo(void)
{
	struct stat st;
	return fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* The file's header (header 1: before the records, 2: alone) and its
 * records as o asks, perf's warnings of an unclean file on stderr. */
static int script_file(const char *input, int header, const struct perfev_script_opts *o)
{
	char why[1024];
	struct perfev_perfdata *pd = perfev_perfdata_open(input);
	if (!pd)
		return cli_error("script", "%s", perfev_errmsg());
	int hr = header ? cli_print_header("script", pd, false) : 0;
	if (hr || header == 2) {
		perfev_perfdata_close(pd);
		return hr;
	}
	if (o->fields && perfev_script_unprintable(o->fields, why, sizeof(why)) > 0)
		fprintf(stderr, "perfev script: %s\n", why);
	const char *unclean = perfev_perfdata_unclean(pd);
	if (unclean) /* as perf: before the samples */
		fprintf(stderr, "perfev script: warning: %s\n", unclean);
	cli_pager_start();
	int err = perfev_script_run(pd, o);
	if (!unclean && perfev_perfdata_unclean(pd)) /* found reading: a record cut short */
		fprintf(stderr, "perfev script: warning: %s\n", perfev_perfdata_unclean(pd));
	perfev_perfdata_close(pd);
	if (err < 0)
		return cli_error("script", "%s", perfev_errmsg());
	return 0;
}

enum { O_JSON = 256, O_TASK, O_MMAP, O_SWITCH, O_LOST, O_NS, O_ROUND, O_KALLSYMS, O_SYMFS, O_PID, O_TID,
       O_TIME, O_DSOS, O_MAX_STACK, O_STOP_BT, O_NSEC, O_RELTIME, O_DELTATIME, O_HEADER, O_HEADER_ONLY,
       O_DEMANGLE, O_NO_DEMANGLE, O_INLINE, O_NO_INLINE };
static const struct option lo[] = {
	{"input", required_argument, 0, 'i'},  {"fields", required_argument, 0, 'F'},
	{"json", no_argument, 0, O_JSON},      {"show-task-events", no_argument, 0, O_TASK},
	{"show-mmap-events", no_argument, 0, O_MMAP}, {"show-switch-events", no_argument, 0, O_SWITCH},
	{"show-lost-events", no_argument, 0, O_LOST}, {"show-namespace-events", no_argument, 0, O_NS},
	{"show-round-events", no_argument, 0, O_ROUND}, {"kallsyms", required_argument, 0, O_KALLSYMS},
	{"symfs", required_argument, 0, O_SYMFS},
	{"comms", required_argument, 0, 'c'},  {"pid", required_argument, 0, O_PID},
	{"tid", required_argument, 0, O_TID},  {"cpu", required_argument, 0, 'C'},
	{"time", required_argument, 0, O_TIME}, {"symbols", required_argument, 0, 'S'},
	{"dsos", required_argument, 0, O_DSOS}, {"hide-call-graph", no_argument, 0, 'G'},
	{"max-stack", required_argument, 0, O_MAX_STACK}, {"stop-bt", required_argument, 0, O_STOP_BT},
	{"ns", no_argument, 0, O_NSEC},         {"reltime", no_argument, 0, O_RELTIME},
	{"deltatime", no_argument, 0, O_DELTATIME}, {"header", no_argument, 0, O_HEADER},
	{"header-only", no_argument, 0, O_HEADER_ONLY},
	{"demangle", no_argument, 0, O_DEMANGLE}, {"no-demangle", no_argument, 0, O_NO_DEMANGLE},
	{"inline", no_argument, 0, O_INLINE}, {"no-inline", no_argument, 0, O_NO_INLINE},
	{"Latency", no_argument, 0, 'L'},
	{"vmlinux", required_argument, 0, 'k'},
	{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};

struct args {
	const char *input;
	int header; /* 1: --header, 2: --header-only */
	struct perfev_script_opts o;
};

static int option(void *ctx, int c)
{
	struct args *a = ctx;
	switch (c) {
	case 'i': a->input = optarg; break;
	case 'F': a->o.fields = optarg; break;
	case O_JSON: a->o.json = true; break;
	case O_TASK: a->o.show_task_events = true; break;
	case O_MMAP: a->o.show_mmap_events = true; break;
	case O_SWITCH: a->o.show_switch_events = true; break;
	case O_LOST: a->o.show_lost_events = true; break;
	case O_NS: a->o.show_namespace_events = true; break;
	case O_ROUND: a->o.show_round_events = true; break;
	case O_KALLSYMS: a->o.kallsyms = optarg; break; /* the recording kernel's, as perf takes it */
	case O_SYMFS: a->o.symfs = optarg; break;
	case 'c': a->o.comms = optarg; break;
	case O_PID: a->o.pids = optarg; break;
	case O_TID: a->o.tids = optarg; break;
	case 'C': a->o.cpus = optarg; break;
	case O_TIME: a->o.time = optarg; break;
	case 'S': a->o.symbols = optarg; break;
	case O_DSOS: a->o.dsos = optarg; break;
	case 'G': a->o.hide_call_graph = true; break;
	case O_MAX_STACK: {
		char *end;
		long n = strtol(optarg, &end, 10);
		if (end == optarg || *end || n < 0)
			return cli_usage_error("script", usage, "--max-stack '%s': give a number of entries",
					       optarg);
		a->o.max_stack = n > 100000 ? 100000 : (unsigned)n;
		a->o.max_stack_given = true;
		break;
	}
	case O_STOP_BT: a->o.stop_bt = optarg; break;
	case O_NSEC: a->o.ns = true; break;
	case O_RELTIME: a->o.reltime = true; break;
	case O_DELTATIME: a->o.deltatime = true; break;
	case O_HEADER: a->header = 1; break;
	case O_HEADER_ONLY: a->header = 2; break;
	case O_DEMANGLE: a->o.no_demangle = false; break;
	case O_NO_DEMANGLE: a->o.no_demangle = true; break;
	case O_INLINE: a->o.no_inline = false; break; /* (the last of the two wins, as perf's) */
	case O_NO_INLINE: a->o.no_inline = true; break;
	case 'L': a->o.latency = true; break;
	case 'k': a->o.vmlinux = optarg; break;
	default: return CLI_UNKNOWN;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct args a = {.o = {.sz = sizeof(a.o)}};
	int r = cli_parse("script", argc, argv, ":i:F:c:C:S:GLhk:", lo, usage, option, &a);
	if (r)
		return r == CLI_HELP ? 0 : r;
	struct perfev_script_opts o = a.o;
	const char *input = a.input;
	int header = a.header;
	if (optind < argc)
		return cli_usage_error("script", usage, "unexpected argument '%s': give the file with -i FILE",
				       argv[optind]);
	if (!input)
		input = stdin_is_fifo() ? "-" : "perf.data"; /* as perf: only a pipe means a stream */
	if (o.reltime && o.deltatime)
		return cli_usage_error("script", usage, "--reltime and --deltatime exclude each other: choose one");
	if (o.latency && o.json)
		return cli_usage_error("script", usage, "-L (--Latency) is perf's text columns: drop --json");
	if (header && o.json)
		return cli_usage_error("script", usage, "--header%s is text: drop --json", header == 2 ? "-only" : "");
	return script_file(input, header, &o);
}
CLI_COMMAND(script, run, "print the samples of a perf.data file as perf script does (or as JSON)");
