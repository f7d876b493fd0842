/* cli_log.c — the library's log hook (perfev/log.h) for a command: its
 * warnings and notes on stderr as "perfev CMD: note: ...", the notes left
 * out with -q. */
#include "cli.h"
#include "perfev.h"

#include <stdio.h>

static void to_stderr(void *ctx, enum perfev_log_level level, const char *msg)
{
	fprintf(stderr, "perfev %s: %s%s\n", (const char *)ctx, level == PERFEV_LOG_WARN ? "warning: " : "note: ",
		msg);
}

void cli_log_to_stderr(const char *cmd, bool quiet)
{
	perfev_set_log(to_stderr, (void *)cmd, quiet ? PERFEV_LOG_WARN : PERFEV_LOG_NOTE, NULL);
}
