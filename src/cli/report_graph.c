/* report_graph.c — perfev report's call graphs as perf report --stdio
 * prints them (graph mode): one trie of call paths per table entry. */
#define _GNU_SOURCE
#include "report.h"
#include "cli.h"
#include "internal.h"
#include "profile_int.h"
#include "export_int.h"

#include <stdlib.h>
#include <string.h>

static double pct(uint64_t v, uint64_t all)
{
	return all ? 100.0 * (double)v / (double)all : 0.0;
}

/* ---- call graphs ------------------------------------------------------------
 * perf's graph: for each sample (a leaf node d with self samples), each
 * entry E on its stack gets one path (perf's cumulative entries, each entry
 * once per sample: the occurrence perf's callchain cursor meets first):
 *   E is d's own entry: the whole chain, root..d (caller) or d..root (callee)
 *   else caller order: the outermost occurrence a, a..d
 *   else callee order: the innermost occurrence a, a..root
 * (without --children only E(d) itself). Paths merge into one trie per entry
 * and print as perf --stdio does. An entry's depth is its longest path
 * (perf's callchain max_depth, which orders entries of equal children). */
struct tnode {
	const char *name;
	uint64_t w;
	uint32_t first, next;
};
struct trie {
	struct tnode *n;
	size_t nr, cap;
};

static uint32_t trie_child(struct trie *t, uint32_t parent, const char *name)
{
	for (uint32_t c = t->n[parent].first; c; c = t->n[c].next)
		if (t->n[c].name == name || strcmp(t->n[c].name, name) == 0)
			return c;
	if (pv_grow(&t->n, &t->cap, t->nr + 1, sizeof(*t->n)) < 0)
		return 0;
	uint32_t id = (uint32_t)t->nr++;
	t->n[id] = (struct tnode){name, 0, 0, 0};
	/* keep insertion order: append */
	uint32_t *at = &t->n[parent].first;
	while (*at)
		at = &t->n[*at].next;
	*at = id;
	return id;
}

static int by_weight(const void *a, const void *b, void *arg)
{
	const struct trie *t = arg;
	uint64_t x = t->n[*(const uint32_t *)a].w, y = t->n[*(const uint32_t *)b].w;
	return x > y ? -1 : x < y;
}

/* Prints the children of node at (above min_pct); returns the lines printed. */
static size_t emit(FILE *out, struct trie *t, uint32_t at, struct pv_buf *prefix, uint64_t all,
		   double min_pct)
{
	size_t lines = 0;
	/* a linear chain prints in one column: iterate, do not recurse */
	for (;;) {
		uint32_t only = 0;
		size_t shown = 0;
		for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
			if (pct(t->n[c].w, all) >= min_pct)
				shown++, only = c;
		if (shown != 1 || t->n[only].w != t->n[at].w)
			break;
		fprintf(out, "%s%s\n", prefix->data, t->n[only].name);
		at = only;
		lines++;
	}
	size_t nk = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		nk += pct(t->n[c].w, all) >= min_pct;
	if (!nk)
		return lines;
	uint32_t *kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return lines;
	nk = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		if (pct(t->n[c].w, all) >= min_pct)
			kids[nk++] = c;
	qsort_r(kids, nk, sizeof(*kids), by_weight, t);
	size_t keep = prefix->len;
	for (size_t i = 0; i < nk; i++) {
		bool last = i == nk - 1;
		fprintf(out, "%s|          \n", prefix->data);
		fprintf(out, "%s%s--%.2f%%--%s\n", prefix->data, last ? " " : "|",
			pct(t->n[kids[i]].w, all), t->n[kids[i]].name);
		pv_buf_puts(prefix, last ? "           " : "|          ");
		lines += 2 + emit(out, t, kids[i], prefix, all, min_pct);
		prefix->len = keep;
		prefix->data[keep] = 0;
	}
	free(kids);
	return lines;
}

struct report_graphs {
	struct trie *t;
	uint32_t *depth;
	size_t nr;
	struct pv_strtab labels;
};

