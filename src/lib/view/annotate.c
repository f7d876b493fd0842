/*
 * annotate.c — perfev annotate's loader (perfev/annotate.h): one profile of
 * the recording keyed by object, symbol and sampled address (the resolver's
 * work, done once per sample; perfev_profile_flat's PERFEV_KEY_ADDR) gives
 * each symbol its samples per instruction; the code comes from the binary
 * the symbolizer finds (symbols/code.h), or /proc/kcore for the kernel.
 */
#define _GNU_SOURCE
#include "view/annotate_int.h"
#include "core/opts.h"
#include "perfev/perfdata.h"
#include "perfev/profile.h"
#include "symbols/code.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMBOL_SIZE (16u << 20) /* larger is a broken size, not a function */

static int cmp_entry(const void *x, const void *y)
{
	const struct perfev_profile_entry *a = x, *b = y;
	int c = strcmp(a->dso ? a->dso : "", b->dso ? b->dso : "");
	if (c)
		return c;
	if (a->sym_start != b->sym_start)
		return a->sym_start < b->sym_start ? -1 : 1;
	if ((c = strcmp(a->symbol, b->symbol)))
		return c;
	return (a->rel_ip > b->rel_ip) - (a->rel_ip < b->rel_ip);
}

static int cmp_sym(const void *x, const void *y)
{
	const struct perfev_annotated_symbol *a = x, *b = y;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->symbol, b->symbol);
}

static bool dso_matches(const char *want, const char *dso)
{
	if (!want)
		return true;
	const char *base = strrchr(dso, '/');
	return !strcmp(want, dso) || (base && !strcmp(want, base + 1));
}

static bool same_symbol(const struct perfev_profile_entry *a, const struct perfev_profile_entry *b)
{
	return a->sym_start == b->sym_start && !strcmp(a->symbol, b->symbol) &&
	       !strcmp(a->dso ? a->dso : "", b->dso ? b->dso : "");
}

/* The size of the symbol: the profile's (ELF st_size, else up to the next
 * symbol), else enough to hold its last sampled instruction. */
static uint64_t symbol_size(const struct perfev_profile_entry *e, size_t n)
{
	if (e->sym_size > 0 && (uint64_t)e->sym_size <= MAX_SYMBOL_SIZE)
		return (uint64_t)e->sym_size;
	uint64_t end = 0;
	for (size_t i = 0; i < n; i++)
		end = PV_MAX(end, e[i].rel_ip - e->sym_start + 16);
	return PV_MIN(end, MAX_SYMBOL_SIZE);
}

/* Annotates the symbol of entries e[0..n) (one symbol, by address). */
static int annotate_symbol(struct perfev_annotation *a, const struct perfev_profile_entry *e, size_t n);

static int collect(struct perfev_annotation *a, struct perfev_profile_entry *e, size_t n)
{
	if (n)
		qsort(e, n, sizeof(*e), cmp_entry);
	int r = 0;
	for (size_t i = 0, j; i < n && r >= 0; i = j) {
		for (j = i + 1; j < n && same_symbol(&e[i], &e[j]); j++)
			;
		if ((a->o.symbol && strcmp(a->o.symbol, e[i].symbol)) ||
		    !dso_matches(a->o.dso, e[i].dso ? e[i].dso : "[unknown]"))
			continue;
		r = annotate_symbol(a, &e[i], j - i);
	}
	if (r < 0)
		return r;
	if (a->nr_sym)
		qsort(a->sym, a->nr_sym, sizeof(*a->sym), cmp_sym);
	if (a->nr_sym == 0 && a->o.symbol)
		return pv_error(ENOENT, "no samples in symbol '%s'%s%s: check the name with perfev report "
				"--sort sym", a->o.symbol, a->o.dso ? " of " : "", a->o.dso ? a->o.dso : "");
	return 0;
}

