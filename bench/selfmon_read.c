/*
 * selfmon_read — what one read of counters costs, side by side in one run:
 *   a raw read(2) of one event's fd, and of a 4-event group leader's fd
 *   (the same read_format perfev uses), perfev_selfmon_read() of a 1-event
 *   and a 4-event set, and PAPI_read() of the same events.
 * Events: task-clock, page-faults, context-switches, cpu-migrations
 * (software events: they run without a PMU; PAPI's perf::TASK-CLOCK etc.);
 * with --hw, hardware events counted in user space: instructions, cycles
 * and branches, branch-misses (arm64: raw 0x23, 0x24, the stall events),
 * which perfev reads with rdpmc/mrs, and the system calls each method makes
 * per read are counted with the raw_syscalls:sys_enter tracepoint (root,
 * tracefs). scripts/vm-check.sh runs it so in the arm64 VM.
 *
 *   build/bench/selfmon_read [--hw] [READS]  (default 50000 per round, 15 rounds)
 *
 * The rounds of all methods are interleaved so that a noisy neighbour hits
 * them alike; each method's figure is its best round (ns per read): on a
 * shared machine the best round is the cost, the others add the
 * neighbours' (medians are printed too). The last line:
 * perfev/read() = X (4-event group), perfev/PAPI = Y.
 */
#define _GNU_SOURCE
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef PERFEV_HAVE_PAPI
#include <papi.h>
#endif

#define ROUNDS 15
static const uint64_t sw_configs[4] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
				       PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS};
static const char *sw_names[4] = {"task-clock", "page-faults", "context-switches", "cpu-migrations"};
static const char *sw_papi_names[4] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS",
				       "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS"};
/* --hw: type PERF_TYPE_HARDWARE for the first two, RAW for the others */
#if defined(__aarch64__)
/* STALL_FRONTEND and STALL_BACKEND, raw: the kernel maps the generic
 * branch events only where the PMU lists them, and QEMU's lists these */
static const uint64_t hw_configs[4] = {PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES, 0x23, 0x24};
static const char *hw_names[4] = {"instructions:u", "cycles:u", "r23:u", "r24:u"};
/* '|': PAPI's name where libpfm4 knows the CPU's PMU, then the native name
 * in the PMU that LIBPFM_FORCE_PMU forces where it does not (QEMU's CPU) */
static const char *hw_papi_names[4] = {"perf::INSTRUCTIONS|INST_RETIRED", "perf::CYCLES|CPU_CYCLES",
				       "perf_raw::r0023|STALL_FRONTEND", "perf_raw::r0024|STALL_BACKEND"};
#else
static const uint64_t hw_configs[4] = {PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
				       PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES};
static const char *hw_names[4] = {"instructions:u", "cycles:u", "branches:u", "branch-misses:u"};
static const char *hw_papi_names[4] = {"perf::INSTRUCTIONS", "perf::CYCLES", "perf::BRANCHES",
				       "perf::BRANCH-MISSES"};
#endif
static bool hw;
static const uint64_t *configs = sw_configs;
static const char **names = sw_names, **papi_names = sw_papi_names;