void report_graphs_print(FILE *out, struct report_graphs *g, size_t i, uint64_t entry_w, uint64_t all,
			 double min_pct)
{
	if (!g || i >= g->nr || !g->t[i].n)
		return;
	struct trie *t = &g->t[i];
	uint32_t root = t->n[0].first;
	struct pv_buf prefix = PV_BUF_INIT;
	size_t lines = 0;
	if (root && !t->n[root].next && t->n[root].w == entry_w) {
		fprintf(out, "            |\n            ---%s\n", t->n[root].name);
		pv_buf_puts(&prefix, "               ");
		lines = 2 + emit(out, t, root, &prefix, all, min_pct);
	} else if (root) {
		pv_buf_puts(&prefix, "            ");
		t->n[0].w = entry_w;
		lines = emit(out, t, 0, &prefix, all, min_pct);
	}
	pv_buf_free(&prefix);
	if (lines) /* perf: no blank line after a graph that printed nothing */
		fputc('\n', out);
}

/* What identifies the entry of a frame node, as one hash (see node_is). */
static uint64_t node_key(const struct perfev_profile_node *n, const struct perfev_profile_node *g,
			 unsigned keys)
{
	struct {
		const void *sym, *dso, *comm, *file;
		uint64_t ip;
		int32_t pid, tid;
		uint32_t line, flags;
	} k;
	memset(&k, 0, sizeof(k));
	const struct perfev_profile_frame *f = &n->frame;
	if (keys & (PERFEV_KEY_SYM | PERFEV_KEY_DSO))
		k.dso = f->dso;
	if (keys & PERFEV_KEY_SYM) {
		k.sym = f->symbol;
		k.flags = f->inlined | f->kernel << 1;
		if (!f->symbol)
			k.ip = f->rel_ip;
	}
	if (keys & PERFEV_KEY_SRCLINE) {
		k.file = f->srcfile;
		k.line = f->line;
		if (!f->srcfile && !(keys & PERFEV_KEY_SYM))
			k.ip = f->rel_ip;
	}
	if (keys & PERFEV_KEY_COMM)
		k.comm = g->comm;
	if (keys & PERFEV_KEY_PID)
		k.pid = g->pid;
	if (keys & PERFEV_KEY_TID)
		k.tid = g->tid;
	return pv_hash_bytes(&k, sizeof(k));
}

uint64_t report_entry_key(const struct perfev_profile_entry *e, unsigned keys)
{
	struct perfev_profile_node n, g;
	memset(&n, 0, sizeof(n));
	memset(&g, 0, sizeof(g));
	n.frame.symbol = e->symbol;
	n.frame.dso = e->dso;
	n.frame.inlined = e->inlined;
	n.frame.kernel = e->kernel;
	n.frame.ip = e->ip;
	n.frame.rel_ip = e->rel_ip;
	n.frame.srcfile = e->srcfile;
	n.frame.line = e->line;
	g.comm = e->comm;
	g.pid = e->pid;
	g.tid = e->tid;
	return node_key(&n, &g, keys);
}

static const char *frame_label(const struct perfev_profile_frame *f, struct pv_strtab *labels)
{
	char buf[64];
	if (f->symbol && !f->inlined)
		return f->symbol;
	if (f->symbol)
		snprintf(buf, sizeof(buf), "%.40s (inlined)", f->symbol);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->rel_ip);
	if (f->symbol && strlen(f->symbol) > 40) {
		char *long_name;
		if (asprintf(&long_name, "%s (inlined)", f->symbol) < 0)
			return f->symbol;
		const char *r = pv_strtab_get(labels, pv_strtab_intern(labels, long_name));
		free(long_name);
		return r ? r : f->symbol;
	}
	const char *r = pv_strtab_get(labels, pv_strtab_intern(labels, buf));
	return r ? r : "[unknown]";
}

