/* cmd_diff.c — perfev diff: perf diff's command line over two or more
 * perf.data files (perf.data.old and perf.data by default), handed to the
 * library: perfev_diff_print (perfev/diff.h) prints the table; the
 * differential exports (a flame graph, difffolded lines, pprof's
 * -diff_base) load each file's profile through perfev_report_load. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 32

static const char usage_text[] =
	"usage: perfev diff [OLD] [NEW ...] [-c delta|delta-abs|ratio|wdiff:W1,W2] [--sort KEYS]\n"
	"                   [--percentage relative|absolute] [-o N] [--stdio | --json]\n"
	"                   [--flame FILE.svg | --folded | --pprof FILE.pb.gz]\n"
	"  OLD, NEW              perf.data files (default perf.data.old perf.data; one file: it is\n"
	"                        NEW, perf.data.old the baseline); more than one NEW: a column each\n"
	"  -c, --compute C       delta (the change of share, in points), delta-abs (the same,\n"
	"                        largest changes first; the default), ratio (new period / old),\n"
	"                        wdiff:W1,W2 (new period * W2 - old period * W1)\n"
	"  -s, --sort KEYS       the report's keys: dso, sym, comm, pid, ... (default dso,sym);\n"
	"                        rows match across files by the keys' names (symbol names, object\n"
	"                        base names), so a rebuilt binary matches\n"
	"      --percentage relative|absolute  with filters: shares of the samples kept or of all\n"
	"  -o, --order N         order rows by file N's column first (0: by the baseline; default 1)\n"
	"      --stdio           perf diff's text table (default)\n"
	"      --json            the rows as JSON\n"
	"      --flame FILE      a differential SVG flame graph of NEW's stacks: red grew, blue shrank\n"
	"      --folded          difffolded lines on stdout: \"stack OLD NEW\" per stack (periods)\n"
	"      --pprof FILE      NEW with OLD subtracted, as pprof -diff_base reads it (gzipped)\n"
	"      --title TEXT      the flame graph's title\n"
	"      --comm COMM, --dso DSO, --symbol SYM   keep only those samples (every file)\n"
	"      --symfs DIR       binaries and debug files under DIR\n"
	"      --kallsyms FILE   kernel symbols from FILE instead of /proc/kallsyms\n"
	"  -q, --quiet           no notes about missing symbols\n";

enum { O_STDIO = 256, O_JSON, O_FLAME, O_FOLDED, O_PPROF, O_TITLE, O_PERCENTAGE, O_SYMFS, O_KALLSYMS, O_COMM,
       O_DSO, O_SYMBOL };
static const struct option options[] = {
	{"compute", required_argument, NULL, 'c'},
	{"sort", required_argument, NULL, 's'},
	{"order", required_argument, NULL, 'o'},
	{"percentage", required_argument, NULL, O_PERCENTAGE},
	{"stdio", no_argument, NULL, O_STDIO},
	{"json", no_argument, NULL, O_JSON},
	{"flame", required_argument, NULL, O_FLAME},
	{"folded", no_argument, NULL, O_FOLDED},
	{"pprof", required_argument, NULL, O_PPROF},
	{"title", required_argument, NULL, O_TITLE},
	{"comm", required_argument, NULL, O_COMM},
	{"comms", required_argument, NULL, O_COMM},
	{"dso", required_argument, NULL, O_DSO},
	{"dsos", required_argument, NULL, O_DSO},
	{"symbol", required_argument, NULL, O_SYMBOL},
	{"symbols", required_argument, NULL, O_SYMBOL},
	{"symfs", required_argument, NULL, O_SYMFS},
	{"kallsyms", required_argument, NULL, O_KALLSYMS},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{0},
};

struct args {
	struct perfev_diff_opts o;
	struct perfev_profile_load_opts lo;
	struct perfev_profile_filter filter;
	const char *files[MAX_FILES];
	size_t nr_files;
	const char *flame, *pprof, *title;
	bool folded, quiet;
};

static void usage(FILE *f) { fprintf(f, usage_text); }

static int option(void *ctx, int c)
{
	struct args *a = ctx;
	char *end;
	switch (c) {
	case 'c': a->o.compute = optarg; return 0;
	case 's': a->o.sort = optarg; return 0;
	case 'o': {
		errno = 0;
		unsigned long n = strtoul(optarg, &end, 10);
		if (end == optarg || *end || errno || n >= MAX_FILES || optarg[0] == '-')
			return cli_error("diff", "bad -o '%s': give a file's number, 0 for the baseline", optarg);
		a->o.order = (unsigned)n;
		a->o.order_given = true;
		return 0;
	}
	case O_PERCENTAGE:
		if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
			return cli_error("diff", "bad --percentage '%s': relative (of the samples the filters "
					 "keep) or absolute (of all of them)", optarg);
		a->o.relative = !strcmp(optarg, "relative");
		return 0;
	case O_STDIO: a->o.json = false; return 0;
	case O_JSON: a->o.json = true; return 0;
	case O_FLAME: a->flame = optarg; return 0;
	case O_FOLDED: a->folded = true; return 0;
	case O_PPROF: a->pprof = optarg; return 0;
	case O_TITLE: a->title = optarg; return 0;
	case O_COMM: a->filter.comm = optarg; a->lo.filter = &a->filter; return 0;
	case O_DSO: a->filter.dso = optarg; a->lo.filter = &a->filter; return 0;
	case O_SYMBOL: a->filter.symbol = optarg; a->lo.filter = &a->filter; return 0;
	case O_SYMFS: a->lo.symfs = optarg; return 0;
	case O_KALLSYMS: a->lo.kallsyms = optarg; return 0;
	case 'q': a->quiet = true; return 0;
	}
	return CLI_UNKNOWN;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int r = cli_parse("diff", argc, argv, ":c:s:o:qh", options, usage, option, a);
	if (r)
		return r;
	size_t n = (size_t)(argc - optind);
	if (n > MAX_FILES)
		return cli_error("diff", "%zu files: perfev diff compares at most %d", n, MAX_FILES);
	/* perf diff: no file, perf.data.old and perf.data; one, it against perf.data.old */
	a->files[0] = n >= 2 ? argv[optind] : "perf.data.old";
	a->files[1] = n >= 2 ? argv[optind + 1] : n == 1 ? argv[optind] : "perf.data";
	for (size_t i = 2; i < n; i++)
		a->files[i] = argv[optind + i];
	a->nr_files = n > 2 ? n : 2;
	int exports = !!a->flame + !!a->pprof + a->folded;
	if (exports > 1 || (exports && a->o.json))
		return cli_error("diff", "--flame, --pprof, --folded and --json are each their own output: give one");
	if (exports && a->nr_files != 2)
		return cli_error("diff", "the differential exports compare two files, OLD and NEW, not %zu",
				 a->nr_files);
	if (a->o.order_given && a->o.order >= a->nr_files)
		return cli_error("diff", "-o %u: there are %zu files (0 the baseline): give -o 0..%zu", a->o.order,
				 a->nr_files, a->nr_files - 1);
	return perfev_diff_check(&a->o) < 0 ? cli_error("diff", "%s", perfev_errmsg()) : 0;
}

