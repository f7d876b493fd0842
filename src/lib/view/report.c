/*
 * report.c — perf report's options resolved into one view of an open file
 * (perfev/report.h): which mode the file and the options ask for (the
 * branch view, tracepoint-field keys, --mem-mode, every event side by side
 * or one event), what the load must keep for the keys shown, and perf's
 * defaults that depend on what the file holds. The file is read once.
 */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A report being set up: the view, the load options it derives, and what
 * perf's option handling decided on the way. */
struct rsetup {
	struct pv_report_view v;
	struct perfev_report_opts o;       /* the caller's, zero past its sz */
	struct perfev_profile_load_opts lo; /* o.load's, changed for the view */
	struct perfev_profile_filter filter;
	const char *sort, *fields;
	bool sort_given, order_given, filtered, branch_keys, asked;
	int children, branch;
	char *sort_ipc, *sort_fields; /* owned: sort and fields may point into them */
	struct perfev_profile_load_info info; /* a profile's (pv_report_profile_view), for its event's name */
	struct pv_thread_values *threads; /* -T's, collected by the load */
};

static bool names_field(const char *sort);

static const struct perfev_profile_load_opts default_load = {
	.sz = sizeof(default_load), .group = PERFEV_GROUP_THREAD, .event = -1};

/* -g and --percent-limit as perf takes them, in the order given: none |
 * caller | callee | graph|fractal|flat|folded | percent|period|count |
 * function | MIN, comma-separated (the last of each kind wins). */
static int parse_graph(struct rsetup *r, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		return pv_error(ENOMEM, "out of memory");
	static const struct { const char *word; int graph, mode, value; } words[] = {
		{"none", PV_GRAPH_NONE, -1, -1},     {"caller", PV_GRAPH_CALLER, -1, -1},
		{"callee", PV_GRAPH_CALLEE, -1, -1}, {"graph", -1, PV_GRAPH_ABS, -1},
		{"fractal", -1, PV_GRAPH_FRACTAL, -1}, {"flat", -1, PV_GRAPH_FLAT, -1},
		{"folded", -1, PV_GRAPH_FOLDED, -1}, {"percent", -1, -1, PV_GRAPH_PERCENT},
		{"period", -1, -1, PV_GRAPH_PERIOD}, {"count", -1, -1, PV_GRAPH_COUNT},
		{"function", -1, -1, -1}, /* perf's default key, and ours */
	};
	int ret = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		char *end;
		double min = strtod(t, &end);
		if (end != t && !*end) {
			r->v.graph_min = min;
			continue;
		}
		size_t i = 0;
		while (i < PV_ARRAY_SIZE(words) && strcmp(t, words[i].word))
			i++;
		if (i == PV_ARRAY_SIZE(words) && !strcmp(t, "address"))
			ret = pv_error(EINVAL, "-g ...,address (call-graph nodes keyed by address, shown with "
				       "their source lines) is not supported: drop it for perf's default, function; "
				       "--sort srcline shows source lines");
		else if (i == PV_ARRAY_SIZE(words))
			ret = pv_error(EINVAL, "bad --call-graph '%s': use none, caller, callee or "
				       "graph|fractal|flat|folded,MIN_PERCENT,caller|callee,percent|period|count", arg);
		else if (words[i].graph >= 0)
			r->v.graph = (enum pv_report_graph)words[i].graph, r->order_given = true;
		else if (words[i].mode >= 0)
			r->v.graph_mode = (enum pv_report_graph_mode)words[i].mode;
		else if (words[i].value >= 0)
			r->v.graph_value = (enum pv_report_graph_value)words[i].value;
	}
	free(copy);
	return ret;
}

