/*
 * Fuzz target: the inflated-copy writer of compressed debug files
 * (symbols_dcache.c) on any bytes as an ELF image: section headers and
 * compression headers read from the image, zlib/zstd sections inflated
 * (at most 1 MB each here: bounded and linear), the copy written to a
 * memfd, then mapped and checked against the original as the cache does
 * before using a copy (which may refuse it: odd inputs make copies the
 * cache does not use). Debug files can come from a debuginfod server.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	/* the reader wants the alignment of a mapping */
	void *img = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
	if (!img)
		return 0;
	memcpy(img, data, size);
	struct pv_elf e = {.image = img, .size = size};
	int fd = memfd_create("dcache-fuzz", MFD_CLOEXEC);
	if (fd >= 0 && pv_dcache_write(fd, &e, 1u << 20) == 0) {
		struct stat st;
		void *m = fstat(fd, &st) == 0 && st.st_size > 0
				  ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
				  : MAP_FAILED;
		if (m != MAP_FAILED) {
			struct pv_elf copy = {.image = m, .size = (size_t)st.st_size};
			(void)pv_dcache_matches(&e, &copy);
			munmap(m, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
	free(img);
	return 0;
}
