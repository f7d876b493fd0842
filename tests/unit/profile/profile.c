/* The profile model on synthetic stacks with known totals. */
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct perfev_profile_entry *find(const struct perfev_profile_entry *e, size_t nr,
					       const char *sym)
{
	for (size_t i = 0; i < nr; i++)
		if (e[i].symbol && strcmp(e[i].symbol, sym) == 0)
			return &e[i];
	return NULL;
}

Test(unit_profile, totals_and_tree)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 100000ull + 5 * 500);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_WEIGHT), 102 * 7);
	/* root's children: 3 threads; their totals add up to the root's */
	struct perfev_profile_node root, n;
	cr_assert_eq(perfev_profile_node(p, 0, &root), 0);
	cr_assert_eq(root.kind, PERFEV_NODE_ROOT);
	uint64_t sum = 0;
	int groups = 0;
	for (uint32_t c = root.first_child; c; c = n.next_sibling) {
		cr_assert_eq(perfev_profile_node(p, c, &n), 0);
		cr_assert_eq(n.kind, PERFEV_NODE_GROUP);
		sum += n.total[PERFEV_VALUE_SAMPLES];
		groups++;
		if (n.tid == 100) {
			cr_assert_str_eq(n.comm, "app");
			cr_assert_eq(n.total[0], 95);
			struct perfev_profile_node m;
			cr_assert_eq(perfev_profile_node(p, n.first_child, &m), 0);
			cr_assert_str_eq(m.frame.symbol, "main");
			cr_assert_eq(m.total[0], 95);
			cr_assert_eq(m.self[0], 0);
		}
	}
	cr_assert_eq(groups, 3);
	cr_assert_eq(sum, SYNTH_SAMPLES);
	cr_assert_eq(perfev_profile_node(p, 1u << 30, &n), -ERANGE);
	perfev_profile_free(p);
	perfev_profile_free(NULL);
}

Test(unit_profile, flat_self_and_children)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	/* self: compute 64 + 10 of memcpy inlined into it, idle 20, sys_write 5,
	 * [sh unknown] 3, 0x4242 2, rec 1 */
	cr_assert_str_eq(e[0].symbol, "compute");
	cr_assert_eq(e[0].self[0], 74);
	cr_assert_null(find(e, nr, "memcpy"), "an inlined frame's self goes to its caller");
	cr_assert_eq(find(e, nr, "idle")->self[0], 20);
	cr_assert(find(e, nr, "sys_write")->kernel);
	cr_assert_null(find(e, nr, "main"), "main has no self samples");
	uint64_t sum = 0;
	for (size_t i = 0; i < nr; i++)
		sum += e[i].self[0];
	cr_assert_eq(sum, SYNTH_SAMPLES);
	free(e);

	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_str_eq(e[0].symbol, "main");
	cr_assert_eq(e[0].total[0], 102); /* everything but the 3 empty stacks */
	cr_assert_eq(find(e, nr, "work")->total[0], 79);
	cr_assert_eq(find(e, nr, "compute")->total[0], 74);
	cr_assert_eq(find(e, nr, "memcpy")->total[0], 10);
	cr_assert(find(e, nr, "memcpy")->inlined);
	cr_assert_eq(find(e, nr, "rec")->total[0], 1, "recursion counted once per sample");
	free(e);

	/* percent limit: only entries >= 10% of samples */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, false, 10.0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	free(e);
	/* by comm: two entries */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_COMM, PERFEV_VALUE_PERIOD, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_str_eq(e[0].comm, "app");
	cr_assert_eq(e[0].self[PERFEV_VALUE_PERIOD], 100000);
	free(e);
	perfev_profile_free(p);
}

/* The entry of an unknown frame by its address: rel_ip, or with
 * PERFEV_KEY_SPLIT_UNRESOLVED perf's two entries (own samples by rel_ip,
 * call chains by ip, one entry when the two are equal). */
