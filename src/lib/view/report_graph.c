/* report_graph.c — perfev report's call graphs as perf report --stdio
 * prints them (graph mode): one trie of call paths per table entry. */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/internal.h"
#include "profile/profile_int.h"
#include "export/export_int.h"

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
	uint64_t period, count; /* what -g ...,period|count print */
	uint64_t sym_start;     /* of a symbol not inlined (pv_frame.sym_start): perf's node key */
	uint32_t first, next;
	uint64_t ip;   /* of the first frame seen: orders equal siblings */
	bool kernel, inlined;
	uint32_t parent;
	const char *dso; /* the profile's interned path: equal objects, equal pointers */
	uint64_t rel;    /* the address in the object's terms */
	uint32_t rank;   /* the object's in perf's order of creation (0: unknown) */
};
struct trie {
	struct tnode *n;
	size_t nr, cap;
};

static size_t mark_len(const char *name);

static uint32_t trie_child(struct trie *t, uint32_t parent, const char *name,
			   const struct perfev_profile_frame *f, uint32_t rank, uint64_t sym_start)
{
	/* perf's match_chain: symbols by where they start (overloads "ns::f"
	 * and "ns::f" are two nodes), inlined ones by name */
	for (uint32_t c = t->n[parent].first; c; c = t->n[c].next)
		if ((t->n[c].name == name || strcmp(t->n[c].name, name) == 0) &&
		    (f->inlined || t->n[c].inlined || t->n[c].sym_start == sym_start))
			return c;
	/* perf's match_chain compares an inlined frame (or a function named
	 * by its DWARF name, "(inlined)") with its siblings by the symbol's
	 * name alone: "X (inlined)" and X are one node, the one made first,
	 * whose name it keeps (PyUnicode_New inlined in one sample's chain,
	 * called in another's) */
	size_t nl = mark_len(name), nb = nl ? nl : strlen(name);
	for (uint32_t c = t->n[parent].first; c; c = t->n[c].next) {
		size_t cl = mark_len(t->n[c].name);
		if ((nl || cl) && (cl ? cl : strlen(t->n[c].name)) == nb && !strncmp(t->n[c].name, name, nb))
			return c;
	}
	if (pv_grow(&t->n, &t->cap, t->nr + 1, sizeof(*t->n)) < 0)
		return 0;
	uint32_t id = (uint32_t)t->nr++;
	t->n[id] = (struct tnode){name, 0, 0, 0, sym_start, 0, 0, f->ip, f->kernel, f->inlined, parent, f->dso,
				  f->rel_ip, rank};
	/* keep insertion order: append */
	uint32_t *at = &t->n[parent].first;
	while (*at)
		at = &t->n[*at].next;
	*at = id;
	return id;
}

static int by_place(const void *a, const void *b, void *arg);

static int by_weight(const void *a, const void *b, void *arg)
{
	const struct trie *t = arg;
	const struct tnode *p = &t->n[*(const uint32_t *)a], *q = &t->n[*(const uint32_t *)b];
	if (p->w != q->w)
		return p->w > q->w ? -1 : 1;
	return by_place(a, b, arg);
}

/* A name marked "(inlined)": its length without the mark, else 0. */
static size_t mark_len(const char *name)
{
	static const char mark[] = " (inlined)";
	size_t len = strlen(name), ml = sizeof(mark) - 1;
	return len > ml && !strcmp(name + len - ml, mark) ? len - ml : 0;
}

static size_t inlined_len(const struct tnode *n)
{
	return mark_len(n->name);
}

