/* profile_flat.c — perf report's flat table from the call tree: self per
 * key from the nodes' self values; "children" (total) per key by one
 * depth-first walk that counts a node's total only where no ancestor in the
 * same stack has the same key, so recursion is not counted twice. */
#define _GNU_SOURCE
#include "profile/profile_int.h"

#include <stdlib.h>
#include <string.h>

struct fkey {
	uint32_t comm, dso, sym, file, line;
	uint32_t base; /* an inline symbol's function (see make_key) */
	uint64_t sym_start; /* a symbol's start in its object: perf's key of it */
	int32_t pid, tid, cpu, socket;
	uint16_t kernel, inlined;
	uint64_t ip; /* unknown symbols are keyed by address */
	uint64_t sfile; /* hash of the source file's base name, 0: unknown */
	int64_t dso_size, sym_size;
	/* (last: hashed and compared only when keyed by them, see ksize) */
	uint64_t weight, ins_lat, p_stage_cyc, time, addr;
	/* the memory keys: data_src's fields, data and physical address, page
	 * size, the data cache line (and its object, process, mode) */
	uint64_t m_lvl, m_snoop, m_tlb, m_lock, m_blk, daddr, phys, page, dcl;
	uint32_t ddso, dcl_dso;
	int32_t dcl_pid;
	uint32_t dcl_mode;
};
#define PV_SAMPLE_KEYS                                                                                     \
	(PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC | PERFEV_KEY_TIME | PERFEV_KEY_ADDR | \
	 PV_MEM_KEYS)
#define PV_MEM_KEYS                                                                                   \
	(PERFEV_KEY_MEM | PERFEV_KEY_SNOOP | PERFEV_KEY_TLB | PERFEV_KEY_LOCKED | PERFEV_KEY_BLOCKED |   \
	 PERFEV_KEY_SYM_DADDR | PERFEV_KEY_DSO_DADDR | PERFEV_KEY_DCACHELINE | PERFEV_KEY_PHYS_DADDR | \
	 PERFEV_KEY_DATA_PAGE_SIZE)

struct flat {
	const struct perfev_profile *p;
	unsigned keys;
	size_t ksize; /* the bytes of a key that count */
	struct fkey *keyv;
	struct perfev_profile_entry *ents;
	size_t nr, cap;
	uint32_t *hash;
	size_t hcap;
};

/* The memory keys of group g (see PERFEV_KEY_MEM): what perf's comparisons
 * read of its mem_info. */
static void mem_key(const struct flat *fl, const struct pv_group *g, const struct pv_frame *f, struct fkey *k)
{
	unsigned keys = fl->keys;
	union perf_mem_data_src d = {.val = g->data_src};
	if (keys & PERFEV_KEY_MEM)
		k->m_lvl = d.mem_lvl;
	if (keys & PERFEV_KEY_SNOOP)
		k->m_snoop = d.mem_snoop;
	if (keys & PERFEV_KEY_TLB)
		k->m_tlb = d.mem_dtlb;
	if (keys & PERFEV_KEY_LOCKED)
		k->m_lock = d.mem_lock;
	if (keys & PERFEV_KEY_BLOCKED)
		k->m_blk = d.mem_blk;
	if (keys & PERFEV_KEY_SYM_DADDR) {
		k->daddr = g->daddr;
		k->ddso = g->daddr_dso;
	}
	if (keys & PERFEV_KEY_DSO_DADDR)
		k->ddso = g->daddr_dso;
	if (keys & PERFEV_KEY_PHYS_DADDR)
		k->phys = g->phys_addr;
	if (keys & PERFEV_KEY_DATA_PAGE_SIZE)
		k->page = g->data_page_size;
	if (keys & PERFEV_KEY_DCACHELINE) {
		/* perf: by mode, object, process (user anonymous memory), line */
		k->dcl_mode = f->kernel;
		k->dcl_dso = g->daddr_dso;
		k->dcl_pid = -1; /* (perf's process of anonymous lines: not told apart, see README) */
		k->dcl = g->daddr_al & ~63ull;
	}
}


/* The base name perf's srcfile key gives frame f ("" unknown, see
 * PERFEV_KEY_SRCFILE); chain: of a call-chain entry. */
