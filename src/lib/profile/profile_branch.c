/* profile_branch.c — perf report's branch view: every branch of every
 * sample's branch stack counted once (perf's pseudo period of 1) under its
 * branch sort keys (by default command, source object, source symbol,
 * target symbol, cycles), both ends resolved by the profile loader
 * (profile_load.c) as perf resolves them, then sorted in perf's order. */
#define _GNU_SOURCE
#include "profile/profile_load_int.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>

/* What makes two branches one row (perf's sort keys' cmp): a known symbol
 * by its object and name, an unknown one by its raw address; the target's
 * object only through its symbol. */
struct bkey {
	uint32_t comm, from_dso, from_sym, to_dso, to_sym;
	uint32_t cycles;
	uint64_t from_addr, to_addr;
};

struct bevent {
	struct perfev_branch_event pub;
	struct perfev_branch_row *rows;
	struct bkey *keys;
	uint32_t *first_tid; /* per row: the thread that made it */
	size_t cap;
	uint32_t *hash;
	size_t hcap;
};

struct perfev_branch_table {
	struct pv_strtab strs;
	struct bevent *ev;
	size_t nev;
	enum perfev_branch_key keys[PERFEV_BKEY_NR];
	size_t nkeys;
	unsigned mask; /* 1 << key of each */
};

static struct bevent *event_at(struct perfev_branch_table *t, size_t idx)
{
	if (idx > 4096)
		return NULL; /* a corrupt attr index */
	if (idx >= t->nev) {
		struct bevent *n = realloc(t->ev, (idx + 1) * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + t->nev, 0, (idx + 1 - t->nev) * sizeof(*n));
		t->ev = n;
		t->nev = idx + 1;
	}
	return &t->ev[idx];
}

static int rehash(struct bevent *e, size_t ncap)
{
	uint32_t *h = calloc(ncap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t id = 0; id < e->pub.nr; id++) {
		size_t i = pv_hash_bytes(&e->keys[id], sizeof(struct bkey)) & (ncap - 1);
		while (h[i])
			i = (i + 1) & (ncap - 1);
		h[i] = (uint32_t)id + 1;
	}
	free(e->hash);
	e->hash = h;
	e->hcap = ncap;
	return 0;
}

/* One end: the row's copy (strings interned in t) and its key fields. */
static int end_of(struct perfev_branch_table *t, const struct perfev_profile_frame *f, char level,
		  uint64_t addr, uint64_t symoff, struct perfev_branch_end *out, uint32_t *dso, uint32_t *sym)
{
	*dso = f->dso && strcmp(f->dso, "[unknown]") ? pv_strtab_intern(&t->strs, f->dso) : 0;
	*sym = f->symbol ? pv_strtab_intern(&t->strs, f->symbol) : 0;
	if ((f->dso && strcmp(f->dso, "[unknown]") && !*dso) || (f->symbol && !*sym))
		return -ENOMEM;
	*out = (struct perfev_branch_end){.symbol = pv_strtab_get(&t->strs, *sym),
					  .dso = pv_strtab_get(&t->strs, *dso), .addr = addr,
					  .rel_addr = level == 'H' ? addr : f->rel_ip, .level = level};
	if (f->symbol)
		out->sym_start = out->rel_addr - symoff;
	return 0;
}

static int add_branch(struct perfev_branch_table *t, struct bevent *e, struct loader *l, int32_t pid,
		      uint32_t tid, uint32_t comm, uint64_t time, const struct perfev_branch_entry *b)
{
	struct perfev_profile_frame ff, tf;
	char fl, tl;
	uint64_t fo, to;
	if (pv_load_addr(l, pid, tid, b->from, time, &ff, &fl, &fo) < 0 ||
	    pv_load_addr(l, pid, tid, b->to, time, &tf, &tl, &to) < 0)
		return -ENOMEM;
	struct perfev_branch_row row = {.count = 1, .cycles = (uint16_t)(b->flags >> 4 & 0xffff)};
	struct bkey k = {.comm = comm, .cycles = row.cycles};
	if (end_of(t, &ff, fl, b->from, fo, &row.from, &k.from_dso, &k.from_sym) < 0 ||
	    end_of(t, &tf, tl, b->to, to, &row.to, &k.to_dso, &k.to_sym) < 0)
		return -ENOMEM;
	/* the keys' fields only: a symbol by its object and name, an unknown
	 * one by its address (perf's sort__sym_from_cmp) */
	unsigned m = t->mask;
	k.from_addr = (m & 1u << PERFEV_BKEY_SYM_FROM) && !k.from_sym ? b->from : 0;
	bool sym_to = m & (1u << PERFEV_BKEY_SYM_TO | 1u << PERFEV_BKEY_TARGET);
	k.to_addr = sym_to && !k.to_sym ? b->to : 0;
	if (!(m & 1u << PERFEV_BKEY_DSO_FROM) && !((m & 1u << PERFEV_BKEY_SYM_FROM) && k.from_sym))
		k.from_dso = 0;
	if (!(m & 1u << PERFEV_BKEY_DSO_TO) && !(sym_to && k.to_sym))
		k.to_dso = 0;
	if (!(m & 1u << PERFEV_BKEY_SYM_FROM))
		k.from_sym = 0;
	if (!sym_to)
		k.to_sym = 0;
	if (!(m & 1u << PERFEV_BKEY_COMM))
		k.comm = 0;
	if (!(m & 1u << PERFEV_BKEY_CYCLES))
		k.cycles = 0;
	if ((e->pub.nr + 1) * 2 > e->hcap && rehash(e, e->hcap ? e->hcap * 2 : 1024) < 0)
		return -ENOMEM;
	size_t i = pv_hash_bytes(&k, sizeof(k)) & (e->hcap - 1);
	while (e->hash[i]) {
		uint32_t id = e->hash[i] - 1;
		if (!memcmp(&e->keys[id], &k, sizeof(k))) {
			e->rows[id].count++;
			return 0;
		}
		i = (i + 1) & (e->hcap - 1);
	}
	size_t kcap = e->cap, tcap = e->cap;
	if (pv_grow(&e->rows, &e->cap, e->pub.nr + 1, sizeof(*e->rows)) < 0 ||
	    pv_grow(&e->keys, &kcap, e->pub.nr + 1, sizeof(*e->keys)) < 0 ||
	    pv_grow(&e->first_tid, &tcap, e->pub.nr + 1, sizeof(*e->first_tid)) < 0)
		return -ENOMEM;
	row.comm = pv_strtab_get(&t->strs, comm);
	e->rows[e->pub.nr] = row;
	e->keys[e->pub.nr] = k;
	e->first_tid[e->pub.nr] = tid;
	e->hash[i] = (uint32_t)++e->pub.nr;
	return 0;
}