/* What does not need the file: the options' words. */
static int setup_options(struct rsetup *r, const struct perfev_report_opts *o)
{
	if (!PV_OPTS_VALID(o, perfev_report_opts))
		return -EINVAL;
	PV_OPTS_COPY(r->o, o);
	if (!PV_OPTS_VALID(r->o.load, perfev_profile_load_opts))
		return -EINVAL;
	if (r->o.load && r->o.load->sz < sizeof(r->lo))
		return pv_error(EINVAL, "report: its load options are older than this library's: build "
				"against this library's headers");
	r->lo = r->o.load ? *r->o.load : default_load;
	r->v = (struct pv_report_view){.graph = PV_GRAPH_CALLER, .graph_min = 0.5, .value = PERFEV_VALUE_PERIOD,
				       .percent_limit = r->o.percent_limit, .relative = r->o.relative,
				       .mem_mode = r->o.mem_mode, .symbol_filter = r->o.symbol_filter,
				       .no_hint = r->o.no_hint, .zoom_tid = -1, .field_sep = r->o.field_sep,
				       .color = r->o.color};
	if (r->o.field_sep && !*r->o.field_sep)
		return pv_error(EINVAL, "-t (--field-separator): give a separator, e.g. -t ,");
	if (r->o.field_sep && r->o.json)
		return pv_error(EINVAL, "-t (--field-separator) separates the text table's columns: not with "
				"--json");
	if (r->o.percent_limit < 0)
		return pv_error(EINVAL, "bad --percent-limit %g: give a percentage, e.g. 0.5", r->o.percent_limit);
	r->v.graph_min = r->o.percent_limit > 0 ? r->o.percent_limit : 0.5;
	if (r->o.show_threads && r->o.json)
		return pv_error(EINVAL, "-T (--show-threads) is perf's text table after the text report: not "
				"with --json");
	if (r->o.call_graph && parse_graph(r, r->o.call_graph) < 0)
		return -EINVAL;
	static const char *const values[] = {"samples", "period", "weight"};
	static const enum perfev_profile_value vals[] = {PERFEV_VALUE_SAMPLES, PERFEV_VALUE_PERIOD,
							 PERFEV_VALUE_WEIGHT};
	size_t i = 0;
	while (r->o.value && i < PV_ARRAY_SIZE(values) && strcmp(r->o.value, values[i]))
		i++;
	if (r->o.value && i == PV_ARRAY_SIZE(values))
		return pv_error(EINVAL, "bad --value '%s': use samples, period or weight", r->o.value);
	if (r->o.value)
		r->v.value = vals[i];
	if (r->lo.time) { /* the loader parses it again: this says what is wrong before the file is read */
		struct pv_time_range *ranges;
		size_t n;
		if (pv_time_ranges_parse(r->lo.time, &ranges, &n) < 0)
			return -EINVAL;
		free(ranges);
		r->v.time_slices = r->lo.time;
	}
	r->sort = r->o.sort ? r->o.sort : "comm,dso,sym";
	r->sort_given = r->o.sort != NULL;
	r->fields = r->o.fields;
	r->children = r->o.children;
	r->branch = r->o.branch;
	r->asked = r->branch > 0;
	if (r->lo.filter)
		r->filter = *r->lo.filter;
	else
		r->filter = (struct perfev_profile_filter){.sz = sizeof(r->filter), .pid = -1, .tid = -1};
	const struct perfev_profile_filter *f = &r->filter;
	r->filtered = f->comm || f->pid >= 0 || f->tid >= 0 || f->dso || f->symbol;
	return 0;
}

PERFEV_API int perfev_report_check(const struct perfev_report_opts *o)
{
	struct rsetup r;
	memset(&r, 0, sizeof(r));
	return setup_options(&r, o);
}

/* perf's --sort may name output columns (overhead, sample, period): a
 * --sort holding any is taken as -F overhead,LIST (its columns in that
 * order, the entries sorted by them). The fields, or NULL. */
static char *sort_as_fields(const char *sort)
{
	static const char *const cols[] = {"overhead", "sample", "period"};
	bool any = false;
	for (size_t i = 0; i < PV_ARRAY_SIZE(cols); i++) {
		size_t n = strlen(cols[i]);
		for (const char *at = strstr(sort, cols[i]); at && !any; at = strstr(at + 1, cols[i]))
			any = (at == sort || at[-1] == ',') && (at[n] == ',' || !at[n]);
	}
	if (!any)
		return NULL;
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, "overhead");
	char *copy = strdup(sort), *save = NULL;
	for (char *k = copy ? strtok_r(copy, ",", &save) : NULL; k; k = strtok_r(NULL, ",", &save))
		if (strcmp(k, "overhead") != 0)
			pv_buf_printf(&b, ",%s", k);
	free(copy);
	return b.data;
}

