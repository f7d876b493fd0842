/*
 * watch_sym.c — the watcher's addresses in words: which map, which symbol
 * (the library's symbolizer: .symtab, separate debug files, MiniDebugInfo,
 * so libc-internal frames are named too), a variable's address by name
 * (.symtab, else .dynsym: data symbols, which the symbolizer does not keep)
 * and, on x86, which instruction made the access that trapped at the next
 * one (capstone disassembles the symbol from its start up to the trap IP).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/symbols.h"
#include "symbols/elf_sym_int.h"
#include "watch/watch_int.h"

#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct esym {
	uint64_t addr, size;
	char *name;
};

struct eseg {
	uint64_t vaddr, offset, filesz;
};

struct elf_file {
	char *path;
	bool loaded, ok;
	struct esym *syms;
	size_t nr_syms, cap_syms;
	struct eseg *segs;
	size_t nr_segs;
};

struct wmap {
	uint64_t start, end, pgoff;
	struct elf_file *file;
};

struct pv_wsym {
	struct perfev_symbolizer *symbolizer;
	struct wmap *maps;
	size_t nr_maps, cap_maps;
	struct elf_file **files;
	size_t nr_files, cap_files;
};

struct pv_wsym *pv_wsym_new(void)
{
	struct pv_wsym *s = calloc(1, sizeof(*s));
	if (!s || !(s->symbolizer = perfev_symbolizer_new(NULL))) {
		free(s);
		return pv_error_null(ENOMEM, "out of memory");
	}
	return s;
}

void pv_wsym_free(struct pv_wsym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_files; i++) {
		struct elf_file *f = s->files[i];
		for (size_t j = 0; j < f->nr_syms; j++)
			free(f->syms[j].name);
		free(f->syms);
		free(f->segs);
		free(f->path);
		free(f);
	}
	free(s->files);
	free(s->maps);
	perfev_symbolizer_free(s->symbolizer);
	free(s);
}

static struct elf_file *file_of(struct pv_wsym *s, const char *path)
{
	for (size_t i = 0; i < s->nr_files; i++)
		if (!strcmp(s->files[i]->path, path))
			return s->files[i];
	if (pv_grow(&s->files, &s->cap_files, s->nr_files + 1, sizeof(*s->files)) < 0)
		return NULL;
	struct elf_file *f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	s->files[s->nr_files++] = f;
	return f;
}

int pv_wsym_add_map(struct pv_wsym *s, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path)
{
	if (!path || path[0] != '/')
		return 0; /* anonymous, [vdso], [stack]: nothing to read symbols from */
	struct elf_file *f = file_of(s, path);
	if (!f || pv_grow(&s->maps, &s->cap_maps, s->nr_maps + 1, sizeof(*s->maps)) < 0)
		return pv_error(ENOMEM, "out of memory");
	/* a later map over the same range replaces the earlier (exec, mmap over) */
	s->maps[s->nr_maps++] = (struct wmap){start, start + len, pgoff, f};
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int add_sym(const char *name, const GElf_Sym *sym, void *ctx)
{
	struct elf_file *f = ctx;
	int t = GELF_ST_TYPE(sym->st_info);
	if (t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_OBJECT)
		return 0;
	char *dup = strdup(name);
	if (!dup || pv_grow(&f->syms, &f->cap_syms, f->nr_syms + 1, sizeof(*f->syms)) < 0) {
		free(dup);
		return 0;
	}
	f->syms[f->nr_syms++] = (struct esym){sym->st_value, sym->st_size, dup};
	return 0;
}

static void load(struct elf_file *f)
{
	f->loaded = true;
	elf_version(EV_CURRENT);
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t nph;
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		f->segs = calloc(nph ? nph : 1, sizeof(*f->segs));
		for (size_t i = 0; f->segs && i < nph; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				f->segs[f->nr_segs++] = (struct eseg){ph.p_vaddr, ph.p_offset, ph.p_filesz};
		}
		pv_elf_each_symbol(elf, SHT_SYMTAB, add_sym, f);
		if (!f->nr_syms)
			pv_elf_each_symbol(elf, SHT_DYNSYM, add_sym, f);
		qsort(f->syms, f->nr_syms, sizeof(*f->syms), cmp_sym);
		f->ok = true;
	}
	elf_end(elf);
	close(fd);
}

