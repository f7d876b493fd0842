/* cli_perfdata.c — a recording that was not closed cleanly (its writer was
 * killed), said once before a command reads it through the library; its
 * header printed for --header. */
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

int cli_print_header(const char *cmd, const char *path, bool full)
{
	struct perfev_perfdata *pd = strcmp(path, "-") ? perfev_perfdata_open(path) : NULL;
	if (!pd)
		return cli_error(cmd, "%s", strcmp(path, "-") ? perfev_errmsg() :
				 "--header needs a file: a pipe-mode stream has no file header");
	int r = perfev_perfdata_print_header(pd, stdout, full);
	perfev_perfdata_close(pd);
	return r < 0 ? cli_error(cmd, "%s", perfev_errmsg()) : 0;
}
