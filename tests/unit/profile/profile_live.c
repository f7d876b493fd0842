/* What a live view (perfev top) does to profiles between refreshes:
 * perf top's decay and zeroing (perfev_profile_decay, exact arithmetic,
 * totals that add up), snapshots of a builder that goes on, and the report
 * model of such a profile (the same lines perfev report prints). */
#define _GNU_SOURCE
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLGRAPH CORPUS_DIR "/perf.data.callgraph-3.8"

/* Every node's total is its own values plus its children's totals; the
 * root's is the sum of every own value. */
static void assert_totals_add_up(const struct perfev_profile *p)
{
	uint64_t self_sum[PERFEV_VALUE_NR] = {0};
	for (uint32_t id = 0; id < perfev_profile_nr_nodes(p); id++) {
		struct perfev_profile_node n, c;
		cr_assert_eq(perfev_profile_node(p, id, &n), 0);
		uint64_t sum[PERFEV_VALUE_NR];
		for (int v = 0; v < PERFEV_VALUE_NR; v++)
			sum[v] = n.self[v], self_sum[v] += n.self[v];
		for (uint32_t k = n.first_child; k; k = c.next_sibling) {
			cr_assert_eq(perfev_profile_node(p, k, &c), 0);
			for (int v = 0; v < PERFEV_VALUE_NR; v++)
				sum[v] += c.total[v];
		}
		for (int v = 0; v < PERFEV_VALUE_NR; v++)
			cr_assert_eq(n.total[v], sum[v], "node %u value %d: total %llu, own + children %llu", id, v,
				     (unsigned long long)n.total[v], (unsigned long long)sum[v]);
	}
	for (int v = 0; v < PERFEV_VALUE_NR; v++)
		cr_assert_eq(perfev_profile_total(p, v), self_sum[v]);
}

/* The own values of the leaf node named sym (its first) are these samples and period. */
static void assert_leaf(const struct perfev_profile *p, const char *sym, uint64_t samples, uint64_t period)
{
	for (uint32_t id = 1; id < perfev_profile_nr_nodes(p); id++) {
		struct perfev_profile_node n;
		perfev_profile_node(p, id, &n);
		if (n.kind == PERFEV_NODE_FRAME && n.frame.symbol && !strcmp(n.frame.symbol, sym) &&
		    (n.self[0] || n.self[1] || !n.first_child)) {
			cr_assert_eq(n.self[PERFEV_VALUE_SAMPLES], samples, "%s's samples", sym);
			cr_assert_eq(n.self[PERFEV_VALUE_PERIOD], period, "%s's period", sym);
			return;
		}
	}
	cr_assert_fail("no node %s", sym);
}

static bool has_node(const struct perfev_profile *p, const char *sym)
{
	for (uint32_t id = 1; id < perfev_profile_nr_nodes(p); id++) {
		struct perfev_profile_node n;
		perfev_profile_node(p, id, &n);
		if (n.kind == PERFEV_NODE_FRAME && n.frame.symbol && !strcmp(n.frame.symbol, sym))
			return true;
	}
	return false;
}

/* f: 10 samples of period 100, g: 3 of 7, k (kernel): 5 of 9, all under main. */
static struct perfev_profile *small(unsigned flags)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, flags);
	cr_assert(p);
	const char *f[] = {"f", "main"}, *g[] = {"g", "main"}, *k[] = {"k:k_fn", "main"};
	synthetic_add(p, "app", 1, 1, 100, f, 2, 10);
	synthetic_add(p, "app", 1, 1, 7, g, 2, 3);
	synthetic_add(p, "app", 1, 2, 9, k, 2, 5);
	return p;
}

