/* report_int.h — what the report view's files share (not API; the API is
 * perfev/report.h): the view resolved from perf's options (report.c), the
 * sort keys and columns (report_keys.c), the table (report_table.c), call
 * graphs (report_graph.c), perf's output-tree order (report_rbtree.c), event
 * sections (report_events.c), the branch view (report_branch.c), JSON
 * (report_json.c), tracepoint-field keys (report_tp.c) and -T's per-thread
 * values (report_threads.c). */
#ifndef PERFEV_VIEW_REPORT_INT_H
#define PERFEV_VIEW_REPORT_INT_H

#include <stdio.h>
#include "core/internal.h"
#include "perfev.h"

enum pv_report_graph { PV_GRAPH_NONE, PV_GRAPH_CALLER, PV_GRAPH_CALLEE };
/* perf's -g print types: absolute shares, fractal (of the parent), flat, folded */
enum pv_report_graph_mode { PV_GRAPH_ABS, PV_GRAPH_FRACTAL, PV_GRAPH_FLAT, PV_GRAPH_FOLDED };
/* what a call-graph branch shows (perf's -g ...,percent|period|count) */
enum pv_report_graph_value { PV_GRAPH_PERCENT, PV_GRAPH_PERIOD, PV_GRAPH_COUNT };

#define PV_REPORT_MAX_KEYS 16
struct pv_report_view {
	const char *event_name;
	uint64_t nr_samples, lost;
	const char *keys[PV_REPORT_MAX_KEYS]; /* sort keys in the order given */
	size_t nr_keys;
	unsigned key_mask;                 /* PERFEV_KEY_* */
	bool children;
	bool relative;     /* --percentage relative: filtered samples out of the totals, as perf */
	bool color;        /* percentages in perf's colours (perfev_report_opts.color) */
	const char *time_slices; /* --time as given: perf's "(time slices: ...)" after the event */
	enum pv_report_graph graph;
	double graph_min;                  /* call paths below this percent are not shown */
	/* perf's elision: a filter on one comm/dso/symbol drops that column and
	 * names it in the header ("# dso: libc.so.6"); NULL: not filtered */
	const char *only_comm, *only_dso, *only_sym;
	/* perf's --comms LIST in its branch mode: the entries whose first
	 * sample's command is listed, whole (NULL: all) */
	const char *first_comms;
	/* perf's --symbol-filter: only rows whose symbol's name holds this */
	const char *symbol_filter;
	/* perf's --symbols LIST: with Children, only rows of a listed symbol
	 * (the samples' filter keeps the callers' entries otherwise) */
	const char *symbols;
	/* the browser's zoom (perf's d and t): only rows of this object (its
	 * path), of this thread (entries keyed by tid/pid) or of this command
	 * (the entry's, else its first sample's); NULL, -1: none */
	const char *zoom_dso, *zoom_comm;
	int64_t zoom_tid;
	/* the browser's model: called with each row's entry before it prints
	 * (the entry's strings live as long as its profile); NULL: none */
	void (*on_row)(void *ctx, const struct perfev_profile_entry *e, FILE *out);
	void *row_ctx;
	/* the branch view's --sort of perf's branch keys (pv_report_branch_file); NULL: perf's default */
	const char *branch_sort;
	enum pv_report_graph_mode graph_mode;
	enum pv_report_graph_value graph_value;
	bool graph_skip_first;             /* perf with --sort sym...: a graph's first frame (the entry) is not printed */
	double percent_limit;
	enum perfev_profile_value value;   /* what the percentages measure */
	/* the columns, in order (perf's -F; built by pv_report_set_columns) */
	struct pv_report_col {
		enum { PV_COL_CHILDREN, PV_COL_SELF, PV_COL_SAMPLES, PV_COL_PERIOD, PV_COL_KEY } type;
		const char *key; /* PV_COL_KEY: a sort key name */
	} cols[PV_REPORT_MAX_KEYS + 4];
	size_t nr_cols;
	const char *self_header;           /* "Self" beside Children in perf's default layout, else "Overhead" */
	const char *sort_first[PV_REPORT_MAX_KEYS]; /* --sort keys given with -F: perf sorts by them first */
	size_t nr_sort_first;
	/* the fields came from a --sort naming columns (period, sample): perf
	 * puts Children (and "Self") before them as in its default layout */
	bool fields_from_sort;
	/* then perf sorts by the --sort list as given (overhead first unless
	 * named, Children before all): its columns, made by pv_report_set_columns */
	const char *sort_list;
	struct pv_report_col sort_cols[PV_REPORT_MAX_KEYS + 4];
	size_t nr_sort_cols;
	/* perf report --mem-mode: the memory keys, percentages of the samples'
	 * weights, its header ("Total weight", "Sort order": sort_order) */
	bool mem_mode;
	const char *sort_order;
	/* perf's --header printed the file's header first: its hint to use
	 * --header, the report's first line, is left out, as perf does */
	bool no_hint;
	/* perf's -t SEP (symbol_conf.field_sep): columns joined by it, values
	 * unpadded before their column's width, no dots line; NULL: none */
	const char *field_sep;
};
#define PV_REPORT_MEM_KEYS                                                                               \
	(PERFEV_KEY_MEM | PERFEV_KEY_SNOOP | PERFEV_KEY_TLB | PERFEV_KEY_LOCKED | PERFEV_KEY_BLOCKED |   \
	 PERFEV_KEY_SYM_DADDR | PERFEV_KEY_DSO_DADDR | PERFEV_KEY_DCACHELINE | PERFEV_KEY_PHYS_DADDR | \
	 PERFEV_KEY_DATA_PAGE_SIZE)

