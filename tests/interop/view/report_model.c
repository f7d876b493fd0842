/* The browser's model in the library (perfev_report_model_*, perfev/report.h)
 * on perf's own files of the corpus: its lines, all unfolded, are the lines
 * perfev_report_print prints for the same options (the same code made
 * them); folds hide an entry's graph and nothing else; zooms and the symbol
 * filter keep only the entries asked for; events switch; views it lacks
 * say so; the loader reports its progress. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct perfev_perfdata *open_corpus(const char *name)
{
	require_corpus();
	char path[512];
	snprintf(path, sizeof(path), "%s/perf.data.%s", CORPUS_DIR, name);
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert(pd, "%s: %s", path, perfev_errmsg());
	return pd;
}

static struct perfev_report_opts defaults(struct perfev_profile_load_opts *lo)
{
	*lo = (struct perfev_profile_load_opts){.sz = sizeof(*lo), .event = -1, .kallsyms = ""};
	return (struct perfev_report_opts){.sz = sizeof(struct perfev_report_opts), .children = -1, .group = -1,
					   .branch = -1, .no_hint = true, .load = lo};
}

/* The report's lines that are neither comments nor blank, as one text. */
static char *stdio_body(struct perfev_perfdata *pd, const struct perfev_report_opts *o)
{
	char *text = NULL, *body = NULL;
	size_t len = 0, blen = 0;
	FILE *f = open_memstream(&text, &len), *b = open_memstream(&body, &blen);
	cr_assert(f && b);
	cr_assert_eq(perfev_report_print(pd, o, f), 0, "%s", perfev_errmsg());
	fclose(f);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		if (l[0] != '#' && l[0])
			fprintf(b, "%s\n", l);
	fclose(b);
	free(text);
	return body;
}

/* The model's shown lines as one text. */
static char *shown_text(const struct perfev_report_model *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t k = 0; k < perfev_report_model_nr_shown(m); k++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		cr_assert_eq(perfev_report_model_line(m, perfev_report_model_shown(m, k), &l), 0);
		fprintf(f, "%s\n", l.text);
	}
	fclose(f);
	return text;
}

static void same_as_stdio(const char *file, const char *sort, const char *graph, int children)
{
	struct perfev_perfdata *pd = open_corpus(file);
	struct perfev_profile_load_opts lo;
	struct perfev_report_opts o = defaults(&lo);
	o.sort = sort, o.call_graph = graph, o.children = children;
	char *want = stdio_body(pd, &o);
	struct perfev_report_model *m = perfev_report_model_new(pd, &o);
	cr_assert(m, "%s: %s", file, perfev_errmsg());
	cr_assert_eq(perfev_report_model_fold(m, (size_t)-1, PERFEV_REPORT_EXPAND), 0);
	char *got = shown_text(m);
	cr_assert_str_eq(got, want, "%s --sort %s -g %s: the model's lines are not --stdio's", file, sort ? sort : "-",
			 graph ? graph : "-");
	free(got);
	free(want);
	perfev_report_model_free(m);
	perfev_perfdata_close(pd);
}

Test(interop_report_model, unfolded_lines_are_stdio_lines, .timeout = 120)
{
	same_as_stdio("callgraph-3.8", NULL, NULL, -1);          /* --children, graphs caller */
	same_as_stdio("callgraph-3.8", NULL, "callee", 0);       /* --no-children, callee graphs */
	same_as_stdio("callgraph-3.8", "dso,sym", "fractal", 0); /* other keys, fractal */
	same_as_stdio("callgraph-3.8", NULL, "flat", 0);
	same_as_stdio("callgraph-3.8", "sym", "none", 0);
	same_as_stdio("busy.0-3.8", NULL, NULL, -1);             /* no call chains */
}

/* The model of pd with perf's defaults, and its info. */
static struct perfev_report_model *model_of(struct perfev_perfdata *pd, struct perfev_report_model_info *in)
{
	struct perfev_profile_load_opts lo;
	struct perfev_report_opts o = defaults(&lo);
	struct perfev_report_model *m = perfev_report_model_new(pd, &o);
	cr_assert(m, "%s", perfev_errmsg());
	*in = (struct perfev_report_model_info){.sz = sizeof(*in)};
	cr_assert_eq(perfev_report_model_info(m, in), 0);
	return m;
}

