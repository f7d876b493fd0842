/*
 * symbols_dwarf.c — source lines and inlined frames from DWARF (libdw),
 * cached per binary and address. The chain is built as addr2line -i does:
 * the line table gives the innermost position; each enclosing
 * DW_TAG_inlined_subroutine's DW_AT_call_file/call_line gives the position
 * in the function it was inlined into, up to the DW_TAG_subprogram.
 */
#include "symbols_int.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

static const char *die_function(struct perfev_symbolizer *s, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a)) {
		n = dwarf_formstring(&a);
		if (n)
			return pv_demangle_pooled(s->pool, n, true);
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &a))
		n = dwarf_formstring(&a);
	return n ? pv_strpool_add(s->pool, n) : NULL;
}

static Dwarf *dso_dwarf(struct perfev_symbolizer *s, struct pv_dso *d)
{
	if (d->dwarf_tried)
		return d->dwarf;
	d->dwarf_tried = true;
	if (d->debug.elf)
		d->dwarf = dwarf_begin_elf(d->debug.elf, DWARF_C_READ, NULL);
	if (!d->dwarf && d->bin.elf)
		d->dwarf = dwarf_begin_elf(d->bin.elf, DWARF_C_READ, NULL);
	if (!d->dwarf && (d->bin.elf || d->debug.elf))
		pv_sym_note(s, "%s: no DWARF debug info: source lines and inlined frames unknown; "
			    "build with -g or install its debug package", d->name);
	return d->dwarf;
}

#define MAX_DEPTH 64

/* The chain of code DIEs containing addr below parent, outermost first. */
static int walk(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *chain, int depth)
{
	Dwarf_Die child;
	if (depth >= MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return depth;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, addr) == 1) {
				chain[depth] = child;
				return walk(&child, addr, chain, depth + 1);
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type: {
			int d = walk(&child, addr, chain, depth);
			if (d > depth)
				return d;
			break;
		}
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return depth;
}

static int push(struct pv_srcinfo *si, size_t *cap, const char *fn, const char *file,
		uint32_t line, uint32_t col)
{
	if (pv_grow(&si->lines, cap, si->nr + 1, sizeof(*si->lines)) < 0)
		return -ENOMEM;
	si->lines[si->nr++] = (struct perfev_source_line){fn, file, line, col};
	return 0;
}

static void compute(struct perfev_symbolizer *s, Dwarf *dw, uint64_t addr, bool inlines,
		    struct pv_srcinfo *si)
{
	Dwarf_Die cu;
	size_t cap = 0;
	if (!dwarf_addrdie(dw, addr, &cu))
		return;
	const char *file = NULL;
	int line = 0, col = 0;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	if (l) {
		const char *f = dwarf_linesrc(l, NULL, NULL);
		file = f ? pv_strpool_add(s->pool, f) : NULL;
		dwarf_lineno(l, &line);
		dwarf_linecol(l, &col);
	}
	/* The innermost scope at addr, then its physical parents (as eu-addr2line):
	 * dwarf_getscopes alone continues into the abstract origin's parents.
	 * Where it finds nothing (Rust CUs described by DW_AT_ranges), walk. */
	Dwarf_Die *scopes = NULL, inner;
	int n = dwarf_getscopes(&cu, addr, &scopes);
	if (n > 0) {
		inner = scopes[0];
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	} else {
		free(scopes);
		scopes = NULL;
		Dwarf_Die chain[MAX_DEPTH];
		int depth = walk(&cu, addr, chain, 0);
		if (depth > 0 && (scopes = calloc((size_t)depth, sizeof(*scopes)))) {
			for (int i = 0; i < depth; i++)
				scopes[i] = chain[depth - 1 - i];
			n = depth;
		} else {
			n = 0;
		}
	}
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		if (push(si, &cap, die_function(s, &scopes[i]), file, (uint32_t)PV_MAX(line, 0),
			 (uint32_t)PV_MAX(col, 0)) < 0)
			break;
		if (tag == DW_TAG_subprogram || !inlines)
			break;
		/* the position in the caller is where this inlined copy was called */
		Dwarf_Attribute a;
		Dwarf_Word w;
		file = NULL;
		line = col = 0;
		if (!files && dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
			files = NULL;
		if (files && dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &w) == 0 &&
		    w < nfiles) {
			const char *f = dwarf_filesrc(files, w, NULL, NULL);
			file = f ? pv_strpool_add(s->pool, f) : NULL;
		}
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &w) == 0)
			line = (int)w;
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_column, &a), &w) == 0)
			col = (int)w;
	}
	free(scopes);
	if (si->nr == 0 && file) /* a line without a function DIE (e.g. assembly) */
		push(si, &cap, NULL, file, (uint32_t)PV_MAX(line, 0), (uint32_t)PV_MAX(col, 0));
}

const struct pv_srcinfo *pv_dso_srcinfo(struct perfev_symbolizer *s, struct pv_dso *d,
					uint64_t vaddr, bool inlines)
{
	uint64_t key = vaddr << 1 | inlines;
	struct pv_srcinfo *si = pv_u64map_get(&d->srcinfo, key);
	if (si)
		return si;
	Dwarf *dw = dso_dwarf(s, d);
	si = calloc(1, sizeof(*si));
	if (!si)
		return NULL;
	if (dw)
		compute(s, dw, vaddr, inlines, si);
	if (pv_u64map_put(&d->srcinfo, key, si) < 0) {
		free(si->lines);
		free(si);
		return NULL;
	}
	return si;
}
