/* cli_stop.c — Ctrl-C stops what a command runs, cleanly, rather than perfev. */
#include "cli.h"

#include <signal.h>
#include <stddef.h>

static void (*stop_fn)(void *);
static void *stop_ctx;
static struct sigaction old_int, old_term;

static void on_signal(int sig)
{
	(void)sig;
	if (stop_fn)
		stop_fn(stop_ctx);
}

void cli_stop_on_signals(void (*stop)(void *ctx), void *ctx)
{
	stop_fn = stop;
	stop_ctx = ctx;
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

void cli_stop_off(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	stop_fn = NULL;
	stop_ctx = NULL;
}