/* perf's -F FIELDS before loading: checks the names and makes its keys the
 * sort keys (after --sort's, which perf sorts by first, when sort_given).
 * Returns 0 or -EINVAL (perfev_errmsg() says why). */
int pv_report_parse_fields(struct pv_report_view *v, const char *fields, bool sort_given);
/* The columns, once v->children is known: fields' order, or the default
 * (Children, Self/Overhead, Samples with -n, Period, the sort keys). */
void pv_report_set_columns(struct pv_report_view *v, const char *fields, bool samples, bool period);

/* The columns' text (report_keys.c), for the table and JSON: a key's
 * header, the width perf gives it whatever its values (0: by the values),
 * whether perf prints it unpadded, the value perf's elision names for it
 * (NULL: not elided), whether column c is left out, an entry's text in it. */
const char *pv_report_header_of(const char *key);
size_t pv_report_fixed_width(const char *key);
bool pv_report_unpadded(const char *key);
const char *pv_report_elided(const struct pv_report_view *v, const char *key);
bool pv_report_col_hidden(const struct pv_report_view *v, size_t c);
void pv_report_column(const struct perfev_profile_entry *e, const char *key, char *buf, size_t len);
static inline double pv_report_pct(uint64_t v, uint64_t all)
{
	return all ? 100.0 * (double)v / (double)all : 0.0;
}

/* perf's order of two entries equal in their values under one sort key
 * (names ascending, unknown DSOs and symbols last): <0, 0, >0. */
int pv_report_cmp_key(const struct perfev_profile_entry *a, const struct perfev_profile_entry *b, const char *key);
/* The width perf's column of key needs for entry e, beside its header's
 * (0: the header's width alone; comm is sized by the threads' names). */
size_t pv_report_entry_width(const struct pv_report_view *v, const char *key, const struct perfev_profile_entry *e);

/* The profile's sort keys (the others are tracepoint fields), for messages. */
#define PV_REPORT_SORT_KEYS \
	"comm, pid, tid, dso, sym, srcline, srcfile, cpu, socket, dso_size, symbol_size, weight, " \
	"local_weight, ins_lat, local_ins_lat, p_stage_cyc, local_p_stage_cyc, time, addr; with --mem-mode " \
	"mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, dcacheline, phys_daddr, data_page_size"
