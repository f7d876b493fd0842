/* probe_elf.c — where a function starts in an ELF file, as a file offset
 * (what the uprobe PMU and uprobe_events take). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/probe.h"
#include "symbols/elf_sym_int.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pv_elf_each_symbol(Elf *elf, Elf64_Word type,
		       int (*fn)(const char *name, const GElf_Sym *sym, void *ctx), void *ctx)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s) || !s.st_value || s.st_shndx == SHN_UNDEF)
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
			int r = name && *name ? fn(name, &s, ctx) : 0;
			if (r)
				return r;
		}
	}
	return 0;
}

struct find {
	const char *name;
	uint64_t vaddr;
};

static int match(const char *name, const GElf_Sym *s, void *ctx)
{
	struct find *f = ctx;
	int t = GELF_ST_TYPE(s->st_info);
	if ((t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_OBJECT && t != STT_NOTYPE) ||
	    strcmp(name, f->name))
		return 0;
	f->vaddr = s->st_value;
	return 1;
}

static int find_symbol(Elf *elf, Elf64_Word type, const char *name, uint64_t *vaddr)
{
	struct find f = {name, 0};
	if (!pv_elf_each_symbol(elf, type, match, &f))
		return -ENOENT;
	*vaddr = f.vaddr;
	return 0;
}

/* vaddr → file offset through the PT_LOAD segment that holds it. */
int pv_elf_vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) < 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_memsz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

PERFEV_API int perfev_elf_symbol_file_offset(const char *path, const char *symbol,
					     uint64_t *file_offset)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pv_error(EINVAL, "libelf: %s", elf_errmsg(-1));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pv_error(errno, "cannot open '%s': %s", path, strerror(errno));
	int r;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		r = pv_error(ENOEXEC, "'%s' is not an ELF file: give the executable or library",
			     path);
		goto out;
	}
	uint64_t vaddr = 0;
	char *end;
	if (!strncmp(symbol, "0x", 2)) {
		vaddr = strtoull(symbol, &end, 16);
		if (*end) {
			r = pv_error(EINVAL, "address '%s' is not hexadecimal", symbol);
			goto out;
		}
	} else if (find_symbol(elf, SHT_SYMTAB, symbol, &vaddr) < 0 &&
		   find_symbol(elf, SHT_DYNSYM, symbol, &vaddr) < 0) {
		r = pv_error(ENOENT, "no symbol '%s' in '%s' (.symtab/.dynsym): check the name "
			     "(`nm -D %s`), or give the address as 0xVADDR", symbol, path, path);
		goto out;
	}
	if (pv_elf_vaddr_to_offset(elf, vaddr, file_offset) < 0) {
		r = pv_error(ENOENT, "'%s' (0x%llx) lies in no loadable segment of '%s'", symbol,
			     (unsigned long long)vaddr, path);
		goto out;
	}
	r = 0;
out:
	elf_end(elf);
	close(fd);
	return r;
}
