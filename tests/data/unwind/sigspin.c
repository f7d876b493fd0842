/*
 * sigspin — a DWARF-unwinding fixture (built by tests/interop/unwind/unwind_cfi.c
 * with -fomit-frame-pointer): spins inside a SIGALRM handler (signal frames,
 * glibc's __restore_rt with its 'S' CIE), in qsort callbacks (libc calling
 * back into us) and in calls through the PLT.
 * usage: sigspin [seconds=1]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink = sink * 31 + (unsigned long)i;
}

static void on_alarm(int sig)
{
	(void)sig;
	spin(100000);
}

static int cmp(const void *a, const void *b)
{
	spin(20);
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end = now() + secs;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 3000}, {0, 3000}};
	setitimer(ITIMER_REAL, &it, NULL);
	int arr[512];
	char buf[64];
	for (unsigned round = 0; now() < end; round++) {
		for (int i = 0; i < 512; i++)
			arr[i] = rand();
		qsort(arr, 512, sizeof(arr[0]), cmp);
		snprintf(buf, sizeof(buf), "%u %d", round, arr[0]);
		sink += strlen(buf);
		spin(2000);
	}
	return 0;
}