static struct perfev_attr event_attr(int i)
{
	struct perfev_attr a = {0};
	a.type = !hw ? PERF_TYPE_SOFTWARE : i < 2 ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW;
	a.config = configs[i];
	a.exclude_kernel = hw; /* user space only, as PAPI's default domain */
	a.exclude_hv = hw;
	return a;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile uint64_t sink;

enum method { RAW1, PERFEV1, RAW4, PERFEV4, PAPI1, PAPI4, NMETHODS };
static const char *method_names[NMETHODS] = {
	"read(2), one fd", "perfev, 1-event set", "read(2), 4-event group leader",
	"perfev, 4-event set", "PAPI_read, 1 event", "PAPI_read, 4 events"};

static int raw1_fd, raw4_fd;
static struct perfev_selfmon *set1, *set4;
#ifdef PERFEV_HAVE_PAPI
static int papi1 = PAPI_NULL, papi4 = PAPI_NULL;
#endif
static bool have[NMETHODS];

static double run(enum method m, long n)
{
	uint64_t buf[16];
	struct perfev_selfmon_values v;
#ifdef PERFEV_HAVE_PAPI
	long long pv[4];
#endif
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		switch (m) {
		case RAW1:
			if (read(raw1_fd, buf, sizeof(uint64_t)) < 0)
				abort();
			break;
		case RAW4:
			if (read(raw4_fd, buf, sizeof(buf)) < 0)
				abort();
			break;
		case PERFEV1:
			if (perfev_selfmon_read(set1, &v) < 0)
				abort();
			buf[0] = v.value[0];
			break;
		case PERFEV4:
			if (perfev_selfmon_read(set4, &v) < 0)
				abort();
			buf[0] = v.value[0];
			break;
#ifdef PERFEV_HAVE_PAPI
		case PAPI1:
			if (PAPI_read(papi1, pv) != PAPI_OK)
				abort();
			buf[0] = (uint64_t)pv[0];
			break;
		case PAPI4:
			if (PAPI_read(papi4, pv) != PAPI_OK)
				abort();
			buf[0] = (uint64_t)pv[0];
			break;
#endif
		default:
			break;
		}
		sink += buf[0];
	}
	return (now_ns() - t0) / (double)n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static struct perfev_selfmon *make_set(int n)
{
	struct perfev_evlist *l = perfev_evlist_new();
	for (int i = 0; i < n; i++) {
		struct perfev_attr a = event_attr(i);
		perfev_evlist_add(l, &a, names[i]);
	}
	struct perfev_selfmon *s = perfev_selfmon_new_evlist(l, 0);
	perfev_evlist_free(l);
	if (!s || perfev_selfmon_start(s) < 0) {
		fprintf(stderr, "selfmon_read: %s\n", perfev_errmsg());
		exit(1);
	}
	return s;
}

static int open_raw(int n)
{
	int leader = -1;
	for (int i = 0; i < n; i++) {
		struct perfev_attr a = event_attr(i);
		if (n > 1)
			a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
					PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int fd = perfev_open(&a, 0, -1, leader, 0);
		if (fd < 0) {
			fprintf(stderr, "selfmon_read: %s\n", perfev_errmsg());
			exit(1);
		}
		if (i == 0)
			leader = fd;
	}
	return leader;
}

#ifdef PERFEV_HAVE_PAPI
static bool papi_set(int *es, int n)
{
	if (PAPI_create_eventset(es) != PAPI_OK)
		return false;
	for (int i = 0; i < n; i++) {
		char alts[128], *save = NULL, *name;
		snprintf(alts, sizeof(alts), "%s", papi_names[i]);
		bool added = false;
		for (name = strtok_r(alts, "|", &save); name && !added; name = strtok_r(NULL, "|", &save))
			added = PAPI_add_named_event(*es, name) == PAPI_OK;
		if (!added) {
			fprintf(stderr, "selfmon_read: PAPI does not take %s here\n", papi_names[i]);
			return false;
		}
	}
	return PAPI_start(*es) == PAPI_OK;
}
#endif

/* run(), with PAPI's event set started around it (PAPI runs one set at a
 * time per thread). */
static double timed_rounds(enum method m, long n)
{
#ifdef PERFEV_HAVE_PAPI
	if (m == PAPI1 || m == PAPI4)
		PAPI_start(m == PAPI1 ? papi1 : papi4);
#endif
	double t = run(m, n);
#ifdef PERFEV_HAVE_PAPI
	long long dummy[4];
	if (m == PAPI1 || m == PAPI4)
		PAPI_stop(m == PAPI1 ? papi1 : papi4, dummy);
#endif
	return t;
}

/* The system calls of 1000 reads by each method, counted by the
 * raw_syscalls:sys_enter tracepoint on this thread (its own stopping
 * ioctl, counted too, is subtracted: an empty window counts it alone). */
static void print_syscalls(void)
{
	unsigned long long id = 0;
	FILE *f = fopen("/sys/kernel/tracing/events/raw_syscalls/sys_enter/id", "r");
	if (!f || fscanf(f, "%llu", &id) != 1) {
		printf("system calls per read: not counted (no tracefs at /sys/kernel/tracing)\n");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = id;
	a.disabled = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("system calls per read: not counted (%s)\n", perfev_errmsg());
		return;
	}
	uint64_t base = 0, c = 0;
	perfev_ioc_reset(fd, false);
	perfev_ioc_enable(fd, false);
	perfev_ioc_disable(fd, false);
	if (read(fd, &base, sizeof(base)) != sizeof(base))
		abort();
	printf("system calls per read (1000 reads, raw_syscalls:sys_enter):");
	for (int m = 0; m < NMETHODS; m++) {
		if (!have[m])
			continue;
		perfev_ioc_reset(fd, false);
		perfev_ioc_enable(fd, false);
		timed_rounds((enum method)m, 1000);
		perfev_ioc_disable(fd, false);
		if (read(fd, &c, sizeof(c)) != sizeof(c))
			abort();
		printf("%s %s %.3f", m ? "," : "", method_names[m], (double)(c - base) / 1000);
	}
	printf("\n");
	close(fd);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: selfmon_read [--hw] [READS]\n\n"
		   "Times one read of counters (raw read(2) of 1 and of a 4-event group, perfev's\n"
		   "1- and 4-event sets, PAPI_read where built with PAPI): READS reads per round\n"
		   "(default 50000), 15 interleaved rounds, the best round of each printed.\n"
		   "--hw: hardware events read in user space where the CPU allows, and the system\n"
		   "calls of each read counted (as root, with tracefs).\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--hw")) {
		hw = true;
		configs = hw_configs;
		names = hw_names;
		papi_names = hw_papi_names;
		argv++;
		argc--;
	}
	char *end = NULL;
	long n = argc > 1 ? strtol(argv[1], &end, 10) : 50000;
	if (argc > 2 || (end && (*end || end == argv[1] || n < 1 || n > 1000000000))) {
		if (argc > 2)
			fprintf(stderr, "selfmon_read: unexpected argument '%s'\n", argv[2]);
		else
			fprintf(stderr, "selfmon_read: '%s': want a number of reads per round, 1 or more\n",
				argv[1]);
		usage(stderr);
		return 1;
	}
	perfev_regions_output("off");
	raw1_fd = open_raw(1);
	raw4_fd = open_raw(4);
	set1 = make_set(1);
	set4 = make_set(4);
	have[RAW1] = have[RAW4] = have[PERFEV1] = have[PERFEV4] = true;
