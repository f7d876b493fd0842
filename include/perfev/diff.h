/*
 * perfev/diff.h — perf diff in the library: two (or more) recordings'
 * tables side by side, entries matched by their sort keys' names (a
 * symbol's name, an object's base name, as perf matches them), so a binary
 * rebuilt between the runs, its addresses moved, still matches.
 *
 *   struct perfev_perfdata *pd[2] = {perfev_perfdata_open("perf.data.old"),
 *                                    perfev_perfdata_open("perf.data")};
 *   struct perfev_diff_opts o = {.sz = sizeof(o), .compute = "ratio"};
 *   if (!pd[0] || !pd[1] || perfev_diff_print(pd, 2, &o, stdout) < 0)
 *           fprintf(stderr, "%s\n", perfev_errmsg());
 *
 * Each side is the report's table (perfev/report.h: its sort keys, their
 * collapse and order, its percentages), one row per key of any file: the
 * baseline's share, then per newer file perf diff's computation of it
 * against the baseline. Recordings of different events or sampling
 * frequencies are compared all the same, with a warning through the log
 * hook (perfev/log.h); nothing is written to a stream but the one given.
 *
 * The differential views of call stacks (a flame graph coloured by the
 * change, difffolded lines, pprof's -diff_base) are exporters:
 * perfev_export_flame_diff, perfev_export_folded_diff and
 * perfev_export_pprof_diff in perfev/export.h.
 */
#ifndef PERFEV_DIFF_H
#define PERFEV_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "perfev/abi.h"
#include "perfev/perfdata.h"
#include "perfev/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_diff_opts {
	size_t sz;            /* sizeof(struct perfev_diff_opts) */
	/* perf diff's -c: "delta" (the change of share, points), "delta-abs"
	 * (the same, rows ordered by its size), "ratio" (new period / old),
	 * "wdiff:W1,W2" (new period * W2 - old period * W1, W1 and W2 nonzero
	 * integers). NULL: perf's default, delta-abs. */
	const char *compute;
	/* perf's --sort KEYS (perfev_report_opts.sort's keys); NULL: dso,sym */
	const char *sort;
	bool relative;        /* --percentage relative: shares of what the load's filter kept */
	/* perf diff's -o N: rows ordered first by file N's column (0: by the
	 * baseline); order_given false: perf's default, 1 */
	bool order_given;
	unsigned order;
	bool json;            /* the rows as JSON instead of perf's text */
	/* how each file is read (filters, --symfs, kallsyms); NULL: defaults.
	 * Its event field is ignored: every event of the baseline is shown,
	 * matched in the other files by type and config, as perf does. */
	const struct perfev_profile_load_opts *load;
};
#define perfev_diff_opts__last_field load

/*
 * Checks o without files: the computation, the sort keys. 0, or -EINVAL
 * with perfev_errmsg() naming the option and what it takes.
 */
PERFEV_API int perfev_diff_check(const struct perfev_diff_opts *o);

/*
 * perf diff --stdio of pd[0] (the baseline) against pd[1..nr) (or
 * o->json's JSON) to out. Each file is read once; they stay the caller's.
 * nr must be at least 2 and o->order below nr. 0, or -errno with
 * perfev_errmsg(): bad options (EINVAL), a file that cannot be read, a
 * failed write (EIO).
 */
PERFEV_API int perfev_diff_print(struct perfev_perfdata *const *pd, size_t nr, const struct perfev_diff_opts *o,
				 FILE *out);

/*
 * Whether two recordings are comparable: warns through the log hook (and
 * returns 1) when their events differ (by name, type or config) or were
 * sampled at different frequencies or periods; 0 when alike.
 */
PERFEV_API int perfev_diff_compare_events(const struct perfev_perfdata *old_pd, const struct perfev_perfdata *new_pd);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_DIFF_H */
