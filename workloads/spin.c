/*
 * spin — CPU-bound for N milliseconds of its own CPU time (measured with
 * CLOCK_THREAD_CPUTIME_ID), so task-clock is about N ms. usage: spin [N=100]
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void burn(double ms)
{
	double end = cpu_ms() + ms;
	uint64_t x = 1;
	while (cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

int main(int argc, char **argv)
{
	burn(argc > 1 ? atof(argv[1]) : 100);
	return 0;
}