static const struct perfev_profile_entry *find_ip(const struct perfev_profile_entry *e, size_t nr,
						  uint64_t ip, bool self)
{
	for (size_t i = 0; i < nr; i++)
		if (!e[i].symbol && (self ? e[i].rel_ip : e[i].ip) == ip &&
		    (e[i].self[PERFEV_VALUE_SAMPLES] != 0) == self)
			return &e[i];
	return NULL;
}

Test(unit_profile, flat_split_unresolved)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	struct perfev_profile_frame u = {.dso = "/lib/u.so", .ip = 0x7f0000001000, .rel_ip = 0x1000},
				    k = {.dso = "/lib/u.so", .ip = 0x500, .rel_ip = 0x500},
				    f = {.symbol = "f", .dso = "/bin/a", .ip = 0x400100, .rel_ip = 0x100},
				    m = {.symbol = "main", .dso = "/bin/a", .ip = 0x400000, .rel_ip = 0};
	const struct perfev_profile_frame a[] = {u, m}, b[] = {f, u, m}, c[] = {k, u}, d[] = {u, u, m};
	struct perfev_sample_desc sd = {.sz = sizeof(sd), .pid = 1, .tid = 1, .comm = "a"};
	for (int i = 0; i < 3; i++)
		cr_assert_eq(perfev_profile_add(p, &sd, a, 2), 1);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(perfev_profile_add(p, &sd, b, 3), 1);
	cr_assert_eq(perfev_profile_add(p, &sd, c, 2), 1);
	cr_assert_eq(perfev_profile_add(p, &sd, d, 3), 1); /* u calls itself: counted once */
	struct perfev_profile_entry *e;
	size_t nr;
	unsigned keys = PERFEV_KEY_DSO | PERFEV_KEY_SYM;
	/* without the flag: one entry of u, its own 4 samples and the 7 through it */
	cr_assert_eq(perfev_profile_flat(p, keys, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_eq(nr, 4);
	const struct perfev_profile_entry *x = find_ip(e, nr, 0x1000, true);
	cr_assert_not_null(x);
	cr_assert_eq(x->self[0], 4);
	cr_assert_eq(x->total[0], 7);
	free(e);
	/* perf's rows: u's own samples (rel_ip) and the call chains through it (ip) */
	cr_assert_eq(perfev_profile_flat(p, keys | PERFEV_KEY_SPLIT_UNRESOLVED, PERFEV_VALUE_SAMPLES, true, 0,
					 &e, &nr), 0);
	cr_assert_eq(nr, 5);
	x = find_ip(e, nr, 0x1000, true);
	cr_assert_not_null(x);
	cr_assert_eq(x->self[0], 4);
	cr_assert_eq(x->total[0], 4, "the own entry's children are its own samples");
	x = find_ip(e, nr, 0x7f0000001000, false);
	cr_assert_not_null(x);
	cr_assert_eq(x->total[0], 7, "every stack through u once, its leaf samples too");
	cr_assert_eq(x->rel_ip, 0x1000);
	x = find_ip(e, nr, 0x500, true);
	cr_assert_not_null(x, "equal addresses: one entry");
	cr_assert_eq(x->self[0], 1);
	cr_assert_eq(x->total[0], 1);
	cr_assert_eq(find(e, nr, "main")->total[0], 6);
	cr_assert_eq(find(e, nr, "f")->total[0], 2);
	free(e);
	/* self only (no children): the flag changes nothing */
	cr_assert_eq(perfev_profile_flat(p, keys | PERFEV_KEY_SPLIT_UNRESOLVED, PERFEV_VALUE_SAMPLES, false, 0,
					 &e, &nr), 0);
	cr_assert_eq(nr, 3);
	cr_assert_eq(find_ip(e, nr, 0x1000, true)->self[0], 4);
	free(e);
	perfev_profile_free(p);
}

Test(unit_profile, filters)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	struct perfev_profile_filter f = {.sz = sizeof(f), .pid = -1, .tid = -1, .symbol = "work",
					  .any_frame = true, .time_start = 2};
	cr_assert_eq(perfev_profile_set_filter(p, &f), 0);
	struct perfev_profile_frame fr[2] = {{.symbol = "leaf", .dso = "/lib/x.so"}, {.symbol = "work", .dso = "/bin/a"}};
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 1, .tid = 1, .comm = "a", .time = 3};
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 1);
	d.time = 1;
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 0, "before the time range");
	d.time = 3;
	f.any_frame = false;
	cr_assert_eq(perfev_profile_set_filter(p, &f), 0);
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 0, "work is not the leaf");
	f.symbol = NULL;
	f.dso = "x.so"; /* basename matches */
	f.comm = "a";
	f.tid = 1;
	cr_assert_eq(perfev_profile_set_filter(p, &f), 0);
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 1);
	d.comm = "b";
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 0);
	cr_assert_eq(perfev_profile_filtered(p), 3);
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), 2);
	cr_assert_eq(perfev_profile_set_filter(p, NULL), 0);
	cr_assert_eq(perfev_profile_add(p, &d, fr, 2), 1);
	perfev_profile_free(p);
}