static bool vaddr_to_off(const struct elf_file *f, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < f->nr_segs; i++)
		if (vaddr >= f->segs[i].vaddr && vaddr < f->segs[i].vaddr + f->segs[i].filesz) {
			*off = vaddr - f->segs[i].vaddr + f->segs[i].offset;
			return true;
		}
	return false;
}

static const struct wmap *map_of(const struct pv_wsym *s, uint64_t ip)
{
	for (size_t i = s->nr_maps; i-- > 0;)
		if (ip >= s->maps[i].start && ip < s->maps[i].end)
			return &s->maps[i];
	return NULL;
}

void pv_wsym_resolve(struct pv_wsym *s, int pid, uint64_t ip, struct pv_wloc *out)
{
	memset(out, 0, sizeof(*out));
	out->dso = "[unknown]";
	out->rel = ip;
	const struct wmap *m = map_of(s, ip);
	if (!m)
		return;
	out->dso = m->file->path;
	struct perfev_map map = {.start = m->start, .end = m->end, .pgoff = m->pgoff, .path = m->file->path};
	struct perfev_location loc;
	if (perfev_symbolizer_resolve(s->symbolizer, pid, &map, ip, 0, &loc) < 0 || !loc.map)
		return;
	out->rel = loc.rel_ip;
	out->bias = ip - loc.rel_ip;
	if (loc.symbol) {
		out->symbol = loc.symbol;
		out->symoff = loc.symoff;
		out->sym_vaddr = loc.rel_ip - loc.symoff;
	}
}

int pv_wsym_lookup(struct pv_wsym *s, const char *path, const char *name, uint64_t *vaddr,
		   uint64_t *size)
{
	struct elf_file *f = file_of(s, path);
	if (!f)
		return pv_error(ENOMEM, "out of memory");
	if (!f->loaded)
		load(f);
	for (size_t i = 0; i < f->nr_syms; i++)
		if (!strcmp(f->syms[i].name, name)) {
			*vaddr = f->syms[i].addr;
			*size = f->syms[i].size;
			return 0;
		}
	return pv_error(ENOENT, "no symbol '%s' in %s (.symtab/.dynsym): check the name with "
			"`nm %s`, or give the address as 0x...", name, path, path);
}

int pv_wsym_bias(struct pv_wsym *s, const char *path, uint64_t *bias)
{
	for (size_t i = 0; i < s->nr_maps; i++) {
		const struct wmap *m = &s->maps[i];
		if (m->pgoff || strcmp(m->file->path, path))
			continue;
		if (!m->file->loaded)
			load(m->file);
		for (size_t j = 0; j < m->file->nr_segs; j++)
			if (m->file->segs[j].offset == 0) {
				*bias = m->start - m->file->segs[j].vaddr;
				return 0;
			}
	}
	return pv_error(ENOENT, "%s is not mapped at file offset 0", path);
}

int pv_wsym_insn_before(struct pv_wsym *s, int pid, uint64_t ip, uint64_t *insn)
{
	*insn = ip;
#if defined(__x86_64__)
	struct pv_wloc loc;
	pv_wsym_resolve(s, pid, ip, &loc);
	const struct wmap *m = map_of(s, ip);
	uint64_t off;
	if (!loc.symbol || !loc.symoff || loc.symoff > 1 << 20 || !m ||
	    !vaddr_to_off(m->file, loc.sym_vaddr, &off))
		return -ENOENT;
	size_t n = (size_t)loc.symoff;
	uint8_t *code = malloc(n);
	int fd = code ? open(m->file->path, O_RDONLY | O_CLOEXEC) : -1;
	int r = -ENOENT;
	if (fd >= 0 && pread(fd, code, n, (off_t)off) == (ssize_t)n) {
		csh h;
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) == CS_ERR_OK) {
			cs_insn *ins = cs_malloc(h);
			const uint8_t *p = code;
			size_t left = n;
			uint64_t at = loc.sym_vaddr;
			while (ins && left && cs_disasm_iter(h, &p, &left, &at, ins)) {
				if (at == loc.sym_vaddr + n) { /* this one ends at the trap */
					*insn = ins->address + loc.bias;
					r = 0;
					break;
				}
			}
			cs_free(ins, 1);
			cs_close(&h);
		}
	}
	if (fd >= 0)
		close(fd);
	free(code);
	return r;
#else
	(void)s;
	(void)pid;
	return -ENOENT; /* arm64 reports the accessing instruction itself */
#endif
}
