/* vmlinux.c — perf's -k/--vmlinux: a kernel's symbols from its vmlinux ELF
 * (the symbol table, not DWARF), written as kallsyms text into an
 * anonymous memory file, so that every reader of a kallsyms path (the
 * symbolizer, the resolver's _text/_stext lookup for KASLR) reads them
 * unchanged. perf's dso__load_sym keeps functions and labels (untyped
 * symbols of executable sections); "_text" is one of those, and the
 * recording's "[kernel.kallsyms]_text" map relocates by it, as perf. */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static bool executable(Elf *elf, size_t shndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* The symtab's functions and labels as kallsyms lines to out. 0 or -errno. */
static int write_symbols(Elf *elf, const char *path, FILE *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) && !(gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB))
		;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !sh.sh_entsize)
		return pv_error(ENOENT, "-k/--vmlinux %s: no symbol table (a stripped image: give the vmlinux "
				"with symbols, or --kallsyms FILE)", path);
	size_t n = sh.sh_size / sh.sh_entsize, kept = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
		int type = GELF_ST_TYPE(sym.st_info);
		bool fn = type == STT_FUNC || type == STT_GNU_IFUNC;
		bool label = type == STT_NOTYPE && executable(elf, sym.st_shndx);
		if (!name || !*name || !strncmp(name, ".L", 2) || !sym.st_value || !(fn || label))
			continue;
		fprintf(out, "%016llx %c %s\n", (unsigned long long)sym.st_value,
			GELF_ST_BIND(sym.st_info) == STB_LOCAL ? 't' : 'T', name);
		kept++;
	}
	return kept ? 0 : pv_error(ENOENT, "-k/--vmlinux %s: no function symbols", path);
}

int pv_vmlinux_kallsyms(const char *path, const uint8_t *build_id, size_t build_id_len, int *fd_out)
{
	*fd_out = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pv_error(errno, "-k/--vmlinux %s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int err = 0;
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		err = pv_error(ENOEXEC, "-k/--vmlinux %s: not an ELF file (give the uncompressed vmlinux, not "
			       "a vmlinuz)", path);
	uint8_t id[PERFEV_BUILD_ID_MAX];
	int len = err ? 0 : pv_file_build_id(path, id, sizeof(id));
	/* perf rejects an image of another build (symsrc__init): its kernel
	 * addresses stay unresolved */
	if (!err && build_id_len && len > 0 && ((size_t)len != build_id_len || memcmp(id, build_id, build_id_len))) {
		pv_note("-k/--vmlinux %s: its build-id is not the recorded kernel's: kernel addresses stay "
			"unresolved, as perf leaves them", path);
		err = 1;
	}
	int mfd = err ? -1 : memfd_create("perfev-vmlinux", MFD_CLOEXEC);
	FILE *out = mfd >= 0 ? fdopen(dup(mfd), "w") : NULL;
	if (!err && !out)
		err = pv_error(errno ? errno : ENOMEM, "-k/--vmlinux: %s", strerror(errno ? errno : ENOMEM));
	if (!err)
		err = write_symbols(elf, path, out);
	if (out && fclose(out) && !err)
		err = pv_error(EIO, "-k/--vmlinux: writing its symbols failed");
	if (elf)
		elf_end(elf);
	close(fd);
	if (err) {
		if (mfd >= 0)
			close(mfd);
		return err < 0 ? err : 0; /* (1: another build's, no kernel symbols) */
	}
	*fd_out = mfd;
	return 0;
}
