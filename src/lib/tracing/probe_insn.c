/* probe_insn.c — a uprobe at SYMBOL+OFFSET must sit on an instruction
 * boundary (the kernel would plant its breakpoint inside an instruction
 * and the program would run garbage): the function is decoded with
 * capstone (x86) or by its fixed width (arm64), and an offset inside an
 * instruction is refused with the boundaries around it, as perf probe does. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "symbols/elf_sym_int.h"
#include "tracing/probe_int.h"

#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FUNC (1u << 20) /* decode at most 1 MB of one function */

struct fsym {
	const char *name;
	uint64_t vaddr, size;
	bool found;
};

static int match_func(const char *name, const GElf_Sym *s, void *ctx)
{
	struct fsym *f = ctx;
	int t = GELF_ST_TYPE(s->st_info);
	if ((t != STT_FUNC && t != STT_GNU_IFUNC) || strcmp(name, f->name))
		return 0;
	f->vaddr = s->st_value;
	f->size = s->st_size;
	f->found = true;
	return 1;
}

/* The instruction boundaries around off in code[0..n): *before <= off <
 * *after; returns true when off is one. False with *after = 0 when the
 * decoder stopped (data in code, unknown opcode) before off: unknown. */
static bool boundaries(GElf_Half machine, bool elf64, const uint8_t *code, size_t n, uint64_t off,
		       uint64_t *before, uint64_t *after)
{
	*before = 0;
	*after = 0;
	if (machine == EM_AARCH64) {
		*before = off & ~3ull;
		*after = *before + 4;
		return off % 4 == 0;
	}
	csh h;
	if (cs_open(CS_ARCH_X86, elf64 ? CS_MODE_64 : CS_MODE_32, &h) != CS_ERR_OK)
		return true;
	cs_insn *ins = cs_malloc(h);
	const uint8_t *p = code;
	size_t left = n;
	uint64_t at = 0;
	bool ok = true;
	while (ins && left && cs_disasm_iter(h, &p, &left, &at, ins)) {
		if (ins->address == off)
			break;
		if (at > off) { /* off lies inside this one */
			*before = ins->address;
			*after = at;
			ok = false;
			break;
		}
	}
	cs_free(ins, 1);
	cs_close(&h);
	return ok;
}

int pv_probe_check_offset(const char *path, const char *symbol, uint64_t offset)
{
	if (!offset || !strncmp(symbol, "0x", 2))
		return 0; /* an address has no extent to decode */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* the caller already reported what it could not read */
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	struct fsym f = {symbol, 0, 0, false};
	int r = 0;
	uint8_t *code = NULL;
	if (!elf || !gelf_getehdr(elf, &eh))
		goto out;
	if (!pv_elf_each_symbol(elf, SHT_SYMTAB, match_func, &f))
		pv_elf_each_symbol(elf, SHT_DYNSYM, match_func, &f);
	if (!f.found || !f.size)
		goto out; /* not a function of known size: nothing to check against */
	if (offset >= f.size) {
		r = pv_error(EINVAL, "%s+%llu: the offset is past the end of %s (%llu bytes): give an offset "
			     "below %llu", symbol, (unsigned long long)offset, symbol,
			     (unsigned long long)f.size, (unsigned long long)f.size);
		goto out;
	}
	if (eh.e_machine != EM_X86_64 && eh.e_machine != EM_386 && eh.e_machine != EM_AARCH64)
		goto out;
	uint64_t foff;
	size_t n = f.size < MAX_FUNC ? (size_t)f.size : MAX_FUNC;
	if (offset >= n || pv_elf_vaddr_to_offset(elf, f.vaddr, &foff) < 0 || !(code = malloc(n)) ||
	    pread(fd, code, n, (off_t)foff) != (ssize_t)n)
		goto out;
	uint64_t before, after;
	if (!boundaries(eh.e_machine, eh.e_ident[EI_CLASS] == ELFCLASS64, code, n, offset, &before, &after))
		r = pv_error(EINVAL, "%s+%llu is not on an instruction boundary: the instruction there spans "
			     "%s+%llu..%llu; probe at %s+%llu or %s+%llu instead (objdump -d shows the "
			     "instructions)", symbol, (unsigned long long)offset, symbol,
			     (unsigned long long)before, (unsigned long long)after - 1, symbol,
			     (unsigned long long)before, symbol, (unsigned long long)after);
out:
	free(code);
	if (elf)
		elf_end(elf);
	close(fd);
	return r;
}
