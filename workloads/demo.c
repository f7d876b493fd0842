/*
 * demo — a workload with a known shape, profiled by `make run` and the tests:
 *   main -> work -> hot_loop        (about 60% of the CPU time)
 *                -> warm_loop       (about 30%)
 *                -> cool_loop       (about 10%)
 *   then touches `pages` fresh pages and makes `writes` write(2) calls.
 * usage: demo [millions_of_iterations=200] [pages=1000] [writes=100]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint64_t sink;

static uint64_t spin(uint64_t n, uint64_t seed)
{
	uint64_t x = seed;
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

uint64_t hot_loop(uint64_t n) { return spin(n * 6, 1); }
uint64_t warm_loop(uint64_t n) { return spin(n * 3, 2); }
uint64_t cool_loop(uint64_t n) { return spin(n, 3); }

void work(uint64_t iters)
{
	uint64_t chunk = iters / 10 ? iters / 10 : 1;
	for (uint64_t done = 0; done < iters; done += chunk)
		sink += hot_loop(chunk / 10 * 1) + warm_loop(chunk / 10) + cool_loop(chunk / 10);
}

void touch_pages(long pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (long i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, (size_t)(pages * psz));
}

void write_lines(long writes)
{
	for (long i = 0; i < writes; i++)
		if (write(STDOUT_FILENO, "", 0) < 0)
			exit(1);
}

int main(int argc, char **argv)
{
	uint64_t iters = (argc > 1 ? strtoull(argv[1], NULL, 0) : 200) * 1000000ULL;
	long pages = argc > 2 ? atol(argv[2]) : 1000;
	long writes = argc > 3 ? atol(argv[3]) : 100;
	work(iters / 10);
	touch_pages(pages);
	write_lines(writes);
	return 0;
}