static int load_samples(struct perfev_annotation *a, struct perfev_perfdata *pd)
{
	struct perfev_profile_load_opts lo = {
		.sz = sizeof(lo), .group = PERFEV_GROUP_NONE, .flags = PERFEV_PROFILE_KEEP_ADDR,
		.event = a->o.event, .no_inline = true, .no_callchain = true,
		.kallsyms = a->o.kallsyms, .no_cache = a->o.no_cache, .symfs = a->o.symfs,
	};
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load_from(pd, &lo, &info);
	if (!p)
		return -errno;
	snprintf(a->event, sizeof(a->event), "%s", info.event_name);
	a->total_samples = perfev_profile_total(p, PERFEV_VALUE_SAMPLES);
	a->total_period = perfev_profile_total(p, PERFEV_VALUE_PERIOD);
	struct perfev_profile_entry *e = NULL;
	size_t n = 0;
	int r = perfev_profile_flat(p, PERFEV_KEY_DSO | PERFEV_KEY_SYM | PERFEV_KEY_ADDR | PERFEV_KEY_SYM_SIZE,
				    PERFEV_VALUE_PERIOD, false, 0, &e, &n);
	if (r >= 0) {
		size_t k = 0; /* samples with a symbol: the others have no code to show */
		for (size_t i = 0; i < n; i++)
			if (e[i].symbol && e[i].self[PERFEV_VALUE_SAMPLES])
				e[k++] = e[i];
		r = collect(a, e, k);
	}
	free(e);
	perfev_profile_free(p);
	return r;
}

PERFEV_API struct perfev_annotation *perfev_annotate_load_from(struct perfev_perfdata *pd,
								const struct perfev_annotate_opts *opts)
{
	if (!pd)
		return pv_error_null(EINVAL, "perfev_annotate_load_from: no file");
	if (!PV_OPTS_VALID(opts, perfev_annotate_opts))
		return NULL;
	struct perfev_annotation *a = calloc(1, sizeof(*a));
	if (!a)
		return pv_error_null(ENOMEM, "out of memory");
	PV_OPTS_COPY(a->o, opts);
	if (!opts)
		a->o.event = -1;
	if ((unsigned)a->o.percent_type > PERFEV_ANNOTATE_GLOBAL_HITS) {
		int t = (int)a->o.percent_type;
		free(a);
		return pv_error_null(EINVAL, "unknown percent type %d", t);
	}
	struct perfev_symbolizer_opts so = {.sz = sizeof(so), .kallsyms = a->o.kallsyms,
					    .no_cache = a->o.no_cache, .symfs = a->o.symfs};
	a->pool = pv_strpool_new();
	a->syms = perfev_symbolizer_new(&so);
	int r = a->pool && a->syms ? load_samples(a, pd) : pv_error(ENOMEM, "out of memory");
	if (r < 0) {
		int err = errno;
		perfev_annotation_free(a);
		errno = err;
		return NULL;
	}
	return a;
}

PERFEV_API void perfev_annotation_free(struct perfev_annotation *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_sym; i++)
		free((void *)a->sym[i].rows);
	free(a->sym);
	pv_ann_sources_free(a);
	perfev_symbolizer_free(a->syms);
	pv_strpool_free(a->pool);
	free(a);
}

PERFEV_API size_t perfev_annotation_nr_symbols(const struct perfev_annotation *a)
{
	return a ? a->nr_sym : 0;
}

PERFEV_API const struct perfev_annotated_symbol *perfev_annotation_symbol(const struct perfev_annotation *a,
									  size_t i)
{
	return a && i < a->nr_sym ? &a->sym[i] : NULL;
}

PERFEV_API const char *perfev_annotation_event(const struct perfev_annotation *a)
{
	return a ? a->event : NULL;
}

PERFEV_API uint64_t perfev_annotation_total(const struct perfev_annotation *a, bool period)
{
	return !a ? 0 : period ? a->total_period : a->total_samples;
}

struct perfev_annotate_row *pv_ann_row_add(struct pv_ann_build *b, const struct perfev_annotate_row *r)
{
	if (pv_grow(&b->rows, &b->cap, b->nr + 1, sizeof(*b->rows)) < 0)
		return NULL;
	b->rows[b->nr] = *r;
	return &b->rows[b->nr++];
}

/* ---- one symbol --------------------------------------------------------------- */

static const char *note(struct perfev_annotation *a, const char *fmt, ...) PV_PRINTF(2, 3);
static const char *note(struct perfev_annotation *a, const char *fmt, ...)
{
	struct pv_buf b = PV_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	pv_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	const char *s = b.data ? pv_strpool_add(a->pool, b.data) : NULL;
	pv_buf_free(&b);
	return s;
}

