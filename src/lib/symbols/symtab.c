/*
 * symtab.c — sorted symbol arrays: built once per binary, then every
 * lookup is a binary search.
 */
#include "symbols/symbols_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int pv_symtab_add(struct pv_symtab *t, uint64_t start, uint64_t size, const char *name,
		  const char *module, uint8_t rank)
{
	if (!name)
		return -ENOMEM;
	if (pv_grow(&t->syms, &t->cap, t->nr + 1, sizeof(*t->syms)) < 0)
		return -ENOMEM;
	t->syms[t->nr] = (struct pv_sym){start, size, name, module, rank, (uint32_t)t->nr};
	t->nr++;
	return 0;
}

/* perf's choice among symbols at one address when it does not demangle:
 * cmp_sym's rule on the names as they are. */
static int cmp_sym_mangled(const struct pv_sym *x, const struct pv_sym *y)
{
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	size_t ux = strspn(x->name, "_"), uy = strspn(y->name, "_");
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strlen(x->name), ly = strlen(y->name);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct pv_sym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* best first, as perf's choose_best_symbol (util/symbol.c): a real
	 * size, then the rank (global, local, weak), fewer leading underscores,
	 * the longer name, both of the names as perf keeps them, demangled
	 * (Rust's <usize as Display>::fmt over its twin <u64 as Display>::fmt,
	 * whose v0 names are as long); on a tie symbols__fixup_duplicate keeps the one
	 * inserted first (symbols__insert puts an equal start to the right), so
	 * the table's order decides: libc's .symtab lists
	 * pthread_rwlock_rdlock@GLIBC_2.2.5 before the equally long
	 * pthread_rwlock_rdlock@@GLIBC_2.34, and perf shows the former */
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	size_t ux, uy, lx, ly;
	if (x->name[0] == '_' || y->name[0] == '_') { /* (only these may be mangled) */
		lx = pv_perf_name_len(x->name, &ux);
		ly = pv_perf_name_len(y->name, &uy);
	} else {
		ux = uy = 0;
		lx = strlen(x->name), ly = strlen(y->name);
	}
	if (ux != uy)
		return ux < uy ? -1 : 1;
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Orders t by start alone, keeping the order of equal starts (a stable LSD
 * radix sort of (start, index) keys, 8 bits a pass, skipping the bytes all
 * starts share): the same order a stable sort by cmp_sym gives once each run
 * of one start is sorted by it, without the comparator's string work over
 * the whole table. 0, or -ENOMEM.
 */
static int sort_by_start(struct pv_symtab *t)
{
	struct key {
		uint64_t start;
		size_t idx;
	} *k = malloc(2 * t->nr * sizeof(*k));
	struct pv_sym *out = malloc(t->nr * sizeof(*out));
	if (!k || !out) {
		free(k);
		free(out);
		return -ENOMEM;
	}
	struct key *a = k, *b = k + t->nr;
	uint64_t all_or = 0, all_and = ~0ull;
	for (size_t i = 0; i < t->nr; i++) {
		a[i] = (struct key){t->syms[i].start, i};
		all_or |= t->syms[i].start;
		all_and &= t->syms[i].start;
	}
	uint64_t varies = all_or ^ all_and;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		if (!((varies >> shift) & 0xff))
			continue;
		size_t count[257] = {0};
		for (size_t i = 0; i < t->nr; i++)
			count[((a[i].start >> shift) & 0xff) + 1]++;
		for (size_t d = 1; d < 257; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < t->nr; i++)
			b[count[(a[i].start >> shift) & 0xff]++] = a[i];
		struct key *tmp = a;
		a = b;
		b = tmp;
	}
	for (size_t i = 0; i < t->nr; i++)
		out[i] = t->syms[a[i].idx];
	free(k);
	free(t->syms);
	t->syms = out;
	t->cap = t->nr;
	return 0;
}

void pv_symtab_finish(struct pv_symtab *t)
{
	if (!t->nr)
		return;
	/* kallsyms and most symbol tables come nearly sorted by address: then
	 * only runs of one address need ordering, not the whole table */
	size_t i0 = 1;
	while (i0 < t->nr && t->syms[i0 - 1].start <= t->syms[i0].start)
		i0++;
	if (i0 < t->nr && sort_by_start(t) < 0) {
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	} else {
		for (size_t a = 0, b; a < t->nr; a = b) {
			for (b = a + 1; b < t->nr && t->syms[b].start == t->syms[a].start; b++)
				;
			if (b - a > 1)
				qsort(t->syms + a, b - a, sizeof(*t->syms), cmp_sym);
		}
	}
	size_t n = 0;
	const struct pv_sym *raw_best = NULL; /* of the run of t->syms[n - 1]'s address */
	for (size_t i = 0; i < t->nr; i++) {
		if (n && t->syms[n - 1].start == t->syms[i].start) {
			if (!t->syms[n - 1].size)
				t->syms[n - 1].size = t->syms[i].size;
			if (cmp_sym_mangled(&t->syms[i], raw_best) < 0) {
				raw_best = &t->syms[i];
				t->syms[n - 1].mangled_pick = raw_best->name;
			}
			continue;
		}
		raw_best = &t->syms[i]; /* (read before the table is compacted over it: i >= n) */
		t->syms[n++] = t->syms[i];
	}
	t->nr = n;
	for (size_t i = 0; i < n; i++) {
		struct pv_sym *s = &t->syms[i];
		if (s->size)
			continue;
		/* perf's symbols__fixup_end: up to the next symbol, whatever the
		 * section (a static binary's _init covers its .plt); the last one
		 * (libm's _fini) to the end of the page after its own */
		uint64_t end = i + 1 < n ? t->syms[i + 1].start : ((s->start + 4095) & ~4095ull) + 4096;
		if (end > s->start)
			s->size = end - s->start;
	}
}

_Static_assert(offsetof(struct pv_sym, start) == 0, "pv_upper_bound keys on the first field");

size_t pv_upper_bound(const void *base, size_t n, size_t elsize, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;
		memcpy(&k, (const char *)base + mid * elsize, sizeof(k));
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pv_sym *pv_symtab_find(const struct pv_symtab *t, uint64_t addr)
{
	size_t lo = pv_upper_bound(t->syms, t->nr, sizeof(*t->syms), addr);
	/* the closest symbol below may be a small one nested in a bigger one
	 * (e.g. a local label inside a function): look back a few */
	for (size_t i = lo, tries = 0; i > 0 && tries < 4; i--, tries++) {
		const struct pv_sym *s = &t->syms[i - 1];
		if (addr < s->start + s->size)
			return s;
	}
	return NULL;
}

void pv_symtab_free(struct pv_symtab *t)
{
	free(t->syms);
	memset(t, 0, sizeof(*t));
}