/* perf --mem-mode's check: no event of the file samples PERF_SAMPLE_DATA_SRC. */
static bool no_mem_data(const struct perfev_perfdata *pd)
{
	bool none = true;
	for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		none &= !(a && (a->sample_type & PERF_SAMPLE_DATA_SRC));
	}
	return none;
}

/* A stream's branch stacks, by its events (its features are not read first). */
static bool branch_stacks(const struct perfev_perfdata *pd)
{
	for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++)
		if (perfev_perfdata_event_attr(pd, i)->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

static bool other_filter(const struct rsetup *r)
{
	return r->filter.pid >= 0 || r->filter.tid >= 0 || r->filter.dso || r->filter.symbol || r->lo.time;
}

/* perf's branch mode: the branch table (-b, or by default for recordings
 * with branch stacks), or under --sort/-F of the profile's keys the entries
 * of every branch's target. */
static int setup_branch(struct rsetup *r, const struct perfev_perfdata *pd)
{
	if (r->branch < 0 && !r->o.json && r->lo.event < 0)
		r->branch = perfev_branch_table_wanted_from(pd); /* perf's default for LBR recordings */
	r->branch_keys = r->branch > 0 && (r->sort_given || r->fields);
	if (r->branch_keys && ((r->sort_given && pv_report_names_branch_key(r->sort)) ||
			       (r->fields && pv_report_names_branch_key(r->fields)))) {
		if (r->fields) /* (perf takes them in -F too) */
			return pv_error(EINVAL, "perfev takes perf's branch keys (dso_from, symbol_to...) in "
					"--sort only, without -F: give them as --sort KEYS");
		r->v.branch_sort = r->sort; /* the branch table, by these keys */
		r->branch_keys = false;
	}
	if (r->branch_keys) {
		if (r->o.json || other_filter(r) || r->lo.event >= 0)
			return pv_error(EINVAL, "the branch view (-b, the default for files with branch stacks) "
					"with --sort/-F is a text table filtered by --comms only: drop %s, or add "
					"--no-branch-stack", r->o.json ? "--json, --folded and the exports" :
					other_filter(r) ? "the filters but --comms" : "--event");
		if (r->asked && (perfev_perfdata_is_pipe(pd) ? !branch_stacks(pd) : !perfev_branch_table_wanted_from(pd)))
			return pv_error(EINVAL, "%s has no branch stacks (record them with perf record -b or "
					"-j any), so there is no branch view: drop -b", perfev_perfdata_path(pd));
		r->lo.flags |= PERFEV_PROFILE_BRANCH_TARGETS;
		r->lo.no_callchain = true;
		/* perf filters entries, not branches: one of a command's branches
		 * shows its entry whole (first_comms) */
		r->v.first_comms = r->filter.comm;
		r->filter.comm = NULL, r->filtered = false;
		r->children = 0, r->v.graph = PV_GRAPH_NONE, r->order_given = true; /* perf: no graphs, no Children */
		r->branch = 0;
	}
	if (r->branch > 0 && (other_filter(r) || r->lo.event >= 0))
		return pv_error(EINVAL, "the branch view (-b, the default for files with branch stacks) "
				"takes no filters but --comms, no --event and no exports: drop them, or add "
				"--no-branch-stack");
	return 0;
}

/* --sort and -F into the view's keys and columns (perf's spellings). */
static int setup_keys(struct rsetup *r)
{
	/* perf (builtin-report.c): a --sort naming "symbol" (symbol, symbol_size)
	 * gets the IPC columns, "-" for samples without branch stacks */
	if (r->sort_given && strstr(r->sort, "symbol")) {
		if (asprintf(&r->sort_ipc, "%s,%s", r->sort, r->branch_keys ? "ipc_lbr" : "ipc_null") < 0)
			return pv_error(ENOMEM, "out of memory");
		r->sort = r->sort_ipc;
	}
	if (r->v.mem_mode && r->sort_given) /* (perf's header names its sort order with the IPC key added) */
		r->v.sort_order = r->sort;
	r->sort_fields = r->sort_given && !r->fields ? sort_as_fields(r->sort) : NULL;
	if (r->sort_fields) {
		r->fields = r->sort_fields;
		r->sort_given = false;
		r->v.fields_from_sort = true;
		r->v.sort_list = r->sort;
	}
	int parsed = r->sort_fields ? 0 : pv_report_parse_sort(&r->v, r->sort);
	r->v.graph_skip_first = (r->sort_given || r->v.fields_from_sort) && (!r->fields || r->v.fields_from_sort) &&
				!strncmp(r->sort, "sym", 3);
	if (parsed < 0 || (r->fields && pv_report_parse_fields(&r->v, r->fields, r->sort_given) < 0))
		return -EINVAL;
	return 0;
}

static const char *one_name(const char *list)
{
	return list && !strchr(list, ',') ? list : NULL;
}

/* What the load keeps for the keys shown, and perf's cuts of the chains.
 * text: perf's text report; shown: only what the report shows is needed
 * (not an export's stacks). */
static void setup_load(struct rsetup *r, bool text, bool shown)
{
	struct perfev_profile_load_opts *lo = &r->lo;
	unsigned keys = r->v.key_mask;
	lo->filter = r->filtered ? &r->filter : NULL;
	/* perf elides a key's column only when its filter names one value */
	r->v.only_comm = one_name(r->filter.comm), r->v.only_dso = one_name(r->filter.dso);
	r->v.only_sym = one_name(r->filter.symbol);
	r->v.symbols = r->filtered ? r->filter.symbol : NULL;
	if (r->v.first_comms && !strchr(r->v.first_comms, ','))
		r->v.only_comm = r->v.first_comms; /* one command: its column left out, named */
	lo->srclines |= (keys & (PERFEV_KEY_SRCLINE | PERFEV_KEY_SRCFILE)) != 0;
	if (keys & (PERFEV_KEY_CPU | PERFEV_KEY_SOCKET)) /* groups apart per CPU only when shown */
		lo->flags |= PERFEV_PROFILE_KEEP_CPU;
	if (keys & (PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC))
		lo->flags |= PERFEV_PROFILE_KEEP_WEIGHTS; /* (likewise per sample) */
	if (keys & PERFEV_KEY_TIME)
		lo->flags |= PERFEV_PROFILE_KEEP_TIME;
	if (keys & PERFEV_KEY_ADDR)
		lo->flags |= PERFEV_PROFILE_KEEP_ADDR;
	/* perf cuts chains in its call-graph order: caller when asked, or by
	 * default with --children (not for -g none, which leaves the order) */
	if (r->order_given && r->v.graph != PV_GRAPH_NONE)
		lo->max_stack_outer = text && r->v.graph == PV_GRAPH_CALLER;
	else
		lo->max_stack_outer = text && r->children != 0;
	/* perf's [k]/[.] of --children rows of frames outside any map follow
	 * its cursor, in callee order when asked */
	lo->unmapped_levels_callee = text && r->children != 0 && r->order_given && r->v.graph == PV_GRAPH_CALLEE;
	lo->inline_dwarf_only = text; /* perf expands inlines of DWARF call chains only */
	/* Stacks cost most of the time (DWARF unwinding above all): skip them
	 * when nothing shown needs them, as perf does for -g none --no-children */
	if (shown && r->children == 0 && r->v.graph == PV_GRAPH_NONE && r->order_given)
		lo->no_callchain = true;
}

/* Everything but reading the samples. pd NULL: a profile loaded already
 * (no file-dependent mode). views: perfev_report_print's, which may show
 * the branch or tracepoint view instead (printed here: returns 1), else a
 * profile for exports (all its stacks kept). 0, 1 or -errno. */
static int setup(struct rsetup *r, const struct perfev_report_opts *o, struct perfev_perfdata *pd, bool views,
		 FILE *out)
{
	bool single = !views;
	int err = setup_options(r, o);
	if (err < 0)
		return err;
	if (r->o.show_threads && single)
		return pv_error(EINVAL, "-T (--show-threads) is perf's text table after the text report: not "
				"with --folded or the exports");
	if (pd && !single && (err = setup_branch(r, pd)) < 0)
		return err;
	if ((r->o.show_threads || r->o.field_sep) &&
	    ((pd && !single && r->branch > 0) || (r->sort_given && names_field(r->sort))))
		return pv_error(EINVAL, "%s goes with the profile's table: not with %s",
				r->o.show_threads ? "-T (--threads)" : "-t (--field-separator)",
				r->branch > 0 ? "the branch view (add --no-branch-stack)" : "tracepoint fields as keys");
	if (pd && !single && r->branch > 0) {
		err = pv_report_branch(pd, &r->lo, &r->v, r->o.show_samples, r->o.show_period, r->filter.comm,
				       r->asked, r->o.json, out);
		if (err != -ENOENT)
			return err < 0 ? err : 1;
	}
	if (pd && !single && r->sort_given && !r->o.json) {
		err = pv_report_tracepoint_sort(pd, r->sort, r->v.no_hint, out);
		if (err != -ENOENT)
			return err < 0 ? err : 1;
	}
	if (pd && r->v.mem_mode && no_mem_data(pd))
		return pv_error(EINVAL, "--mem-mode: %s has no memory access data (no event samples "
				"PERF_SAMPLE_DATA_SRC): record with perf record -d, or drop --mem-mode",
				perfev_perfdata_path(pd));
	if (r->v.mem_mode) { /* perf: weights as periods, no children */
		if (!r->sort_given)
			r->sort = PERFEV_REPORT_MEM_SORT;
		r->children = 0;
		r->v.value = PERFEV_VALUE_WEIGHT;
		r->lo.flags |= PERFEV_PROFILE_KEEP_MEM;
	}
	if ((err = setup_keys(r)) < 0)
		return err;
	setup_load(r, views && !r->o.json, views);
	if (r->o.show_threads && pd && !(r->threads = pv_thread_values_hook(pd, &r->lo)))
		return -ENOMEM;
	return 0;
}

static void rsetup_free(struct rsetup *r)
{
	free(r->sort_ipc);
	free(r->sort_fields);
	pv_thread_values_free(r->threads);
}

/* ---- notes: what perf leaves unsaid ------------------------------------------ */
/* -g or --children asked of a file without call chains: perf draws nothing
 * and drops the Children column (it would equal Self); say why */
static void no_chains_note(const struct rsetup *r, const char *input, bool chains)
{
	bool graph = r->order_given && r->v.graph != PV_GRAPH_NONE, children = r->children > 0;
	if ((graph || children) && !chains)
		pv_note("%s records no call chains, so %s has nothing to %s (record with -g or --call-graph dwarf)",
			input, graph ? "-g" : "--children", graph ? "draw" : "add");
}

static void load_notes(const struct rsetup *r, const struct perfev_profile_load_info *info, uint64_t samples,
		       uint64_t filtered)
{
	if (info->dwarf_samples)
		pv_note("DWARF unwinding reached the root in %.1f%% of %llu samples",
			100.0 * (double)info->dwarf_to_root / (double)info->dwarf_samples,
			(unsigned long long)info->dwarf_samples);
	/* When the filter left nothing: which options did it, and how to see
	 * what the file holds (perf prints an empty table and says nothing). */
	const struct perfev_profile_filter *f = &r->filter;
	if (r->filtered && samples && filtered >= samples) {
		char what[512] = "";
		size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(what + n, n < sizeof(what) ? sizeof(what) - n : 0, __VA_ARGS__))
		if (f->comm)
			ADD(" --comms %s", f->comm);
		if (f->pid >= 0)
			ADD(" --pid %lld", (long long)f->pid);
		if (f->tid >= 0)
			ADD(" --tid %lld", (long long)f->tid);
		if (f->dso)
			ADD(" --dsos %s", f->dso);
		if (f->symbol)
			ADD(" --symbols %s", f->symbol);
#undef ADD
		pv_note("none of the %llu samples passed%s; see what the file holds with --sort comm,pid,dso "
			"(and perfev script -F time for its times)", (unsigned long long)samples, what);
	}
	if (r->lo.time && !samples) /* --time kept nothing: say what to look at */
		pv_note("no sample of the event is within --time '%s'; perfev script -F time shows the "
			"samples' times", r->lo.time);
}

