/*
 * stat_startup — the cost of `perfev stat -e task-clock -- true` against
 * `perf stat -e task-clock -- true`: many runs of each, interleaved so both
 * see the same machine load, wall time from spawn to exit. Prints the mean
 * and median milliseconds of each and the ratio perfev / perf (target <= 0.25).
 * usage: stat_startup [RUNS=200] [PERFEV=<dir of this program>/../perfev]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs argv with stdout/stderr to /dev/null; returns ms, or -1 on failure. */
static double run(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = now_ms();
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0)
		return -1;
	int st;
	waitpid(pid, &st, 0);
	double t = now_ms() - t0;
	posix_spawn_file_actions_destroy(&fa);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void summary(const char *name, double *v, int n, double *mean, double *median)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	qsort(v, (size_t)n, sizeof(*v), cmp);
	*mean = s / n;
	*median = v[n / 2];
	printf("%-8s mean %7.3f ms  median %7.3f ms  min %7.3f ms  (%d runs)\n", name, *mean,
	       *median, v[0], n);
}

int main(int argc, char **argv)
{
	static const char use[] = "usage: stat_startup [RUNS=200] [PERFEV=<dir of this program>/../perfev]\n";
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(use, stdout);
		return 0;
	}
	char *end;
	int runs = argc > 1 ? (int)strtol(argv[1], &end, 10) : 200;
	if (argc > 3 || (argc > 1 && (*end || end == argv[1] || runs < 1))) {
		fprintf(stderr, "stat_startup: want a number of runs (1 or more), then perfev's path\n%s", use);
		return 1;
	}
	char perfev[PATH_MAX];
	if (argc > 2) {
		snprintf(perfev, sizeof(perfev), "%s", argv[2]);
	} else {
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0)
			return 1;
		self[n] = 0;
		snprintf(perfev, sizeof(perfev), "%s/../perfev", dirname(self));
	}
	char *pv[] = {perfev, "stat", "-e", "task-clock", "--", "true", NULL};
	char *pf[] = {"perf", "stat", "-e", "task-clock", "--", "true", NULL};
	if (runs < 1 || run(pv) < 0) {
		fprintf(stderr, "stat_startup: cannot run %s stat\n", perfev);
		return 1;
	}
	if (run(pf) < 0) {
		fprintf(stderr, "stat_startup: cannot run `perf stat` (install linux-perf)\n");
		return 1;
	}
	double *a = calloc((size_t)runs, sizeof(double)), *b = calloc((size_t)runs, sizeof(double));
	for (int i = 0; i < runs; i++) { /* interleaved: the same load for both */
		a[i] = run(pv);
		b[i] = run(pf);
	}
	printf("`stat -e task-clock -- true`, wall time from spawn to exit:\n");
	double ma, mea, mb, meb;
	summary("perfev", a, runs, &ma, &mea);
	summary("perf", b, runs, &mb, &meb);
	printf("ratio perfev/perf: mean %.3f  median %.3f  (target <= 0.25)\n", ma / mb, mea / meb);
	free(a);
	free(b);
	return 0;
}