/* perf's order of siblings in its callchain tree (rb_root_in) */
static int by_place(const void *a, const void *b, void *arg)
{
	const struct trie *t = arg;
	const struct tnode *p = &t->n[*(const uint32_t *)a], *q = &t->n[*(const uint32_t *)b];
	/* perf: equal siblings in its callchain tree's order (match_chain), which
	 * runs from the newest dso structure (the highest heap address) and in
	 * one object from the highest symbol start; perf compares inlined
	 * frames by name (a function named by its DWARF name too, "(inlined)") */
	size_t pl = inlined_len(p), ql = inlined_len(q);
	if (p->inlined || q->inlined || pl || ql) {
		pl = pl ? pl : strlen(p->name), ql = ql ? ql : strlen(q->name);
		int c = strncmp(p->name, q->name, PV_MIN(pl, ql));
		return c ? -c : (pl < ql) - (pl > ql);
	}
	/* outside any map perf's object is NULL, below every other: last */
	bool up = !p->dso || !strcmp(p->dso, "[unknown]"), uq = !q->dso || !strcmp(q->dso, "[unknown]");
	if (up != uq)
		return up - uq;
	if (p->dso == q->dso) /* one object: by the address in it, as perf's symbol start */
		return (p->rel < q->rel) - (p->rel > q->rel);
	/* objects in the order perf made them, the newest first: the order of
	 * its structures' addresses as long as malloc hands them out upwards
	 * (a freed hole reused for a later dso would break it; not seen) */
	if (p->rank && q->rank)
		return (p->rank < q->rank) - (p->rank > q->rank);
	/* an object the recording does not name (none of its records): the kernel's
	 * is perf's first, others by address */
	if (p->kernel != q->kernel)
		return p->kernel ? 1 : -1;
	return (p->ip < q->ip) - (p->ip > q->ip);
}

struct gctx {
	FILE *out;
	struct trie *t;
	uint64_t all;  /* what the thresholds are of (graph) */
	uint64_t shown; /* what printed percentages are of (all but for --percentage relative) */
	double min;    /* branches below this percent are left out */
	bool rel;      /* perf's fractal: percentages of the parent */
	enum pv_report_graph_value value;
};

/* What a branch shows (perf's callchain_node__scnprintf_value): its share
 * of base, or its period or sample count. */
static const char *branch_value(const struct gctx *g, uint64_t w, uint64_t period, uint64_t count,
				uint64_t base, char *buf, size_t len)
{
	if (g->value == PV_GRAPH_PERIOD)
		snprintf(buf, len, "%llu", (unsigned long long)period);
	else if (g->value == PV_GRAPH_COUNT)
		snprintf(buf, len, "%llu", (unsigned long long)count);
	else
		snprintf(buf, len, "%.2f%%", pct(w, base));
	return buf;
}

/* What shares of node at's children are of: everything, or (fractal) the
 * children's sum, as perf's children_hit. */
static uint64_t base_of(const struct gctx *g, uint32_t at)
{
	if (!g->rel)
		return g->all;
	uint64_t sum = 0;
	for (uint32_t c = g->t->n[at].first; c; c = g->t->n[c].next)
		sum += g->t->n[c].w;
	return sum;
}

static double share(const struct gctx *g, uint32_t node, uint64_t base)
{
	return pct(g->t->n[node].w, base);
}

/* perf's columns of a graph line (ui/stdio/hist.c): a pipe where bit i of
 * its int depth mask is set, the bit taken as `1 << i`, which x86 wraps at
 * 32 (deeper levels set and clear the bits of shallower ones). */
static uint32_t depth_bit(size_t i)
{
	return 1u << (i & 31);
}

static void put_columns(FILE *out, const char *margin, uint32_t mask, size_t ncols)
{
	fputs(margin, out);
	for (size_t i = 0; i < ncols; i++)
		fputs(mask & depth_bit(i) ? "|          " : "           ", out);
}

/* Prints the children of node at (above the threshold); returns the lines
 * printed. at's own lines have ncols columns after margin, drawn from mask
 * (perf's new_depth_mask); top: the entry's first level of branches (perf's
 * depth 1). */
