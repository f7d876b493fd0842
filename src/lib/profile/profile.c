/* profile.c — the call-tree model: stacks in, a tree of nodes with self and
 * total values out. Frames, groups and strings are interned so a node is a
 * few words; children are found through one hash table keyed by
 * (parent, frame), which keeps adding a sample O(depth). */
#define _GNU_SOURCE
#include "profile/profile_int.h"
#include "core/opts.h"

#include <stdlib.h>
#include <string.h>

#define PV_MAX_DEPTH 8192 /* deeper stacks keep their innermost frames */

static const char *unknown = "[unknown]";

PERFEV_API struct perfev_profile *perfev_profile_new(enum perfev_profile_group group, unsigned flags)
{
	if ((unsigned)group > PERFEV_GROUP_NONE)
		return pv_error_null(EINVAL, "profile: unknown grouping %d", (int)group);
	struct perfev_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return pv_error_null(ENOMEM, "profile: out of memory");
	p->group = group;
	p->flags = flags;
	/* node 0: the root; frame 0 and group 0 are unused so 0 can mean "none" */
	if (pv_grow(&p->nodes, &p->cap_nodes, 1024, sizeof(*p->nodes)) < 0 ||
	    pv_grow(&p->frames, &p->cap_frames, 256, sizeof(*p->frames)) < 0 ||
	    pv_grow(&p->groups, &p->cap_groups, 16, sizeof(*p->groups)) < 0) {
		perfev_profile_free(p);
		return pv_error_null(ENOMEM, "profile: out of memory");
	}
	memset(&p->nodes[0], 0, sizeof(p->nodes[0]));
	memset(&p->frames[0], 0, sizeof(p->frames[0]));
	memset(&p->groups[0], 0, sizeof(p->groups[0]));
	p->nr_nodes = p->nr_frames = p->nr_groups = 1;
	return p;
}

static void filter_free(struct perfev_profile_filter *f)
{
	free((char *)f->comm);
	free((char *)f->dso);
	free((char *)f->symbol);
	memset(f, 0, sizeof(*f));
}

PERFEV_API void perfev_profile_free(struct perfev_profile *p)
{
	if (!p)
		return;
	pv_strtab_free(&p->strs);
	pv_strtab_free(&p->objs);
	free(p->frames);
	free(p->frame_hash);
	free(p->groups);
	free(p->group_hash);
	free(p->maps);
	free(p->nodes);
	free(p->child_hash);
	free(p->log);
	free(p->path);
	free(p->ids);
	free(p->sockets);
	filter_free(&p->filter);
	free(p);
}

PERFEV_API int perfev_profile_set_filter(struct perfev_profile *p, const struct perfev_profile_filter *f)
{
	filter_free(&p->filter);
	p->has_filter = false;
	if (!f)
		return 0;
	if (!PV_OPTS_VALID(f, perfev_profile_filter))
		return -EINVAL;
	struct perfev_profile_filter n;
	PV_OPTS_COPY(n, f);
	n.pid = PV_OPTS_GET(f, pid, -1);
	n.tid = PV_OPTS_GET(f, tid, -1);
	n.comm = n.comm ? strdup(n.comm) : NULL;
	n.dso = n.dso ? strdup(n.dso) : NULL;
	n.symbol = n.symbol ? strdup(n.symbol) : NULL;
	if ((f->comm && !n.comm) || (n.dso == NULL && f->dso) || (!n.symbol && f->symbol)) {
		filter_free(&n);
		return pv_error(ENOMEM, "profile: out of memory");
	}
	p->filter = n;
	p->has_filter = true;
	return 0;
}

PERFEV_API int perfev_profile_set_sockets(struct perfev_profile *p, const int32_t *socket_of_cpu, size_t nr)
{
	int32_t *t = NULL;
	if (nr && !(t = malloc(nr * sizeof(*t))))
		return pv_error(ENOMEM, "profile: out of memory");
	if (nr)
		memcpy(t, socket_of_cpu, nr * sizeof(*t));
	free(p->sockets);
	p->sockets = t;
	p->nr_sockets = nr;
	return 0;
}

/* ---- open-addressing tables of ids, compared through a callback ----------- */
typedef bool (*id_eq_fn)(const struct perfev_profile *p, uint32_t id, const void *key);
typedef uint64_t (*id_hash_fn)(const struct perfev_profile *p, uint32_t id);

static int table_rehash(const struct perfev_profile *p, uint32_t **tab, size_t *cap, size_t count,
			id_hash_fn hash, size_t ncap)
{
	uint32_t *h = calloc(ncap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t id = 1; id < count; id++) {
		size_t i = hash(p, (uint32_t)id) & (ncap - 1);
		while (h[i])
			i = (i + 1) & (ncap - 1);
		h[i] = (uint32_t)id;
	}
	free(*tab);
	*tab = h;
	*cap = ncap;
	return 0;
}

