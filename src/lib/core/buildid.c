/* buildid.c — GNU build-ids of ELF files and of the running kernel, read
 * from their notes with libc alone (the recorder and the perf.data writer
 * are core: no libelf). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/buildid.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Scans a buffer of ELF notes for NT_GNU_BUILD_ID; bounds-checked throughout. */
static int notes_build_id(const unsigned char *p, size_t len, uint8_t *id, size_t max)
{
	size_t off = 0;
	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		size_t name_end = off + ((namesz + 3) & ~3u);
		if (namesz > len || name_end > len)
			break;
		size_t desc_end = name_end + ((descsz + 3) & ~3u);
		if (descsz > len || desc_end > len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + off, "GNU", 4)) {
			size_t n = PV_MIN((size_t)descsz, max);
			memcpy(id, p + name_end, n);
			return (int)n;
		}
		off = desc_end;
	}
	return -ENOENT;
}

int pv_file_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int ret = -ENOENT;
	Elf64_Ehdr eh;
	if (pread(fd, &eh, sizeof(eh), 0) < (ssize_t)sizeof(Elf32_Ehdr) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		close(fd);
		return -ENOEXEC;
	}
	bool is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	uint64_t phoff;
	unsigned phnum, phentsize;
	if (is64) {
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr e32;
		memcpy(&e32, &eh, sizeof(e32));
		phoff = e32.e_phoff;
		phnum = e32.e_phnum;
		phentsize = e32.e_phentsize;
	}
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) || phnum > 4096)
		goto out;
	for (unsigned i = 0; i < phnum && ret < 0; i++) {
		uint64_t off, size;
		uint32_t type;
		if (is64) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(phoff + (uint64_t)i * phentsize)) != sizeof(ph))
				break;
			type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		} else {
			Elf32_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(phoff + (uint64_t)i * phentsize)) != sizeof(ph))
				break;
			type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		}
		if (type != PT_NOTE || size == 0 || size > (1 << 20))
			continue;
		unsigned char *buf = malloc(size);
		if (!buf)
			break;
		if (pread(fd, buf, size, (off_t)off) == (ssize_t)size)
			ret = notes_build_id(buf, size, id, max);
		free(buf);
	}
out:
	close(fd);
	return ret;
}

int pv_kernel_build_id(uint8_t *id, size_t max)
{
	char *buf;
	size_t len;
	int e = pv_read_file("/sys/kernel/notes", &buf, &len, 1 << 20);
	if (e < 0)
		return e;
	e = notes_build_id((unsigned char *)buf, len, id, max);
	free(buf);
	return e;
}

PERFEV_API int perfev_elf_build_id(const char *path, uint8_t *id, size_t max)
{
	int r = path && id ? pv_file_build_id(path, id, max) : -EINVAL;
	if (r < 0)
		errno = -r;
	return r;
}

PERFEV_API int perfev_kernel_build_id(uint8_t *id, size_t max)
{
	int r = id ? pv_kernel_build_id(id, max) : -EINVAL;
	if (r < 0)
		errno = -r;
	return r;
}