static size_t emit(const struct gctx *g, uint32_t at, const char *margin, size_t ncols, uint32_t mask, bool top)
{
	struct trie *t = g->t;
	size_t lines = 0;
	/* a linear chain prints in one column: iterate, do not recurse */
	for (;;) {
		uint32_t only = 0;
		size_t shown = 0;
		uint64_t base = base_of(g, at);
		for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
			if (share(g, c, base) >= g->min)
				shown++, only = c;
		if (shown != 1 || t->n[only].w != t->n[at].w)
			break;
		put_columns(g->out, margin, mask, ncols);
		fprintf(g->out, "%s\n", t->n[only].name);
		at = only;
		lines++;
	}
	size_t nk = 0;
	uint64_t base = base_of(g, at);
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		nk += share(g, c, base) >= g->min;
	if (!nk)
		return lines;
	uint32_t *kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return lines;
	nk = 0;
	uint64_t shown_w = 0, all_count = 0, shown_count = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next) {
		all_count += t->n[c].count;
		if (share(g, c, base) >= g->min)
			kids[nk++] = c, shown_w += t->n[c].w, shown_count += t->n[c].count;
	}
	qsort_r(kids, nk, sizeof(*kids), by_weight, t);
	/* perf's fractal (__callchain__fprintf_graph): shares of the parent's
	 * children_hit, at the first level of the entry's value (its Self, or
	 * Children with --children); what the branches shown leave of it, if
	 * anything, is a last "[...]" branch, and the last one shown keeps its
	 * pipe */
	uint64_t total = g->rel && top ? t->n[0].w : base;
	uint64_t remaining = g->rel && total > shown_w ? total - shown_w : 0;
	/* the children's level: one more column; the separator lines keep the
	 * level's mask, the last child's own lines lose its pipe */
	uint32_t level = mask | depth_bit(ncols), next = level;
	for (size_t i = 0; i < nk; i++) {
		if (i == nk - 1 && !remaining)
			next &= ~depth_bit(ncols);
		put_columns(g->out, margin, level, ncols + 1);
		fputc('\n', g->out);
		put_columns(g->out, margin, next, ncols);
		const struct tnode *k = &t->n[kids[i]];
		char val[32];
		fprintf(g->out, "%s--%s--%s\n", next & depth_bit(ncols) ? "|" : " ",
			branch_value(g, k->w, k->period, k->count, g->rel ? total : g->shown, val, sizeof(val)),
			k->name);
		lines += 2 + emit(g, kids[i], margin, ncols + 1, next, false);
	}
	/* (perf's remainder node: its hits, and with -g ...,count the samples
	 * of the callees not shown; none, no line) */
	uint64_t rem_count = all_count - shown_count;
	if (remaining && (g->value != PV_GRAPH_COUNT || rem_count)) {
		next &= ~depth_bit(ncols);
		put_columns(g->out, margin, next, ncols);
		char val[32];
		fprintf(g->out, " --%s--[...]\n",
			branch_value(g, remaining, remaining, rem_count, total, val, sizeof(val)));
		lines++;
	}
	free(kids);
	return lines;
}

/* perf's flat and folded modes: every call path (a node with samples of its
 * own), heaviest first, as a list of frames or one "a;b;c" line. */
struct path_end {
	uint32_t node;
	uint64_t w, period, count; /* the path's own (the end's less its children's) */
	size_t order;
};