/* One export of OLD against NEW: both profiles as the report loads them. */
static int write_export(const struct args *a, struct perfev_perfdata **pd)
{
	struct perfev_report_opts ro = {.sz = sizeof(ro), .children = -1, .group = -1, .branch = 0,
					.load = &a->lo};
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *old = perfev_report_load(pd[0], &ro, NULL);
	struct perfev_profile *new_ = old ? perfev_report_load(pd[1], &ro, &info) : NULL;
	const char *path = a->flame ? a->flame : a->pprof;
	FILE *f = !new_ ? NULL : path ? fopen(path, "w") : stdout;
	int ret = 0;
	if (!new_) {
		ret = cli_error("diff", "%s", perfev_errmsg());
	} else if (!f) {
		ret = cli_error("diff", "cannot write %s: %s (check the directory and its permissions)", path,
				strerror(errno));
	} else {
		char subtitle[512];
		snprintf(subtitle, sizeof(subtitle), "%s (%s) against %s: red grew, blue shrank", a->files[1],
			 info.event_name, a->files[0]);
		struct perfev_export_options eo = {.sz = sizeof(eo), .value = PERFEV_VALUE_PERIOD,
						   .title = a->title, .subtitle = subtitle};
		int r = a->flame ? perfev_export_flame_diff(old, new_, &eo, f)
		      : a->pprof ? perfev_export_pprof_diff(old, new_, &eo, f)
				 : perfev_export_folded_diff(old, new_, &eo, f);
		if (f != stdout && fclose(f) != 0 && r == 0)
			r = -errno;
		if (r < 0)
			ret = cli_error("diff", "%s", perfev_errmsg());
	}
	perfev_profile_free(old);
	perfev_profile_free(new_);
	return ret;
}

static int run(struct args *a)
{
	struct perfev_perfdata *pd[MAX_FILES] = {0};
	int ret = 0;
	for (size_t i = 0; i < a->nr_files && !ret; i++) {
		pd[i] = perfev_perfdata_open(a->files[i]);
		if (!pd[i])
			ret = cli_error("diff", "%s", perfev_errmsg());
		else
			cli_warn_unclean("diff", pd[i]);
	}
	if (!ret && (a->flame || a->pprof || a->folded)) {
		perfev_diff_compare_events(pd[0], pd[1]);
		ret = write_export(a, pd);
	} else if (!ret && perfev_diff_print(pd, a->nr_files, &a->o, stdout) < 0) {
		ret = cli_error("diff", "%s", perfev_errmsg());
	}
	for (size_t i = 0; i < a->nr_files; i++)
		perfev_perfdata_close(pd[i]);
	return ret;
}

static int diff_command(int argc, char **argv)
{
	struct args a = {
		.o = {.sz = sizeof(a.o)},
		.lo = {.sz = sizeof(a.lo), .group = PERFEV_GROUP_THREAD, .event = -1},
		.filter = {.sz = sizeof(a.filter), .pid = -1, .tid = -1},
	};
	a.o.load = &a.lo;
	int ret = parse_args(&a, argc, argv);
	if (ret == 0) {
		cli_log_to_stderr("diff", a.quiet);
		ret = run(&a);
	}
	return ret < 0 ? 0 : ret; /* (-1: --help) */
}
CLI_COMMAND(diff, diff_command, "compare perf.data files as perf diff does, or as a differential flame graph");
