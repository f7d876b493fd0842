/* report.h — what cmd_report.c shares with its output code (report_out.c):
 * the table perf report --stdio prints, the JSON form, call graphs. */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdio.h>
#include "perfev.h"

enum report_graph { GRAPH_NONE, GRAPH_CALLER, GRAPH_CALLEE };
/* perf's -g print types: absolute shares, fractal (of the parent), flat, folded */
enum report_graph_mode { GRAPH_ABS, GRAPH_FRACTAL, GRAPH_FLAT, GRAPH_FOLDED };
/* what a call-graph branch shows (perf's -g ...,percent|period|count) */
enum report_graph_value { GRAPH_PERCENT, GRAPH_PERIOD, GRAPH_COUNT };

#define REPORT_MAX_KEYS 16
struct report_view {
	const char *event_name;
	uint64_t nr_samples, lost;
	const char *keys[REPORT_MAX_KEYS]; /* sort keys in the order given */
	size_t nr_keys;
	unsigned key_mask;                 /* PERFEV_KEY_* */
	bool children;
	bool relative;     /* --percentage relative: filtered samples out of the totals, as perf */
	const char *time_slices; /* --time as given: perf's "(time slices: ...)" after the event */
	enum report_graph graph;
	double graph_min;                  /* call paths below this percent are not shown */
	/* perf's elision: a filter on one comm/dso/symbol drops that column and
	 * names it in the header ("# dso: libc.so.6"); NULL: not filtered */
	const char *only_comm, *only_dso, *only_sym;
	/* perf's --comms LIST in its branch mode: the entries whose first
	 * sample's command is listed, whole (NULL: all) */
	const char *first_comms;
	/* perf's --symbol-filter: only rows whose symbol's name holds this */
	const char *symbol_filter;
	/* the branch view's --sort of perf's branch keys (report_branch_file); NULL: perf's default */
	const char *branch_sort;
	enum report_graph_mode graph_mode;
	enum report_graph_value graph_value;
	bool graph_skip_first;             /* perf with --sort sym...: a graph's first frame (the entry) is not printed */
	double percent_limit;
	enum perfev_profile_value value;   /* what the percentages measure */
	/* the columns, in order (perf's -F; built by report_set_columns) */
	struct report_col {
		enum { COL_CHILDREN, COL_SELF, COL_SAMPLES, COL_PERIOD, COL_KEY } type;
		const char *key; /* COL_KEY: a sort key name */
	} cols[REPORT_MAX_KEYS + 4];
	size_t nr_cols;
	const char *self_header;           /* "Self" beside Children in perf's default layout, else "Overhead" */
	const char *sort_first[REPORT_MAX_KEYS]; /* --sort keys given with -F: perf sorts by them first */
	size_t nr_sort_first;
	/* the fields came from a --sort naming columns (period, sample): perf
	 * puts Children (and "Self") before them as in its default layout */
	bool fields_from_sort;
	/* then perf sorts by the --sort list as given (overhead first unless
	 * named, Children before all): its columns, made by report_set_columns */
	const char *sort_list;
	struct report_col sort_cols[REPORT_MAX_KEYS + 4];
	size_t nr_sort_cols;
	/* perf report --mem-mode: the memory keys, percentages of the samples'
	 * weights, its header ("Total weight", "Sort order": sort_order) */
	bool mem_mode;
	const char *sort_order;
};
#define REPORT_MEM_KEYS                                                                               \
	(PERFEV_KEY_MEM | PERFEV_KEY_SNOOP | PERFEV_KEY_TLB | PERFEV_KEY_LOCKED | PERFEV_KEY_BLOCKED |   \
	 PERFEV_KEY_SYM_DADDR | PERFEV_KEY_DSO_DADDR | PERFEV_KEY_DCACHELINE | PERFEV_KEY_PHYS_DADDR | \
	 PERFEV_KEY_DATA_PAGE_SIZE)
/* perf 6.1's default_mem_sort_order */
#define REPORT_MEM_SORT \
	"local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc"

/* perfev report itself (argv[0] "report"): perfev mem report runs it. */
int report_command(int argc, char **argv);

/* perf's -F FIELDS before loading: checks the names and makes its keys the
 * sort keys (after --sort's, which perf sorts by first, when sort_given).
 * Returns 0 or -EINVAL (an error is printed). */
int report_parse_fields(struct report_view *v, const char *fields, bool sort_given);
/* The columns, once v->children is known: fields' order, or the default
 * (Children, Self/Overhead, Samples with -n, Period, the sort keys). */
void report_set_columns(struct report_view *v, const char *fields, bool samples, bool period);

/* The profile's sort keys (the others are tracepoint fields), for messages. */
#define REPORT_SORT_KEYS \
	"comm, pid, tid, dso, sym, srcline, srcfile, cpu, socket, dso_size, symbol_size, weight, " \
	"local_weight, ins_lat, local_ins_lat, p_stage_cyc, local_p_stage_cyc, time, addr; with --mem-mode " \
	"mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr, data_page_size"
/* Whether name is one of them ("symbol" too). */
bool report_is_sort_key(const char *name);

/* Reorders base[0..nr) as perf's output tree orders its entries: inserted
 * in the order given into a red-black tree, left of a node when cmp(new,
 * node, arg) < 0, then walked in order (report_rbtree.c). 0 or -ENOMEM. */
int report_rbtree_order(void *base, size_t nr, size_t size, int (*cmp)(const void *, const void *, void *),
			void *arg);

/* Parses "comm,dso,sym" into v->keys/key_mask; returns 0 or -EINVAL
 * (an error naming the keys it knows is printed). */
int report_parse_sort(struct report_view *v, const char *list);

/* One section of perf report --stdio: an event, or an event group shown
 * side by side (perf's --group: one value column per member). */