static int on_sample(void *ctx, struct loader *l, const struct perfev_record *rec, int32_t pid)
{
	struct perfev_branch_table *t = ctx;
	const struct perfev_sample *s = &rec->u.sample;
	struct bevent *e = event_at(t, rec->attr_idx);
	if (!e)
		return -ENOMEM;
	if (!(s->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0; /* perf: not in the branch view */
	const char *name = pv_load_comm(l, s->tid);
	uint32_t comm = pv_strtab_intern(&t->strs, name ? name : "[unknown]");
	if (!comm)
		return -ENOMEM;
	e->pub.samples++;
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		if (add_branch(t, e, l, pid, s->tid, comm, s->time, &s->branches[i]) < 0)
			return -ENOMEM;
		e->pub.branches++;
	}
	return 0;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

static int cmp_end(const struct perfev_branch_end *a, const struct perfev_branch_end *b)
{
	if (!a->symbol != !b->symbol)
		return a->symbol ? -1 : 1; /* perf: a known symbol first */
	if (!a->symbol) {
		int64_t d = (int64_t)(a->addr - b->addr);
		return (d > 0) - (d < 0);
	}
	if (!strcmp(a->symbol, b->symbol) && a->dso && b->dso && !strcmp(a->dso, b->dso))
		return 0; /* the same symbol (perf: the same struct symbol) */
	if (a->sym_start != b->sym_start) /* perf: by start address */
		return a->sym_start < b->sym_start ? -1 : 1;
	return strcmp(a->symbol, b->symbol);
}

/* perf's _sort__dso_cmp in its output order: outside any map first, names descending */
static int cmp_dso(const struct perfev_branch_end *a, const struct perfev_branch_end *b)
{
	if (!a->dso != !b->dso)
		return a->dso ? 1 : -1;
	return a->dso ? strcmp(base(b->dso), base(a->dso)) : 0;
}

static int cmp_row(const void *pa, const void *pb, void *arg)
{
	const struct perfev_branch_table *t = arg;
	const struct perfev_branch_row *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	int c = 0;
	for (size_t i = 0; i < t->nkeys && !c; i++) {
		switch (t->keys[i]) {
		case PERFEV_BKEY_COMM: c = strcmp(a->comm, b->comm); break;
		case PERFEV_BKEY_DSO_FROM: c = cmp_dso(&a->from, &b->from); break;
		case PERFEV_BKEY_DSO_TO: c = cmp_dso(&a->to, &b->to); break;
		case PERFEV_BKEY_SYM_FROM: c = cmp_end(&a->from, &b->from); break;
		case PERFEV_BKEY_SYM_TO: c = cmp_end(&a->to, &b->to); break;
		case PERFEV_BKEY_CYCLES: c = (a->cycles < b->cycles) - (a->cycles > b->cycles); break;
		case PERFEV_BKEY_TARGET: /* perf's sort__sym_cmp: unknown ones by address, else objects first */
			if ((a->to.symbol || b->to.symbol) && !(c = cmp_dso(&a->to, &b->to)))
				c = cmp_end(&a->to, &b->to);
			else if (!a->to.symbol && !b->to.symbol)
				c = cmp_end(&a->to, &b->to);
			break;
		default: break;
		}
	}
	return c;
}

static int on_done(void *ctx, struct loader *l)
{
	struct perfev_branch_table *t = ctx;
	size_t nev = pv_load_nr_events(l);
	if (nev && !event_at(t, nev - 1))
		return -ENOMEM;
	for (size_t i = 0; i < t->nev; i++) {
		struct bevent *e = &t->ev[i];
		const char *name = pv_load_event_name(l, i);
		snprintf(e->pub.name, sizeof(e->pub.name), "%s", name ? name : "unknown");
		for (size_t r = 0; r < e->pub.nr; r++) {
			const char *tc = pv_load_comm(l, e->first_tid[r]);
			uint32_t id = pv_strtab_intern(&t->strs, tc ? tc : "[unknown]");
			if (!id)
				return -ENOMEM;
			e->rows[r].thread_comm = pv_strtab_get(&t->strs, id);
		}
		if (e->pub.nr > 1)
			qsort_r(e->rows, e->pub.nr, sizeof(*e->rows), cmp_row, t);
		e->pub.rows = e->rows;
	}
	return 0;
}

static const enum perfev_branch_key perf_default[] = {PERFEV_BKEY_COMM, PERFEV_BKEY_DSO_FROM,
						      PERFEV_BKEY_SYM_FROM, PERFEV_BKEY_SYM_TO, PERFEV_BKEY_CYCLES};

PERFEV_API struct perfev_branch_table *perfev_branch_table_load(const char *path,
								 const struct perfev_profile_load_opts *o,
								 struct perfev_profile_load_info *info)
{
	return perfev_branch_table_load_keys(path, o, perf_default, 5, info);
}

PERFEV_API struct perfev_branch_table *perfev_branch_table_load_from(struct perfev_perfdata *pd,
								      const struct perfev_profile_load_opts *o,
								      struct perfev_profile_load_info *info)
{
	return perfev_branch_table_load_keys_from(pd, o, perf_default, 5, info);
}

PERFEV_API struct perfev_branch_table *perfev_branch_table_load_keys(const char *path,
								      const struct perfev_profile_load_opts *o,
								      const enum perfev_branch_key *keys, size_t nr,
								      struct perfev_profile_load_info *info)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return NULL;
	struct perfev_branch_table *t = perfev_branch_table_load_keys_from(pd, o, keys, nr, info);
	pv_close_keep_errno(pd);
	return t;
}

PERFEV_API struct perfev_branch_table *perfev_branch_table_load_keys_from(struct perfev_perfdata *pd,
									   const struct perfev_profile_load_opts *o,
									   const enum perfev_branch_key *keys, size_t nr,
									   struct perfev_profile_load_info *info)
{
	if (!nr || nr > PERFEV_BKEY_NR)
		return pv_error_null(EINVAL, "branch_table: give 1 to %d keys", PERFEV_BKEY_NR);
	for (size_t i = 0; i < nr; i++)
		if ((unsigned)keys[i] >= PERFEV_BKEY_NR)
			return pv_error_null(EINVAL, "branch_table: unknown key %d", (int)keys[i]);
	struct perfev_branch_table *t = calloc(1, sizeof(*t));
	if (!t)
		return pv_error_null(ENOMEM, "branch_table: out of memory");
	for (size_t i = 0; i < nr; i++)
		if (!(t->mask & 1u << keys[i])) {
			t->keys[t->nkeys++] = keys[i];
			t->mask |= 1u << keys[i];
		}
	if (pv_profile_load_run(pd, o, info, on_sample, on_done, t) < 0) {
		int err = errno;
		perfev_branch_table_free(t);
		errno = err;
		return NULL;
	}
	return t;
}

PERFEV_API size_t perfev_branch_table_nr_events(const struct perfev_branch_table *t)
{
	return t ? t->nev : 0;
}

PERFEV_API const struct perfev_branch_event *perfev_branch_table_event(const struct perfev_branch_table *t,
									size_t i)
{
	return t && i < t->nev ? &t->ev[i].pub : NULL;
}

PERFEV_API void perfev_branch_table_free(struct perfev_branch_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nev; i++) {
		free(t->ev[i].rows);
		free(t->ev[i].keys);
		free(t->ev[i].first_tid);
		free(t->ev[i].hash);
	}
	free(t->ev);
	pv_strtab_free(&t->strs);
	free(t);
}

PERFEV_API int perfev_branch_table_wanted(const char *path)
{
	if (!strcmp(path, "-"))
		return 0;
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return -errno;
	int ret = perfev_branch_table_wanted_from(pd);
	perfev_perfdata_close(pd);
	return ret;
}

PERFEV_API bool perfev_branch_table_wanted_from(const struct perfev_perfdata *pd)
{
	/* perf decides before it reads a stream's features: never for a pipe */
	bool ret = !perfev_perfdata_is_pipe(pd) && perfev_perfdata_has_feature(pd, PERFEV_FEAT_BRANCH_STACK);
	for (size_t i = 0; ret && i < perfev_perfdata_nr_events(pd); i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		if (a && (a->sample_type & PERF_SAMPLE_STACK_USER))
			ret = false; /* perf: no branch view with user stacks */
	}
	return ret;
}
