/* report.h — what cmd_report.c shares with its output code (report_out.c):
 * the table perf report --stdio prints, the JSON form, call graphs. */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdio.h>
#include "perfev.h"

enum report_graph { GRAPH_NONE, GRAPH_CALLER, GRAPH_CALLEE };

#define REPORT_MAX_KEYS 8
struct report_view {
	const char *event_name;
	uint64_t nr_samples, lost;
	const char *keys[REPORT_MAX_KEYS]; /* sort keys in the order given */
	size_t nr_keys;
	unsigned key_mask;                 /* PERFEV_KEY_* */
	bool children;
	enum report_graph graph;
	double graph_min;                  /* call paths below this percent are not shown */
	double percent_limit;
	enum perfev_profile_value value;   /* what the percentages measure */
};

/* Parses "comm,dso,sym" into v->keys/key_mask; returns 0 or -EINVAL
 * (an error naming the keys it knows is printed). */
int report_parse_sort(struct report_view *v, const char *list);
/* perf report --stdio's table (and call graphs when v->graph). */
int report_print_stdio(const struct perfev_profile *p, const struct report_view *v, FILE *out);
/* The same entries as JSON. */
int report_print_json(const struct perfev_profile *p, const struct report_view *v, FILE *out);

/* The export files of report (and record, which exports what it recorded). */
struct report_exports {
	const char *flame, *pprof, *firefox, *folded; /* paths; NULL: not wanted ("-": stdout) */
	const char *title;
};
static inline bool report_exports_wanted(const struct report_exports *x)
{
	return x->flame || x->pprof || x->firefox || x->folded;
}
/* Writes the wanted exports of p; 0, or 1 after printing what failed. */
int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value);
/* Loads a perf.data file (quietly, notes aside) and writes its exports. */
int report_export_file(const char *cmd, const char *input, const struct report_exports *x);

/* --sort keys that are all tracepoint fields (prev_comm, sched_switch.next_comm,
 * sys:event.field, trace): perf's dynamic-key report of every event, printed;
 * returns the exit status, or -ENOENT when a key is one of the profile's. */
int report_tracepoint_sort(const char *input, const char *sort);

#endif
