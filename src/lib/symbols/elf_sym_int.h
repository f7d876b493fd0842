/* elf_sym_int.h — walking an ELF symbol table (private; probe_elf.c). */
#ifndef PERFEV_ELF_SYM_INT_H
#define PERFEV_ELF_SYM_INT_H

#include <gelf.h>

/* Calls fn for every defined symbol with a value in the sections of `type`
 * (SHT_SYMTAB or SHT_DYNSYM); a non-zero return from fn stops the walk and
 * is returned. Returns 0 when the walk ends. */
int pv_elf_each_symbol(Elf *elf, Elf64_Word type,
		       int (*fn)(const char *name, const GElf_Sym *sym, void *ctx), void *ctx);

/* vaddr → file offset through the PT_LOAD segment that holds it; 0 or -ENOENT. */
int pv_elf_vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off);

#endif