Test(unit_profile, derive_callee_and_groups)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	struct perfev_profile *c = perfev_profile_derive(p, PERFEV_GROUP_COMM, PERFEV_PROFILE_CALLEE);
	cr_assert(c);
	cr_assert_eq(perfev_profile_total(c, PERFEV_VALUE_SAMPLES), SYNTH_SAMPLES);
	cr_assert_eq(perfev_profile_total(c, PERFEV_VALUE_PERIOD), perfev_profile_total(p, PERFEV_VALUE_PERIOD));
	/* callee: below "app" the leaves: compute's node holds 64 samples in total */
	struct perfev_profile_node root, g, n;
	perfev_profile_node(c, 0, &root);
	bool seen = false;
	for (uint32_t gi = root.first_child; gi; gi = g.next_sibling) {
		perfev_profile_node(c, gi, &g);
		if (!g.comm || strcmp(g.comm, "app"))
			continue;
		cr_assert_eq(g.pid, -1, "grouped by comm only");
		for (uint32_t ci = g.first_child; ci; ci = n.next_sibling) {
			perfev_profile_node(c, ci, &n);
			if (n.frame.symbol && strcmp(n.frame.symbol, "compute") == 0) {
				cr_assert_eq(n.total[0], 64);
				seen = true;
			}
		}
	}
	cr_assert(seen);
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(c, PERFEV_KEY_SYM, 0, false, 0, &e, &nr), -EINVAL);
	/* and back: the caller view of the callee view has the same flat table */
	struct perfev_profile *b = perfev_profile_derive(c, PERFEV_GROUP_NONE, 0);
	cr_assert_eq(perfev_profile_flat(b, PERFEV_KEY_SYM, 0, true, 0, &e, &nr), 0);
	cr_assert_str_eq(e[0].symbol, "main");
	cr_assert_eq(e[0].total[0], 102);
	free(e);
	perfev_profile_free(b);
	perfev_profile_free(c);
	perfev_profile_free(p);
}

Test(unit_profile, frames_from_location)
{
	struct perfev_source_line lines[2] = {{"inl", "a.h", 3, 0}, {"outer", "a.c", 10, 0}};
	struct perfev_location loc = {.ip = 0x1000, .symbol = "outer", .dso = "/bin/a",
				      .nr_lines = 2, .lines = lines};
	struct perfev_profile_frame f[4];
	cr_assert_eq(perfev_frames_from_location(&loc, true, f, 4), 2);
	cr_assert_str_eq(f[0].symbol, "inl");
	cr_assert(f[0].inlined);
	cr_assert_str_eq(f[0].srcfile, "a.h");
	cr_assert_str_eq(f[1].symbol, "outer");
	cr_assert_not(f[1].inlined);
	cr_assert_eq(perfev_frames_from_location(&loc, false, f, 1), 2);
	cr_assert_null(f[0].srcfile);
	loc.nr_lines = 0;
	cr_assert_eq(perfev_frames_from_location(&loc, true, f, 4), 1);
	cr_assert_str_eq(f[0].symbol, "outer");
}

