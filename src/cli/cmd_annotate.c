/*
 * cmd_annotate.c — perfev annotate: perf annotate's command line over a
 * perf.data file. It parses the options, opens the file once and hands
 * both to the library (perfev/annotate.h), which reads the samples,
 * disassembles the hot symbols and prints them as perf annotate --stdio
 * does, or as JSON.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfev annotate [-i FILE] [SYMBOL] [--stdio | --json] [-s SYMBOL] [-d DSO]\n"
		"                       [--source | --no-source] [-l] [--percent-type TYPE]\n"
		"                       [--asm-raw] [-M intel|att] [--symfs DIR]\n\n"
		"Every symbol with samples (or SYMBOL) with its instructions, each with its share of\n"
		"the symbol's samples, between the source lines and inlined functions DWARF maps\n"
		"them to, as perf annotate --stdio prints them.\n"
		"  -i, --input FILE       perf.data file to read (default: perf.data)\n"
		"  -s, --symbol SYMBOL    only this symbol (also the first argument)\n"
		"  -d, --dsos DSO         only symbols of this object (path or base name)\n"
		"      --stdio            perf's text layout (the default)\n"
		"      --json             per symbol, per instruction: address, bytes, text, source\n"
		"                         line, inlined function, samples, period, percent\n"
		"      --source           source lines between the instructions (the default)\n"
		"      --no-source        instructions only\n"
		"  -l, --print-line       before each symbol, its hottest source lines summed\n"
		"  -P, --full-paths       full source paths in that summary\n"
		"      --percent-type T   local-period (default), global-period, local-hits, global-hits\n"
		"      --asm-raw          the instructions' bytes too\n"
		"  -M, --disassembler-style intel|att   syntax of x86 instructions (default att)\n"
		"      --symfs DIR        binaries, debug files and sources under DIR\n"
		"      --kallsyms FILE    kernel symbols from FILE instead of /proc/kallsyms\n"
		"      --event N          the N-th event of the file (default: the first)\n"
		"      --min-percent P    leave out symbols below P percent of the event\n"
		"      --no-cache         neither use nor write ~/.cache/perfev\n"
		"  -q, --quiet            no notes about missing symbols\n");
}

struct args {
	struct perfev_annotate_opts o;
	struct perfev_annotate_print_opts p;
	const char *input;
	bool quiet;
};

enum { OPT_STDIO = 256, OPT_JSON, OPT_SOURCE, OPT_NO_SOURCE, OPT_PERCENT, OPT_RAW, OPT_SYMFS,
       OPT_KALLSYMS, OPT_EVENT, OPT_NO_CACHE, OPT_MIN };

static int percent_type(const char *s, enum perfev_annotate_percent *out)
{
	static const char *const names[] = {"local-period", "global-period", "local-hits", "global-hits"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum perfev_annotate_percent)i;
			return 0;
		}
	return cli_usage_error("annotate", usage, "unknown --percent-type '%s': use local-period, "
			       "global-period, local-hits or global-hits", s);
}

static int number(const char *opt, const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	if (!*s || *end || *out < 0)
		return cli_usage_error("annotate", usage, "%s needs a non-negative number, not '%s'", opt, s);
	return 0;
}

static int parse_value(struct args *a, int c, const char *v)
{
	double d;
	switch (c) {
	case 'i': a->input = v; return 0;
	case 's': a->o.symbol = v; return 0;
	case 'd': a->o.dso = v; return 0;
	case 'M':
		if (strcmp(v, "intel") && strcmp(v, "att"))
			return cli_usage_error("annotate", usage, "unknown -M '%s': use intel or att", v);
		a->o.intel = !strcmp(v, "intel");
		return 0;
	case OPT_PERCENT: return percent_type(v, &a->o.percent_type);
	case OPT_SYMFS: a->o.symfs = v; return 0;
	case OPT_KALLSYMS: a->o.kallsyms = v; return 0;
	case OPT_EVENT:
		if (number("--event", v, &d) || d != (int)d)
			return 1;
		a->o.event = (int)d;
		return 0;
	case OPT_MIN:
		if (number("--min-percent", v, &d))
			return 1;
		a->o.min_percent = d;
		return 0;
	}
	return CLI_UNKNOWN;
}

/* One option: a value (parse_value) or a switch. */
static int option(void *ctx, int c)
{
	struct args *a = ctx;
	int r = parse_value(a, c, optarg);
	if (r != CLI_UNKNOWN)
		return r;
	switch (c) {
	case OPT_STDIO: a->p.json = false; return 0;
	case OPT_JSON: a->p.json = true; return 0;
	case OPT_SOURCE: a->o.no_source = false; return 0;
	case OPT_NO_SOURCE: a->o.no_source = true; return 0;
	case 'l': a->p.print_line = true; return 0;
	case 'P': a->p.full_paths = true; return 0;
	case OPT_RAW: a->p.asm_raw = true; return 0;
	case OPT_NO_CACHE: a->o.no_cache = true; return 0;
	case 'q': a->quiet = true; return 0;
	}
	return CLI_UNKNOWN;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	static const struct option lo[] = {
		{"input", required_argument, 0, 'i'}, {"symbol", required_argument, 0, 's'},
		{"dsos", required_argument, 0, 'd'}, {"stdio", no_argument, 0, OPT_STDIO},
		{"json", no_argument, 0, OPT_JSON}, {"source", no_argument, 0, OPT_SOURCE},
		{"no-source", no_argument, 0, OPT_NO_SOURCE}, {"print-line", no_argument, 0, 'l'},
		{"full-paths", no_argument, 0, 'P'}, {"percent-type", required_argument, 0, OPT_PERCENT},
		{"asm-raw", no_argument, 0, OPT_RAW}, {"disassembler-style", required_argument, 0, 'M'},
		{"symfs", required_argument, 0, OPT_SYMFS}, {"kallsyms", required_argument, 0, OPT_KALLSYMS},
		{"event", required_argument, 0, OPT_EVENT}, {"min-percent", required_argument, 0, OPT_MIN},
		{"no-cache", no_argument, 0, OPT_NO_CACHE}, {"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	int r = cli_parse("annotate", argc, argv, ":i:s:d:lPM:qh", lo, usage, option, a);
	if (r)
		return r;
	if (optind < argc) {
		if (a->o.symbol)
			return cli_usage_error("annotate", usage, "two symbols ('%s' and -s '%s'): "
					       "give one", argv[optind], a->o.symbol);
		a->o.symbol = argv[optind++];
	}
	if (optind < argc)
		return cli_usage_error("annotate", usage, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static int annotate_command(int argc, char **argv)
{
	struct args a = {
		.o = {.sz = sizeof(a.o), .event = -1},
		.p = {.sz = sizeof(a.p)},
		.input = "perf.data",
	};
	int ret = parse_args(&a, argc, argv);
	if (ret != 0)
		return ret < 0 ? 0 : ret; /* (-1: --help) */
	cli_log_to_stderr("annotate", a.quiet);
	struct perfev_perfdata *pd = perfev_perfdata_open(a.input);
	if (!pd)
		return cli_error("annotate", "%s", perfev_errmsg());
	cli_warn_unclean("annotate", pd);
	struct perfev_annotation *an = perfev_annotate_load_from(pd, &a.o);
	if (!an)
		ret = cli_error("annotate", "%s", perfev_errmsg());
	else if (!perfev_annotation_nr_symbols(an) && !a.p.json)
		ret = cli_error("annotate", "no samples with a symbol in %s%s%s", a.input,
				a.o.dso ? " in " : "", a.o.dso ? a.o.dso : "");
	else if ((cli_pager_start(), perfev_annotation_print(an, &a.p, stdout)) < 0)
		ret = cli_error("annotate", "%s", perfev_errmsg());
	perfev_annotation_free(an);
	perfev_perfdata_close(pd);
	return ret;
}
CLI_COMMAND(annotate, annotate_command, "perf annotate: the hot symbols' instructions, source lines and shares");
