/* cmd_list.c — `perfev list [PATTERN] [--json]`: the events usable here and
 * what they need; the listing is the library's (perfev_list_print,
 * perfev_metrics_list_print). */
#include "cli.h"
#include "perfev.h"

#include <errno.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev list [PATTERN] [--json]\n\n"
		   "Lists every event usable in -e here, each probed once to show what the current\n"
		   "permissions allow. PATTERN is a class (hw, sw, cache, pmu, tracepoint,\n"
		   "breakpoint, raw, vendor), a PMU name, a vendor topic (pipeline, frontend, ...),\n"
		   "a glob ('sched:*') or a word in the name. Vendor events are the CPU model's\n"
		   "(libpfm4's tables), under perf's names OR libpfm4's; PERF_CPUID=MODEL (e.g.\n"
		   "GenuineIntel-6-55-4) lists another model's. 'perfev list metrics' shows the\n"
		   "metrics (-M) with their formulas and sources, 'perfev list metricgroups' their groups.\n");
}

static int cmd_list(int argc, char **argv)
{
	struct perfev_list_print_opts lo = {.sz = sizeof(lo), .flags = PERFEV_LIST_PROBE};
	const char *pattern = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			lo.json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			int d = cli_display_option("list", argv[i]); /* --no-pager, --color */
			if (d == 0)
				return cli_usage_error("list", usage, "unknown option '%s'", argv[i]);
			if (d < 0)
				return 1;
		}
		else if (pattern)
			return cli_usage_error("list", usage, "one PATTERN only ('%s' and '%s'); a glob can match several",
					 pattern, argv[i]);
		else
			pattern = argv[i];
	}
	cli_pager_start();
	if (pattern && (!strcmp(pattern, "metrics") || !strcmp(pattern, "metric") ||
			!strcmp(pattern, "metricgroups") || !strcmp(pattern, "metricgroup"))) {
		perfev_metrics_list_print(stdout, !strncmp(pattern, "metricgroup", 11), &lo);
		return 0;
	}
	if (perfev_list_print(stdout, pattern, &lo) < 0)
		return cli_error("list", "%s", perfev_errmsg());
	return 0;
}
CLI_COMMAND(list, cmd_list, "list the events usable here and what permissions allow");
