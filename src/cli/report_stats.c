/* report_stats.c — perfev report's inspection modes: --stats (the record
 * counts of the file, perf report --stats) and --tasks/--mmaps (perf's task
 * tree, with each task's memory maps). The library counts and walks; this
 * file runs the pass over the open file and prints. */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"

#include <errno.h>
#include <string.h>

static int count_nothing(void *ctx, const struct perfev_record *r)
{
	(void)ctx, (void)r;
	return 0;
}

static int report_stats(struct perfev_perfdata *pd, bool json)
{
	/* perf's stats pass is unordered: the counts do not depend on order */
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .unordered = true};
	int ret = 0;
	if (perfev_perfdata_process(pd, &ro, count_nothing, NULL) < 0 ||
	    (json ? perfev_perfdata_print_stats_json(pd, stdout) : perfev_perfdata_print_stats(pd, stdout)) < 0)
		ret = cli_error("report", "%s", perfev_errmsg());
	if (perfev_perfdata_unclean(pd)) /* perf reads such a file up to its last record too */
		fprintf(stderr, "perfev report: warning: %s\n", perfev_perfdata_unclean(pd));
	return ret;
}

static int report_tasks(struct perfev_perfdata *pd, bool maps)
{
	cli_warn_unclean("report", pd); /* read up to its last whole record, as perf does */
	struct perfev_tasks *t = perfev_tasks_load_from(pd, maps);
	if (!t)
		return cli_error("report", "%s", perfev_errmsg());
	int ret = perfev_tasks_print(t, stdout) < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
	perfev_tasks_free(t);
	return ret;
}

int report_inspect_check(bool stats, int tasks, const char *other)
{
	bool json = other && !strcmp(other, "--json");
	if (stats && tasks)
		return cli_error("report", "--stats counts records, --%s lists tasks: give one of them "
				 "(perf refuses them together too)", tasks == 2 ? "mmaps" : "tasks");
	if (other && !(stats && json))
		return cli_error("report", "--%s prints perf's text%s: drop %s (or run the report "
				 "separately for it)", stats ? "stats" : tasks == 2 ? "mmaps" : "tasks",
				 stats ? " (or JSON, with --json)" : " only", other);
	return 0;
}

int report_inspect(struct perfev_perfdata *pd, bool stats, int tasks, bool json)
{
	if (stats)
		return report_stats(pd, json);
	return report_tasks(pd, tasks == 2);
}
