/*
 * threads — T threads each count their own work in a region, on the
 * default region set; main prints each thread's count and the total
 * across threads, and the per-thread table is printed at exit.
 *
 *   examples/threads [T] [PAGES]           (default 4 threads, 256 pages each)
 */
#include <perfev.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long pages = 256;

static void *worker(void *arg)
{
	(void)arg;
	perfev_region_begin("touch");
	volatile char *p = malloc((size_t)pages * 4096);
	for (long i = 0; p && i < pages; i++)
		p[i * 4096] = 1; /* one page fault per page */
	free((void *)p);
	perfev_region_end("touch");
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 4;
	if (argc > 2)
		pages = atol(argv[2]);
	struct perfev_selfmon *set = perfev_regions_default();
	if (!set) {
		fprintf(stderr, "threads: %s\n", perfev_errmsg());
		return 1;
	}
	pthread_t t[64];
	if (nthreads < 1 || nthreads > 64)
		nthreads = 4;
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);

	struct perfev_region_stats st;
	if (perfev_selfmon_region_stats(set, "touch", true, &st) == 0)
		for (size_t i = 0; i < st.nr; i++)
			printf("%-18s total %10llu over %u threads (%llu calls)\n",
			       perfev_selfmon_name(set, i), (unsigned long long)st.total[i],
			       st.threads, (unsigned long long)st.calls);
	struct perfev_selfmon_values v;
	if (perfev_selfmon_read_total(set, &v) == 0)
		printf("whole run, %u threads: %s %llu, %s %llu\n", v.threads,
		       perfev_selfmon_name(set, 0), (unsigned long long)v.scaled[0],
		       perfev_selfmon_name(set, 1), (unsigned long long)v.scaled[1]);
	return 0;
}
