/* cmd_evlist.c — perfev evlist: the events of a recording as perf evlist
 * prints them; the listing is the library's (perfev_perfdata_print_evlist). */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <getopt.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev evlist [-i FILE] [-v | -F | -g] [--trace-fields]\n"
		   "  -i, --input FILE  the perf.data file (default perf.data; - for a pipe)\n"
		   "  -v, --verbose     each event's attr: every field that is not zero, as perf\n"
		   "  -F, --freq        each event's sample_freq (or sample_period)\n"
		   "  -g, --group       the event groups: {leader,member,...}\n"
		   "      --trace-fields  each tracepoint's fields\n"
		   "One line per event, as perf evlist.\n");
}

enum { O_TRACE_FIELDS = 256 };

struct args {
	struct perfev_evlist_opts o;
	const char *input;
};

static int option(void *ctx, int c)
{
	struct args *a = ctx;
	switch (c) {
	case 'i': a->input = optarg; return 0;
	case 'v': a->o.verbose = true; return 0;
	case 'F': a->o.freq = true; return 0;
	case 'g': a->o.group = true; return 0;
	case O_TRACE_FIELDS: a->o.trace_fields = true; return 0;
	}
	return CLI_UNKNOWN;
}

static int run(int argc, char **argv)
{
	static const struct option lo[] = {{"input", required_argument, 0, 'i'}, {"verbose", no_argument, 0, 'v'},
					   {"freq", no_argument, 0, 'F'}, {"group", no_argument, 0, 'g'},
					   {"trace-fields", no_argument, 0, O_TRACE_FIELDS},
					   {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	struct args a = {.o = {.sz = sizeof(a.o)}, .input = "perf.data"};
	int r = cli_parse("evlist", argc, argv, ":i:vFgh", lo, usage, option, &a);
	if (r)
		return r == CLI_HELP ? 0 : r;
	if (optind < argc)
		return cli_usage_error("evlist", usage, "unexpected argument '%s': give the file with -i FILE",
				       argv[optind]);
	struct perfev_perfdata *pd = perfev_perfdata_open(a.input);
	if (!pd)
		return cli_error("evlist", "%s", perfev_errmsg());
	int err = perfev_perfdata_print_evlist(pd, &a.o, stdout);
	perfev_perfdata_close(pd);
	return err < 0 ? cli_error("evlist", "%s", perfev_errmsg()) : 0;
}
CLI_COMMAND(evlist, run, "the events of a recording, as perf evlist");