static int by_end_weight(const void *a, const void *b)
{
	const struct path_end *x = a, *y = b;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static void collect_ends(const struct gctx *g, uint32_t at, struct path_end **ends, size_t *nr, size_t *cap)
{
	/* perf's order: after the children (post-order), siblings in tree order */
	struct trie *t = g->t;
	uint64_t below = 0, below_p = 0, below_c = 0;
	size_t nk = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		below += t->n[c].w, below_p += t->n[c].period, below_c += t->n[c].count, nk++;
	uint32_t *kids = nk ? malloc(nk * sizeof(*kids)) : NULL;
	nk = 0;
	for (uint32_t c = kids ? t->n[at].first : 0; c; c = t->n[c].next)
		kids[nk++] = c;
	if (nk)
		qsort_r(kids, nk, sizeof(*kids), by_place, t);
	for (size_t i = 0; i < nk; i++)
		collect_ends(g, kids[i], ends, nr, cap);
	free(kids);
	if (at && t->n[at].w > below && pct(t->n[at].w - below, g->all) >= g->min &&
	    pv_grow(ends, cap, *nr + 1, sizeof(**ends)) == 0) {
		const struct tnode *n = &t->n[at];
		(*ends)[*nr] = (struct path_end){at, n->w - below, n->period - PV_MIN(below_p, n->period),
						 n->count - PV_MIN(below_c, n->count), *nr};
		++*nr;
	}
}

static void print_paths(const struct gctx *g, bool folded)
{
	struct path_end *ends = NULL;
	size_t nr = 0, cap = 0;
	collect_ends(g, 0, &ends, &nr, &cap);
	if (nr > 1)
		qsort(ends, nr, sizeof(*ends), by_end_weight);
	uint32_t *chain = NULL;
	size_t ccap = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t n = 0;
		for (uint32_t at = ends[i].node; at && pv_grow(&chain, &ccap, n + 1, sizeof(*chain)) == 0;
		     at = g->t->n[at].parent)
			chain[n++] = at;
		/* folded: the path's own samples; flat: all through its end (perf's cumul) */
		const struct tnode *e = &g->t->n[ends[i].node];
		char val[32];
		if (folded)
			fprintf(g->out, "%s ", branch_value(g, ends[i].w, ends[i].period, ends[i].count, g->shown, val,
							    sizeof(val)));
		else
			fprintf(g->out, "           %s\n", branch_value(g, e->w, e->period, e->count, g->shown, val,
								   sizeof(val)));
		for (size_t k = n; k-- > 0;) {
			if (folded)
				fprintf(g->out, "%s%s", g->t->n[chain[k]].name, k ? ";" : "\n");
			else
				fprintf(g->out, "                %s\n", g->t->n[chain[k]].name);
		}
		if (!folded)
			fputc('\n', g->out);
	}
	free(chain);
	free(ends);
}

struct pv_report_graphs {
	struct trie *t;
	uint32_t *depth;
	uint64_t *thread;      /* pid << 32 | tid of the entry's first node */
	uint8_t *thread_set;
	size_t nr;
	struct pv_strtab labels;
};

void pv_report_graphs_print(FILE *out, struct pv_report_graphs *g, size_t i, uint64_t entry_w, uint64_t all,
			 uint64_t shown, double min_pct, bool skip_first, enum pv_report_graph_mode mode,
			 enum pv_report_graph_value value)
{
	if (!g || i >= g->nr || !g->t[i].n)
		return;
	struct trie *t = &g->t[i];
	struct gctx gc = {out, t, all, shown, min_pct, mode == PV_GRAPH_FRACTAL, value};
	if (mode == PV_GRAPH_FLAT || mode == PV_GRAPH_FOLDED) {
		print_paths(&gc, mode == PV_GRAPH_FOLDED);
		return;
	}
	uint32_t root = t->n[0].first;
	size_t lines = 0;
	t->n[0].w = entry_w;
	if (root && !t->n[root].next && t->n[root].w == entry_w && skip_first) {
		/* perf: "the first entry is the same as the symbol": printed from the next
		 * one of the common path, else the branches at the margin */
		uint32_t only = 0;
		size_t shown = 0;
		uint64_t base = base_of(&gc, root);
		for (uint32_t c = t->n[root].first; c; c = t->n[c].next)
			if (share(&gc, c, base) >= min_pct)
				shown++, only = c;
		if (shown == 1 && t->n[only].w == t->n[root].w) {
			fprintf(out, "            |\n            ---%s\n", t->n[only].name);
			lines = 2 + emit(&gc, only, "               ", 0, 1, true);
		} else {
			lines = emit(&gc, root, "            ", 0, 1, true);
		}
	} else if (root && !t->n[root].next && t->n[root].w == entry_w) {
		fprintf(out, "            |\n            ---%s\n", t->n[root].name);
		lines = 2 + emit(&gc, root, "               ", 0, 1, true);
	} else if (root) {
		lines = emit(&gc, 0, "            ", 0, 1, true);
	}
	if (lines) /* perf: no blank line after a graph that printed nothing */
		fputc('\n', out);
}