/* ---- every event, side by side -------------------------------------------------- */
static int print_events(struct rsetup *r, struct perfev_perfdata *pd, FILE *out)
{
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	size_t nev;
	struct perfev_profile_event *ev = perfev_profile_load_events_from(pd, &r->lo, &info, &nev);
	if (!ev)
		return -errno;
	bool callchains = false;
	for (size_t i = 0; i < nev && !r->branch_keys; i++)
		callchains |= ev[i].has_callchains;
	r->v.children = r->children != 0 && callchains;
	const char *input = perfev_perfdata_path(pd);
	no_chains_note(r, input, callchains);
	if (!r->order_given)
		r->v.graph = r->v.children ? PV_GRAPH_CALLER : PV_GRAPH_CALLEE; /* perf's defaults */
	r->v.lost = info.lost_samples; /* perf's "Total Lost Samples" */
	pv_report_set_columns(&r->v, r->fields, r->o.show_samples, r->o.show_period);
	uint64_t all = 0, filtered = 0;
	for (size_t i = 0; i < nev; i++)
		all += ev[i].samples, filtered += perfev_profile_filtered(ev[i].profile);
	load_notes(r, &info, all, filtered);
	int ret = pv_report_print_events(input, ev, nev, r->o.group, &r->v, out);
	perfev_profile_events_free(ev, nev);
	return ret;
}