#ifdef PERFEV_HAVE_PAPI
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		fprintf(stderr, "selfmon_read: PAPI_library_init failed\n");
	else {
		have[PAPI1] = papi_set(&papi1, 1);
		/* PAPI runs one event set at a time per thread: measure the
		 * 4-event one in the same way, after stopping the first */
		long long dummy[4];
		if (have[PAPI1])
			PAPI_stop(papi1, dummy);
		have[PAPI4] = papi_set(&papi4, 4);
		if (have[PAPI4])
			PAPI_stop(papi4, dummy);
	}
#endif
	double t[NMETHODS][ROUNDS];
	for (int m = 0; m < NMETHODS; m++)
		if (have[m])
			timed_rounds((enum method)m, n / 10 + 1); /* warm up */
	for (int r = 0; r < ROUNDS; r++)
		for (int m = 0; m < NMETHODS; m++) {
			if (!have[m])
				continue;
			t[m][r] = timed_rounds((enum method)m, n);
		}
	double best[NMETHODS] = {0};
	printf("selfmon_read: %ld reads per round, best of %d rounds\n", n, ROUNDS);
	printf("perfev path: %s\n", perfev_selfmon_path(set4));
	for (int m = 0; m < NMETHODS; m++) {
		if (!have[m]) {
			printf("  %-32s (not available: %s)\n", method_names[m],
#ifdef PERFEV_HAVE_PAPI
			       "PAPI refused the events"
#else
			       "built without libpapi-dev"
#endif
			);
			continue;
		}
		qsort(t[m], ROUNDS, sizeof(double), cmp);
		best[m] = t[m][0];
		printf("  %-32s %8.1f ns/read  (median %.1f, max %.1f)\n", method_names[m], best[m],
		       t[m][ROUNDS / 2], t[m][ROUNDS - 1]);
	}
	if (hw)
		print_syscalls();
	double x = best[PERFEV4] / best[RAW4];
	printf("1-event: perfev/read() = %.3f", best[PERFEV1] / best[RAW1]);
	if (have[PAPI1])
		printf(", perfev/PAPI = %.3f", best[PERFEV1] / best[PAPI1]);
	printf("\ntargets (4-event): perfev/read() <= 1.1 %s", x <= 1.1 ? "met" : "NOT met");
	if (have[PAPI4])
		printf(", perfev/PAPI <= 0.5 %s", best[PERFEV4] / best[PAPI4] <= 0.5 ? "met" : "NOT met");
	printf("\n");
	if (have[PAPI4])
		printf("perfev/read() = %.3f, perfev/PAPI = %.3f\n", x, best[PERFEV4] / best[PAPI4]);
	else
		printf("perfev/read() = %.3f, perfev/PAPI = n/a\n", x);
	perfev_selfmon_free(set1);
	perfev_selfmon_free(set4);
	return 0;
}