/* What perf's memory keys compare of an access (as profile_flat.c's mem_key), as one hash. */
static uint64_t mem_key(const struct perfev_mem_access *m, unsigned keys, bool kernel, int32_t pid)
{
	union perf_mem_data_src d = {.val = m->data_src};
	uint64_t k[11] = {0};
	if (keys & PERFEV_KEY_MEM)
		k[0] = d.mem_lvl;
	if (keys & PERFEV_KEY_SNOOP)
		k[1] = d.mem_snoop;
	if (keys & PERFEV_KEY_TLB)
		k[2] = d.mem_dtlb;
	if (keys & PERFEV_KEY_LOCKED)
		k[3] = d.mem_lock;
	if (keys & PERFEV_KEY_BLOCKED)
		k[4] = d.mem_blk;
	if (keys & PERFEV_KEY_SYM_DADDR)
		k[5] = m->addr;
	if (keys & (PERFEV_KEY_SYM_DADDR | PERFEV_KEY_DSO_DADDR | PERFEV_KEY_DCACHELINE))
		k[6] = m->dso ? pv_hash_bytes(m->dso, strlen(m->dso)) : 0;
	if (keys & PERFEV_KEY_PHYS_DADDR)
		k[7] = m->phys_addr;
	if (keys & PERFEV_KEY_DATA_PAGE_SIZE)
		k[8] = m->data_page_size;
	if (keys & PERFEV_KEY_DCACHELINE) {
		k[9] = m->dso_addr & ~63ull;
		k[10] = kernel; /* (perf's process of anonymous lines: not told apart, see README) */
		(void)pid;
	}
	return pv_hash_bytes(k, sizeof(k));
}

/* What identifies the entry of a frame node, as one hash (see node_is):
 * chain, the entries perf makes from call-chain frames (an unknown symbol by
 * the address as sampled), else a sample's own (by the address in the object).
 * sfile: the entry's source file (NULL: the frame's); dso_size: the length of
 * the frame's mapping (-1: none); chain_addr: the address perf keys the
 * call-chain entry of the frame by (pv_chain_addr). */