/* ---- one event ------------------------------------------------------------------- */
static struct perfev_profile *load_single(struct rsetup *r, struct perfev_perfdata *pd,
					  struct perfev_profile_load_info *info)
{
	struct perfev_profile *p = perfev_profile_load_from(pd, &r->lo, info);
	if (!p)
		return NULL;
	no_chains_note(r, perfev_perfdata_path(pd), info->has_callchains);
	if (info->other_samples)
		pv_note("%llu samples of other events not shown (choose one with --event N)",
			(unsigned long long)info->other_samples);
	load_notes(r, info, info->samples, perfev_profile_filtered(p));
	return p;
}

static int print_single(struct rsetup *r, const struct perfev_profile *p, const struct perfev_profile_load_info *info,
			FILE *out)
{
	r->v.children = r->children != 0 && info->has_callchains;
	if (!info->has_callchains)
		r->v.graph = PV_GRAPH_NONE;
	else if (!r->order_given)
		r->v.graph = r->v.children ? PV_GRAPH_CALLER : PV_GRAPH_CALLEE; /* perf's defaults */
	r->v.event_name = info->event_name;
	r->v.nr_samples = perfev_profile_total(p, PERFEV_VALUE_SAMPLES);
	r->v.lost = info->lost;
	if (r->o.json)
		return pv_report_print_json(p, &r->v, out);
	pv_report_set_columns(&r->v, r->fields, r->o.show_samples, r->o.show_period);
	struct pv_report_section sec = {.p = {p}, .nr = 1, .samples = r->v.nr_samples};
	snprintf(sec.title, sizeof(sec.title), "event '%s'", info->event_name);
	struct pv_report_view pv = r->v;
	pv.lost = info->lost_samples;
	pv_report_print_preamble(&pv, out);
	return pv_report_print_stdio(&sec, &r->v, out);
}