Test(interop_report_model, folds_hide_graphs_only, .timeout = 120)
{
	struct perfev_perfdata *pd = open_corpus("callgraph-3.8");
	struct perfev_report_model_info in;
	struct perfev_report_model *m = model_of(pd, &in);
	cr_assert_gt(in.nr_entries, 10);
	cr_assert_gt(in.nr_lines, in.nr_entries, "no graph lines");
	cr_assert(strstr(in.title, "Samples: 1K of event 'cycles'") && strstr(in.title, "Event count (approx.): "),
		  "title '%s'", in.title);
	cr_assert(strstr(in.columns, "Children") && strstr(in.columns, "Symbol"), "columns '%s'", in.columns);
	cr_assert_eq(perfev_report_model_nr_shown(m), in.nr_entries, "entries start folded");
	for (size_t k = 0; k < in.nr_entries; k++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		cr_assert_eq(perfev_report_model_line(m, perfev_report_model_shown(m, k), &l), 0);
		cr_assert(l.entry && l.depth == 0 && l.entry_line == perfev_report_model_shown(m, k));
	}
	/* the first entry unfolded: its graph's lines, all deeper, then the second entry */
	size_t second = perfev_report_model_shown(m, 1);
	cr_assert_eq(perfev_report_model_fold(m, 0, PERFEV_REPORT_TOGGLE), 0);
	cr_assert_eq(perfev_report_model_nr_shown(m), in.nr_entries + second - 1);
	for (size_t i = 1; i < second; i++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		cr_assert_eq(perfev_report_model_line(m, i, &l), 0);
		cr_assert(!l.entry && l.depth >= 1 && l.entry_line == 0, "line %zu '%s'", i, l.text);
	}
	cr_assert_eq(perfev_report_model_shown_at(m, second), second);
	/* a branch folded inside: its deeper lines hidden, the entry's others kept */
	size_t branch = 0;
	for (size_t i = 1; i < second && !branch; i++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		perfev_report_model_line(m, i, &l);
		branch = l.has_children && l.depth > 1 ? i : 0;
	}
	if (branch) {
		size_t before = perfev_report_model_nr_shown(m);
		cr_assert_eq(perfev_report_model_fold(m, branch, PERFEV_REPORT_TOGGLE), 0);
		cr_assert_lt(perfev_report_model_nr_shown(m), before);
		cr_assert_gt(perfev_report_model_nr_shown(m), in.nr_entries);
	}
	cr_assert_eq(perfev_report_model_fold(m, (size_t)-1, PERFEV_REPORT_COLLAPSE), 0);
	cr_assert_eq(perfev_report_model_nr_shown(m), in.nr_entries);
	cr_assert_eq(perfev_report_model_fold(m, (size_t)-1, PERFEV_REPORT_EXPAND), 0);
	cr_assert_eq(perfev_report_model_nr_shown(m), in.nr_lines);
	cr_assert_eq(perfev_report_model_fold(m, in.nr_lines, PERFEV_REPORT_TOGGLE), -EINVAL);
	perfev_report_model_free(m);
	perfev_perfdata_close(pd);
}

/* Every entry of the shown section passes keep(line). */
static size_t entries_where(const struct perfev_report_model *m, bool (*keep)(const struct perfev_report_line *l,
									    const void *arg), const void *arg)
{
	size_t n = 0;
	for (size_t k = 0; k < perfev_report_model_nr_shown(m); k++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		cr_assert_eq(perfev_report_model_line(m, perfev_report_model_shown(m, k), &l), 0);
		cr_assert(l.entry, "a graph line shown while folded: '%s'", l.text);
		cr_assert(keep(&l, arg), "entry '%s' is not of the zoom", l.text);
		n++;
	}
	return n;
}

static bool of_dso(const struct perfev_report_line *l, const void *dso) { return l->dso && !strcmp(l->dso, dso); }
static bool of_comm(const struct perfev_report_line *l, const void *c) { return l->comm && !strcmp(l->comm, c); }
static bool of_symbol(const struct perfev_report_line *l, const void *s) { return l->symbol && strstr(l->symbol, s); }