static uint64_t node_key(const struct perfev_profile_node *n, const struct perfev_profile_node *g,
			 unsigned keys, bool chain, const char *sfile, int64_t dso_size, int64_t sym_size,
			 uint64_t chain_addr, const char *inlined_in, uint64_t sym_start)
{
	struct {
		const void *sym, *dso, *comm, *file, *base;
		uint64_t sym_start;
		uint64_t ip, sfile;
		int32_t pid, tid, cpu, socket;
		int64_t dso_size, sym_size;
		uint32_t line, flags;
		uint64_t weight, ins_lat, p_stage_cyc, time, addr, mem;
	} k;
	memset(&k, 0, sizeof(k));
	const struct perfev_profile_frame *f = &n->frame;
	if (pv_key_has_dso(keys, f->symbol))
		k.dso = f->dso;
	if (keys & PERFEV_KEY_SYM) {
		k.sym = f->symbol;
		k.base = inlined_in;
		k.sym_start = sym_start;
		k.flags = f->inlined | f->kernel << 1;
		if (!f->symbol && !f->srcfile && (!f->dso || !strcmp(f->dso, "[unknown]")))
			k.flags = f->inlined; /* outside any map: the address alone, as the table */
		if (!f->symbol)
			k.ip = chain ? f->ip : f->rel_ip;
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
	if (keys & PERFEV_KEY_CPU)
		k.cpu = g->cpu;
	if (keys & PERFEV_KEY_SOCKET)
		k.socket = g->socket;
	if (keys & PERFEV_KEY_WEIGHT)
		k.weight = g->weight;
	if (keys & PERFEV_KEY_INS_LAT)
		k.ins_lat = g->ins_lat;
	if (keys & PERFEV_KEY_P_STAGE_CYC)
		k.p_stage_cyc = g->p_stage_cyc;
	if (keys & PERFEV_KEY_TIME)
		k.time = g->time;
	if (keys & PERFEV_KEY_ADDR) /* (a call-chain entry's: see pv_chain_addr) */
		k.addr = chain ? chain_addr : g->addr;
	if (keys & PV_REPORT_MEM_KEYS)
		k.mem = mem_key(&g->mem, keys, f->kernel, g->pid);
	if (keys & PERFEV_KEY_DSO_SIZE)
		k.dso_size = dso_size;
	if (keys & PERFEV_KEY_SYM_SIZE)
		k.sym_size = sym_size;
	if (keys & PERFEV_KEY_SRCFILE) {
		/* the table's source file (PERFEV_KEY_SRCFILE): a base name,
		 * unknown for call-chain entries */
		if (!sfile) {
			sfile = "";
			if (f->srcfile && f->line && !chain)
				sfile = pv_report_basename(f->srcfile);
		}
		k.sfile = *sfile ? pv_hash_bytes(sfile, strlen(sfile)) : 0;
	}
	return pv_hash_bytes(&k, sizeof(k));
}

uint64_t pv_report_entry_key(const struct perfev_profile_entry *e, unsigned keys)
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
	if (!e->symbol && (keys & PERFEV_KEY_SYM)) /* the address the entry is keyed by */
		n.frame.ip = n.frame.rel_ip = pv_report_shown_ip(e);
	n.frame.srcfile = e->srcfile;
	n.frame.line = e->line;
	g.comm = e->comm;
	g.pid = e->pid;
	g.tid = e->tid;
	g.cpu = e->cpu;
	g.socket = e->socket;
	g.weight = e->weight;
	g.ins_lat = e->ins_lat;
	g.p_stage_cyc = e->p_stage_cyc;
	g.time = e->time;
	g.addr = e->addr;
	g.mem = e->mem;
	return node_key(&n, &g, keys, false, e->source_file ? e->source_file : "", e->dso_size, e->sym_size, 0,
			e->inlined_in, e->sym_start);
}

