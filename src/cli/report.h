/* report.h — what perfev report shares with the commands built on it:
 * perfev mem report runs it; perfev record writes report's exports of what
 * it recorded (cli_exports.c). The report itself is the library's
 * (perfev/report.h). */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "perfev.h"

/* perfev report itself (argv[0] "report"): perfev mem report runs it. */
int report_command(int argc, char **argv);

/* perf report's inspection modes (report_stats.c): stats, perf's --stats
 * (the count of each record type, each event's samples; json: as JSON);
 * tasks 1: --tasks (the task tree), 2: --mmaps (with each task's maps).
 * report_inspect_check refuses, before the file is opened, the other
 * output option given with them (`other`: --json, an export), but --json
 * with stats. Both return the exit status. */
int report_inspect_check(bool stats, int tasks, const char *other);
int report_inspect(struct perfev_perfdata *pd, bool stats, int tasks, bool json);

/* The export files of report (and record, which exports what it recorded). */
struct report_exports {
	const char *flame, *pprof, *firefox, *folded; /* paths; NULL: not wanted ("-": stdout) */
	const char *title;
	bool quiet; /* no "wrote the ... to FILE" lines (-q) */
};
static inline bool report_exports_wanted(const struct report_exports *x)
{
	return x->flame || x->pprof || x->firefox || x->folded;
}
/* What loading a profile for these exports needs: source lines (pprof),
 * every sample (the Firefox Profiler's timeline). */
void report_exports_load_opts(const struct report_exports *x, struct perfev_profile_load_opts *lo);
/* Before the work: whether each export file can be written (a file is
 * made beside it and removed); 0, or 1 after printing what cannot. */
int report_exports_check(const char *cmd, const struct report_exports *x);
/* Writes the wanted exports of p; 0, or 1 after printing what failed.
 * interval_ms: the sampling interval (perfev_profile_load_info's; 0: unknown). */
int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value, double interval_ms);
/* Loads a perf.data file (quietly, notes aside) and writes its exports. */
int report_export_file(const char *cmd, const char *input, const struct report_exports *x);

#endif
