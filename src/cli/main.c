/* main.c — perfev: dispatch to the commands registered with CLI_COMMAND. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Bounds of the perfev_commands section, provided by the linker. */
extern const struct cli_command __start_perfev_commands[];
extern const struct cli_command __stop_perfev_commands[];

int cli_verror(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "perfev %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return 1;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_verror(cmd, fmt, ap);
	va_end(ap);
	return 1;
}

static void version_usage(FILE *f) { fprintf(f, "usage: perfev version\n"); }

static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		version_usage(stdout);
		return 0;
	}
	if (argc > 1)
		return cli_usage_error("version", version_usage, "unexpected argument '%s'", argv[1]);
	printf("perfev %s\n", perfev_version());
	return 0;
}
CLI_COMMAND(version, cmd_version, "print perfev's version");

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cli_command *)a)->name, ((const struct cli_command *)b)->name);
}

static void usage(FILE *f)
{
	size_t n = (size_t)(__stop_perfev_commands - __start_perfev_commands);
	struct cli_command sorted[n ? n : 1];
	memcpy(sorted, __start_perfev_commands, n * sizeof(sorted[0]));
	qsort(sorted, n, sizeof(sorted[0]), by_name);
	int width = 10; /* the widest name's */
	for (size_t i = 0; i < n; i++)
		width = (int)strlen(sorted[i].name) > width ? (int)strlen(sorted[i].name) : width;
	fprintf(f, "usage: perfev COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-*s %s\n", width, sorted[i].name, sorted[i].summary);
	fprintf(f, "\n'perfev COMMAND --help' (or 'perfev help COMMAND') describes each one;\n"
		   "'perfev help perf-options [COMMAND]' lists perf's options and what perfev does with each.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	while (argc > 1) { /* perfev --no-pager --color=never COMMAND ... */
		int t = cli_display_option("perfev", argv[1]);
		if (t < 0)
			return 1;
		if (t == 0)
			break;
		argc--, argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	const char *name = argv[1];
	char *help_argv[] = {argv[0], argv[argc > 2 ? 2 : 1], "--help", NULL};
	if (!strcmp(name, "help") && argc > 2 && !strcmp(argv[2], "perf-options")) /* docs/perf-options.md */
		return cli_perf_options_print(stdout, argc > 3 ? argv[3] : NULL);
	if (!strcmp(name, "help") && argc > 2) { /* perf help COMMAND: that command's help */
		name = argv[2];
		argc = 3, argv = help_argv;
	} else if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	for (const struct cli_command *c = __start_perfev_commands; c < __stop_perfev_commands; c++)
		if (!strcmp(c->name, name)) {
			cli_log_to_stderr(c->name, false);
			/* a command killed by a signal leaves no tracefs probe behind */
			perfev_probe_cleanup_on_signals();
			return c->run(argc - 1, argv + 1);
		}
	fprintf(stderr, "perfev: '%s' is not a command.\n\n", name);
	usage(stderr);
	return 1;
}
