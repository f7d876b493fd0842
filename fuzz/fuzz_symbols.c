/*
 * Fuzz target: the symbolizer's ELF path on an in-memory ELF (elf_memory):
 * build-id, PT_LOAD segments, .symtab/.dynsym, synthesized PLT names,
 * MiniDebugInfo (xz inside), demangling, symbol lookups, and DWARF source
 * lines with inline chains for addresses inside the symbols found.
 */
#include "symbols/symbols_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct perfev_symbolizer *s;
	if (!s) {
		struct perfev_symbolizer_opts o = {.sz = sizeof(o), .no_debuginfod = true,
						   .no_proc_root = true, .kallsyms = ""};
		s = perfev_symbolizer_new(&o);
		if (!s)
			return 0;
	}
	if (size < 16)
		return 0;
	void *copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct pv_dso *d = calloc(1, sizeof(*d));
	if (!d) {
		free(copy);
		return 0;
	}
	d->name = "fuzz";
	if (pv_elf_open_mem(&d->bin, copy, size) < 0) { /* takes copy */
		free(d);
		return 0;
	}
	d->build_id_len = (uint8_t)pv_elf_build_id(d->bin.elf, d->build_id, sizeof(d->build_id));
	pv_elf_read_segments(d->bin.elf, &d->segs, &d->nr_segs);
	pv_elf_read_symbols(s->pool, d->bin.elf, &d->syms, false);
	pv_elf_read_symbols(s->pool, d->bin.elf, &d->syms, true);
	pv_elf_read_plt(s->pool, d->bin.elf, &d->syms);
	if (pv_minidebuginfo(d->bin.elf, &d->mini) == 0)
		pv_elf_read_symbols(s->pool, d->mini.elf, &d->syms, false);
	pv_symtab_finish(&d->syms);
	for (size_t i = 0; i < d->syms.nr && i < 64; i++) {
		const struct pv_sym *sym = pv_symtab_find(&d->syms, d->syms.syms[i].start);
		if (sym)
			pv_demangle_pooled(s->pool, sym->name, (enum pv_demangle)(i % 3));
		pv_dso_srcinfo(s, d, d->syms.syms[i].start + d->syms.syms[i].size / 2, i & 1,
			       (enum pv_demangle)(i % 3));
	}
	pv_dso_free(d);
	return 0;
}
