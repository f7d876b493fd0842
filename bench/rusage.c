/*
 * rusage — runs a command RUNS times (stdout and stderr to /dev/null) and
 * prints "wall_s cpu_s maxrss_kb" of the run with the least CPU time, from
 * wait4(2): user+sys in microseconds where time(1) rounds to 10 ms (a 0.03 s
 * run would be off by a third). A small C parent keeps ru_maxrss honest: the
 * kernel counts the forked parent's pages in the child's peak, so a Python
 * or shell parent would add its own ~10 MB. Exits 1 if any run fails.
 * usage: rusage RUNS COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

int main(int argc, char **argv)
{
	char *end;
	long runs = argc > 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc < 3 || *end || runs < 1) {
		fprintf(stderr, "usage: rusage RUNS COMMAND [ARG...]\n");
		return 2;
	}
	double best_wall = 0, best_cpu = -1;
	long best_rss = 0;
	for (long i = 0; i < runs; i++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid_t pid = fork();
		if (pid < 0) {
			perror("rusage: fork");
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			dup2(null, 1);
			dup2(null, 2);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int status;
		struct rusage ru;
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("rusage: wait4");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "rusage: '%s' failed (status %d); run it by hand to see why\n", argv[2],
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			return 1;
		}
		double cpu = secs(ru.ru_utime) + secs(ru.ru_stime);
		if (best_cpu < 0 || cpu < best_cpu) {
			best_cpu = cpu;
			best_wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
			best_rss = ru.ru_maxrss;
		}
	}
	printf("%.4f %.4f %ld\n", best_wall, best_cpu, best_rss);
	return 0;
}
