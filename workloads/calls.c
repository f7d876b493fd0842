/*
 * calls — a known call structure for the report/profile tests. Every
 * function burns its own share in its own loop (self time), so both the
 * self (--no-children) and the inclusive (--children) views are predictable:
 *
 *   main -> alpha (self ~15%) -> leaf_a (~25%)
 *        -> beta  (self ~5%)  -> shared (~20%)
 *        -> gamma (self ~5%)  -> shared (~10%)
 *                             -> recurse x4 (~20%, self in every level)
 *
 * usage: calls [millions_of_iterations=300]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

#define BURN(n)                                                                 \
	do {                                                                    \
		uint64_t x_ = sink;                                             \
		for (uint64_t i_ = 0; i_ < (n); i_++)                           \
			x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL; \
		sink = x_;                                                      \
	} while (0)

static uint64_t unit; /* iterations per 1% of the run */

void leaf_a(void) { BURN(25 * unit); }
void shared(uint64_t pct) { BURN(pct * unit); }
void recurse(int depth)
{
	BURN(5 * unit);
	if (depth > 1)
		recurse(depth - 1);
}
void alpha(void)
{
	BURN(15 * unit);
	leaf_a();
}
void beta(void)
{
	BURN(5 * unit);
	shared(20);
}
void gamma_(void)
{
	BURN(5 * unit);
	shared(10);
	recurse(4);
}

int main(int argc, char **argv)
{
	uint64_t millions = argc > 1 ? strtoull(argv[1], NULL, 10) : 300;
	/* ten rounds, so a sampling run sees the mix all along */
	unit = millions * 1000000 / 100 / 10;
	for (int round = 0; round < 10; round++) {
		alpha();
		beta();
		gamma_();
	}
	/* "quiet": no stdio at the end, whose libc code (inlined into printf,
	 * down to fstat) the tools name apart: a sample there made interop
	 * tests fail now and then */
	if (argc > 2 && !strcmp(argv[2], "quiet"))
		return 0;
	printf("calls: %llu\n", (unsigned long long)(sink & 0xff));
	return 0;
}