/* Consecutive samples share outer frames, and the tree follows the previous
 * sample's path while it matches: the same samples in another order (other
 * threads, deeper, shallower, diverging at every depth) make the same tree. */
Test(unit_profile, same_tree_whatever_the_order)
{
	static const char *names[] = {"main", "a", "b", "c", "d", "e"};
	struct perfev_profile_frame fr[6];
	struct { int tid, depth, leaf; } samples[] = {
		{1, 6, 5}, {1, 6, 5}, {1, 3, 2}, {1, 6, 4}, {2, 6, 5}, {1, 1, 0}, {1, 4, 3},
		{2, 2, 1}, {1, 6, 5}, {2, 6, 2}, {1, 5, 4}, {1, 6, 5}, {2, 3, 2}, {1, 2, 1},
	};
	size_t ns = sizeof(samples) / sizeof(samples[0]);
	char *want = NULL;
	for (int order = 0; order < 3; order++) {
		struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
		cr_assert_not_null(p);
		for (size_t k = 0; k < ns; k++) {
			size_t i = order == 0 ? k : order == 1 ? ns - 1 - k : (k * 5) % ns;
			struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 1, .tid = samples[i].tid,
						       .comm = samples[i].tid == 1 ? "t1" : "t2", .period = 1};
			int depth = samples[i].depth;
			/* leaf first: the leaf's name, then the callers up to main */
			for (int f = 0; f < depth; f++) {
				memset(&fr[f], 0, sizeof(fr[f]));
				fr[f].symbol = f == 0 ? names[samples[i].leaf] : names[depth - 1 - f];
				fr[f].dso = "x";
			}
			cr_assert_geq(perfev_profile_add(p, &d, fr, (size_t)depth), 0);
		}
		cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), ns);
		char *got = profile_folded(p, PERFEV_VALUE_SAMPLES, true);
		if (!want)
			want = got;
		else {
			cr_expect_str_eq(got, want, "order %d", order);
			free(got);
		}
		perfev_profile_free(p);
	}
	free(want);
}

/* perf keys unknown symbols (and line-less srclines) by the address in the
 * object's terms: one DSO mapped at two addresses is one entry per offset. */
Test(unit_profile, unknown_symbols_keyed_by_object_address)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 1, .tid = 1, .comm = "a", .period = 10};
	struct perfev_profile_frame f = {.dso = "/lib/ld.so", .ip = 0x7f0000001234, .rel_ip = 0x1234};
	cr_assert_eq(perfev_profile_add(p, &d, &f, 1), 1);
	d.pid = d.tid = 2; /* another process, ld.so elsewhere */
	f.ip = 0x7f5500001234;
	cr_assert_eq(perfev_profile_add(p, &d, &f, 1), 1);
	f.ip = 0x7f5500001300, f.rel_ip = 0x1300;
	cr_assert_eq(perfev_profile_add(p, &d, &f, 1), 1);
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_DSO | PERFEV_KEY_SYM, PERFEV_VALUE_PERIOD, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2, "0x1234 in both processes is one entry, 0x1300 another");
	cr_assert_eq(e[0].rel_ip, 0x1234);
	cr_assert_eq(e[0].self[PERFEV_VALUE_PERIOD], 20);
	cr_assert_eq(e[1].rel_ip, 0x1300);
	cr_assert_eq(e[1].self[PERFEV_VALUE_PERIOD], 10);
	free(e);
	/* srcline alone: rows without a line still name their DSO (perf: "ld.so[1234]") */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SRCLINE, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_str_eq(e[0].dso, "/lib/ld.so");
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], 2);
	free(e);
	perfev_profile_free(p);
}

