/*
 * calls_n — known call and write counts, for probes and watchpoints.
 *   calls_n calls N    calls probe_target() exactly N times
 *   calls_n writes N   stores to the global `watched` exactly N times
 *                      (each store is the one store instruction of store_watched)
 *   calls_n syscalls N N getppid(), N/2 close(-1) failures, 1 write, for trace -s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

volatile long watched;
volatile long sink;

__attribute__((noinline)) long probe_target(long x)
{
	sink += x;
	return sink;
}

__attribute__((noinline)) void after_store(void)
{
	__asm__ volatile("");
}

/* Not a leaf (it calls after_store), so it keeps a frame pointer and a
 * frame-pointer call chain through it reaches main. */
__attribute__((noinline)) void store_watched(long v)
{
	watched = v;
	after_store();
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: calls_n calls|writes|syscalls N\n");
		return 2;
	}
	long n = atol(argv[2]);
	if (!strcmp(argv[1], "calls")) {
		for (long i = 0; i < n; i++)
			probe_target(i);
	} else if (!strcmp(argv[1], "writes")) {
		for (long i = 0; i < n; i++)
			store_watched(i);
	} else if (!strcmp(argv[1], "syscalls")) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		for (long i = 0; i < n / 2; i++)
			syscall(SYS_close, -1);
		syscall(SYS_write, 1, "done\n", 5);
	} else {
		return 2;
	}
	return 0;
}
