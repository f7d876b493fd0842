/*
 * record_overhead — the cost of recording, side by side in one run:
 * a CPU-bound workload (workloads/demo) alone, under `perf record -F 10000 -g`
 * and under `perfev record -F 10000 -g`. For each: the workload's own CPU
 * time and its slowdown, the recorder's own CPU time (user+sys of the
 * recorder process: wait4's total minus what the workload used), samples
 * and lost samples (read back with `perf report -D`). Prints ratios.
 *
 * usage: record_overhead [RUNS=3] [MILLION_ITERS=6000]
 * (internal: record_overhead --child RUFILE CMD... runs CMD and writes its rusage)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }
static double cpu_of(const struct rusage *ru) { return tv(ru->ru_utime) + tv(ru->ru_stime); }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The wrapper: runs the workload and writes "workload_cpu wrapper_cpu". */
static int child_main(int argc, char **argv)
{
	pid_t p = fork();
	if (p == 0) {
		execv(argv[3], argv + 3);
		_exit(127);
	}
	int st;
	struct rusage ru, self;
	wait4(p, &st, 0, &ru);
	getrusage(RUSAGE_SELF, &self);
	FILE *f = fopen(argv[2], "w");
	if (f) {
		fprintf(f, "%.6f %.6f\n", cpu_of(&ru), cpu_of(&self));
		fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

struct result {
	double wall, workload_cpu, recorder_cpu;
	long samples, lost;
};

static char self_exe[PATH_MAX], bindir[PATH_MAX], tmpdir[64];

static void run(const char *const *recorder, int nrec, const char *iters, const char *data,
		struct result *out)
{
	char rufile[PATH_MAX + 64], demo[PATH_MAX + 64];
	snprintf(rufile, sizeof(rufile), "%s/ru", tmpdir);
	snprintf(demo, sizeof(demo), "%s/workloads/demo", bindir);
	const char *argv[32];
	int n = 0;
	for (int i = 0; i < nrec; i++)
		argv[n++] = recorder[i];
	const char *tail[] = {self_exe, "--child", rufile, demo, iters, "1", "1", NULL};
	for (int i = 0; tail[i]; i++)
		argv[n++] = tail[i];
	argv[n] = NULL;
	double t0 = now();
	pid_t p = fork();
	if (p == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	wait4(p, &st, 0, &ru);
	out->wall = now() - t0;
	double wl = 0, wrapper = 0;
	FILE *f = fopen(rufile, "r");
	if (!f || fscanf(f, "%lf %lf", &wl, &wrapper) != 2) {
		fprintf(stderr, "record_overhead: %s failed (status %d)\n", argv[0], st);
		exit(1);
	}
	fclose(f);
	out->workload_cpu = wl;
	out->recorder_cpu = cpu_of(&ru) - wl - wrapper;
	out->samples = out->lost = 0;
	if (!data)
		return;
	/* Samples and lost samples, counted by perf itself in either file. */
	char cmd[PATH_MAX + 128];
	snprintf(cmd, sizeof(cmd), "perf report -D -i %s 2>/dev/null", data);
	FILE *pp = popen(cmd, "r");
	char line[4096];
	while (pp && fgets(line, sizeof(line), pp)) {
		if (strstr(line, "PERF_RECORD_SAMPLE"))
			out->samples++;
		char *l = strstr(line, "PERF_RECORD_LOST");
		if (l) {
			char *num = strstr(l, "lost");
			num = num ? strpbrk(num + 4, "0123456789") : NULL;
			if (num)
				out->lost += strtol(num, NULL, 0);
		}
	}
	if (pp)
		pclose(pp);
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "--child"))
		return child_main(argc, argv);
	static const char use[] = "usage: record_overhead [RUNS=3] [MILLION_ITERS=6000]\n";
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(use, stdout);
		return 0;
	}
	char *end1 = NULL, *end2 = NULL;
	int runs = argc > 1 ? (int)strtol(argv[1], &end1, 10) : 3;
	if (argc > 2)
		strtol(argv[2], &end2, 10);
	if (argc > 3 || (end1 && (*end1 || end1 == argv[1] || runs < 1)) ||
	    (end2 && (*end2 || end2 == argv[2]))) {
		fprintf(stderr, "record_overhead: want numbers: runs (1 or more) and million iterations\n%s", use);
		return 1;
	}
	const char *iters = argc > 2 ? argv[2] : "6000";
	ssize_t l = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (l <= 0)
		return 1;
	self_exe[l] = 0;
	char tmp[PATH_MAX];
	strcpy(tmp, self_exe);
	snprintf(bindir, sizeof(bindir), "%s", dirname(dirname(tmp))); /* build/ */
	strcpy(tmpdir, "/tmp/record_overhead.XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	char perfev[PATH_MAX + 64], perf_data[PATH_MAX], perfev_data[PATH_MAX];
	snprintf(perfev, sizeof(perfev), "%s/perfev", bindir);
	snprintf(perf_data, sizeof(perf_data), "%s/perf.data", tmpdir);
	snprintf(perfev_data, sizeof(perfev_data), "%s/perfev.data", tmpdir);
	const char *perf_cmd[] = {"perf", "record", "-F", "10000", "-g", "-o", perf_data, "--"};
	const char *perfev_cmd[] = {perfev, "record", "-F", "10000", "-g", "-o", perfev_data, "--"};
	struct result alone = {0}, perf = {0}, pv = {0};
	printf("record_overhead: workloads/demo %s, %d runs each (alternating), -F 10000 -g\n", iters, runs);
	printf("%-8s %4s %9s %12s %12s %8s %6s\n", "config", "run", "wall s", "workload cpu", "recorder cpu",
	       "samples", "lost");
	for (int i = 0; i < runs; i++) {
		struct result a, b, c;
		run(NULL, 0, iters, NULL, &a);
		run(perf_cmd, 8, iters, perf_data, &b);
		run(perfev_cmd, 8, iters, perfev_data, &c);
		const struct result *rs[] = {&a, &b, &c};
		const char *names[] = {"alone", "perf", "perfev"};
		struct result *sum[] = {&alone, &perf, &pv};
		for (int k = 0; k < 3; k++) {
			printf("%-8s %4d %9.3f %12.3f %12.3f %8ld %6ld\n", names[k], i + 1, rs[k]->wall,
			       rs[k]->workload_cpu, k ? rs[k]->recorder_cpu : 0.0, rs[k]->samples, rs[k]->lost);
			sum[k]->wall += rs[k]->wall / runs;
			sum[k]->workload_cpu += rs[k]->workload_cpu / runs;
			sum[k]->recorder_cpu += rs[k]->recorder_cpu / runs;
			sum[k]->samples += rs[k]->samples;
			sum[k]->lost += rs[k]->lost;
		}
	}
	printf("\nmeans over %d runs:\n", runs);
	printf("  workload cpu   alone %.3f s, under perf %.3f s (x%.3f), under perfev %.3f s (x%.3f)\n",
	       alone.workload_cpu, perf.workload_cpu, perf.workload_cpu / alone.workload_cpu,
	       pv.workload_cpu, pv.workload_cpu / alone.workload_cpu);
	printf("  recorder cpu   perf %.3f s, perfev %.3f s: perfev/perf = %.2f (target <= 0.50)\n",
	       perf.recorder_cpu, pv.recorder_cpu, pv.recorder_cpu / perf.recorder_cpu);
	printf("  samples        perf %ld, perfev %ld; lost perf %ld, perfev %ld (target: perfev <= perf)\n",
	       perf.samples, pv.samples, perf.lost, pv.lost);
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd)) {
	}
	return 0;
}