/* ---- the API ---------------------------------------------------------------------- */
PERFEV_API int perfev_report_print(struct perfev_perfdata *pd, const struct perfev_report_opts *o, FILE *out)
{
	struct rsetup r;
	memset(&r, 0, sizeof(r));
	int ret = setup(&r, o, pd, true, out);
	if (ret == 0 && !r.o.json && r.lo.event < 0) {
		ret = print_events(&r, pd, out); /* the text report: every event, as perf prints them */
	} else if (ret == 0) {
		struct perfev_profile_load_info info = {.sz = sizeof(info)};
		struct perfev_profile *p = load_single(&r, pd, &info);
		ret = p ? print_single(&r, p, &info, out) : -errno;
		perfev_profile_free(p);
	}
	if (ret == 0 && r.threads) /* perf -T: after the report (and its tip) */
		ret = pv_thread_values_print(r.threads, r.o.threads_raw, out);
	rsetup_free(&r);
	return ret < 0 ? ret : 0;
}

PERFEV_API struct perfev_profile *perfev_report_load(struct perfev_perfdata *pd, const struct perfev_report_opts *o,
						     struct perfev_profile_load_info *info)
{
	struct rsetup r;
	memset(&r, 0, sizeof(r));
	struct perfev_profile_load_info own = {.sz = sizeof(own)};
	struct perfev_profile *p = NULL;
	if (setup(&r, o, pd, false, NULL) == 0)
		p = load_single(&r, pd, info ? info : &own);
	rsetup_free(&r);
	return p;
}