Test(unit_profile_live, decay_is_perf_tops_arithmetic)
{
	struct perfev_profile *p = small(0);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 18);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 1000 + 21 + 45);
	cr_assert_eq(perfev_profile_decay(p, 7, 8, 0), 0, "%s", perfev_errmsg());
	/* floor(v * 7 / 8) of each node's own values */
	assert_leaf(p, "f", 8, 875);
	assert_leaf(p, "g", 2, 18);
	assert_leaf(p, "k_fn", 4, 39);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 14);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 875 + 18 + 39);
	assert_totals_add_up(p);
	/* again: of what is left */
	cr_assert_eq(perfev_profile_decay(p, 7, 8, 0), 0);
	assert_leaf(p, "f", 7, 765);
	assert_totals_add_up(p);
	/* -K: the kernel's samples gone, the rest untouched */
	cr_assert_eq(perfev_profile_decay(p, 1, 1, PERFEV_DECAY_HIDE_KERNEL), 0);
	cr_assert(!has_node(p, "k_fn"), "an emptied node is removed");
	assert_leaf(p, "f", 7, 765);
	assert_totals_add_up(p);
	/* k_fn's node (its thread's, tid 2) is gone with its values */
	cr_assert_eq(perfev_profile_nr_nodes(p), 5, "root, thread 1, main, f, g");
	/* -z: nothing left, not even a node; new samples count alone */
	cr_assert_eq(perfev_profile_decay(p, 0, 1, 0), 0);
	for (int v = 0; v < PERFEV_VALUE_NR; v++)
		cr_assert_eq(perfev_profile_total(p, v), 0);
	cr_assert_eq(perfev_profile_nr_nodes(p), 1, "the root alone");
	assert_totals_add_up(p);
	const char *g[] = {"g", "main"};
	synthetic_add(p, "app", 1, 1, 7, g, 2, 2);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 2);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 14);
	assert_totals_add_up(p);
	perfev_profile_free(p);
}

Test(unit_profile_live, pruned_nodes_leave_the_rest_as_it_was)
{
	/* at 1/2000 the synthetic profile's "sh" samples (at most 1500 of
	 * period on a node) and the recursion (one sample) reach nothing while
	 * the rest keeps some period; what is left, and samples added after,
	 * add up as in a profile that never had them */
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	size_t before = perfev_profile_nr_nodes(p);
	cr_assert(has_node(p, "rec"));
	cr_assert_eq(perfev_profile_decay(p, 1, 2000, 0), 0);
	cr_assert(!has_node(p, "rec"));
	cr_assert(has_node(p, "compute") && has_node(p, "sys_write"));
	cr_assert_lt(perfev_profile_nr_nodes(p), before);
	assert_totals_add_up(p);
	const char *stack[] = {"compute", "work", "main"}, *fresh[] = {"new", "main"};
	synthetic_add(p, "app", 100, 100, 1000, stack, 3, 8);
	synthetic_add(p, "app", 100, 100, 1000, fresh, 2, 8);
	assert_totals_add_up(p);
	char *got = profile_folded(p, PERFEV_VALUE_PERIOD, true);
	cr_assert(strstr(got, "main;new 8000\n"), "%s", got);
	cr_assert(strstr(got, "main;work;compute 8032\n"), "30 + 2 left (threads 100, 101), 8000 added:\n%s", got);
	cr_assert(!strstr(got, "sh") && !strstr(got, "rec"), "sh's and the recursion's samples are gone:\n%s", got);
	free(got);
	perfev_profile_free(p);
}

Test(unit_profile_live, hiding_user_space_in_a_callee_rooted_tree)
{
	/* the sample's leaf is the frame below its thread there, not where
	 * its values sit */
	struct perfev_profile *p = small(PERFEV_PROFILE_CALLEE);
	cr_assert_eq(perfev_profile_decay(p, 1, 1, PERFEV_DECAY_HIDE_USER), 0);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 5);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 45);
	assert_totals_add_up(p);
	perfev_profile_free(p);
}

Test(unit_profile_live, decay_refuses_bad_factors)
{
	struct perfev_profile *p = small(0);
	cr_assert_eq(perfev_profile_decay(p, 1, 0, 0), -EINVAL);
	cr_assert_eq(perfev_profile_decay(p, 9, 8, 0), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "at most 1"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_profile_decay(p, 1, 1, 1u << 7), -EINVAL);
	cr_assert_eq(perfev_profile_decay(NULL, 1, 1, 0), -EINVAL);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 18, "a refused call changes nothing");
	perfev_profile_free(p);
}

struct half {
	struct perfev_profile_builder *a, *b;
	size_t n, upto; /* records (feed_upto: samples) so far; b gets the first upto */
};

static int feed_both(void *ctx, const struct perfev_record *rec)
{
	struct half *h = ctx;
	int e = perfev_profile_builder_add(h->a, rec);
	if (e == 0 && h->n < h->upto)
		e = perfev_profile_builder_add(h->b, rec);
	h->n++;
	return e;
}

