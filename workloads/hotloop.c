/*
 * hotloop — known hot instructions for perfev annotate: a loop whose cost
 * sits in one divsd/addsd (sum_div), and a small function inlined into two
 * callers (mix_a, mix_b call step()). Built -O2 -g (not the other
 * workloads' -O1 -fno-inline): the inlining is the point.
 * usage: hotloop [ms=500]
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile double dsink;
static volatile uint64_t usink;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) double sum_div(long n)
{
	double s = 0.0;
	for (long i = 1; i <= n; i++)
		s += 1.0 / (double)i;
	return s;
}

static inline uint64_t step(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x * 0x2545F4914F6CDD1DULL;
}

__attribute__((noinline)) uint64_t mix_a(uint64_t x, long n)
{
	for (long i = 0; i < n; i++)
		x = step(x) + 1;
	return x;
}

__attribute__((noinline)) uint64_t mix_b(uint64_t x, long n)
{
	for (long i = 0; i < n; i++)
		x = step(x ^ 0x5555) - 3;
	return x;
}

int main(int argc, char **argv)
{
	double end = cpu_ms() + (argc > 1 ? atof(argv[1]) : 500);
	while (cpu_ms() < end) {
		dsink = sum_div(400000);
		usink = mix_a(usink, 200000) + mix_b(usink, 100000);
	}
	return 0;
}
