/* cli_perfdata.c — a recording that was not closed cleanly (its writer was
 * killed), said once before a command reads it through the library; its
 * header printed for --header. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

void cli_warn_unclean(const char *cmd, const struct perfev_perfdata *pd)
{
	if (perfev_perfdata_unclean(pd))
		fprintf(stderr, "perfev %s: warning: %s\n", cmd, perfev_perfdata_unclean(pd));
}

int cli_print_header(const char *cmd, const struct perfev_perfdata *pd, bool full)
{
	if (perfev_perfdata_print_header(pd, stdout, full) < 0)
		return cli_error(cmd, "%s", perfev_errmsg());
	return 0;
}
