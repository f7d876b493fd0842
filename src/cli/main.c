/* main.c — perfev: dispatch to one file per command. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	cli_command_fn run;
	const char *summary;
};

static int cmd_version(int argc, char **argv);

static const struct command commands[] = {
	{"version", cmd_version, "print perfev's version"},
};

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "perfev %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int cmd_version(int argc, char **argv)
{
	printf("perfev %s\n", perfev_version());
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perfev COMMAND --help' describes each one.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "perfev: '%s' is not a command.\n\n", name);
	usage(stderr);
	return 1;
}
