/*
 * symbols_kernel.c — kernel and module symbols from /proc/kallsyms. Only
 * text symbols are kept; sizes are the gaps to the next symbol, capped at a
 * module boundary so the last function of one does not swallow the space
 * up to the next. The file (~120k lines) is read in big chunks and parsed
 * in place: hex by hand, a module interned once per run of its lines, and
 * the kept names (not interned: nothing compares kernel names by pointer)
 * compacted to the front of the buffer, which the symbolizer keeps; 16
 * bytes a symbol, sizes computed at lookup. Symbols that may change at any
 * time (BPF, trampolines...) are marked so the cache (symbols_kcache.c)
 * leaves them out.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KALLSYMS_MAX (256u << 20)
#define BOUNDARY_CAP 4096

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Is "[name]" (len bytes) a loaded module's tag, per known ("\n"-framed names)? */
static bool known_module(const char *known, const char *tag, size_t len)
{
	if (len < 3 || len > 256)
		return false;
	char key[260];
	key[0] = '\n';
	memcpy(key + 1, tag + 1, len - 2);
	key[len - 1] = '\n';
	return memmem(known, strlen(known), key, len) != NULL;
}

static int module_index(struct pv_ktab *t, const char *pooled)
{
	for (size_t i = t->nr_modules; i > 0; i--) /* the latest first: modules come in runs */
		if (t->modules[i - 1] == pooled)
			return (int)i;
	if (t->nr_modules >= UINT16_MAX ||
	    pv_grow(&t->modules, &t->cap_modules, t->nr_modules + 1, sizeof(*t->modules)) < 0)
		return -ENOMEM;
	t->modules[t->nr_modules++] = pooled;
	return (int)t->nr_modules;
}

/*
 * Of symbols at one address, the one listed last, as perf keeps it: kallsyms
 * has no sizes, perf ends each symbol at the next one (symbols__fixup_end),
 * so all but the last alias are empty and choose_best_symbol prefers the
 * sized one (memcpy, __memcpy, __pi_memcpy: __pi_memcpy). Names are
 * compacted in file order, so a later line has the larger name offset.
 */
static int cmp_ksym(const void *a, const void *b)
{
	const struct pv_ksym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->name < y->name) - (x->name > y->name);
}

static void sort_unique(struct pv_ktab *t)
{
	size_t i0 = 1;
	while (i0 < t->nr && t->syms[i0 - 1].start <= t->syms[i0].start)
		i0++;
	if (i0 < t->nr) {
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_ksym);
	} else { /* the usual case: ordered by address, aliases in runs (the last one first) */
		for (size_t a = 0, b; a < t->nr; a = b) {
			for (b = a + 1; b < t->nr && t->syms[b].start == t->syms[a].start; b++)
				;
			t->syms[a] = t->syms[b - 1];
		}
	}
	size_t n = 0;
	for (size_t i = 0; i < t->nr; i++)
		if (!n || t->syms[n - 1].start != t->syms[i].start)
			t->syms[n++] = t->syms[i];
	t->nr = n;
}