static const char *source_file(const struct perfev_profile *p, const struct pv_frame *f, bool chain)
{
	const char *file = pv_strtab_get(&p->strs, f->file);
	if (!file || pv_srcline_is_symoff(file, f->line) || chain)
		return "";
	const char *s = strrchr(file, '/');
	return s ? s + 1 : file;
}

/* Whether perf's call-chain entry of f differs from its samples' own by the source file. */
static bool source_file_split(const struct flat *fl, const struct pv_frame *f)
{
	return (fl->keys & PERFEV_KEY_SRCFILE) && f->file &&
	       !pv_srcline_is_symoff(pv_strtab_get(&fl->p->strs, f->file), f->line);
}

/* chain: the key of the entries perf makes from call-chain frames (see
 * PERFEV_KEY_SPLIT_UNRESOLVED), else of a sample's own entry. base: the
 * function frame f is (inlined) in, see pv_frame_inline_base. */
static void make_key(const struct flat *fl, const struct pv_group *g, const struct pv_frame *f,
		     uint32_t base, bool chain, struct fkey *k)
{
	memset(k, 0, sizeof(*k));
	k->pid = k->tid = k->cpu = k->socket = -1;
	k->dso_size = k->sym_size = -1;
	unsigned keys = fl->keys;
	if ((keys & PERFEV_KEY_SYM_SIZE) && f->sym && f->sym_size)
		k->sym_size = (int64_t)f->sym_size;
	if (keys & PERFEV_KEY_CPU)
		k->cpu = g->cpu;
	if (keys & PERFEV_KEY_SOCKET)
		k->socket = pv_profile_socket(fl->p, g->cpu);
	if ((keys & PERFEV_KEY_DSO_SIZE) && f->map) {
		const struct pv_pmap *m = &fl->p->maps[f->map - 1];
		k->dso_size = (int64_t)(m->end - m->start);
	}
	if (keys & PERFEV_KEY_SRCFILE) {
		const char *sf = source_file(fl->p, f, chain);
		k->sfile = *sf ? pv_hash_bytes(sf, strlen(sf)) : 0;
	}
	if (keys & PERFEV_KEY_WEIGHT)
		k->weight = g->weight;
	if (keys & PERFEV_KEY_INS_LAT)
		k->ins_lat = g->ins_lat;
	if (keys & PERFEV_KEY_P_STAGE_CYC)
		k->p_stage_cyc = g->p_stage_cyc;
	if (keys & PERFEV_KEY_TIME)
		k->time = g->time;
	if (keys & PERFEV_KEY_ADDR)
		k->addr = chain ? pv_chain_addr(fl->p, f) : g->addr;
	if (keys & PV_MEM_KEYS)
		mem_key(fl, g, f, k);
	if (keys & PERFEV_KEY_COMM)
		k->comm = g->comm;
	if (keys & PERFEV_KEY_PID)
		k->pid = g->pid;
	if (keys & PERFEV_KEY_TID)
		k->tid = g->tid;
	if (pv_key_has_dso(keys, f->sym))
		k->dso = f->dso;
	if (keys & PERFEV_KEY_SYM) {
		k->sym = f->sym;
		/* perf keys a frame outside any map by its address alone: [k] or [.] is the first seen */
		k->kernel = f->kernel;
		if (!f->sym && !f->file && !strcmp(pv_strtab_get(&fl->p->strs, f->dso), "[unknown]"))
			k->kernel = 0;
		struct pv_sym_key sk;
		pv_frame_sym_key(fl->p, f, base, &sk);
		k->sym = sk.sym, k->base = sk.base, k->sym_start = sk.start, k->inlined = sk.inlined;
		if (!f->sym) /* perf: the address in the object's terms, as sampled in call chains */
			k->ip = chain && (keys & PERFEV_KEY_SPLIT_UNRESOLVED) ? f->ip : f->rel_ip;
		if (fl->p->flags & PERFEV_PROFILE_BRANCH_TARGETS)
			k->kernel = 0; /* perf's sort__sym_cmp: [k]/[.] is the sample's, no key */
	}
	if (keys & PERFEV_KEY_SRCLINE) {
		k->file = f->file;
		k->line = f->line;
		if (!f->file && !(keys & PERFEV_KEY_SYM))
			k->ip = f->rel_ip; /* no line info: perf shows the address */
	}
}