/* The symbol's code into the pool; its note when there is none. */
static const uint8_t *code_of(struct perfev_annotation *a, struct perfev_annotated_symbol *s,
			      size_t *len, uint16_t *machine)
{
	uint8_t *buf = pv_strpool_alloc(a->pool, (size_t)s->size);
	if (!buf)
		return NULL;
	if (s->kernel) {
		int r = pv_kcore_code(a->o.kcore, s->start, (size_t)s->size, buf, machine);
		if (r < 0) {
			s->note = note(a, "%s: kernel code not readable from %s (%s): no instructions; "
				       "run as root on the recording machine's running kernel, with "
				       "/proc/kcore present (CONFIG_PROC_KCORE)", s->symbol,
				       a->o.kcore ? a->o.kcore : "/proc/kcore", strerror(-r));
			return NULL;
		}
		*len = (size_t)s->size;
		return buf;
	}
	struct pv_code c;
	int r = pv_symbolizer_code(a->syms, s->dso, s->start, s->size, &c);
	if (r < 0) {
		s->note = note(a, r == -ENOENT ? "%s: binary not found: no instructions; make it "
				 "available at that path or give the recording machine's files with --symfs"
				 : "%s: the symbol's code is not in the file's loaded segments: no instructions",
			       s->dso);
		return NULL;
	}
	memcpy(buf, c.bytes, c.len);
	*len = c.len;
	*machine = c.machine;
	return buf;
}

static int fill_rows(struct perfev_annotation *a, struct perfev_annotated_symbol *s,
		     const struct pv_ann_hit *hits, size_t nr_hits)
{
	size_t len = 0;
	uint16_t machine = 0;
	const uint8_t *code = code_of(a, s, &len, &machine);
	if (!code)
		return s->note ? 0 : pv_error(ENOMEM, "out of memory");
	s->machine = machine;
	if (machine != EM_X86_64 && machine != EM_AARCH64) {
		s->note = note(a, "%s: ELF machine %u: no disassembler for it (x86-64 and aarch64 only)",
			       s->dso, machine);
		return 0;
	}
	struct pv_ann_build b = {.a = a, .s = s, .hits = hits, .nr_hits = nr_hits};
	int r = pv_ann_disasm(&b, code, len, s->start, machine);
	if (r < 0) {
		free(b.rows);
		return r;
	}
	if (!b.nr && !s->note)
		s->note = note(a, "%s: no instruction could be decoded", s->symbol);
	if (!a->o.no_source && !b.any_line && b.nr && !s->kernel)
		s->note = note(a, "%s: no DWARF line information (stripped, or built without -g): "
			       "instructions only; install its debug info (-dbgsym, -debuginfo) or set "
			       "DEBUGINFOD_URLS", s->dso);
	s->rows = b.rows;
	s->nr_rows = b.nr;
	return 0;
}

static int annotate_symbol(struct perfev_annotation *a, const struct perfev_profile_entry *e, size_t n)
{
	struct pv_ann_hit *hits = calloc(n, sizeof(*hits));
	if (!hits || pv_grow(&a->sym, &a->cap_sym, a->nr_sym + 1, sizeof(*a->sym)) < 0) {
		free(hits);
		return pv_error(ENOMEM, "out of memory");
	}
	struct perfev_annotated_symbol *s = &a->sym[a->nr_sym];
	*s = (struct perfev_annotated_symbol){
		.symbol = pv_strpool_add(a->pool, e->symbol),
		.dso = pv_strpool_add(a->pool, e->dso ? e->dso : "[unknown]"),
		.kernel = e->kernel, .start = e->sym_start, .size = symbol_size(e, n)};
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) { /* by address: the same one from two processes adds up */
		if (!nh || hits[nh - 1].addr != e[i].rel_ip)
			hits[nh++].addr = e[i].rel_ip;
		hits[nh - 1].samples += e[i].self[PERFEV_VALUE_SAMPLES];
		hits[nh - 1].period += e[i].self[PERFEV_VALUE_PERIOD];
		s->samples += e[i].self[PERFEV_VALUE_SAMPLES];
		s->period += e[i].self[PERFEV_VALUE_PERIOD];
	}
	if (a->o.min_percent > 0 && a->total_period &&
	    100.0 * (double)s->period / (double)a->total_period < a->o.min_percent) {
		free(hits);
		return 0;
	}
	a->nr_sym++;
	int r = !s->symbol || !s->dso ? pv_error(ENOMEM, "out of memory") : fill_rows(a, s, hits, nh);
	free(hits);
	return r;
}