/* Finds key; returns its id, or 0 with *slot set where it would go. */
static uint32_t table_find(const struct perfev_profile *p, const uint32_t *tab, size_t cap,
			   uint64_t h, const void *key, id_eq_fn eq, size_t *slot)
{
	size_t i = h & (cap - 1);
	while (tab[i]) {
		if (eq(p, tab[i], key))
			return tab[i];
		i = (i + 1) & (cap - 1);
	}
	*slot = i;
	return 0;
}

/* ---- frames ---------------------------------------------------------------- */
/* by_ip: every address its own frame (PERFEV_PROFILE_KEEP_ADDR: perf's
 * addr key keys call-chain entries by their frames' addresses) */
static uint64_t frame_hash(const struct pv_frame *f, bool by_ip)
{
	struct {
		uint32_t sym, dso, file, line;
		uint64_t ip, sym_start;
		uint8_t inl, kern, cut;
		uint32_t self_sym;
	} k;
	memset(&k, 0, sizeof(k));
	k.sym = f->sym, k.dso = f->dso, k.file = f->file, k.line = f->line, k.self_sym = f->self_sym;
	k.sym_start = f->sym_start;
	k.ip = f->sym && !by_ip ? 0 : f->ip + (by_ip ? f->map_bias : 0); /* unknown symbols are told apart by address */
	k.inl = f->inlined, k.kern = f->kernel, k.cut = f->cut;
	return pv_hash_bytes(&k, sizeof(k));
}
static uint64_t frame_hash_id(const struct perfev_profile *p, uint32_t id)
{
	return frame_hash(&p->frames[id], p->flags & PERFEV_PROFILE_KEEP_ADDR);
}
static bool frame_eq(const struct perfev_profile *p, uint32_t id, const void *key)
{
	const struct pv_frame *a = &p->frames[id], *b = key;
	return a->sym == b->sym && a->dso == b->dso && a->file == b->file && a->line == b->line &&
	       a->inlined == b->inlined && a->kernel == b->kernel &&
	       ((a->sym && !(p->flags & PERFEV_PROFILE_KEEP_ADDR)) || (a->ip == b->ip && a->rel_ip == b->rel_ip)) &&
	       a->map_bias == b->map_bias && a->sym_start == b->sym_start &&
	       a->self_sym == b->self_sym && a->cut == b->cut;
}

static uint32_t intern_map(struct perfev_profile *p, const struct perfev_map *m, uint32_t dso)
{
	/* one mapping per DSO: the first seen (enough for pprof and Firefox libs) */
	for (size_t i = p->nr_maps; i-- > 0;)
		if (p->maps[i].path == dso)
			return (uint32_t)i + 1;
	if (pv_grow(&p->maps, &p->cap_maps, p->nr_maps + 1, sizeof(*p->maps)) < 0)
		return 0;
	struct pv_pmap *pm = &p->maps[p->nr_maps];
	memset(pm, 0, sizeof(*pm));
	pm->start = m->start, pm->end = m->end, pm->pgoff = m->pgoff;
	pm->path = dso;
	pm->build_id_len = PV_MIN(m->build_id_len, PERFEV_BUILD_ID_MAX);
	memcpy(pm->build_id, m->build_id, pm->build_id_len);
	return (uint32_t)++p->nr_maps;
}

/* Interns f (map: its mapping, NULL: f->map as is). */
static int intern_pv_frame(struct perfev_profile *p, struct pv_frame *f, const struct perfev_map *map,
			   uint32_t *out)
{
	if ((p->nr_frames + 1) * 2 > p->frame_hcap &&
	    table_rehash(p, &p->frame_hash, &p->frame_hcap, p->nr_frames, frame_hash_id,
			 p->frame_hcap ? p->frame_hcap * 2 : 1024) < 0)
		return -ENOMEM;
	size_t slot;
	uint32_t id = table_find(p, p->frame_hash, p->frame_hcap, frame_hash(f, p->flags & PERFEV_PROFILE_KEEP_ADDR), f,
				 frame_eq, &slot);
	if (id) {
		*out = id;
		return 0;
	}
	if (map && map->end > map->start)
		f->map = intern_map(p, map, f->dso);
	if (p->nr_frames >= PV_NODE_GROUP_BIT ||
	    pv_grow(&p->frames, &p->cap_frames, p->nr_frames + 1, sizeof(*p->frames)) < 0)
		return -ENOMEM;
	p->frames[p->nr_frames] = *f;
	p->frame_hash[slot] = (uint32_t)p->nr_frames;
	*out = (uint32_t)p->nr_frames++;
	return 0;
}