static int rehash(struct flat *fl, size_t ncap)
{
	uint32_t *h = calloc(ncap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t id = 0; id < fl->nr; id++) {
		size_t i = pv_hash_bytes(&fl->keyv[id], fl->ksize) & (ncap - 1);
		while (h[i])
			i = (i + 1) & (ncap - 1);
		h[i] = (uint32_t)id + 1;
	}
	free(fl->hash);
	fl->hash = h;
	fl->hcap = ncap;
	return 0;
}

/* perf's --children with a socket key: the entries it makes of call-chain
 * frames lack the socket (hist.c iter_add_next_cumulative_entry's he_tmp),
 * so they match none of the sample's entries made before unless the socket
 * is 0, and every frame adds to its entry, the sample's own one more time
 * (430% Children). Whether entry e counts so. */
static bool counts_every_frame(const struct flat *fl, long e)
{
	/* (the weights and the time are missing from those entries alike) */
	const struct fkey *k = &fl->keyv[e];
	return ((fl->keys & PERFEV_KEY_SOCKET) && k->socket != 0) ||
	       (k->weight | k->ins_lat | k->p_stage_cyc | k->time) != 0;
}

/* The entry for a key (created on first sight); -1 on ENOMEM. */
static long entry_for(struct flat *fl, const struct pv_group *g, const struct pv_frame *f, uint32_t base,
		      bool chain)
{
	struct fkey k;
	make_key(fl, g, f, base, chain, &k);
	if ((fl->nr + 1) * 2 > fl->hcap && rehash(fl, fl->hcap ? fl->hcap * 2 : 1024) < 0)
		return -1;
	size_t i = pv_hash_bytes(&k, fl->ksize) & (fl->hcap - 1);
	while (fl->hash[i]) {
		if (memcmp(&fl->keyv[fl->hash[i] - 1], &k, fl->ksize) == 0)
			return fl->hash[i] - 1;
		i = (i + 1) & (fl->hcap - 1);
	}
	size_t kcap = fl->cap;
	if (pv_grow(&fl->ents, &fl->cap, fl->nr + 1, sizeof(*fl->ents)) < 0 ||
	    pv_grow(&fl->keyv, &kcap, fl->nr + 1, sizeof(*fl->keyv)) < 0)
		return -1;
	fl->keyv[fl->nr] = k;
	const struct perfev_profile *p = fl->p;
	struct perfev_profile_entry *e = &fl->ents[fl->nr];
	memset(e, 0, sizeof(*e));
	e->comm = pv_strtab_get(&p->strs, k.comm ? k.comm : ((fl->keys & (PERFEV_KEY_PID | PERFEV_KEY_TID)) ? g->comm : 0));
	e->first_comm = pv_strtab_get(&p->strs, g->comm);
	e->pid = k.pid;
	e->tid = k.tid;
	if (fl->keys & PERFEV_KEY_TID)
		e->thread_comm = pv_strtab_get(&p->strs, g->thread_comm);
	if (fl->keys & PERFEV_KEY_PID)
		e->process_comm = pv_strtab_get(&p->strs, g->process_comm);
	e->cpu = k.cpu;
	e->socket = k.socket;
	e->dso_size = k.dso_size;
	e->sym_size = k.sym_size;
	e->weight = k.weight;
	e->ins_lat = k.ins_lat;
	e->p_stage_cyc = k.p_stage_cyc;
	e->time = k.time;
	e->addr = k.addr;
	if (fl->keys & PV_MEM_KEYS)
		pv_group_mem(p, g, &e->mem);
	if (fl->keys & PERFEV_KEY_SRCFILE)
		e->source_file = source_file(p, f, chain);
	/* srcline rows without a line name the DSO, as perf; an unknown
	 * symbol's entry (keyed without it) keeps its first frame's */
	e->dso = pv_strtab_get(&p->strs, k.dso ? k.dso : (fl->keys & (PERFEV_KEY_SRCLINE | PERFEV_KEY_SYM)) ? f->dso : 0);
	e->symbol = pv_strtab_get(&p->strs, k.sym);
	e->first_symbol = pv_strtab_get(&p->strs, f->sym);
	e->srcfile = pv_strtab_get(&p->strs, k.file);
	e->line = k.line;
	e->kernel = f->kernel;
	e->inlined = k.inlined;
	e->inlined_in = pv_strtab_get(&p->strs, k.base);
	e->sym_start = k.sym_start;
	e->ip = f->ip;
	e->rel_ip = f->rel_ip;
	fl->hash[i] = (uint32_t)fl->nr + 1;
	return (long)fl->nr++;
}