static const char *frame_label(const struct perfev_profile_frame *f, struct pv_strtab *labels)
{
	char buf[64];
	if (f->symbol && !f->inlined)
		return f->symbol;
	if (f->symbol)
		snprintf(buf, sizeof(buf), "%.40s (inlined)", f->symbol);
	else
		snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)f->ip); /* perf: the address as sampled */
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
struct pv_report_graphs *pv_report_graphs_build(const struct perfev_profile *p, const struct pv_report_view *v,
					  const struct perfev_profile_entry *e, size_t nr)
{
	struct pv_report_graphs *g = calloc(1, sizeof(*g));
	struct pv_keymap emap = {0};
	size_t nn = perfev_profile_nr_nodes(p);
	uint32_t *group_of = calloc(nn, sizeof(*group_of));
	long *ent = malloc(nn * sizeof(*ent));
	long *sent = malloc(nn * sizeof(*sent)); /* the entry of a node's own samples */
	const char **label = calloc(nn, sizeof(*label));
	struct perfev_profile_frame *frm = calloc(nn, sizeof(*frm));
	bool *inl = calloc(nn, sizeof(*inl));
	uint32_t *rank = calloc(nn, sizeof(*rank));
	uint32_t *base = calloc(nn, sizeof(*base)); /* the function a node's frame is in (inline keys) */
	uint64_t *sstart = calloc(nn, sizeof(*sstart)); /* a node's symbol's start (trie_child) */
	uint32_t *path = NULL, *order = NULL;
	uint8_t *seen = calloc(nr + 1, 1);
	size_t pcap = 0;
	if (!g || !group_of || !ent || !sent || !label || !seen || !frm || !inl || !rank || !base || !sstart)
		goto out;
	g->t = calloc(nr ? nr : 1, sizeof(*g->t));
	g->depth = calloc(nr ? nr : 1, sizeof(*g->depth));
	g->thread = calloc(nr ? nr : 1, sizeof(*g->thread));
	g->thread_set = calloc(nr ? nr : 1, 1);
	if (!g->t || !g->depth || !g->thread || !g->thread_set)
		goto out;
	g->nr = nr;
	struct trie *tries = g->t;
	for (size_t i = 0; i < nr; i++) {
		if (pv_grow(&tries[i].n, &tries[i].cap, 16, sizeof(*tries[i].n)) < 0)
			goto out;
		tries[i].nr = 1;
		tries[i].n[0] = (struct tnode){"", 0, 0, 0, 0, 0, 0, 0, false, false, 0, NULL, 0, 0};
		pv_keymap_put(&emap, pv_report_entry_key(&e[i], v->key_mask), (uint32_t)i + 1);
	}
	/* every node's entry (or -1: not printed) and label */
	for (uint32_t id = 1; id < nn; id++) {
		struct perfev_profile_node n, gn;
		perfev_profile_node(p, id, &n);
		ent[id] = sent[id] = -1;
		if (n.kind == PERFEV_NODE_GROUP) {
			group_of[id] = id;
			continue;
		}
		group_of[id] = group_of[n.parent];
		perfev_profile_node(p, group_of[id], &gn);
		/* perf: a frame's own samples and the call chains through it may be
		 * two entries (see PERFEV_KEY_SPLIT_UNRESOLVED) */
		const struct pv_frame *pf = &p->frames[p->nodes[id].what];
		/* the frame as perf keys its symbol (the flat table's rule) */
		base[id] = pv_frame_inline_base(pf, base[n.parent]);
		struct perfev_profile_node kn = n;
		struct pv_sym_key sk;
		pv_frame_sym_key(p, pf, base[id], &sk);
		kn.frame.symbol = pv_strtab_get(&p->strs, sk.sym);
		kn.frame.inlined = sk.inlined;
		const char *in = pv_strtab_get(&p->strs, sk.base);
		uint64_t kstart = sk.start;
		sstart[id] = pf->sym_start; /* (trie_child matches inlined nodes by name alone) */
		/* a cut leaf (pv_frame.cut) is in no call chain: its own entry only */
		/* (the length of the frame's mapping: perf's dso_size) */
		int64_t msize = pf->map ? (int64_t)(p->maps[pf->map - 1].end - p->maps[pf->map - 1].start) : -1;
		int64_t ssize = pf->sym && pf->sym_size ? (int64_t)pf->sym_size : -1; /* perf's symbol_size */
		ent[id] = pf->cut ? -1
				  : (long)pv_keymap_get(&emap, node_key(&kn, &gn, v->key_mask, v->children, NULL,
									   msize, ssize, pv_chain_addr(p, pf), in, kstart)) - 1;
		sent[id] = (long)pv_keymap_get(&emap, node_key(&kn, &gn, v->key_mask, false, NULL, msize, ssize, 0,
							       in, kstart)) - 1;
		if (pf->self_sym) { /* named by DWARF: its own samples are the ELF symbol's entry */
			struct perfev_profile_node en = n;
			en.frame.symbol = pv_strtab_get(&p->strs, pf->self_sym);
			en.frame.inlined = false;
			sent[id] = (long)pv_keymap_get(&emap, node_key(&en, &gn, v->key_mask, false, NULL, msize,
								       ssize, 0, NULL, pf->sym_start)) - 1;
		}
		/* perf's entry belongs to the thread of the sample that made it: the
		 * first (lowest) node of the entry */
		for (int k = 0; k < 2; k++) {
			long x = k ? sent[id] : ent[id];
			if (x >= 0 && !g->thread_set[x]) {
				g->thread_set[x] = 1;
				g->thread[x] = (uint64_t)(uint32_t)gn.pid << 32 | (uint32_t)gn.tid;
			}
		}
		label[id] = frame_label(&n.frame, &g->labels);
		frm[id] = n.frame;
		inl[id] = n.frame.inlined;
		rank[id] = pv_profile_object_rank(p, n.frame.dso);
	}
	/* the sample paths in the order of their first samples: perf inserts
	 * each sample into the entry's tree as it comes, and a node merged of
	 * "X (inlined)" and X keeps the name of the first (see trie_child) */
	order = calloc((size_t)p->nr_seq + 1, sizeof(*order));
	if (!order)
		goto out;
	for (uint32_t id = 1; id < nn; id++)
		if (p->nodes[id].first_seq)
			order[p->nodes[id].first_seq] = id;
	for (uint32_t s = 1; s <= p->nr_seq; s++) {
		uint32_t d = order[s];
		struct perfev_profile_node n;
		if (!d)
			continue;
		perfev_profile_node(p, d, &n);
		uint64_t w = n.self[v->value];
		uint64_t period = n.self[PERFEV_VALUE_PERIOD], count = n.self[PERFEV_VALUE_SAMPLES];
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
		bool callee = v->graph == PV_GRAPH_CALLEE;
		/* d's samples are the entry's of its nearest frame not inlined (the table's self) */
		size_t own = 0;
		while (own + 1 < np && inl[path[own]])
			own++;
		/* the chain starts past a cut leaf's frames (perf's chain lacks them) */
		size_t lo = 0;
		while (lo < np && p->frames[p->nodes[path[lo]].what].cut)
			lo++;
		for (size_t k = 0; k <= np; k++) {
			/* d's own entry first (the whole chain), then every frame's in the
			 * cursor's order (each entry once: the first met) */
			bool mine = k == 0;
			size_t i = mine ? 0 : callee ? k - 1 : np - k;
			long en = mine ? sent[path[own]] : ent[path[i]];
			/* (perf's call-chain entries lack the socket: with one other
			 * than 0 every frame adds its path, see profile_flat.c) */
			bool every = en >= 0 && (((v->key_mask & PERFEV_KEY_SOCKET) && e[en].socket != 0) ||
						 (e[en].weight | e[en].ins_lat | e[en].p_stage_cyc | e[en].time));
			if (en < 0 || (seen[en] && !every) || (!v->children && !mine))
				continue;
			seen[en] = 1;
			struct trie *t = &tries[en];
			uint32_t at = 0;
			t->n[0].w += w;
			t->n[0].period += period;
			t->n[0].count += count;
			/* the path's frames, in printing order: from..to */
			size_t from = callee ? (mine ? lo : i) : mine ? np - 1 : i;
			size_t len = callee ? np - from : from + 1 - lo;
			if (len > g->depth[en])
				g->depth[en] = (uint32_t)len;
			for (size_t m = 0; m < len; m++) {
				size_t at_k = callee ? from + m : from - m;
				if (!(at = trie_child(t, at, label[path[at_k]], &frm[path[at_k]], rank[path[at_k]],
						      sstart[path[at_k]])))
					goto out;
				t->n[at].w += w;
				t->n[at].period += period;
				t->n[at].count += count;
			}
		}
		for (size_t i = 0; i < np; i++)
			if (ent[path[i]] >= 0)
				seen[ent[path[i]]] = 0;
		if (sent[path[own]] >= 0)
			seen[sent[path[own]]] = 0;
	}
out:
	pv_keymap_free(&emap);
	free(group_of);
	free(ent);
	free(sent);
	free(label);
	free(frm);
	free(inl);
	free(rank);
	free(base);
	free(sstart);
	free(path);
	free(order);
	free(seen);
	return g;
}

uint32_t pv_report_graphs_depth(const struct pv_report_graphs *g, size_t i)
{
	return g && i < g->nr ? g->depth[i] : 0;
}

uint64_t pv_report_graphs_thread(const struct pv_report_graphs *g, size_t i)
{
	return g && i < g->nr ? g->thread[i] : 0;
}

void pv_report_graphs_free(struct pv_report_graphs *g)
{
	if (!g)
		return;
	for (size_t i = 0; g->t && i < g->nr; i++)
		free(g->t[i].n);
	free(g->t);
	free(g->depth);
	free(g->thread);
	free(g->thread_set);
	pv_strtab_free(&g->labels);
	free(g);
}