PERFEV_API int perfev_report_print_profile(const struct perfev_profile *p, const struct perfev_profile_load_info *info,
					   const struct perfev_report_opts *o, FILE *out)
{
	struct rsetup r;
	memset(&r, 0, sizeof(r));
	int ret = setup(&r, o, NULL, false, out);
	if (ret == 0)
		ret = print_single(&r, p, info, out);
	rsetup_free(&r);
	return ret;
}

/* ---- the browser's model (report_model.c) ------------------------------------------ */
struct pv_report_loaded_setup {
	struct rsetup r;
};

/* Whether a --sort list names a key that is not the profile's (a
 * tracepoint field, shown by pv_report_tracepoint_sort's own table). */
static bool names_field(const char *sort)
{
	static const char *const cols[] = {"overhead", "sample", "period", "ipc_null", "ipc_lbr", "children"};
	char *copy = strdup(sort), *save = NULL;
	bool field = false;
	for (char *k = copy ? strtok_r(copy, ",", &save) : NULL; k && !field; k = strtok_r(NULL, ",", &save)) {
		bool col = false;
		for (size_t i = 0; i < PV_ARRAY_SIZE(cols); i++)
			col |= !strcmp(k, cols[i]);
		field = !col && !pv_report_is_sort_key(k);
	}
	free(copy);
	return field;
}

int pv_report_load_view(struct perfev_perfdata *pd, const struct perfev_report_opts *o, struct pv_report_loaded *out)
{
	memset(out, 0, sizeof(*out));
	struct rsetup *r = calloc(1, sizeof(*r));
	if (!r)
		return pv_error(ENOMEM, "out of memory");
	out->setup = (struct pv_report_loaded_setup *)r;
	int err = setup_options(r, o);
	if (!err && (r->o.json || r->lo.event >= 0))
		err = pv_error(EOPNOTSUPP, "--json and --event are not views of the browser");
	if (!err && (err = setup_branch(r, pd)) == 0 && r->branch > 0)
		err = pv_error(EOPNOTSUPP, "the branch view (-b, the default for files with branch stacks) "
			       "is not in the browser yet");
	if (!err && r->sort_given && names_field(r->sort))
		err = pv_error(EOPNOTSUPP, "tracepoint fields as sort keys are not in the browser yet");
	if (!err && r->v.mem_mode)
		err = pv_error(EOPNOTSUPP, "--mem-mode is not in the browser yet");
	if (!err && (r->o.show_threads || r->o.field_sep)) /* (perf's browser leaves them out) */
		err = pv_error(EOPNOTSUPP, "-T and -t are the text report's");
	if (!err && (err = setup_keys(r)) == 0) {
		setup_load(r, true, true);
		struct perfev_profile_load_info info = {.sz = sizeof(info)};
		out->ev = perfev_profile_load_events_from(pd, &r->lo, &info, &out->nev);
		err = out->ev ? 0 : -errno;
		bool callchains = false;
		for (size_t i = 0; i < out->nev; i++)
			callchains |= out->ev[i].has_callchains;
		r->v.children = r->children != 0 && callchains;
		if (!r->order_given)
			r->v.graph = r->v.children ? PV_GRAPH_CALLER : PV_GRAPH_CALLEE; /* perf's defaults */
		r->v.lost = info.lost_samples;
		pv_report_set_columns(&r->v, r->fields, r->o.show_samples, r->o.show_period);
		uint64_t all = 0, filtered = 0;
		for (size_t i = 0; i < out->nev; i++)
			all += out->ev[i].samples, filtered += perfev_profile_filtered(out->ev[i].profile);
		if (out->ev)
			load_notes(r, &info, all, filtered);
	}
	out->v = &r->v;
	out->group = r->o.group;
	if (err < 0)
		pv_report_loaded_free(out);
	return err;
}

