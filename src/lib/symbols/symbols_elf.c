/*
 * symbols_elf.c — the function symbols of an ELF image (.symtab or
 * .dynsym), its PLT entries as name@plt (synthesized from .rela.plt as perf
 * and objdump do: the stubs have no symbols of their own), and its PT_LOAD
 * segments. Every offset and count read from the file is bounds-checked by
 * libelf's accessors or here.
 */
#include "symbols/symbols_int.h"

#include <stdlib.h>
#include <string.h>

static int read_plt(struct pv_strpool *p, Elf *elf, struct pv_symtab *t);

Elf_Scn *pv_elf_section(Elf *elf, const char *name, GElf_Shdr *out)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && strcmp(n, name) == 0) {
			if (out)
				*out = sh;
			return scn;
		}
	}
	return NULL;
}

/* Symbols that name code: functions, and (as perf) labels in executable
 * sections, such as ld.so's _start. */
static bool is_code(Elf *elf, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE || sym->st_value == 0)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return true;
	if (type != STT_NOTYPE)
		return false;
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, sym->st_shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static uint8_t rank_of(const GElf_Sym *sym)
{
	if (GELF_ST_TYPE(sym->st_info) == STT_NOTYPE)
		return 0; /* a label loses to a function at the same address */
	switch (GELF_ST_BIND(sym->st_info)) { /* perf: non-weak first, then global */
	case STB_GLOBAL: return 3;
	case STB_WEAK: return 1;
	default: return 2;
	}
}

int pv_elf_read_symbols(struct pv_strpool *p, Elf *elf, struct pv_symtab *t, bool dynsym)
{
	int added = 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type != (dynsym ? SHT_DYNSYM : SHT_SYMTAB) || sh.sh_entsize == 0)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data || sh.sh_type == SHT_NOBITS)
			continue;
		size_t n = data->d_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym) || !is_code(elf, &sym))
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			/* names as the table spells them: a .symtab may carry versions
			 * (__libc_start_main@@GLIBC_2.34), and nm and perf show them */
			const char *pooled = pv_strpool_add(p, name);
			if (pv_symtab_add(t, sym.st_value, sym.st_size, pooled, NULL,
					  rank_of(&sym)) < 0)
				return -ENOMEM;
			added++;
		}
	}
	return added;
}

/*
 * Source files from the symbol table, for code DWARF does not describe (a
 * binary's crtstuff.c, a program built without -g): binutils' addr2line
 * (perf's srcline) names the STT_FILE before the nearest code symbol, a local
 * one, or a global one while no other symbol came between that STT_FILE and
 * the first symbol (elf_find_function's symbol_seen states).
 */
static int filesym_cmp(const void *a, const void *b)
{
	const struct pv_filesym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index; /* addr2line keeps the first */
}

ssize_t pv_elf_read_filesyms(struct pv_strpool *p, Elf *elf, struct pv_filesym **out)
{
	*out = NULL;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) && !(gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB))
		;
	Elf_Data *data = scn && sh.sh_entsize ? elf_getdata(scn, NULL) : NULL;
	if (!data)
		return 0;
	size_t n = data->d_size / sh.sh_entsize, nr = 0, cap = 0;
	struct pv_filesym *f = NULL;
	const char *file = NULL;
	bool seen = false, file_after_seen = false;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
			file = name ? pv_strpool_add(p, name) : NULL; /* "" too: addr2line's ":?" */
			file_after_seen = seen;
			continue;
		}
		seen = true;
		GElf_Shdr ss;
		Elf_Scn *sec = sym.st_shndx && sym.st_shndx < SHN_LORESERVE ? elf_getscn(elf, sym.st_shndx) : NULL;
		if ((type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC) || !sec ||
		    !gelf_getshdr(sec, &ss) || !(ss.sh_flags & SHF_EXECINSTR))
			continue;
		if (pv_grow(&f, &cap, nr + 1, sizeof(*f)) < 0) {
			free(f);
			return -ENOMEM;
		}
		bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		f[nr++] = (struct pv_filesym){sym.st_value, ss.sh_addr, ss.sh_addr + ss.sh_size,
					      local || !file_after_seen ? file : NULL, (uint32_t)i};
	}
	if (nr > 1)
		qsort(f, nr, sizeof(*f), filesym_cmp);
	*out = f;
	return (ssize_t)nr;
}

const char *pv_filesyms_find(const struct pv_filesym *f, size_t nr, uint64_t vaddr)
{
	size_t i = nr ? pv_upper_bound(f, nr, sizeof(*f), vaddr) : 0;
	if (i == 0)
		return NULL;
	/* the first of the symbols at the nearest address below */
	while (i > 1 && f[i - 2].addr == f[i - 1].addr)
		i--;
	const struct pv_filesym *s = &f[i - 1];
	return vaddr >= s->sec_lo && vaddr < s->sec_hi ? s->file : NULL;
}

/*
 * x86_64 .plt.got: stubs for functions also referenced through the GOT
 * (jmp *slot(%rip)); named after the GLOB_DAT relocation of their slot.
 */