/* What a filter hides still counts in perf's totals, unless --time hid it. */
Test(unit_profile, hidden_totals_of_filtered_samples)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	struct perfev_profile_filter f = {.sz = sizeof(f), .pid = -1, .tid = -1, .symbol = "work",
					  .time_start = 10, .time_end = 20};
	cr_assert_eq(perfev_profile_set_filter(p, &f), 0);
	struct perfev_profile_frame work = {.symbol = "work", .dso = "/bin/a"}, idle = {.symbol = "idle", .dso = "/bin/a"};
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 1, .tid = 1, .comm = "a", .time = 15, .period = 100};
	cr_assert_eq(perfev_profile_add(p, &d, &work, 1), 1);
	cr_assert_eq(perfev_profile_add(p, &d, &idle, 1), 0); /* hidden by the symbol: counted */
	d.period = 7;
	cr_assert_eq(perfev_profile_add(p, &d, &idle, 1), 0);
	d.time = 30, d.period = 1000;
	cr_assert_eq(perfev_profile_add(p, &d, &work, 1), 0); /* outside the time range: not counted */
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 100);
	cr_assert_eq(perfev_profile_hidden(p, PERFEV_VALUE_PERIOD), 107);
	cr_assert_eq(perfev_profile_hidden(p, PERFEV_VALUE_SAMPLES), 2);
	cr_assert_eq(perfev_profile_filtered(p), 3);
	cr_assert_eq(perfev_profile_hidden(p, PERFEV_VALUE_NR), 0);
	perfev_profile_free(p);
}

/* The longest chain of a loaded profile (frames from a sample's own node up
 * to its group), and the leaf address of that chain. */
static size_t longest_chain(const char *path, int max_stack, bool outer, uint64_t *leaf_ip)
{
	struct perfev_profile_load_opts o = {.sz = sizeof(o), .group = PERFEV_GROUP_THREAD, .event = -1,
					     .kallsyms = "", .no_cache = true, .max_stack = max_stack,
					     .max_stack_outer = outer};
	struct perfev_profile *p = perfev_profile_load(path, &o, NULL);
	cr_assert_not_null(p, "%s: %s", path, perfev_errmsg());
	size_t best = 0;
	for (uint32_t id = 1; id < perfev_profile_nr_nodes(p); id++) {
		struct perfev_profile_node n;
		cr_assert_eq(perfev_profile_node(p, id, &n), 0);
		if (n.kind != PERFEV_NODE_FRAME || !n.self[PERFEV_VALUE_SAMPLES])
			continue;
		size_t len = 0;
		uint64_t ip = n.frame.ip;
		for (struct perfev_profile_node a = n; a.kind == PERFEV_NODE_FRAME; len++)
			cr_assert_eq(perfev_profile_node(p, a.parent, &a), 0);
		if (len > best)
			best = len, *leaf_ip = ip;
	}
	perfev_profile_free(p);
	return best;
}

/* perf report's --max-stack: the innermost N entries of a chain, or in caller
 * order the outermost N under the sampled address; 0 is perf report's
 * default, 127 (callgraph-3.4 has 255-frame chains) */
Test(unit_profile, load_max_stack, .timeout = 120)
{
	require_corpus();
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf.data.callgraph-3.4", CORPUS_DIR);
	uint64_t whole_leaf = 0, leaf = 0;
	size_t whole = longest_chain(path, -1, false, &whole_leaf);
	cr_assert_gt(whole, 200, "the corpus file's longest chain: %zu frames", whole);
	cr_expect_eq(longest_chain(path, 0, false, &leaf), (size_t)127);
	cr_expect_eq(longest_chain(path, 5, false, &leaf), 5);
	cr_expect_eq(longest_chain(path, 5, true, &leaf), 6);
	cr_expect_eq(longest_chain(path, 300, true, &leaf), whole);
	cr_expect_eq(leaf, whole_leaf, "the uncut chain keeps its leaf");
}