struct sort_how {
	enum perfev_profile_value by;
	bool children;
};
static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct sort_how *how = arg;
	enum perfev_profile_value sort_by = how->by;
	bool sort_children = how->children;
	const struct perfev_profile_entry *x = a, *y = b;
	uint64_t vx = sort_children ? x->total[sort_by] : x->self[sort_by];
	uint64_t vy = sort_children ? y->total[sort_by] : y->self[sort_by];
	if (vx != vy)
		return vx > vy ? -1 : 1;
	uint64_t sx = x->self[sort_by], sy = y->self[sort_by];
	if (sx != sy)
		return sx > sy ? -1 : 1;
	const char *nx = x->symbol ? x->symbol : "", *ny = y->symbol ? y->symbol : "";
	int c = strcmp(nx, ny);
	return c ? c : (x->ip < y->ip ? -1 : x->ip > y->ip);
}

PERFEV_API int perfev_profile_flat(const struct perfev_profile *p, unsigned keys,
				   enum perfev_profile_value by, bool children, double percent_limit,
				   struct perfev_profile_entry **out, size_t *nr)
{
	*out = NULL;
	*nr = 0;
	if ((unsigned)by >= PERFEV_VALUE_NR)
		return pv_error(EINVAL, "profile_flat: unknown value %d", (int)by);
	if (p->flags & PERFEV_PROFILE_CALLEE)
		return pv_error(EINVAL, "profile_flat: needs a caller-rooted profile "
				"(derive one without PERFEV_PROFILE_CALLEE)");
	struct flat fl = {.p = p, .keys = keys,
			  .ksize = keys & PV_SAMPLE_KEYS ? sizeof(struct fkey) : offsetof(struct fkey, weight)};
	long *node_entry = malloc(p->nr_nodes * sizeof(*node_entry));
	uint32_t *active = NULL, *grp = NULL, *base = NULL;
	uint8_t *chained = NULL; /* entries some node is keyed to (split: call-chain entries) */
	size_t chained_cap = 0;
	int ret = -ENOMEM;
	if (!node_entry)
		goto out;
	/* entries of every frame node; self goes straight in. Parents have
	 * lower ids than their children, so one forward pass knows the group. */
	grp = malloc(p->nr_nodes * sizeof(*grp));
	base = malloc(p->nr_nodes * sizeof(*base));
	if (!grp || !base)
		goto out;
	grp[0] = base[0] = 0;
	for (uint32_t id = 1; id < p->nr_nodes; id++) {
		const struct pv_node *n = &p->nodes[id];
		node_entry[id] = -1;
		if (pv_node_is_group(n)) {
			grp[id] = n->what & ~PV_NODE_GROUP_BIT;
			base[id] = 0;
			continue;
		}
		grp[id] = grp[n->parent];
		base[id] = pv_frame_inline_base(&p->frames[n->what], base[n->parent]);
		/* a cut leaf (pv_frame.cut) is in no call chain: only its own entry below */
		if (!p->frames[n->what].cut) {
			long e = entry_for(&fl, &p->groups[grp[id]], &p->frames[n->what], base[id], children);
			if (e < 0)
				goto out;
			node_entry[id] = e;
			size_t had = chained_cap;
			if (pv_grow(&chained, &chained_cap, fl.nr, 1) < 0)
				goto out;
			memset(chained + had, 0, chained_cap - had);
			chained[e] = 1;
		}
		/* an inlined frame's own samples belong to the function it was
		 * inlined into (perf's self): the nearest non-inlined caller */
		uint32_t to = id;
		while (p->frames[p->nodes[to].what].inlined && !pv_node_is_group(&p->nodes[p->nodes[to].parent]))
			to = p->nodes[to].parent;
		long self_e = node_entry[to];
		const struct pv_frame *tf = &p->frames[p->nodes[to].what];
		if (tf->self_sym && n->self[PERFEV_VALUE_SAMPLES]) {
			/* a function named by its DWARF name: perf's entry of its own
			 * samples is the ELF symbol's, all children its self */
			struct pv_frame ef = *tf;
			ef.sym = tf->self_sym;
			ef.self_sym = 0;
			self_e = entry_for(&fl, &p->groups[grp[id]], &ef, 0, false);
			if (self_e < 0)
				goto out;
			for (int v = 0; children && v < PERFEV_VALUE_NR; v++)
				fl.ents[self_e].total[v] += n->self[v];
		} else if ((tf->cut || (!tf->sym && children && (keys & PERFEV_KEY_SPLIT_UNRESOLVED)) ||
			    (children && (source_file_split(&fl, tf) || (keys & PERFEV_KEY_ADDR)))) &&
			   n->self[PERFEV_VALUE_SAMPLES]) {
			/* perf: the sample's own entry by the address in the object's terms
			 * (a cut leaf: its only entry), its total these samples (unless the
			 * stack has that entry already) */
			self_e = entry_for(&fl, &p->groups[grp[id]], tf, base[to], false);
			if (self_e < 0)
				goto out;
			/* (only an entry some frame node has can be on a stack: nodes
			 * come after their parents) */
			bool on_stack = false;
			for (uint32_t a = id; (size_t)self_e < chained_cap && chained[self_e] && a &&
			     !pv_node_is_group(&p->nodes[a]) && !on_stack; a = p->nodes[a].parent)
				on_stack = node_entry[a] == self_e;
			on_stack = on_stack && !counts_every_frame(&fl, self_e);
			for (int v = 0; children && !on_stack && v < PERFEV_VALUE_NR; v++)
				fl.ents[self_e].total[v] += n->self[v];
		} else if (children && self_e >= 0 && counts_every_frame(&fl, self_e)) {
			for (int v = 0; v < PERFEV_VALUE_NR; v++) /* perf's own entry, then its leaf frame's */
				fl.ents[self_e].total[v] += n->self[v];
		}
		if (self_e < 0) /* (a cut leaf without samples: none is made) */
			continue;
		for (int v = 0; v < PERFEV_VALUE_NR; v++)
			fl.ents[self_e].self[v] += n->self[v];
	}
	if (children) {
		active = calloc(fl.nr + 1, sizeof(*active));
		if (!active)
			goto out;
		/* iterative pre/post-order walk over first_child/next_sibling */
		uint32_t id = p->nodes[0].first_child;
		while (id) {
			long e = node_entry[id];
			if (e >= 0) {
				if (!active[e] || counts_every_frame(&fl, e))
					for (int v = 0; v < PERFEV_VALUE_NR; v++)
						fl.ents[e].total[v] += p->nodes[id].total[v];
				active[e]++;
			}
			if (p->nodes[id].first_child) {
				id = p->nodes[id].first_child;
				continue;
			}
			/* leave nodes until one has a sibling */
			while (id) {
				if (node_entry[id] >= 0)
					active[node_entry[id]]--;
				if (p->nodes[id].next_sibling) {
					id = p->nodes[id].next_sibling;
					break;
				}
				id = p->nodes[id].parent;
			}
		}
	} else {
		for (size_t i = 0; i < fl.nr; i++)
			memcpy(fl.ents[i].total, fl.ents[i].self, sizeof(fl.ents[i].total));
	}
	struct sort_how how = {by, children};
	if (fl.nr > 1)
		qsort_r(fl.ents, fl.nr, sizeof(*fl.ents), cmp_entry, &how);
	/* drop what is below the limit, and entries with nothing to show (frames
	 * that only ever called others, without --children) */
	size_t keep = 0;
	uint64_t all = p->nodes[0].total[by];
	for (size_t i = 0; i < fl.nr; i++) {
		uint64_t v = children ? fl.ents[i].total[by] : fl.ents[i].self[by];
		if (v == 0)
			continue;
		if (percent_limit > 0 && all && 100.0 * (double)v / (double)all < percent_limit)
			continue;
		fl.ents[keep++] = fl.ents[i];
	}
	*out = fl.ents;
	*nr = keep;
	fl.ents = NULL;
	ret = 0;
out:
	free(fl.ents);
	free(fl.keyv);
	free(fl.hash);
	free(node_entry);
	free(active);
	free(grp);
	free(base);
	free(chained);
	if (ret < 0)
		return pv_error(ENOMEM, "profile_flat: out of memory");
	return ret;
}
