/*
 * pages — touches N fresh pages (one write each), so page-faults is N plus
 * the start-up baseline. Transparent huge pages are refused for the region,
 * so every page faults on its own. usage: pages [N=1000]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void touch(char *p, long n, long psz)
{
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long psz = sysconf(_SC_PAGESIZE);
	if (n <= 0)
		return 0;
	char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("pages: mmap");
		return 1;
	}
	madvise(p, (size_t)(n * psz), MADV_NOHUGEPAGE);
	touch(p, n, psz);
	return 0;
}