/* Whether name is one of them ("symbol" too). */
bool pv_report_is_sort_key(const char *name);

/* Reorders base[0..nr) as perf's output tree orders its entries: inserted
 * in the order given into a red-black tree, left of a node when cmp(new,
 * node, arg) < 0, then walked in order (report_rbtree.c). 0 or -ENOMEM. */
int pv_report_rbtree_order(void *base, size_t nr, size_t size, int (*cmp)(const void *, const void *, void *),
			void *arg);

/* Parses "comm,dso,sym" into v->keys/key_mask; returns 0 or -EINVAL
 * (perfev_errmsg() names the keys it knows). */
int pv_report_parse_sort(struct pv_report_view *v, const char *list);

/* One section of perf report --stdio: an event, or an event group shown
 * side by side (perf's --group: one value column per member). */
#define PV_REPORT_MAX_MEMBERS 16
struct pv_report_section {
	const struct perfev_profile *p[PV_REPORT_MAX_MEMBERS]; /* p[0]: the leader, whose graphs print */
	size_t nr;
	char title[512];   /* "event 'cpu-clock'" or "events 'anon group { a, b }'" */
	uint64_t samples;  /* of all members */
	bool no_chains;    /* the leader records no call chains: no graphs */
};
/* "# To display the perf.data header info..." and the lost samples, once per report. */
void pv_report_print_preamble(const struct pv_report_view *v, FILE *out);
/* perf report --stdio's table of one section (and call graphs when v->graph); 0 or -errno. */
int pv_report_print_stdio(const struct pv_report_section *s, const struct pv_report_view *v, FILE *out);

/* Every event's section as perf prints them: groups side by side (group
 * 1: all events as one group, 0: none, -1: the file's groups), events
 * without samples left out (a file without any: a note naming input).
 * 0 or -errno. */
int pv_report_print_events(const char *input, const struct perfev_profile_event *ev, size_t nev, int group,
			   const struct pv_report_view *v, FILE *out);

/* Loads pd's branch table and prints perf's branch view of every event
 * with branches (perfev report -b, report_branch.c) to out, its columns
 * v->branch_sort's or perf's default: v's percent_limit, -n (samples),
 * --show-total-period (period), --comms LIST (comms, NULL: all); json: the
 * rows as JSON instead. 0 or -errno; -ENOENT, printing nothing, when the
 * file has no branches and the view was not asked for (-b). */
int pv_report_branch(struct perfev_perfdata *pd, const struct perfev_profile_load_opts *lo,
		     const struct pv_report_view *v, bool samples, bool period, const char *comms, bool asked,
		     bool json, FILE *out);
/* Whether a --sort list names one of perf's branch keys (dso_from, symbol_to...). */
bool pv_report_names_branch_key(const char *list);
/* Parses such a list (branch keys and comm) into keys[0..*nr) (room for
 * PERFEV_BKEY_NR); 0, or -EINVAL with a message naming what perfev takes. */
int pv_report_branch_keys(const char *list, enum perfev_branch_key *keys, size_t *nr);
/* A path's last component, as perf names objects ("[unknown]" for NULL). */
const char *pv_report_basename(const char *path);
/* perf's convert_unit of a sample count: "191 ", "6K" (a blank for no unit). */
void pv_report_samples_unit(uint64_t n, char *buf, size_t len);

/* Call graphs of table entries e[0..nr) (report_graph.c). */
struct pv_report_graphs;
struct pv_report_graphs *pv_report_graphs_build(const struct perfev_profile *p, const struct pv_report_view *v,
					  const struct perfev_profile_entry *e, size_t nr);
/* Entry i's graph, branches under min_pct of `all` left out, percentages
 * printed of `shown` (perf's --percentage relative: `all` the samples
 * kept, `shown` every sample; else both the same), or the branches'
 * periods or sample counts (value). */
