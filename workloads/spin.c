/*
 * spin — CPU-bound for a known amount of CPU time, in a known function:
 * main -> spin_for -> spin_kernel until the process has used `ms` ms of CPU.
 * usage: spin [ms=500]
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

uint64_t spin_kernel(uint64_t n)
{
	uint64_t x = sink;
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

void spin_for(double ms)
{
	double end = cpu_ms() + ms;
	while (cpu_ms() < end)
		sink = spin_kernel(200000);
}

int main(int argc, char **argv)
{
	spin_for(argc > 1 ? atof(argv[1]) : 500);
	return 0;
}
