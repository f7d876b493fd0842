/* cli_perfdata.c — a recording that was not closed cleanly (its writer was
 * killed), said once before a command reads it through the library. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <string.h>

void cli_warn_unclean(const char *cmd, const char *path)
{
	if (!strcmp(path, "-"))
		return; /* a stream is read once: its reader says so at the cut */
	struct perfev_perfdata *pd = perfev_perfdata_open(path); /* the header only */
	if (pd && perfev_perfdata_unclean(pd))
		fprintf(stderr, "perfev %s: warning: %s\n", cmd, perfev_perfdata_unclean(pd));
	perfev_perfdata_close(pd);
}
