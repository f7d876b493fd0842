/*
 * stores — exactly N stores to the global `target`, for mem:ADDR:w.
 * The program re-executes itself once with address-space randomization off,
 * so `target` has the same address in every run: `stores --address` prints
 * it (0x...), `stores N` stores N times (the first image stores nothing).
 * usage: stores [N=1000] | stores --address
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

/* initialized: in .data, which exec does not zero (a .bss variable is
 * cleared by the kernel at exec, and those kernel stores would count) */
volatile int target __attribute__((aligned(8))) = 1;

void store_loop(long n)
{
	for (long i = 0; i < n; i++)
		target = (int)i;
}

int main(int argc, char **argv)
{
	int pers = personality(0xffffffff);
	if (pers != -1 && !(pers & ADDR_NO_RANDOMIZE) &&
	    personality((unsigned long)pers | ADDR_NO_RANDOMIZE) != -1) {
		execv("/proc/self/exe", argv);
		/* no re-exec: run randomized; --address is then only valid once */
	}
	if (argc > 1 && !strcmp(argv[1], "--address")) {
		printf("%p\n", (void *)&target);
		return 0;
	}
	store_loop(argc > 1 ? atol(argv[1]) : 1000);
	return 0;
}