#define REPORT_MAX_MEMBERS 16
struct report_section {
	const struct perfev_profile *p[REPORT_MAX_MEMBERS]; /* p[0]: the leader, whose graphs print */
	size_t nr;
	char title[512];   /* "event 'cpu-clock'" or "events 'anon group { a, b }'" */
	uint64_t samples;  /* of all members */
};
/* "# To display the perf.data header info..." and the lost samples, once per report. */
void report_print_preamble(const struct report_view *v, FILE *out);
/* perf report --stdio's table of one section (and call graphs when v->graph). */
int report_print_stdio(const struct report_section *s, const struct report_view *v, FILE *out);

/* Every event's section as perf prints them: groups side by side (group
 * 1: all events as one group, 0: none, -1: the file's groups), events
 * without samples left out (a file without any: a note naming input).
 * Returns the exit status. */
int report_print_events(const char *input, const struct perfev_profile_event *ev, size_t nev, int group,
			const struct report_view *v, FILE *out);

/* Loads input's branch table and prints perf's branch view of every event
 * with branches (perfev report -b, report_branch.c), its columns
 * v->branch_sort's or perf's default: v's percent_limit,
 * -n (samples), --show-total-period (period), --comms LIST (comms, NULL:
 * all); json: the rows as JSON instead. Returns the exit status; -ENOENT,
 * printing nothing, when the file has no branches and the view was not
 * asked for (-b). */
int report_branch_file(const char *input, const struct perfev_profile_load_opts *lo, const struct report_view *v,
		       bool samples, bool period, const char *comms, bool asked, bool json);
/* Whether a --sort list names one of perf's branch keys (dso_from, symbol_to...). */
bool report_names_branch_key(const char *list);
/* Parses such a list (branch keys and comm) into keys[0..*nr) (room for
 * PERFEV_BKEY_NR); 0, or -EINVAL after an error naming what perfev takes. */
int report_branch_keys(const char *list, enum perfev_branch_key *keys, size_t *nr);
/* A path's last component, as perf names objects ("[unknown]" for NULL). */
const char *report_basename(const char *path);
/* perf's convert_unit of a sample count: "191 ", "6K" (a blank for no unit). */
void report_samples_unit(uint64_t n, char *buf, size_t len);

/* Call graphs of table entries e[0..nr) (report_graph.c). */
struct report_graphs;
struct report_graphs *report_graphs_build(const struct perfev_profile *p, const struct report_view *v,
					  const struct perfev_profile_entry *e, size_t nr);
/* Entry i's graph, branches under min_pct of `all` left out, percentages
 * printed of `shown` (perf's --percentage relative: `all` the samples
 * kept, `shown` every sample; else both the same), or the branches'
 * periods or sample counts (value). */
void report_graphs_print(FILE *out, struct report_graphs *g, size_t i, uint64_t entry_w, uint64_t all,
			 uint64_t shown, double min_pct, bool skip_first, enum report_graph_mode mode,
			 enum report_graph_value value);
/* Entry i's longest call path (perf's callchain max_depth). */
uint32_t report_graphs_depth(const struct report_graphs *g, size_t i);
/* The thread (pid << 32 | tid) entry i belongs to, as perf's hist entry. */
uint64_t report_graphs_thread(const struct report_graphs *g, size_t i);
void report_graphs_free(struct report_graphs *g);
/* A hash of what makes entries the same under the sort keys. */
uint64_t report_entry_key(const struct perfev_profile_entry *e, unsigned keys);
/* The address perf shows and keys an unknown symbol by: in the object's
 * terms, but as sampled for entries made from call chains alone (no self;
 * see PERFEV_KEY_SPLIT_UNRESOLVED, which makes them apart from the frame's own). */
static inline uint64_t report_shown_ip(const struct perfev_profile_entry *e)
{
	return e->self[PERFEV_VALUE_SAMPLES] ? e->rel_ip : e->ip;
}
/* The same entries as JSON. */
int report_print_json(const struct perfev_profile *p, const struct report_view *v, FILE *out);

/* Set once --header printed the file's header: the report's first line,
 * perf's hint to use --header, is then left out, as perf does. */
extern bool report_header_shown;
/* perf's "# To display the perf.data header info..." line and its "#",
 * unless the header was shown. */
void report_display_hint(FILE *out);

/* The export files of report (and record, which exports what it recorded). */
struct report_exports {
	const char *flame, *pprof, *firefox, *folded; /* paths; NULL: not wanted ("-": stdout) */
	const char *title;
};
static inline bool report_exports_wanted(const struct report_exports *x)
{
	return x->flame || x->pprof || x->firefox || x->folded;
}
/* Before the work: whether each export file can be written (a file is
 * made beside it and removed); 0, or 1 after printing what cannot. */
int report_exports_check(const char *cmd, const struct report_exports *x);
/* Writes the wanted exports of p; 0, or 1 after printing what failed. */
int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value);
/* Loads a perf.data file (quietly, notes aside) and writes its exports. */
int report_export_file(const char *cmd, const char *input, const struct report_exports *x);

/* --sort keys that are all tracepoint fields (prev_comm, sched_switch.next_comm,
 * sys:event.field, trace): perf's dynamic-key report of every event, printed;
 * returns the exit status, or -ENOENT when a key is one of the profile's. */
int report_tracepoint_sort(const char *input, const char *sort);

/* perf report's inspection modes on input (report_stats.c): stats, perf's
 * --stats (the count of each record type, each event's samples); tasks 1:
 * --tasks (the task tree), 2: --mmaps (with each task's maps). `other`
 * names an output option given with them (--json, an export): refused but
 * --json with stats, which prints the counts as JSON.
 * Returns the exit status. */
int report_inspect(const char *input, bool stats, int tasks, const char *other);

#endif