static struct perfev_profile_builder *builder(struct perfev_perfdata *pd, const struct perfev_profile_load_opts *lo)
{
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = lo, .perfdata = pd};
	struct perfev_profile_builder *b = perfev_profile_builder_new(&bo);
	cr_assert(b, "%s", perfev_errmsg());
	return b;
}

static void assert_same(const struct perfev_profile *x, const struct perfev_profile *y, const char *what)
{
	char *fx = profile_folded(x, PERFEV_VALUE_PERIOD, false), *fy = profile_folded(y, PERFEV_VALUE_PERIOD, false);
	cr_assert_gt(strlen(fx), 10, "%s", what);
	cr_assert_str_eq(fx, fy, "%s", what);
	for (int v = 0; v < PERFEV_VALUE_NR; v++)
		cr_assert_eq(perfev_profile_total(x, v), perfev_profile_total(y, v), "%s", what);
	free(fx);
	free(fy);
}

Test(unit_profile_live, snapshot_is_what_finish_gives_and_the_builder_goes_on)
{
	require_corpus();
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD, .event = -1};
	struct perfev_profile *all = perfev_profile_load(CALLGRAPH, &lo, NULL);
	cr_assert(all, "%s", perfev_errmsg());
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	cr_assert(pd);
	/* how many records: cut them in half */
	struct half h = {.a = builder(pd, &lo), .b = builder(pd, &lo), .upto = (size_t)-1};
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed_both, &h), 0);
	size_t total = h.n;
	perfev_profile_builder_free(h.a);
	perfev_profile_builder_free(h.b);
	perfev_perfdata_close(pd);

	pd = perfev_perfdata_open(CALLGRAPH);
	h = (struct half){.a = builder(pd, &lo), .b = builder(pd, &lo), .upto = total / 2};
	/* one reading: a takes every record, b the first half */
	struct perfev_profile_load_info mi = {.sz = sizeof(mi)}, bi = {.sz = sizeof(bi)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed_both, &h), 0);
	/* (a has everything now; b the first half) */
	struct perfev_profile *b_half = perfev_profile_builder_finish(h.b, &bi);
	cr_assert(b_half, "%s", perfev_errmsg());
	struct perfev_profile *mid = perfev_profile_builder_snapshot(h.a, &mi);
	cr_assert(mid, "%s", perfev_errmsg());
	assert_same(mid, all, "a snapshot after every record is the profile of the file");
	cr_assert_gt(perfev_profile_total(all, PERFEV_VALUE_SAMPLES), perfev_profile_total(b_half, PERFEV_VALUE_SAMPLES));
	cr_assert_str_eq(mi.event_name, bi.event_name);
	cr_assert_eq(mi.has_callchains, bi.has_callchains);
	/* the builder goes on after a snapshot: finish gives the same again */
	struct perfev_profile *fin = perfev_profile_builder_finish(h.a, NULL);
	cr_assert(fin, "%s", perfev_errmsg());
	assert_same(fin, all, "finish after a snapshot");
	errno = 0;
	cr_assert_null(perfev_profile_builder_snapshot(h.a, NULL), "finished");
	cr_assert_eq(errno, EINVAL);
	perfev_profile_free(mid);
	perfev_profile_free(fin);
	perfev_profile_free(b_half);
	perfev_profile_builder_free(h.a);
	perfev_profile_builder_free(h.b);
	perfev_profile_free(all);
	perfev_perfdata_close(pd);
}

/* A snapshot taken while records keep coming (after half the samples)
 * equals a builder finished at that point; the snapshot is a copy (decaying the builder
 * leaves it as it was). */
struct midway {
	struct perfev_profile_builder *a;
	size_t n, at; /* samples fed; the snapshot after the at-th */
	struct perfev_profile *snap;
	char *snap_folded;
};

static int feed_and_snap(void *ctx, const struct perfev_record *rec)
{
	struct midway *m = ctx;
	int e = perfev_profile_builder_add(m->a, rec);
	if (rec->type == PERF_RECORD_SAMPLE && ++m->n == m->at) {
		m->snap = perfev_profile_builder_snapshot(m->a, NULL);
		cr_assert(m->snap, "%s", perfev_errmsg());
		m->snap_folded = profile_folded(m->snap, PERFEV_VALUE_PERIOD, false);
		cr_assert_eq(perfev_profile_builder_decay(m->a, 0, 1, 0), 0, "%s", perfev_errmsg());
	}
	return e;
}