void pv_report_loaded_free(struct pv_report_loaded *l)
{
	if (l->ev)
		perfev_profile_events_free(l->ev, l->nev);
	if (l->setup)
		rsetup_free(&l->setup->r);
	free(l->setup);
	memset(l, 0, sizeof(*l));
}

/* ---- the view of a profile built elsewhere (perfev top's) -------------------------- */
/* The options the browser's model takes (pv_report_load_view's checks). */
static int model_options(struct rsetup *r, const struct perfev_report_opts *o)
{
	int err = setup_options(r, o);
	if (!err && (r->o.json || r->lo.event >= 0))
		err = pv_error(EOPNOTSUPP, "--json and --event are not views of the browser");
	if (!err && r->sort_given && names_field(r->sort))
		err = pv_error(EOPNOTSUPP, "tracepoint fields as sort keys are not in the browser yet");
	if (!err && r->v.mem_mode)
		err = pv_error(EOPNOTSUPP, "--mem-mode is not in the browser yet");
	return err ? err : setup_keys(r);
}

PERFEV_API int perfev_report_load_opts(const struct perfev_report_opts *o, struct perfev_profile_load_opts *out)
{
	if (!out || !PV_OPTS_VALID(out, perfev_profile_load_opts))
		return pv_error(EINVAL, "report_load_opts: no place for the load options");
	struct rsetup r;
	memset(&r, 0, sizeof(r));
	int err = model_options(&r, o);
	if (!err) {
		setup_load(&r, true, true);
		r.lo.filter = r.filtered ? r.o.load->filter : NULL; /* (the caller's, not our copy) */
		size_t sz = out->sz;
		memcpy(out, &r.lo, PV_MIN(sz, sizeof(r.lo)));
		out->sz = sz;
	}
	rsetup_free(&r);
	return err;
}

int pv_report_profile_view(const struct perfev_report_opts *o, const struct perfev_profile *p,
			   const struct perfev_profile_load_info *info, struct pv_report_loaded *out,
			   struct pv_report_section *sec)
{
	memset(out, 0, sizeof(*out));
	struct rsetup *r = calloc(1, sizeof(*r));
	if (!r)
		return pv_error(ENOMEM, "out of memory");
	out->setup = (struct pv_report_loaded_setup *)r;
	out->v = &r->v;
	int err = model_options(r, o);
	if (err < 0) {
		pv_report_loaded_free(out);
		return err;
	}
	size_t isz = info && info->sz ? PV_MIN(info->sz, sizeof(r->info)) : 0;
	if (isz)
		memcpy(&r->info, info, isz);
	r->info.event_name[sizeof(r->info.event_name) - 1] = 0;
	/* as print_single sets the view up for one event */
	r->v.children = r->children != 0 && r->info.has_callchains;
	if (!r->info.has_callchains)
		r->v.graph = PV_GRAPH_NONE;
	else if (!r->order_given)
		r->v.graph = r->v.children ? PV_GRAPH_CALLER : PV_GRAPH_CALLEE; /* perf's defaults */
	r->v.event_name = r->info.event_name;
	r->v.nr_samples = perfev_profile_total(p, PERFEV_VALUE_SAMPLES);
	r->v.lost = r->info.lost;
	pv_report_set_columns(&r->v, r->fields, r->o.show_samples, r->o.show_period);
	memset(sec, 0, sizeof(*sec));
	sec->p[0] = p;
	sec->nr = 1;
	sec->samples = r->v.nr_samples;
	sec->no_chains = !r->info.has_callchains;
	snprintf(sec->title, sizeof(sec->title), "event '%s'", r->info.event_name);
	return 0;
}