/* Tries for entries e[0..nr), built in one pass over the samples' leaves. */
struct report_graphs *report_graphs_build(const struct perfev_profile *p, const struct report_view *v,
					  const struct perfev_profile_entry *e, size_t nr)
{
	struct report_graphs *g = calloc(1, sizeof(*g));
	struct pv_keymap emap = {0};
	size_t nn = perfev_profile_nr_nodes(p);
	uint32_t *group_of = calloc(nn, sizeof(*group_of));
	long *ent = malloc(nn * sizeof(*ent));
	const char **label = calloc(nn, sizeof(*label));
	uint32_t *path = NULL;
	uint8_t *seen = calloc(nr + 1, 1);
	size_t pcap = 0;
	if (!g || !group_of || !ent || !label || !seen)
		goto out;
	g->t = calloc(nr ? nr : 1, sizeof(*g->t));
	g->depth = calloc(nr ? nr : 1, sizeof(*g->depth));
	if (!g->t || !g->depth)
		goto out;
	g->nr = nr;
	struct trie *tries = g->t;
	for (size_t i = 0; i < nr; i++) {
		if (pv_grow(&tries[i].n, &tries[i].cap, 16, sizeof(*tries[i].n)) < 0)
			goto out;
		tries[i].nr = 1;
		tries[i].n[0] = (struct tnode){"", 0, 0, 0};
		pv_keymap_put(&emap, report_entry_key(&e[i], v->key_mask), (uint32_t)i + 1);
	}
	/* every node's entry (or -1: not printed) and label */
	for (uint32_t id = 1; id < nn; id++) {
		struct perfev_profile_node n, gn;
		perfev_profile_node(p, id, &n);
		ent[id] = -1;
		if (n.kind == PERFEV_NODE_GROUP) {
			group_of[id] = id;
			continue;
		}
		group_of[id] = group_of[n.parent];
		perfev_profile_node(p, group_of[id], &gn);
		ent[id] = (long)pv_keymap_get(&emap, node_key(&n, &gn, v->key_mask)) - 1;
		label[id] = frame_label(&n.frame, &g->labels);
	}
	for (uint32_t d = 1; d < nn; d++) {
		struct perfev_profile_node n;
		perfev_profile_node(p, d, &n);
		uint64_t w = n.self[v->value];
		if (n.kind != PERFEV_NODE_FRAME || !w)
			continue;
		size_t np = 0; /* path[0] = d ... path[np-1] = outermost frame */
		for (uint32_t at = d; at && at != group_of[d]; ) {
			if (pv_grow(&path, &pcap, np + 1, sizeof(*path)) < 0)
				goto out;
			path[np++] = at;
			struct perfev_profile_node x;
			perfev_profile_node(p, at, &x);
			at = x.parent;
		}
		bool callee = v->graph == GRAPH_CALLEE;
		for (size_t k = 0; k < np; k++) {
			/* d's own entry first, then the others in the cursor's order */
			size_t i = k == 0 ? 0 : callee ? k : np - k;
			long en = ent[path[i]];
			if (en < 0 || seen[en] || (!v->children && i > 0))
				continue;
			seen[en] = 1;
			struct trie *t = &tries[en];
			uint32_t at = 0;
			t->n[0].w += w;
			/* the path's frames, in printing order */
			size_t from, to;
			if (callee)
				from = i, to = np;
			else
				from = i == 0 ? np - 1 : i, to = 0;
			size_t len = callee ? to - from : from + 1 - to;
			if (len > g->depth[en])
				g->depth[en] = (uint32_t)len;
			for (size_t m = 0; m < len; m++) {
				size_t at_k = callee ? from + m : from - m;
				if (!(at = trie_child(t, at, label[path[at_k]])))
					goto out;
				t->n[at].w += w;
			}
		}
		for (size_t i = 0; i < np; i++)
			if (ent[path[i]] >= 0)
				seen[ent[path[i]]] = 0;
	}
out:
	pv_keymap_free(&emap);
	free(group_of);
	free(ent);
	free(label);
	free(path);
	free(seen);
	return g;
}

uint32_t report_graphs_depth(const struct report_graphs *g, size_t i)
{
	return g && i < g->nr ? g->depth[i] : 0;
}

void report_graphs_free(struct report_graphs *g)
{
	if (!g)
		return;
	for (size_t i = 0; g->t && i < g->nr; i++)
		free(g->t[i].n);
	free(g->t);
	free(g->depth);
	pv_strtab_free(&g->labels);
	free(g);
}