int pv_kallsyms_load(struct perfev_symbolizer *s, const char *path, const char *known_modules,
		     struct pv_ktab *t)
{
	char *buf = NULL;
	size_t len = 0;
	memset(t, 0, sizeof(*t));
	int ret = pv_read_file(path, &buf, &len, KALLSYMS_MAX);
	if (ret < 0) {
		pv_sym_note(s, "%s: cannot read (%s): kernel addresses stay unresolved; run as root "
			    "or give a copy of the recording machine's kallsyms", path, strerror(-ret));
		return ret;
	}
	size_t lines = 1;
	for (const char *q = buf; (q = memchr(q, '\n', (size_t)(buf + len - q))); q++)
		lines++;
	t->syms = malloc(lines * sizeof(*t->syms));
	/* per module index: its run of lines ended (a later run is not the module's own) */
	uint8_t *ended = known_modules ? calloc(UINT16_MAX + 1, 1) : NULL;
	if (!t->syms || (known_modules && !ended)) {
		free(ended);
		free(buf);
		pv_kallsyms_free(t);
		return -ENOMEM;
	}
	size_t zero = 0;
	const char *mod_text = NULL;
	size_t mod_len = 0;
	int mod_idx = 0, prev_mod = 0;
	bool mod_dynamic = false;
	const char *end_buf = buf + len;
	char *w = buf; /* compacted names: never ahead of the line being read */
	for (const char *line = buf, *next; line < end_buf; line = next) {
		const char *eol = memchr(line, '\n', (size_t)(end_buf - line));
		if (!eol)
			eol = end_buf;
		next = eol + 1;
		const char *p = line;
		uint64_t addr = 0;
		int v;
		for (; p < eol && (v = hexval((unsigned char)*p)) >= 0; p++)
			addr = addr << 4 | (uint64_t)v;
		if (p == line || p + 3 > eol || p[0] != ' ' || p[2] != ' ')
			continue;
		char type = p[1];
		const char *name = p + 3;
		const char *tab = memchr(name, '\t', (size_t)(eol - name));
		const char *name_end = tab ? tab : eol;
		int mod = 0;
		if (tab) {
			const char *m = tab + 1;
			size_t ml = (size_t)(eol - m);
			if (ml > 2 && m[0] == '[' && m[ml - 1] == ']') {
				if (!(mod_text && mod_len == ml && memcmp(mod_text, m, ml) == 0)) {
					const char *pooled = pv_strpool_addn(s->pool, m, ml);
					mod_idx = pooled ? module_index(t, pooled) : -ENOMEM;
					if (mod_idx < 0) {
						free(ended);
						free(buf);
						pv_kallsyms_free(t);
						return -ENOMEM;
					}
					mod_text = m;
					mod_len = ml;
					mod_dynamic = known_modules && !known_module(known_modules, m, ml);
				}
				mod = mod_idx;
			}
		}
		/* the file lists the kernel, then each module, then what comes and
		 * goes: a module seen again after its run is ftrace's copy of init
		 * code (freed), not the module */
		bool dynamic = false;
		if (ended) {
			if (mod != prev_mod)
				ended[prev_mod] = 1;
			prev_mod = mod;
			dynamic = ended[mod] || (mod && mod_dynamic);
		}
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (addr == 0) {
			zero++;
			continue;
		}
		size_t nl = (size_t)(name_end - name);
		t->syms[t->nr++] = (struct pv_ksym){addr, (uint32_t)(w - buf), (uint16_t)mod,
						    type == 'T' ? 2 : 1, dynamic ? PV_KSYM_DYNAMIC : 0};
		memmove(w, name, nl);
		w[nl] = '\0';
		w += nl + 1;
	}
	free(ended);
	size_t used = (size_t)(w - buf);
	char *shrunk = realloc(buf, used ? used : 1);
	t->names = shrunk ? shrunk : buf;
	sort_unique(t);
	struct pv_ksym *fit = realloc(t->syms, (t->nr ? t->nr : 1) * sizeof(*t->syms));
	if (fit)
		t->syms = fit;
	if (t->nr == 0)
		pv_sym_note(s, "%s: %s: kernel addresses stay unresolved; run as root or set "
			    "sysctl kernel.kptr_restrict=0", path,
			    zero ? "addresses are hidden (all zero)" : "no text symbols");
	return (int)t->nr;
}

_Static_assert(offsetof(struct pv_ksym, start) == 0, "pv_upper_bound keys on the first field");

int pv_kallsyms_find(const struct pv_ktab *t, uint64_t addr, const char **name,
		     const char **module, uint64_t *start)
{
	return pv_kallsyms_find_sized(t, addr, name, module, start, NULL);
}

int pv_kallsyms_find_sized(const struct pv_ktab *t, uint64_t addr, const char **name,
			   const char **module, uint64_t *start, uint64_t *size_out)
{
	size_t i = pv_upper_bound(t->syms, t->nr, sizeof(*t->syms), addr);
	if (i == 0)
		return t->partial ? -EAGAIN : 0;
	const struct pv_ksym *k = &t->syms[i - 1];
	/* a partial table answers only between two symbols of one module (or of
	 * the kernel) that were neighbours in the real file: there nothing that
	 * comes and goes can be (that memory is the module's) */
	if (t->partial && (i >= t->nr || t->syms[i].module != k->module ||
			   (k->flags & PV_KSYM_OPEN)))
		return -EAGAIN;
	/* a symbol ends at the next one, but at most BOUNDARY_CAP bytes when that
	 * is another module's (or there is none) */
	uint64_t size = BOUNDARY_CAP;
	if (i < t->nr) {
		size = t->syms[i].start - k->start;
		if (t->syms[i].module != k->module && size > BOUNDARY_CAP)
			size = BOUNDARY_CAP;
	}
	if (addr - k->start >= size)
		return 0;
	*name = t->names + k->name;
	*module = k->module ? t->modules[k->module - 1] : NULL;
	*start = k->start;
	if (size_out)
		*size_out = size;
	return 1;
}

void pv_kallsyms_free(struct pv_ktab *t)
{
	if (!t->borrowed) {
		free(t->syms);
		free(t->names);
	}
	if (t->map)
		munmap(t->map, t->map_len);
	free(t->modules);
	memset(t, 0, sizeof(*t));
}