/* bias: the frame's map_bias (NULL: from in->map, see pv_frame.map_bias) */
static int intern_frame(struct perfev_profile *p, const struct perfev_profile_frame *in, const char *self_symbol,
			bool cut, uint64_t sym_size, uint64_t sym_start, const uint64_t *bias, uint32_t *out)
{
	struct pv_frame f = {0};
	f.sym_size = sym_size;
	f.sym_start = in->symbol ? sym_start : 0;
	f.self_sym = pv_strtab_intern(&p->strs, self_symbol);
	if (self_symbol && !f.self_sym)
		return -ENOMEM;
	f.sym = pv_strtab_intern(&p->strs, in->symbol);
	f.dso = pv_strtab_intern(&p->strs, in->dso ? in->dso : unknown);
	f.file = pv_strtab_intern(&p->strs, in->srcfile);
	if ((in->symbol && !f.sym) || !f.dso || (in->srcfile && !f.file))
		return -ENOMEM;
	f.line = in->line;
	f.inlined = in->inlined;
	f.kernel = in->kernel;
	f.cut = cut;
	f.ip = in->ip;
	f.rel_ip = in->rel_ip;
	if (!(p->flags & PERFEV_PROFILE_KEEP_ADDR))
		f.map_bias = 0;
	else if (bias)
		f.map_bias = *bias;
	else if (in->map && in->dso && strcmp(in->dso, "[kernel.kallsyms]") != 0)
		f.map_bias = in->kernel ? in->map->start : in->map->start - in->map->pgoff;
	return intern_pv_frame(p, &f, in->map, out);
}

/* A function named by its DWARF name, "X (inlined)" (pv_frame.self_sym), is
 * to perf a fake inline symbol X like those of X's inlined copies: the
 * string id of X where some inlined frame is named so, else 0. */
static uint32_t inline_name_of_renamed(const struct perfev_profile *p, const struct pv_frame *f)
{
	static const char mark[] = " (inlined)";
	const size_t ml = sizeof(mark) - 1;
	const char *name = pv_strtab_get(&p->strs, f->sym);
	size_t len = name ? strlen(name) : 0;
	char plain[512];
	if (!f->self_sym || len <= ml || len - ml >= sizeof(plain) || strcmp(name + len - ml, mark))
		return 0;
	memcpy(plain, name, len - ml);
	plain[len - ml] = 0;
	return pv_strtab_find(&p->strs, plain);
}

uint32_t pv_frame_inline_base(const struct pv_frame *f, uint32_t parent_base)
{
	return f->inlined ? parent_base : f->self_sym ? f->self_sym : f->sym;
}

void pv_frame_sym_key(const struct perfev_profile *p, const struct pv_frame *f, uint32_t base,
		      struct pv_sym_key *k)
{
	k->sym = f->sym;
	k->inlined = f->inlined;
	uint32_t plain = inline_name_of_renamed(p, f);
	if (plain)
		k->sym = plain, k->inlined = true;
	k->base = k->inlined || f->self_sym ? base : 0;
	k->start = k->inlined ? 0 : f->sym_start;
}

