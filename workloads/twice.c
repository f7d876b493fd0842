/*
 * twice — two functions whose shares the caller sets, for perfev diff's
 * tests: main -> hot (FACTOR units) and main -> steady (2 units), so hot's
 * share is a third with FACTOR 1 and a half with FACTOR 2 (its cost
 * doubled between two runs). Built with -DTWICE_PAD, a padding function
 * before hot moves every address after it (a rebuild whose symbols must
 * still match by name).
 * usage: twice [factor=1] [millions_of_iterations_per_unit=40]
 */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

/* each function runs its own xorshift loop, so its samples are its own (self) */
#define XORSHIFT(n)                         \
	for (uint64_t i_ = 0; i_ < (n); i_++) { \
		x ^= x << 13;                   \
		x ^= x >> 7;                    \
		x ^= x << 17;                   \
	}

#ifdef TWICE_PAD
/* never called: only there to move the functions after it */
void twice_pad(void)
{
	for (int i = 0; i < 64; i++) {
		sink = sink * 31 + (uint64_t)i;
		sink ^= sink >> 7;
		sink += sink << 3;
	}
}
#endif

void hot(uint64_t units, uint64_t unit)
{
	uint64_t x = sink | 1;
	XORSHIFT(units * unit)
	sink = x;
}

void steady(uint64_t unit)
{
	uint64_t x = sink | 1;
	XORSHIFT(2 * unit)
	sink = x;
}

int main(int argc, char **argv)
{
	uint64_t factor = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
	uint64_t unit = (argc > 2 ? strtoull(argv[2], NULL, 10) : 40) * 1000000ULL;
	hot(factor, unit);
	steady(unit);
	return 0;
}
