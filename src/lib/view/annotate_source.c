/*
 * annotate_source.c — what an instruction's address means in the source:
 * the DWARF line and innermost (inlined) function the symbolizer gives
 * (its srcline and inline code, the same the resolver uses), the line's text
 * from the file DWARF names (under --symfs first), and the rows perf
 * annotate shows before the instruction when they change: "func():" and the
 * source line. Names for branch targets come from the same symbolizer.
 */
#define _GNU_SOURCE
#include "view/annotate_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCE_SIZE (64u << 20)

bool pv_ann_name_addr(struct pv_ann_build *b, uint64_t addr, char *buf, size_t len)
{
	struct perfev_location loc;
	const unsigned flags = PERFEV_RESOLVE_NO_PARAMS;
	int r = b->s->kernel ? perfev_symbolizer_resolve_kernel(b->a->syms, addr, flags, &loc)
			     : perfev_symbolizer_resolve_file(b->a->syms, b->s->dso, addr, flags, &loc);
	if (r <= 0 || !loc.symbol)
		return false;
	if (loc.symoff)
		snprintf(buf, len, "%s+0x%" PRIx64, loc.symbol, loc.symoff);
	else
		snprintf(buf, len, "%s", loc.symbol);
	return true;
}

static void split_lines(struct pv_ann_src *f, size_t len)
{
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += f->data[i] == '\n';
	f->lines = calloc(n, sizeof(*f->lines));
	if (!f->lines)
		return;
	char *p = f->data;
	while (p < f->data + len || (p == f->data + len && f->nr == 0)) {
		char *nl = memchr(p, '\n', (size_t)(f->data + len - p));
		if (nl)
			*nl = '\0';
		size_t l = strlen(p);
		if (l && p[l - 1] == '\r')
			p[l - 1] = '\0';
		f->lines[f->nr++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
}

static struct pv_ann_src *source_file(struct perfev_annotation *a, const char *path)
{
	for (size_t i = 0; i < a->nr_src; i++)
		if (a->src[i].path == path || !strcmp(a->src[i].path, path))
			return &a->src[i];
	if (pv_grow(&a->src, &a->cap_src, a->nr_src + 1, sizeof(*a->src)) < 0)
		return NULL;
	struct pv_ann_src *f = &a->src[a->nr_src++];
	*f = (struct pv_ann_src){.path = path};
	size_t len = 0;
	int r = -ENOENT;
	if (a->o.symfs && a->o.symfs[0]) {
		char *p = NULL;
		if (asprintf(&p, "%s/%s", a->o.symfs, path) > 0)
			r = pv_read_file(p, &f->data, &len, MAX_SOURCE_SIZE);
		free(p);
	}
	if (r < 0 && pv_read_file(path, &f->data, &len, MAX_SOURCE_SIZE) < 0)
		f->data = NULL;
	if (f->data)
		split_lines(f, len);
	return f;
}

static const char *source_text(struct perfev_annotation *a, const char *path, uint32_t line)
{
	struct pv_ann_src *f = source_file(a, path);
	if (!f || !f->lines || line == 0 || line > f->nr)
		return NULL;
	const char *t = f->lines[line - 1];
	while (*t == ' ' || *t == '\t')
		t++;
	return t;
}

static bool same_str(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

void pv_ann_source_rows(struct pv_ann_build *b, struct perfev_annotate_row *insn)
{
	if (b->s->kernel)
		return; /* kallsyms has no lines; a vmlinux with DWARF is not looked for */
	struct perfev_location loc;
	const unsigned flags = PERFEV_RESOLVE_INLINE | PERFEV_RESOLVE_NO_PARAMS;
	if (perfev_symbolizer_resolve_file(b->a->syms, b->s->dso, insn->addr, flags, &loc) < 0 ||
	    !loc.nr_lines)
		return;
	const struct perfev_source_line *l = &loc.lines[0];
	insn->srcfile = l->file;
	insn->line = l->line;
	insn->function = l->function;
	insn->inlined = loc.nr_lines > 1;
	b->any_line |= l->line != 0;
	if (l->function && !same_str(l->function, b->last_func)) {
		struct perfev_annotate_row r = {.kind = PERFEV_ANNOTATE_FUNCTION, .text = l->function};
		pv_ann_row_add(b, &r);
		b->last_func = l->function;
		b->last_file = NULL; /* objdump shows the line again under the new name */
	}
	if (l->line && (l->line != b->last_line || !same_str(l->file, b->last_file))) {
		struct perfev_annotate_row r = {.kind = PERFEV_ANNOTATE_SOURCE, .srcfile = l->file,
						.line = l->line};
		r.text = l->file ? source_text(b->a, l->file, l->line) : NULL;
		pv_ann_row_add(b, &r);
		b->last_file = l->file;
		b->last_line = l->line;
	}
}

void pv_ann_sources_free(struct perfev_annotation *a)
{
	for (size_t i = 0; i < a->nr_src; i++) {
		free(a->src[i].data);
		free(a->src[i].lines);
	}
	free(a->src);
}