static int feed_upto(void *ctx, const struct perfev_record *rec)
{
	struct half *h = ctx;
	if (h->n >= h->upto)
		return 0;
	h->n += rec->type == PERF_RECORD_SAMPLE;
	return perfev_profile_builder_add(h->b, rec);
}

Test(unit_profile_live, snapshot_midway_then_zeroed)
{
	require_corpus();
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD, .event = -1};
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	cr_assert(pd);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
	struct half h = {.b = builder(pd, &lo), .upto = (size_t)-1};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed_upto, &h), 0);
	size_t total = h.n;
	perfev_profile_builder_free(h.b);
	struct perfev_profile *all = perfev_profile_load(CALLGRAPH, &lo, NULL);
	cr_assert(all);

	struct midway m = {.a = builder(pd, &lo), .at = total / 2};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed_and_snap, &m), 0);
	cr_assert(m.snap);
	h = (struct half){.b = builder(pd, &lo), .upto = total / 2};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed_upto, &h), 0);
	struct perfev_profile *first = perfev_profile_builder_finish(h.b, NULL);
	cr_assert(first, "%s", perfev_errmsg());
	assert_same(m.snap, first, "a snapshot half way is the first half's profile");
	char *again = profile_folded(m.snap, PERFEV_VALUE_PERIOD, false);
	cr_assert_str_eq(again, m.snap_folded, "the builder's zeroing left the snapshot alone");
	/* zeroed half way: the builder holds the second half alone */
	struct perfev_profile *rest = perfev_profile_builder_finish(m.a, NULL);
	cr_assert(rest);
	for (int v = 0; v < PERFEV_VALUE_NR; v++)
		cr_assert_eq(perfev_profile_total(rest, v) + perfev_profile_total(first, v), perfev_profile_total(all, v));
	assert_totals_add_up(rest);
	free(again);
	free(m.snap_folded);
	perfev_profile_free(m.snap);
	perfev_profile_free(first);
	perfev_profile_free(rest);
	perfev_profile_free(all);
	perfev_profile_builder_free(m.a);
	perfev_profile_builder_free(h.b);
	perfev_perfdata_close(pd);
}

Test(unit_profile_live, model_of_a_profile_shows_the_reports_lines)
{
	require_corpus();
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	cr_assert(pd);
	struct perfev_report_opts o = {.sz = sizeof(o), .sort = "dso,sym", .children = -1, .group = -1, .branch = -1};
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo)};
	cr_assert_eq(perfev_report_load_opts(&o, &lo), 0, "%s", perfev_errmsg());
	lo.event = 0;
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load_from(pd, &lo, &info);
	cr_assert(p, "%s", perfev_errmsg());
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_report_print_profile(p, &info, &o, f), 0, "%s", perfev_errmsg());
	fclose(f);
	struct perfev_report_model *m = perfev_report_model_new_profile(p, &info, &o);
	cr_assert(m, "%s", perfev_errmsg());
	struct perfev_report_model_info mi = {.sz = sizeof(mi)};
	cr_assert_eq(perfev_report_model_info(m, &mi), 0);
	cr_assert_gt(mi.nr_entries, 3);
	cr_assert(strstr(mi.title, "Samples"), "%s", mi.title);
	/* every line of the model is a line of the report, in order */
	const char *at = text;
	for (size_t i = 0; i < mi.nr_lines; i++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		cr_assert_eq(perfev_report_model_line(m, i, &l), 0);
		const char *hit = strstr(at, l.text);
		cr_assert(hit, "line %zu '%s' not in the report (in order):\n%s", i, l.text, text);
		at = hit + strlen(l.text);
	}
	perfev_report_model_free(m);
	/* a profile without samples: an empty table, not an error */
	struct perfev_profile *empty = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	m = perfev_report_model_new_profile(empty, &info, &o);
	cr_assert(m, "%s", perfev_errmsg());
	cr_assert_eq(perfev_report_model_info(m, &mi), 0);
	cr_assert_eq(mi.nr_entries, 0);
	perfev_report_model_free(m);
	/* views the model has not: refused with a reason */
	struct perfev_report_opts j = o;
	j.json = true;
	errno = 0;
	cr_assert_null(perfev_report_model_new_profile(p, &info, &j));
	cr_assert_eq(errno, EOPNOTSUPP);
	perfev_profile_free(empty);
	perfev_profile_free(p);
	free(text);
	perfev_perfdata_close(pd);
}
