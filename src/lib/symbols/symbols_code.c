/*
 * symbols_code.c — machine code for disassemblers: a binary's bytes at its
 * own addresses, read from the image the symbolizer already mapped for its
 * symbols (one lookup of the file, one mapping), and the running kernel's
 * from /proc/kcore, an ELF core whose PT_LOAD segments are kernel memory.
 */
#include "symbols/code.h"
#include "symbols/symbols_int.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int pv_symbolizer_code(struct perfev_symbolizer *s, const char *path, uint64_t vaddr,
		       uint64_t len, struct pv_code *out)
{
	memset(out, 0, sizeof(*out));
	struct pv_dso *d = pv_symbolizer_dso(s, -1, path, NULL, 0, NULL);
	if (!d || !d->bin.elf || !d->bin.image)
		return -ENOENT;
	GElf_Ehdr eh;
	size_t phnum;
	if (!gelf_getehdr(d->bin.elf, &eh) || elf_getphdrnum(d->bin.elf, &phnum) < 0)
		return -ENOENT;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(d->bin.elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz)
			continue;
		uint64_t off = vaddr - ph.p_vaddr + ph.p_offset;
		uint64_t avail = ph.p_filesz - (vaddr - ph.p_vaddr);
		if (off >= d->bin.size)
			return -ERANGE;
		avail = PV_MIN(avail, d->bin.size - off); /* a truncated file */
		out->bytes = (const uint8_t *)d->bin.image + off;
		out->len = (size_t)PV_MIN(len, avail);
		out->machine = eh.e_machine;
		out->file = d->file;
		return 0;
	}
	return -ERANGE;
}

int pv_kcore_code(const char *kcore, uint64_t addr, size_t len, uint8_t *buf, uint16_t *machine)
{
	int fd = open(kcore ? kcore : "/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	size_t phnum;
	int r = -ENOEXEC;
	if (elf && gelf_getehdr(elf, &eh) && elf_getphdrnum(elf, &phnum) == 0) {
		r = -ERANGE;
		*machine = eh.e_machine;
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_filesz ||
			    len > ph.p_filesz - (addr - ph.p_vaddr))
				continue;
			ssize_t n = pread(fd, buf, len, (off_t)(ph.p_offset + (addr - ph.p_vaddr)));
			r = n == (ssize_t)len ? 0 : (n < 0 ? -errno : -EIO);
			break;
		}
	}
	elf_end(elf);
	close(fd);
	return r;
}