void pv_report_graphs_print(FILE *out, struct pv_report_graphs *g, size_t i, uint64_t entry_w, uint64_t all,
			 uint64_t shown, double min_pct, bool skip_first, enum pv_report_graph_mode mode,
			 enum pv_report_graph_value value);
/* Entry i's longest call path (perf's callchain max_depth). */
uint32_t pv_report_graphs_depth(const struct pv_report_graphs *g, size_t i);
/* The thread (pid << 32 | tid) entry i belongs to, as perf's hist entry. */
uint64_t pv_report_graphs_thread(const struct pv_report_graphs *g, size_t i);
void pv_report_graphs_free(struct pv_report_graphs *g);
/* A hash of what makes entries the same under the sort keys. */
uint64_t pv_report_entry_key(const struct perfev_profile_entry *e, unsigned keys);
/* The address perf shows and keys an unknown symbol by: in the object's
 * terms, but as sampled for entries made from call chains alone (no self;
 * see PERFEV_KEY_SPLIT_UNRESOLVED, which makes them apart from the frame's own). */
static inline uint64_t pv_report_shown_ip(const struct perfev_profile_entry *e)
{
	return e->self[PERFEV_VALUE_SAMPLES] ? e->rel_ip : e->ip;
}
/* The same entries as JSON. */
int pv_report_print_json(const struct perfev_profile *p, const struct pv_report_view *v, FILE *out);

/* perf's "# To display the perf.data header info..." line and its "#",
 * unless v->no_hint. */
void pv_report_display_hint(const struct pv_report_view *v, FILE *out);

/* --sort keys that are all tracepoint fields (prev_comm, sched_switch.next_comm,
 * sys:event.field, trace): perf's dynamic-key report of every event, printed
 * to out (perf's hint line first unless no_hint); 0 or -errno, or -ENOENT,
 * printing nothing, when a key is one of the profile's. */
int pv_report_tracepoint_sort(struct perfev_perfdata *pd, const char *sort, bool no_hint, FILE *out);

/* perf report -T (report_threads.c): the values of the READ records the
 * load reads, per thread and event. _hook chains its collector before lo's
 * own on_record (NULL on ENOMEM); _print: perf's table after the report
 * (raw: --pretty raw's lines). */
struct pv_thread_values;
struct pv_thread_values *pv_thread_values_hook(struct perfev_perfdata *pd, struct perfev_profile_load_opts *lo);
int pv_thread_values_print(const struct pv_thread_values *t, bool raw, FILE *out);
void pv_thread_values_free(struct pv_thread_values *t);

/* The browser's model (report_model.c): o's text view of every event of
 * pd, loaded once as perfev_report_print loads it (report.c). v is the
 * view (its strings owned by setup), ev the events' profiles. Views the
 * browser does not show (the branch view, tracepoint-field keys,
 * --mem-mode, --json, --event) are -EOPNOTSUPP with a message. 0 or
 * -errno; free with pv_report_loaded_free (also after an error). */
struct pv_report_loaded {
	const struct pv_report_view *v;
	struct perfev_profile_event *ev;
	size_t nev;
	int group;
	struct pv_report_loaded_setup *setup;
};
int pv_report_load_view(struct perfev_perfdata *pd, const struct perfev_report_opts *o, struct pv_report_loaded *out);
void pv_report_loaded_free(struct pv_report_loaded *l);
/* The view of profile p (its event as info says, copied), one section sec
 * showing p (borrowed), with o's options as the browser's model takes
 * them; 0 or -errno (out freed). */
int pv_report_profile_view(const struct perfev_report_opts *o, const struct perfev_profile *p,
			   const struct perfev_profile_load_info *info, struct pv_report_loaded *out,
			   struct pv_report_section *sec);
/* The sections perf prints of ev (events, or groups side by side): fills
 * s[0..max) and returns their number (report_events.c). */
size_t pv_report_sections(const struct perfev_profile_event *ev, size_t nev, int group, struct pv_report_section *s,
			  size_t max);

#endif
