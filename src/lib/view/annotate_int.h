/* annotate_int.h — perfev annotate's parts (perfev/annotate.h): the loader
 * (annotate.c: the profile's samples per symbol and address), the
 * disassembler (annotate_disasm.c: capstone, objdump's text), the source
 * rows (annotate_source.c: DWARF lines, inlined functions, source text) and
 * the printers (annotate_print.c: perf's --stdio, --print-line, JSON). */
#ifndef PERFEV_VIEW_ANNOTATE_INT_H
#define PERFEV_VIEW_ANNOTATE_INT_H

#include "core/internal.h"
#include "core/strpool.h"
#include "perfev/annotate.h"
#include "perfev/symbols.h"

/* The samples at one address of a symbol. */
struct pv_ann_hit {
	uint64_t addr, samples, period;
};

/* A source file's lines, read once. */
struct pv_ann_src {
	const char *path; /* pooled, as DWARF names it */
	char *data;       /* NULL: unreadable */
	char **lines;     /* lines[i] is line i + 1 */
	size_t nr;
};

struct perfev_annotation {
	struct pv_strpool *pool;
	struct perfev_symbolizer *syms;
	struct perfev_annotate_opts o;
	char event[128];
	uint64_t total_samples, total_period;
	struct perfev_annotated_symbol *sym;
	size_t nr_sym, cap_sym;
	struct pv_ann_src *src;
	size_t nr_src, cap_src;
};

/* Rows of one symbol while they are built. */
struct pv_ann_build {
	struct perfev_annotation *a;
	struct perfev_annotated_symbol *s;
	struct perfev_annotate_row *rows;
	size_t nr, cap;
	const struct pv_ann_hit *hits; /* by address */
	size_t nr_hits;
	/* the last source position and function shown (row kinds SOURCE, FUNCTION) */
	const char *last_file, *last_func;
	uint32_t last_line;
	bool any_line;
};

/* Appends a row (copied); NULL on ENOMEM. */
struct perfev_annotate_row *pv_ann_row_add(struct pv_ann_build *b, const struct perfev_annotate_row *r);
/* Disassembles code (at start, the object's addresses) into rows, with the
 * hits' samples and the source rows before each instruction. 0 or -errno. */
int pv_ann_disasm(struct pv_ann_build *b, const uint8_t *code, size_t len, uint64_t start,
		  uint16_t machine);
/* The source rows (FUNCTION, SOURCE) that go before the instruction at addr,
 * whose own srcfile, line and function it fills in. */
void pv_ann_source_rows(struct pv_ann_build *b, struct perfev_annotate_row *insn);
/* "sym" or "sym+0x1f" naming addr of the symbol's object, into buf; false when no symbol. */
bool pv_ann_name_addr(struct pv_ann_build *b, uint64_t addr, char *buf, size_t len);
void pv_ann_sources_free(struct perfev_annotation *a);

#endif