int pv_profile_frame_cut(struct perfev_profile *p, uint32_t id, uint32_t *out)
{
	struct pv_frame f = p->frames[id];
	f.cut = 1;
	if (intern_pv_frame(p, &f, NULL, out) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	return 0;
}

/* ---- groups ---------------------------------------------------------------- */
static uint64_t group_hash(const struct pv_group *g)
{
	/* the key only (thread_comm is filled in after the samples) */
	int32_t k[4] = {g->pid, g->tid, (int32_t)g->comm, g->cpu};
	uint64_t h = pv_hash_bytes(k, sizeof(k));
	if (g->weight | g->ins_lat | g->p_stage_cyc | g->time | g->addr) {
		uint64_t x[6] = {h, g->weight, g->ins_lat, g->p_stage_cyc, g->time, g->addr};
		h = pv_hash_bytes(x, sizeof(x));
	}
	if (g->data_src | g->daddr | g->phys_addr | g->data_page_size | g->daddr_dso) {
		uint64_t x[6] = {h, g->data_src, g->daddr, g->phys_addr, g->data_page_size, g->daddr_dso};
		h = pv_hash_bytes(x, sizeof(x));
	}
	return h;
}
static uint64_t group_hash_id(const struct perfev_profile *p, uint32_t id)
{
	return group_hash(&p->groups[id]);
}
static bool group_eq(const struct perfev_profile *p, uint32_t id, const void *key)
{
	const struct pv_group *a = &p->groups[id], *b = key;
	return a->pid == b->pid && a->tid == b->tid && a->comm == b->comm && a->cpu == b->cpu &&
	       a->weight == b->weight && a->ins_lat == b->ins_lat && a->p_stage_cyc == b->p_stage_cyc &&
	       a->time == b->time && a->addr == b->addr && a->data_src == b->data_src && a->daddr == b->daddr &&
	       a->phys_addr == b->phys_addr && a->data_page_size == b->data_page_size &&
	       a->daddr_al == b->daddr_al && a->daddr_dso == b->daddr_dso &&
	       a->daddr_shared == b->daddr_shared;
}

/* The sample's CPU as the profile keeps it: -1 unless asked (and given). */
static int32_t sample_cpu(const struct perfev_profile *p, const struct perfev_sample_desc *s)
{
	if (!(p->flags & PERFEV_PROFILE_KEEP_CPU) || !PV_OPTS_HAS(s, cpu))
		return -1;
	return s->cpu < 0 ? -1 : s->cpu;
}

#define DESC_HAS(s, field) PV_OPTS_HAS(s, field)

/* The per-sample keys the profile keeps (PV_PROFILE_SAMPLE_KEYS); -ENOMEM. */
static int sample_keys(struct perfev_profile *p, const struct perfev_sample_desc *s, struct pv_group *g)
{
	const struct perfev_mem_access *m = DESC_HAS(s, mem) ? s->mem : NULL;
	if ((p->flags & PERFEV_PROFILE_KEEP_MEM) && m) {
		g->data_src = m->data_src;
		g->daddr = m->addr;
		g->phys_addr = m->phys_addr;
		g->data_page_size = m->data_page_size;
		g->daddr_al = m->dso_addr;
		g->daddr_shared = m->shared;
		if (m->dso && !(g->daddr_dso = pv_strtab_intern(&p->strs, m->dso)))
			return -ENOMEM;
	}
	if (p->flags & PERFEV_PROFILE_KEEP_WEIGHTS) {
		g->weight = s->weight;
		g->ins_lat = DESC_HAS(s, ins_lat) ? s->ins_lat : 0;
		g->p_stage_cyc = DESC_HAS(s, p_stage_cyc) ? s->p_stage_cyc : 0;
	}
	if (p->flags & PERFEV_PROFILE_KEEP_TIME) { /* perf's hist_time */
		uint64_t q = p->time_quantum ? p->time_quantum : 100000000ull;
		g->time = s->time / q * q;
	}
	if ((p->flags & PERFEV_PROFILE_KEEP_ADDR) && DESC_HAS(s, ip))
		g->addr = s->ip;
	return 0;
}

PERFEV_API void perfev_profile_set_time_quantum(struct perfev_profile *p, uint64_t ns)
{
	if (p)
		p->time_quantum = ns;
}

static int intern_group(struct perfev_profile *p, const struct perfev_sample_desc *s, uint32_t *out)
{
	struct pv_group g;
	memset(&g, 0, sizeof(g));
	g.pid = g.tid = -1;
	g.cpu = sample_cpu(p, s);
	if ((p->flags & PV_PROFILE_SAMPLE_KEYS) && sample_keys(p, s, &g) < 0)
		return -ENOMEM;
	uint32_t comm = pv_strtab_intern(&p->strs, s->comm ? s->comm : unknown);
	if (!comm)
		return -ENOMEM;
	switch (p->group) {
	case PERFEV_GROUP_THREAD:
		g.pid = s->pid, g.tid = s->tid, g.comm = comm;
		break;
	case PERFEV_GROUP_COMM:
		g.comm = comm;
		break;
	case PERFEV_GROUP_PID:
		g.pid = s->pid;
		break;
	case PERFEV_GROUP_NONE:
		break;
	}
	if ((p->nr_groups + 1) * 2 > p->group_hcap &&
	    table_rehash(p, &p->group_hash, &p->group_hcap, p->nr_groups, group_hash_id,
			 p->group_hcap ? p->group_hcap * 2 : 64) < 0)
		return -ENOMEM;
	size_t slot;
	uint32_t id = table_find(p, p->group_hash, p->group_hcap, group_hash(&g), &g, group_eq, &slot);
	if (id) {
		*out = id;
		return 0;
	}
	if (pv_grow(&p->groups, &p->cap_groups, p->nr_groups + 1, sizeof(*p->groups)) < 0)
		return -ENOMEM;
	p->group_hash[slot] = (uint32_t)p->nr_groups;
	if (p->group == PERFEV_GROUP_PID)
		g.comm = comm; /* shown, not part of the key: the first command seen */
	p->groups[p->nr_groups] = g;
	*out = (uint32_t)p->nr_groups++;
	return 0;
}

/* ---- nodes ----------------------------------------------------------------- */
struct child_key {
	uint32_t parent, what;
};
static uint64_t child_hash(uint32_t parent, uint32_t what)
{
	uint64_t k = (uint64_t)parent << 32 | what;
	k *= 0x9e3779b97f4a7c15ull;
	return k ^ (k >> 29);
}
static uint64_t child_hash_id(const struct perfev_profile *p, uint32_t id)
{
	return child_hash(p->nodes[id].parent, p->nodes[id].what);
}
static bool child_eq(const struct perfev_profile *p, uint32_t id, const void *key)
{
	const struct child_key *k = key;
	return p->nodes[id].parent == k->parent && p->nodes[id].what == k->what;
}

static int child(struct perfev_profile *p, uint32_t parent, uint32_t what, uint32_t *out)
{
	if ((p->nr_nodes + 1) * 2 > p->child_hcap &&
	    table_rehash(p, &p->child_hash, &p->child_hcap, p->nr_nodes, child_hash_id,
			 p->child_hcap ? p->child_hcap * 2 : 4096) < 0)
		return -ENOMEM;
	struct child_key k = {parent, what};
	size_t slot;
	uint32_t id = table_find(p, p->child_hash, p->child_hcap, child_hash(parent, what), &k,
				 child_eq, &slot);
	if (id) {
		*out = id;
		return 0;
	}
	if (p->nr_nodes >= UINT32_MAX ||
	    pv_grow(&p->nodes, &p->cap_nodes, p->nr_nodes + 1, sizeof(*p->nodes)) < 0)
		return -ENOMEM;
	id = (uint32_t)p->nr_nodes++;
	struct pv_node *n = &p->nodes[id];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->what = what;
	n->depth = p->nodes[parent].depth + 1;
	struct pv_node *par = &p->nodes[parent];
	if (par->last_child)
		p->nodes[par->last_child].next_sibling = id;
	else
		par->first_child = id;
	par->last_child = id;
	p->child_hash[slot] = id;
	*out = id;
	return 0;
}

/* ---- filter ---------------------------------------------------------------- */
/* The filter's names are comma-separated lists, as perf's strlists. */
static bool dso_match(const char *list, const char *dso)
{
	if (!dso)
		dso = unknown;
	if (pv_list_has(list, dso))
		return true;
	const char *base = strrchr(dso, '/');
	return base && pv_list_has(list, base + 1);
}

static bool frame_match(const struct perfev_profile_filter *f, const struct perfev_profile_frame *fr)
{
	if (f->dso && !dso_match(f->dso, fr->dso))
		return false;
	if (f->symbol && !(fr->symbol && pv_list_has(f->symbol, fr->symbol)))
		return false;
	return true;
}

static bool accept(const struct perfev_profile *p, const struct perfev_sample_desc *s,
		   const struct perfev_profile_frame *frames, size_t nr)
{
	const struct perfev_profile_filter *f = &p->filter;
	if (f->comm && !(s->comm && pv_list_has(f->comm, s->comm)))
		return false;
	if (f->pid >= 0 && s->pid != f->pid)
		return false;
	if (f->tid >= 0 && s->tid != f->tid)
		return false;
	if (f->time_start && s->time < f->time_start)
		return false;
	if (f->time_end && s->time > f->time_end)
		return false;
	if (!f->dso && !f->symbol)
		return true;
	struct perfev_profile_frame none = {0};
	if (nr == 0)
		return frame_match(f, &none);
	for (size_t i = 0; i < (f->any_frame ? nr : 1); i++)
		if (frame_match(f, &frames[i]))
			return true;
	return false;
}

/* ---- adding ---------------------------------------------------------------- */
int pv_profile_intern_frame(struct perfev_profile *p, const struct perfev_profile_frame *f, uint32_t *id)
{
	return pv_profile_intern_frame_self(p, f, NULL, id);
}

int pv_profile_intern_frame_self(struct perfev_profile *p, const struct perfev_profile_frame *f,
				 const char *self_symbol, uint32_t *id)
{
	return pv_profile_intern_frame_sized(p, f, self_symbol, 0, 0, id);
}

int pv_profile_intern_frame_sized(struct perfev_profile *p, const struct perfev_profile_frame *f,
				  const char *self_symbol, uint64_t sym_size, uint64_t sym_start, uint32_t *id)
{
	if (intern_frame(p, f, self_symbol, false, sym_size, sym_start, NULL, id) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	return 0;
}

int pv_profile_copy_frame(struct perfev_profile *dst, const struct perfev_profile *src, uint32_t id,
			  uint32_t *out)
{
	const struct pv_frame *f = &src->frames[id];
	struct perfev_profile_frame pub;
	struct perfev_map m;
	pv_frame_public(src, f, &pub);
	if (f->map) {
		const struct pv_pmap *pm = &src->maps[f->map - 1];
		memset(&m, 0, sizeof(m));
		m.start = pm->start, m.end = pm->end, m.pgoff = pm->pgoff;
		m.build_id_len = pm->build_id_len;
		memcpy(m.build_id, pm->build_id, pm->build_id_len);
		pub.map = &m;
	}
	if (intern_frame(dst, &pub, pv_strtab_get(&src->strs, f->self_sym), f->cut, f->sym_size, f->sym_start,
			 &f->map_bias, out) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	return 0;
}

int pv_profile_group_id(struct perfev_profile *p, const struct perfev_sample_desc *s, uint32_t *id)
{
	if (intern_group(p, s, id) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	return 0;
}

int pv_profile_add_ids(struct perfev_profile *p, uint32_t group, const uint32_t *fids, size_t nr,
		       const uint64_t values[PERFEV_VALUE_NR], uint64_t time, bool log)
{
	if (nr > PV_MAX_DEPTH) {
		/* callchains are leaf first: keep the innermost frames */
		nr = PV_MAX_DEPTH;
	}
	if (pv_grow(&p->path, &p->cap_path, nr + 1, sizeof(*p->path)) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	uint32_t node;
	bool callee = p->flags & PERFEV_PROFILE_CALLEE;
	/* Consecutive samples mostly share their outer frames: the previous
	 * sample's path (still in p->path) is followed while each node is the
	 * child the next frame asks for, and the hash is asked only after. */
	size_t k = 0, last = p->last_depth;
	p->last_depth = 0;
	if (last && p->path[0] < p->nr_nodes && p->nodes[p->path[0]].parent == 0 &&
	    p->nodes[p->path[0]].what == (group | PV_NODE_GROUP_BIT)) {
		node = p->path[0];
		for (; k < nr && k + 1 < last; k++) {
			uint32_t c = p->path[k + 1];
			if (c >= p->nr_nodes || p->nodes[c].parent != node ||
			    p->nodes[c].what != fids[callee ? k : nr - 1 - k])
				break;
			node = c;
		}
	} else {
		if (child(p, 0, group | PV_NODE_GROUP_BIT, &node) < 0)
			return pv_error(ENOMEM, "profile: out of memory");
		p->path[0] = node;
	}
	size_t depth = k + 1;
	for (; k < nr; k++) {
		/* caller orientation walks from the outermost frame (the end) */
		if (child(p, node, fids[callee ? k : nr - 1 - k], &node) < 0)
			return pv_error(ENOMEM, "profile: out of memory");
		p->path[depth++] = node;
	}
	p->last_depth = depth;
	if (!p->nodes[node].first_seq && p->nr_seq < UINT32_MAX)
		p->nodes[node].first_seq = ++p->nr_seq;
	/* (one pass over the path with the values unrolled: the hot loop of
	 * every report, few branches to predict) */
	const uint64_t v0 = values[0], v1 = values[1], v2 = values[2];
	_Static_assert(PERFEV_VALUE_NR == 3, "the values added below");
	struct pv_node *nd = &p->nodes[node];
	nd->self[0] += v0, nd->self[1] += v1, nd->self[2] += v2;
	p->nodes[0].total[0] += v0, p->nodes[0].total[1] += v1, p->nodes[0].total[2] += v2;
	for (size_t i = 0; i < depth; i++) {
		uint64_t *t = p->nodes[p->path[i]].total;
		t[0] += v0, t[1] += v1, t[2] += v2;
	}
	if (log) {
		if (pv_grow(&p->log, &p->cap_log, p->nr_log + 1, sizeof(*p->log)) < 0)
			return pv_error(ENOMEM, "profile: out of memory");
		p->log[p->nr_log++] = (struct pv_logged_sample){node, 0, time};
	}
	return 1;
}

int pv_profile_add_values(struct perfev_profile *p, const struct perfev_sample_desc *s,
			  const struct perfev_profile_frame *frames, size_t nr,
			  const uint64_t values[PERFEV_VALUE_NR], bool log)
{
	static const struct perfev_profile_frame unknown_frame = {0};
	if (nr == 0) {
		frames = &unknown_frame;
		nr = 1;
	}
	if (nr > PV_MAX_DEPTH)
		nr = PV_MAX_DEPTH;
	if (pv_grow(&p->ids, &p->cap_ids, nr, sizeof(*p->ids)) < 0)
		return pv_error(ENOMEM, "profile: out of memory");
	uint32_t g;
	if (pv_profile_group_id(p, s, &g) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < nr; k++)
		if (pv_profile_intern_frame(p, &frames[k], &p->ids[k]) < 0)
			return -ENOMEM;
	return pv_profile_add_ids(p, g, p->ids, nr, values, s->time, log);
}

bool pv_profile_accepts(struct perfev_profile *p, const struct perfev_sample_desc *s,
			const struct perfev_profile_frame *frames, size_t nr, const uint64_t values[PERFEV_VALUE_NR])
{
	if (!p->has_filter || accept(p, s, frames, nr))
		return true;
	p->filtered++;
	const struct perfev_profile_filter *f = &p->filter;
	bool in_time = (!f->time_start || s->time >= f->time_start) && (!f->time_end || s->time <= f->time_end);
	for (int v = 0; in_time && v < PERFEV_VALUE_NR; v++)
		p->hidden[v] += values[v];
	return false;
}

PERFEV_API int perfev_profile_add(struct perfev_profile *p, const struct perfev_sample_desc *s,
				  const struct perfev_profile_frame *frames, size_t nr)
{
	if (!p || !s || (nr && !frames))
		return pv_error(EINVAL, "profile_add: NULL profile, sample or frames");
	if (!PV_OPTS_VALID(s, perfev_sample_desc))
		return -EINVAL;
	uint64_t values[PERFEV_VALUE_NR] = {1, s->period ? s->period : 1, s->weight};
	if (!pv_profile_accepts(p, s, frames, nr, values))
		return 0;
	return pv_profile_add_values(p, s, frames, nr, values, p->flags & PERFEV_PROFILE_KEEP_SAMPLES);
}

PERFEV_API size_t perfev_frames_from_location(const struct perfev_location *loc, bool with_lines,
					      struct perfev_profile_frame *out, size_t max)
{
	size_t need = loc->nr_lines ? loc->nr_lines : 1;
	for (size_t i = 0; i < need && i < max; i++) {
		struct perfev_profile_frame *f = &out[i];
		memset(f, 0, sizeof(*f));
		f->dso = loc->dso;
		f->ip = loc->ip;
		f->rel_ip = loc->rel_ip;
		f->kernel = loc->kernel;
		f->map = loc->map;
		f->symbol = loc->symbol;
		if (loc->nr_lines) {
			const struct perfev_source_line *l = &loc->lines[i];
			bool outer = i == need - 1;
			/* the outermost line is the symbol's own function */
			if (!outer && l->function)
				f->symbol = l->function;
			else if (outer && !loc->symbol)
				f->symbol = l->function;
			/* perf (srcline.c new_inline_sym): a function named as the
			 * ELF symbol is that symbol, not an inlined copy */
			f->inlined = !outer && !(loc->symbol && l->function && !strcmp(l->function, loc->symbol));
			if (with_lines) {
				f->srcfile = l->file;
				f->line = l->line;
			}
		}
	}
	return need;
}

/* ---- reading ---------------------------------------------------------------- */
const char *pv_frame_name(const struct perfev_profile *p, const struct pv_frame *f, char *buf,
			  size_t len)
{
	const char *s = pv_strtab_get(&p->strs, f->sym);
	if (s)
		return s;
	if (!f->ip && !f->rel_ip)
		return unknown;
	snprintf(buf, len, "0x%llx", (unsigned long long)(f->rel_ip ? f->rel_ip : f->ip));
	return buf;
}

uint32_t pv_node_group(const struct perfev_profile *p, uint32_t id)
{
	while (id && !pv_node_is_group(&p->nodes[id]))
		id = p->nodes[id].parent;
	return id;
}

void pv_frame_public(const struct perfev_profile *p, const struct pv_frame *f, struct perfev_profile_frame *out)
{
	memset(out, 0, sizeof(*out));
	out->symbol = pv_strtab_get(&p->strs, f->sym);
	out->dso = pv_strtab_get(&p->strs, f->dso);
	out->srcfile = pv_strtab_get(&p->strs, f->file);
	out->line = f->line;
	out->ip = f->ip;
	out->rel_ip = f->rel_ip;
	out->inlined = f->inlined;
	out->kernel = f->kernel;
}

PERFEV_API uint64_t perfev_profile_total(const struct perfev_profile *p, enum perfev_profile_value v)
{
	return (unsigned)v < PERFEV_VALUE_NR ? p->nodes[0].total[v] : 0;
}
PERFEV_API uint64_t perfev_profile_filtered(const struct perfev_profile *p)
{
	return p->filtered;
}
PERFEV_API uint64_t perfev_profile_hidden(const struct perfev_profile *p, enum perfev_profile_value v)
{
	return (unsigned)v < PERFEV_VALUE_NR ? p->hidden[v] : 0;
}
PERFEV_API enum perfev_profile_group perfev_profile_grouping(const struct perfev_profile *p)
{
	return p->group;
}
PERFEV_API unsigned perfev_profile_flags(const struct perfev_profile *p)
{
	return p->flags;
}
PERFEV_API size_t perfev_profile_nr_nodes(const struct perfev_profile *p)
{
	return p->nr_nodes;
}

PERFEV_API int perfev_profile_node(const struct perfev_profile *p, uint32_t id, struct perfev_profile_node *out)
{
	if (id >= p->nr_nodes)
		return pv_error(ERANGE, "profile: node %u out of range (%zu nodes)", id, p->nr_nodes);
	const struct pv_node *n = &p->nodes[id];
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->parent = n->parent;
	out->first_child = n->first_child;
	out->next_sibling = n->next_sibling;
	out->depth = n->depth;
	out->pid = out->tid = out->cpu = out->socket = -1;
	memcpy(out->self, n->self, sizeof(n->self));
	memcpy(out->total, n->total, sizeof(n->total));
	if (id == 0) {
		out->kind = PERFEV_NODE_ROOT;
	} else if (pv_node_is_group(n)) {
		const struct pv_group *g = &p->groups[n->what & ~PV_NODE_GROUP_BIT];
		out->kind = PERFEV_NODE_GROUP;
		out->comm = pv_strtab_get(&p->strs, g->comm);
		out->pid = g->pid;
		out->tid = g->tid;
		out->cpu = g->cpu;
		out->socket = pv_profile_socket(p, g->cpu);
		out->weight = g->weight;
		out->ins_lat = g->ins_lat;
		out->p_stage_cyc = g->p_stage_cyc;
		out->time = g->time;
		out->addr = g->addr;
		pv_group_mem(p, g, &out->mem);
	} else {
		out->kind = PERFEV_NODE_FRAME;
		pv_frame_public(p, &p->frames[n->what], &out->frame);
	}
	return 0;
}

int pv_profile_add_object(struct perfev_profile *p, const char *name)
{
	return name && !pv_strtab_intern(&p->objs, name) ? -ENOMEM : 0;
}

int pv_profile_copy_objects(struct perfev_profile *dst, const struct perfev_profile *src)
{
	for (size_t id = 1; id < src->objs.nr; id++)
		if (pv_profile_add_object(dst, src->objs.strs[id]) < 0)
			return -ENOMEM;
	return 0;
}

/* ---- deriving ---------------------------------------------------------------- */
PERFEV_API struct perfev_profile *perfev_profile_derive(const struct perfev_profile *p,
							enum perfev_profile_group group, unsigned flags)
{
	struct perfev_profile *d = perfev_profile_new(group, flags & ~PERFEV_PROFILE_KEEP_SAMPLES);
	if (!d)
		return NULL;
	d->time_quantum = 1; /* the groups' times are cut already */
	if (perfev_profile_set_sockets(d, p->sockets, p->nr_sockets) < 0) {
		perfev_profile_free(d);
		return NULL;
	}
	struct perfev_profile_frame *stack = NULL;
	struct perfev_map *maps = NULL;
	size_t cap = 0, mcap = 0;
	bool src_callee = p->flags & PERFEV_PROFILE_CALLEE;
	for (uint32_t id = 1; id < p->nr_nodes; id++) {
		const struct pv_node *n = &p->nodes[id];
		if (pv_node_is_group(n) || !(n->self[0] | n->self[1] | n->self[2]))
			continue;
		/* the path from this node up to its group, as a leaf-first stack */
		size_t nr = 0;
		uint32_t at = id;
		for (; at && !pv_node_is_group(&p->nodes[at]); at = p->nodes[at].parent) {
			if (pv_grow(&stack, &cap, nr + 1, sizeof(*stack)) < 0)
				goto oom;
			pv_frame_public(p, &p->frames[p->nodes[at].what], &stack[nr]);
			if (pv_grow(&maps, &mcap, nr + 1, sizeof(*maps)) < 0)
				goto oom;
			const struct pv_frame *f = &p->frames[p->nodes[at].what];
			memset(&maps[nr], 0, sizeof(maps[nr]));
			if (f->map) {
				const struct pv_pmap *pm = &p->maps[f->map - 1];
				maps[nr].start = pm->start, maps[nr].end = pm->end;
				maps[nr].pgoff = pm->pgoff;
				maps[nr].build_id_len = pm->build_id_len;
				memcpy(maps[nr].build_id, pm->build_id, pm->build_id_len);
			}
			nr++;
		}
		for (size_t i = 0; i < nr; i++) /* maps may have moved while growing */
			stack[i].map = maps[i].end ? &maps[i] : NULL;
		if (src_callee) /* the path above runs leaf..root already when the source is caller-rooted */
			for (size_t i = 0; i < nr / 2; i++) {
				struct perfev_profile_frame t = stack[i];
				stack[i] = stack[nr - 1 - i];
				stack[nr - 1 - i] = t;
			}
		const struct pv_group *g = &p->groups[p->nodes[at].what & ~PV_NODE_GROUP_BIT];
		struct perfev_sample_desc s = {.sz = sizeof(s), .pid = g->pid, .tid = g->tid,
					       .comm = pv_strtab_get(&p->strs, g->comm), .cpu = g->cpu,
					       .weight = g->weight, .ins_lat = g->ins_lat,
					       .p_stage_cyc = g->p_stage_cyc, .time = g->time, .ip = g->addr};
		struct perfev_mem_access mem;
		pv_group_mem(p, g, &mem);
		s.mem = &mem;
		if (pv_profile_add_values(d, &s, stack, nr, n->self, false) < 0)
			goto oom;
	}
	d->filtered = p->filtered;
	memcpy(d->hidden, p->hidden, sizeof(d->hidden));
	if (pv_profile_copy_objects(d, p) < 0)
		goto oom;
	free(stack);
	free(maps);
	return d;
oom:
	free(stack);
	free(maps);
	perfev_profile_free(d);
	return pv_error_null(ENOMEM, "profile: out of memory");
}