Test(interop_report_model, zooms_and_filter_keep_what_is_asked, .timeout = 120)
{
	require_root(); /* a recording of this machine: its symbols resolve */
	char *data = perf_record("-g -e cpu-clock -F 4000", "model.data", WORKLOAD("calls") " 300");
	struct perfev_perfdata *pd = perfev_perfdata_open(data);
	cr_assert(pd, "%s", perfev_errmsg());
	struct perfev_profile_load_opts lo;
	struct perfev_report_opts o = defaults(&lo);
	lo.kallsyms = NULL;
	o.children = 0;
	struct perfev_report_model *m = perfev_report_model_new(pd, &o);
	cr_assert(m, "%s", perfev_errmsg());
	size_t all = perfev_report_model_nr_shown(m);
	struct perfev_report_line first = {.sz = sizeof(first)}; /* the first entry with a symbol */
	for (size_t k = 0; k < all && !first.symbol; k++)
		cr_assert_eq(perfev_report_model_line(m, perfev_report_model_shown(m, k), &first), 0);
	cr_assert(first.dso && first.comm && first.symbol, "no entry with a symbol");
	char dso[512], comm[64], sym[64];
	snprintf(dso, sizeof(dso), "%s", first.dso);
	snprintf(comm, sizeof(comm), "%s", first.comm);
	snprintf(sym, sizeof(sym), "%.4s", first.symbol);
	struct perfev_report_zoom z = {.sz = sizeof(z), .tid = -1, .dso = dso};
	cr_assert_eq(perfev_report_model_show(m, &z), 0);
	size_t n = entries_where(m, of_dso, dso);
	cr_assert(n >= 1 && n < all, "%zu of %zu entries in %s", n, all, dso);
	z.dso = NULL, z.comm = comm;
	cr_assert_eq(perfev_report_model_show(m, &z), 0);
	cr_assert_geq(entries_where(m, of_comm, comm), 1);
	/* the symbol filter: the lines of --symbol-filter's --stdio */
	z.comm = NULL, z.symbol = sym;
	cr_assert_eq(perfev_report_model_show(m, &z), 0);
	cr_assert_geq(entries_where(m, of_symbol, sym), 1);
	cr_assert_eq(perfev_report_model_fold(m, (size_t)-1, PERFEV_REPORT_EXPAND), 0);
	o.symbol_filter = sym;
	char *want = stdio_body(pd, &o), *got = shown_text(m);
	cr_assert_str_eq(got, want, "the filtered lines are not --symbol-filter %s's", sym);
	free(want);
	free(got);
	z.symbol = NULL;
	cr_assert_eq(perfev_report_model_show(m, &z), 0);
	cr_assert_eq(perfev_report_model_nr_shown(m), all, "all entries again");
	perfev_report_model_free(m);
	perfev_perfdata_close(pd);
	free(data);
}

Test(interop_report_model, events_switch_and_views_it_lacks_say_so, .timeout = 120)
{
	struct perfev_perfdata *pd = open_corpus("hw_and_sw-3.4");
	struct perfev_report_model_info in;
	struct perfev_report_model *m = model_of(pd, &in);
	cr_assert_eq(in.nr_events, 2);
	cr_assert(strstr(in.title, "of event 'cycles'"), "%s", in.title);
	struct perfev_report_zoom z = {.sz = sizeof(z), .tid = -1, .event = 1};
	cr_assert_eq(perfev_report_model_show(m, &z), 0);
	perfev_report_model_info(m, &in);
	cr_assert(in.event == 1 && strstr(in.title, "Samples: 4K of event 'cpu-clock'"), "%s", in.title);
	z.event = 2;
	cr_assert_eq(perfev_report_model_show(m, &z), -EINVAL);
	perfev_report_model_free(m);
	perfev_perfdata_close(pd);
	pd = open_corpus("branch-4.14"); /* perf's branch view: not in the browser */
	struct perfev_profile_load_opts lo;
	struct perfev_report_opts o = defaults(&lo);
	cr_assert_null(perfev_report_model_new(pd, &o));
	cr_assert_eq(errno, EOPNOTSUPP);
	cr_assert(strstr(perfev_errmsg(), "branch view"), "%s", perfev_errmsg());
	perfev_perfdata_close(pd);
}

struct progress {
	uint64_t calls, last_done, total;
	bool backwards;
};

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	p->backwards |= done > total;
	p->calls++;
	p->last_done = done;
	p->total = total;
}

Test(interop_report_model, load_reports_progress_to_the_end, .timeout = 120)
{
	struct perfev_perfdata *pd = open_corpus("callgraph-3.8");
	struct progress pr = {0};
	struct perfev_profile_load_opts lo;
	struct perfev_report_opts o = defaults(&lo);
	lo.progress = on_progress, lo.progress_ctx = &pr;
	struct perfev_report_model *m = perfev_report_model_new(pd, &o);
	cr_assert(m, "%s", perfev_errmsg());
	struct perfev_perfdata_info info;
	perfev_perfdata_info(pd, &info);
	cr_assert_geq(pr.calls, 1);
	cr_assert(!pr.backwards, "done past total");
	cr_assert_eq(pr.total, info.data_size);
	cr_assert_eq(pr.last_done, pr.total, "the last call says all is read");
	perfev_report_model_free(m);
	perfev_perfdata_close(pd);
}
