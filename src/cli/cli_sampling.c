/* cli_sampling.c — what perfev record and perfev top share: the sampling
 * options (perf's -F, -c, -a, -C, -p, -t) read into the recorder's options,
 * and Ctrl-C ending the recording cleanly. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

int cli_parse_positive(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v == 0 || s[0] == '-')
		return cli_error(cmd, "%s '%s': want a positive number", opt, s);
	*out = v;
	return 0;
}

int cli_sampling_opt(const char *cmd, struct perfev_record_opts *o, int c, const char *arg)
{
	uint64_t v;
	switch (c) {
	case 'F': return cli_parse_positive(cmd, "-F", arg, &o->freq);
	case 'c': return cli_parse_positive(cmd, "-c", arg, &o->period);
	case 'a': o->all_cpus = true; return 0;
	case 'C': o->cpus = arg; return 0;
	case 'p':
	case 't':
		if (cli_parse_positive(cmd, c == 'p' ? "-p" : "-t", arg, &v))
			return 1;
		*(c == 'p' ? &o->pid : &o->tid) = (pid_t)v;
		return 0;
	}
	return CLI_UNKNOWN;
}

/* ---- Ctrl-C ends a recording cleanly ---------------------------------------- */
static struct perfev_recorder *volatile watched;
static volatile sig_atomic_t stop_early; /* a signal came before the recorder existed */

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_early = 1;
	perfev_recorder_stop(watched); /* async-signal-safe; NULL is fine */
}

void cli_recorder_signals(void)
{
	struct sigaction sa = {.sa_handler = on_stop_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error, reported */
}

void cli_recorder_watch(struct perfev_recorder *r)
{
	watched = r;
	if (r && stop_early)
		perfev_recorder_stop(r);
}
