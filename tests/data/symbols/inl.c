/* Symbols fixture: inline chains, PLT calls, static and global functions. */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long leaf_inline(unsigned long x)
{
	sink += x * 3;             /* LEAF_LINE */
	return sink ^ (x << 2);
}

static inline __attribute__((always_inline)) unsigned long middle_inline(unsigned long x)
{
	unsigned long r = leaf_inline(x + 1); /* MIDDLE_CALL */
	return r + leaf_inline(x + 2);
}

__attribute__((noinline)) unsigned long outer_function(unsigned long n)
{
	unsigned long acc = 0;
	for (unsigned long i = 0; i < n; i++)
		acc += middle_inline(i); /* OUTER_CALL */
	return acc;
}

static __attribute__((noinline)) int static_helper(int argc)
{
	return argc * 7 + (int)(sink & 1);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	unsigned long r = outer_function(n) + (unsigned long)static_helper(argc);
	puts("inl");
	printf("%lu\n", r);
	return 0;
}
