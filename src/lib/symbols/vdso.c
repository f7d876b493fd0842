/*
 * vdso.c — the [vdso] image as a file. The vDSO is not on disk; perf saves
 * its own copy, and so do we: samples in [vdso] (clock_gettime...) resolve
 * and unwind through this process's vDSO, which is the same kernel's when
 * the profile is read where it was taken. The copy lives in a memfd for the
 * whole process (one descriptor), reachable as /proc/self/fd/N.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char vdso_path[64];

/* The extent of [vdso] in /proc/self/maps. */
static size_t vdso_size(uintptr_t base)
{
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return 0;
	char line[512];
	size_t size = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &s, &e) == 2 && s == base) {
			size = (size_t)(e - s);
			break;
		}
	}
	fclose(f);
	return size;
}

static void make_copy(void)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return;
	size_t size = vdso_size(base);
	if (!size)
		return;
	int fd = memfd_create("perfev-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, (const void *)base, size) != (ssize_t)size) {
		close(fd);
		return;
	}
	snprintf(vdso_path, sizeof(vdso_path), "/proc/self/fd/%d", fd);
}

const char *pv_vdso_path(void)
{
	pthread_once(&once, make_copy);
	return vdso_path[0] ? vdso_path : NULL;
}
