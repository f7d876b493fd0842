/* cli.h — what the command files share: each command is one file with one
 * entry point, declared here and listed in main.c's table. */
#ifndef PERFEV_CLI_H
#define PERFEV_CLI_H

#include <stdio.h>

/* Every command: parses its options from argv (argv[0] is the command's
 * name) and returns the process exit status. */
typedef int (*cli_command_fn)(int argc, char **argv);

/* Prints "perfev CMD: message" to stderr; returns 1 (a failure status). */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