static int read_plt_got(struct pv_strpool *p, Elf *elf, struct pv_symtab *t)
{
	GElf_Shdr pg, rd, dsh;
	Elf_Scn *pg_scn = pv_elf_section(elf, ".plt.got", &pg);
	Elf_Scn *rd_scn = pv_elf_section(elf, ".rela.dyn", &rd);
	if (!pg_scn || !rd_scn || pg.sh_type != SHT_PROGBITS || rd.sh_type != SHT_RELA ||
	    rd.sh_entsize == 0)
		return 0;
	Elf_Data *code = elf_getdata(pg_scn, NULL), *rel = elf_getdata(rd_scn, NULL);
	Elf_Scn *ds = elf_getscn(elf, rd.sh_link);
	Elf_Data *syms = ds && gelf_getshdr(ds, &dsh) ? elf_getdata(ds, NULL) : NULL;
	if (!code || !code->d_buf || !rel || !syms)
		return 0;
	const uint8_t *b = code->d_buf;
	size_t size = code->d_size, nrel = rel->d_size / rd.sh_entsize;
	size_t ent = size >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa ? 16 : 8;
	int added = 0;
	char buf[512];
	for (size_t off = 0; off + ent <= size; off += ent) {
		uint64_t slot = 0;
		for (size_t k = 0; k + 6 <= ent; k++)
			if (b[off + k] == 0xff && b[off + k + 1] == 0x25) {
				int32_t disp;
				memcpy(&disp, b + off + k + 2, 4);
				slot = pg.sh_addr + off + k + 6 + (int64_t)disp;
				break;
			}
		if (!slot)
			continue;
		for (size_t i = 0; i < nrel; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			if (!gelf_getrela(rel, (int)i, &r) || r.r_offset != slot ||
			    GELF_R_TYPE(r.r_info) != R_X86_64_GLOB_DAT ||
			    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			const char *name = elf_strptr(elf, dsh.sh_link, sym.st_name);
			if (!name || !*name)
				break;
			snprintf(buf, sizeof(buf), "%s@plt", name);
			if (pv_symtab_add(t, pg.sh_addr + off, ent, pv_strpool_add(p, buf), NULL, 0) < 0)
				return -ENOMEM;
			added++;
			break;
		}
	}
	return added;
}

int pv_elf_read_plt(struct pv_strpool *p, Elf *elf, struct pv_symtab *t)
{
	int got = 0;
	GElf_Ehdr eh0;
	if (gelf_getehdr(elf, &eh0) && eh0.e_machine == EM_X86_64)
		got = read_plt_got(p, elf, t);
	if (got < 0)
		return got;
	return got + read_plt(p, elf, t);
}

static int read_plt(struct pv_strpool *p, Elf *elf, struct pv_symtab *t)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return 0;
	uint64_t first, entsize;
	GElf_Shdr plt, pltsec, rela;
	Elf_Scn *rela_scn = pv_elf_section(elf, ".rela.plt", &rela);
	if (!rela_scn || rela.sh_type != SHT_RELA || rela.sh_entsize == 0)
		return 0;
	if (eh.e_machine == EM_X86_64 && pv_elf_section(elf, ".plt.sec", &pltsec) &&
	    pltsec.sh_type == SHT_PROGBITS) {
		first = pltsec.sh_addr; /* IBT: the stubs proper, no PLT0 */
		entsize = 16;
	} else if (pv_elf_section(elf, ".plt", &plt) && plt.sh_type == SHT_PROGBITS) {
		if (eh.e_machine == EM_X86_64 || eh.e_machine == EM_386) {
			first = plt.sh_addr + 16;
			entsize = 16;
		} else if (eh.e_machine == EM_AARCH64) {
			first = plt.sh_addr + 32;
			entsize = 16;
		} else {
			return 0;
		}
	} else {
		return 0;
	}
	Elf_Data *data = elf_getdata(rela_scn, NULL);
	Elf_Scn *dynsym_scn = elf_getscn(elf, rela.sh_link);
	GElf_Shdr dsh;
	/* perf 6.1 (dso__synthesize_plt_symbols) makes them only from a
	 * .rela.plt of .dynsym: a static binary's, of .symtab (its IFUNCs'
	 * IRELATIVE slots), leaves .plt to the symbol before it (_init) */
	if (!data || !dynsym_scn || !gelf_getshdr(dynsym_scn, &dsh) || dsh.sh_type != SHT_DYNSYM)
		return 0;
	Elf_Data *syms = elf_getdata(dynsym_scn, NULL);
	if (!syms)
		return 0;
	size_t n = data->d_size / rela.sh_entsize;
	int added = 0;
	char buf[512];
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		if (!gelf_getrela(data, (int)i, &r))
			continue;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		/* a relocation without a symbol (x86_64 R_X86_64_IRELATIVE: libc's
		 * calls of its own IFUNCs) makes "@plt", as perf 6.1 names it */
		const char *name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		if (!name)
			continue;
		snprintf(buf, sizeof(buf), "%s@plt", name);
		if (pv_symtab_add(t, first + i * entsize, entsize, pv_strpool_add(p, buf), NULL, 0) < 0)
			return -ENOMEM;
		added++;
	}
	return added;
}

int pv_elf_read_segments(Elf *elf, struct pv_segment **segs, size_t *nr)
{
	size_t phnum;
	*segs = NULL;
	*nr = 0;
	if (elf_getphdrnum(elf, &phnum) < 0 || phnum == 0)
		return 0;
	struct pv_segment *s = calloc(phnum, sizeof(*s));
	if (!s)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		s[n++] = (struct pv_segment){ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz};
	}
	*segs = s;
	*nr = n;
	return 0;
}
