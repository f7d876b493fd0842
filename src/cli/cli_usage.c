/* cli_usage.c — one way for every command to refuse its command line: the
 * problem in one line, then the command's usage line(s) and where the rest
 * is, on stderr, exit status 1. */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The usage text's synopsis: its first line and the lines continuing it
 * (indented by 8 or more spaces), then where the rest is. */
static void usage_head(const char *cmd, void (*usage)(FILE *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	usage(m);
	fclose(m);
	size_t end = strcspn(text, "\n");
	while (text[end] == '\n' && !strncmp(text + end + 1, "        ", 8)) {
		end += 1 + strcspn(text + end + 1, "\n");
	}
	fprintf(stderr, "%.*s\n", (int)end, text);
	if (text[end] && text[end + 1])
		fprintf(stderr, "(perfev %s --help describes every option)\n", cmd);
	free(text);
}

int cli_usage_error(const char *cmd, void (*usage)(FILE *), const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_verror(cmd, fmt, ap);
	va_end(ap);
	usage_head(cmd, usage);
	return 1;
}

int cli_bad_option(const char *cmd, void (*usage)(FILE *), int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	char name[64] = {'-', (char)optopt, 0};
	/* a long option names itself (without any =VALUE); a short one, perhaps
	 * inside a cluster (-gQ), by its letter */
	if (arg && !strncmp(arg, "--", 2))
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	else if (!optopt)
		snprintf(name, sizeof(name), "%s", arg ? arg : "?");
	if (c == ':')
		return cli_usage_error(cmd, usage, "option '%s' needs a value", name);
	if (optopt && arg && !strncmp(arg, "--", 2) && strchr(arg, '='))
		return cli_usage_error(cmd, usage, "option '%s' takes no value", name);
	const char *why = cli_perf_option_reason(cmd, name);
	if (why) /* perf's, refused with its reason (docs/perf-options.md lists them all) */
		return cli_error(cmd, "%s is perf %s's option, not perfev's: %s", name, cmd, why);
	return cli_usage_error(cmd, usage, "unknown option '%s'", name);
}

int cli_parse(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
	      void (*usage)(FILE *), int (*fn)(void *ctx, int c), void *ctx)
{
	optind = 1;
	opterr = 0;
	for (int c; (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1;) {
		if (c == 'h') {
			usage(stdout);
			return CLI_HELP;
		}
		/* --no-pager and --color[=WHEN], every command's (cli_pager.c) */
		int d = c == '?' && optind > 1 ? cli_display_option(cmd, argv[optind - 1]) : 0;
		if (d < 0)
			return 1;
		if (d > 0)
			continue;
		int r = c == '?' || c == ':' ? CLI_UNKNOWN : fn(ctx, c);
		if (r == CLI_UNKNOWN)
			return cli_bad_option(cmd, usage, c, argv);
		if (r)
			return r;
	}
	return 0;
}

const char *cli_optional_arg(int argc, char **argv, const char *dflt)
{
	if (optarg)
		return optarg;
	if (optind < argc && argv[optind][0] != '-')
		return argv[optind++];
	return dflt;
}
