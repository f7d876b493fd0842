/* cli.h — what the command files share. Each command is one file that
 * registers itself with CLI_COMMAND(); main.c finds every registered
 * command through the linker section, so adding a command is adding a file. */
#ifndef PERFEV_CLI_H
#define PERFEV_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Every command: parses its options from argv (argv[0] is the command's
 * name) and returns the process exit status. */
typedef int (*cli_command_fn)(int argc, char **argv);

struct cli_command {
	const char *name;
	cli_command_fn run;
	const char *summary;
};

/* Registers fn as `perfev NAME`; summary is one line for `perfev --help`. */
#define CLI_COMMAND(NAME, FN, SUMMARY)                                            \
	static const struct cli_command cli_command_##NAME                           \
		__attribute__((used, section("perfev_commands"), aligned(8))) = {   \
			#NAME, FN, SUMMARY}
/* The same for a name that is not a C identifier ("buildid-list"). */
#define CLI_COMMAND_NAMED(ID, NAME, FN, SUMMARY)                                   \
	static const struct cli_command cli_command_##ID                             \
		__attribute__((used, section("perfev_commands"), aligned(8))) = {   \
			NAME, FN, SUMMARY}

/* Prints "perfev CMD: message" to stderr; returns 1 (a failure status). */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_error with a va_list. */
int cli_verror(const char *cmd, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* A command line refused: prints "perfev CMD: " + the message, then the
 * first paragraph of usage()'s text (the usage line) and a pointer to
 * --help, on stderr; returns 1. */
int cli_usage_error(const char *cmd, void (*usage)(FILE *), const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* After getopt_long returned '?' or ':' (opterr = 0, optstring starting with
 * ':'): "unknown option '-Q'" or "option '-o' needs a value", as above. */
int cli_bad_option(const char *cmd, void (*usage)(FILE *), int c, char **argv);
/* The option loop of every command: getopt_long over argv from its first
 * argument (optind reset; getopt's own messages off, cli_bad_option words
 * them), each option handed to fn(ctx, c) with its value in optarg. fn
 * returns 0 to go on, CLI_UNKNOWN for an option it does not take, or a
 * status to stop with (its message said). -h/--help prints usage to stdout.
 * Returns 0 with optind at the first operand, CLI_HELP after the help, or
 * the status that stopped it (1 for a refused option). shortopts starts
 * with ':' (or "+:" to stop at the first operand, a command to run). */
/* Display (cli_pager.c): --no-pager and --color[=WHEN] (1 taken, 0 not
 * one of them, -1 after saying WHEN is wrong); whether f gets colour; the
 * pager started for stdout when it is a terminal (it ends at exit). */
int cli_display_option(const char *cmd, const char *arg);
bool cli_color(FILE *f);
void cli_pager_start(void);
/* perf 6.1's options perfev refuses, and why (perf_options.c): the reason
 * for cmd's option opt ("-b", "--kcore"), or NULL (perfev takes it, or perf
 * has no such option); the whole table as markdown (cmd NULL: every
 * command's), 0 or 1 after saying cmd is not one of them. */
const char *cli_perf_option_reason(const char *cmd, const char *opt);
int cli_perf_options_print(FILE *f, const char *cmd);
#define CLI_HELP (-1)
#define CLI_UNKNOWN (-2)
struct option;
int cli_parse(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
	      void (*usage)(FILE *), int (*fn)(void *ctx, int c), void *ctx);
/* An option whose argument perf's parse-options makes optional
 * (PARSE_OPT_LASTARG_DEFAULT, e.g. report -g): after getopt_long returned
 * it with an optional_argument ("g::"), its argument when attached, else
 * the next word unless there is none or it starts with '-' (consumed),
 * else dflt. */
const char *cli_optional_arg(int argc, char **argv, const char *dflt);

/* A positive number (decimal, 0x hex or 0 octal) for option opt: 0, or 1
 * after "perfev CMD: OPT 'S': want a positive number" (cli_sampling.c). */
#include <stdint.h>
int cli_parse_positive(const char *cmd, const char *opt, const char *s, uint64_t *out);
/* The sampling options record and top share, perf's -F HZ, -c PERIOD, -a,
 * -C CPUS, -p PID, -t TID (c, its value arg), into o: 0, 1 after saying
 * what is wrong, or CLI_UNKNOWN for another option. */
struct perfev_record_opts;
int cli_sampling_opt(const char *cmd, struct perfev_record_opts *o, int c, const char *arg);

/* SIGINT and SIGTERM stop the recorder cli_recorder_watch names (a clean
 * end: perfev_recorder_run returns), SIGPIPE is ignored; a signal before
 * there is one stops it as soon as it is named. */
struct perfev_recorder;
void cli_recorder_signals(void);
void cli_recorder_watch(struct perfev_recorder *r); /* NULL: none (before freeing it) */

/* Before running COMMAND: 0 when execvp would find it executable; else prints
 * "perfev CMD: cannot run 'X': command not found (...)" (or why it cannot
 * run, perfev_child_exec_error's words) and returns the shell's status for
 * it, 127 or 126. */
int cli_exec_check(const char *cmd, const char *file);

/* The library's log hook (perfev_set_log): its notes and warnings on stderr,
 * as "perfev CMD: note: ..." (quiet: warnings only), for the rest of the
 * process (cli_log.c). main.c sets it for every command; a command's -q
 * sets it again with quiet. */
void cli_log_to_stderr(const char *cmd, bool quiet);

struct perfev_perfdata;
/* Prints "perfev CMD: warning: PATH was not closed cleanly..." when the
 * perf.data file says so (perfev_perfdata_unclean); nothing else. */
void cli_warn_unclean(const char *cmd, const struct perfev_perfdata *pd);
/* perf's --header/--header-only of report and script: the file's header
 * (full: -I's topologies) on stdout. 0, or 1 after saying why not (a
 * stream has no file header). */
int cli_print_header(const char *cmd, const struct perfev_perfdata *pd, bool full);

/* While a command runs something its library can stop (tracer, watcher...):
 * SIGINT and SIGTERM call stop(ctx) (which must be async-signal-safe)
 * instead of ending perfev; cli_stop_off() puts the old handlers back. */
void cli_stop_on_signals(void (*stop)(void *ctx), void *ctx);
void cli_stop_off(void);

#endif
