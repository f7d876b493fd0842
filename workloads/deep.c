/*
 * deep — a deep, known call stack built WITHOUT frame pointers (CMake gives
 * it -fomit-frame-pointer), for DWARF unwinding tests:
 *   main -> run -> descend (x DEPTH, recursive) -> leaf_spin
 * Every sample taken in leaf_spin unwinds through DEPTH descend frames to
 * main only if CFI is followed: a frame-pointer walk breaks at once.
 * usage: deep [seconds=2] [depth=40]
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) uint64_t leaf_spin(double until)
{
	uint64_t x = sink;
	while (now() < until)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	return x;
}

/* not a tail call: the addition after the call keeps every frame on the stack */
__attribute__((noinline)) uint64_t descend(int depth, double until)
{
	volatile char pad[24]; /* a frame with locals, so the CFA moves */
	pad[0] = (char)depth;
	if (depth <= 0)
		return leaf_spin(until) + pad[0];
	return descend(depth - 1, until) + pad[0] + 1;
}

__attribute__((noinline)) uint64_t run(double seconds, int depth)
{
	return descend(depth, now() + seconds);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	int depth = argc > 2 ? atoi(argv[2]) : 40;
	return (int)(run(seconds, depth) & 1);
}
