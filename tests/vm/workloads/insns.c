/*
 * insns — a loop of exactly two instructions (subs, b.ne) run N times in
 * hot_loop, so the user instructions of a run grow by exactly 2 per
 * iteration; the rest (start-up, exit) is the same in every run. Linked
 * statically, and the VM runs it without address randomisation, so that
 * rest does not change with where the stack lands. usage: insns N [REPEAT]
 * (REPEAT calls of hot_loop(N), for sampling tests that want time).
 */
#include <stdlib.h>

#if !defined(__aarch64__)
#error "insns is the arm64 VM's workload"
#endif

__attribute__((noinline)) void hot_loop(unsigned long n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	long repeat = argc > 2 ? atol(argv[2]) : 1;
	for (long i = 0; i < repeat; i++)
		if (n)
			hot_loop(n);
	return 0;
}
